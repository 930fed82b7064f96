#pragma once

#include <QtGlobal>

namespace MemoryGraph::VectorScorer {

/// The dot-product kernels. The best one the running CPU supports is chosen once, at first
/// use, so one packaged binary runs everywhere and still uses AVX2/FMA where it can.
enum class Kernel { Portable, Avx2Fma };

/// The kernel dot() and dotMany() use on this CPU.
Kernel activeKernel();
/// Whether this CPU (and this build) can run the kernel.
bool supported(Kernel kernel);
const char *kernelName(Kernel kernel);

/// Dot product of two runs of n floats.
float dot(const float *a, const float *b, qsizetype n);
float dot(Kernel kernel, const float *a, const float *b, qsizetype n);

/// The kernel's dot product as a plain function pointer, for callers that take one (hnswlib's
/// distance functions): no dispatch per call.
using DotFunction = float (*)(const float *a, const float *b, qsizetype n);
DotFunction dotFunction();

/// scores[i] = dot(query, rows + i * dim) for every row of a contiguous block: the exact scan
/// over vectors stored back to back (several rows per pass share each load of the query).
void dotMany(const float *query, const float *rows, qsizetype rowCount, qsizetype dim,
             float *scores);
void dotMany(Kernel kernel, const float *query, const float *rows, qsizetype rowCount,
             qsizetype dim, float *scores);

/// The signed-byte kernels, chosen apart from the float ones: AVX-512 VNNI multiplies and
/// sums 64 byte pairs an instruction, four times what AVX2 does.
enum class Int8Kernel { Portable, Avx2, Avx512Vnni };

Int8Kernel activeInt8Kernel();
bool supported(Int8Kernel kernel);

/// Dot product of two runs of n signed bytes (the quantised vectors of VectorCode).
qint32 dotInt8(const qint8 *a, const qint8 *b, qsizetype n);
qint32 dotInt8(Int8Kernel kernel, const qint8 *a, const qint8 *b, qsizetype n);

} // namespace MemoryGraph::VectorScorer
