#include "service/index/vectorscorer.h"

// The AVX2/FMA kernels are compiled for that instruction set with a function attribute and
// only called after a runtime CPU check, so the rest of the binary keeps the baseline ISA.
// MSVC compiles these intrinsics in any function without /arch, so it needs no attribute (and
// C4752 only suggests /arch:AVX, which would raise the baseline of the whole file); the same
// runtime check guards them. Other compilers and CPUs get the portable kernels.
#if (defined(__GNUC__) || defined(__clang__)) && (defined(__x86_64__) || defined(__i386__))
#define MEMORYGRAPH_SCORER_X86 1
#include <immintrin.h>
#define MEMORYGRAPH_TARGET_AVX2 __attribute__((target("avx2,fma")))
#define MEMORYGRAPH_TARGET_AVX2_INT __attribute__((target("avx2")))
#define MEMORYGRAPH_TARGET_VNNI __attribute__((target("avx512f,avx512bw,avx512vnni")))
#elif defined(_MSC_VER) && defined(_M_X64)
#define MEMORYGRAPH_SCORER_X86 1
#include <immintrin.h>
#include <intrin.h>
#pragma warning(disable : 4752)
#define MEMORYGRAPH_TARGET_AVX2
#define MEMORYGRAPH_TARGET_AVX2_INT
#define MEMORYGRAPH_TARGET_VNNI
#else
#define MEMORYGRAPH_SCORER_X86 0
#endif

namespace MemoryGraph::VectorScorer {

namespace {

constexpr int kRowsPerPass = 4; // rows scored together, sharing each load of the query

// ---- portable -------------------------------------------------------------------------------

/// Eight independent sums so the compiler can vectorise without -ffast-math.
float portableDot(const float *a, const float *b, qsizetype n)
{
    float acc[8] = {0, 0, 0, 0, 0, 0, 0, 0};
    qsizetype i = 0;
    for (; i + 8 <= n; i += 8) {
        for (int j = 0; j < 8; ++j)
            acc[j] += a[i + j] * b[i + j];
    }
    float sum = ((acc[0] + acc[4]) + (acc[1] + acc[5])) + ((acc[2] + acc[6]) + (acc[3] + acc[7]));
    for (; i < n; ++i)
        sum += a[i] * b[i];
    return sum;
}

qint32 portableDotInt8(const qint8 *a, const qint8 *b, qsizetype n)
{
    qint32 sum = 0;
    for (qsizetype i = 0; i < n; ++i)
        sum += qint32(a[i]) * qint32(b[i]);
    return sum;
}

void portableDotMany(const float *query, const float *rows, qsizetype rowCount, qsizetype dim,
                     float *scores)
{
    for (qsizetype r = 0; r < rowCount; ++r)
        scores[r] = portableDot(query, rows + r * dim, dim);
}

// ---- AVX2 + FMA -----------------------------------------------------------------------------

#if MEMORYGRAPH_SCORER_X86

MEMORYGRAPH_TARGET_AVX2 inline float horizontalSum(__m256 v)
{
    __m128 sum = _mm_add_ps(_mm256_castps256_ps128(v), _mm256_extractf128_ps(v, 1));
    sum = _mm_add_ps(sum, _mm_movehl_ps(sum, sum));
    sum = _mm_add_ss(sum, _mm_movehdup_ps(sum));
    return _mm_cvtss_f32(sum);
}

MEMORYGRAPH_TARGET_AVX2 float avx2Dot(const float *a, const float *b, qsizetype n)
{
    __m256 acc0 = _mm256_setzero_ps();
    __m256 acc1 = _mm256_setzero_ps();
    __m256 acc2 = _mm256_setzero_ps();
    __m256 acc3 = _mm256_setzero_ps();
    qsizetype i = 0;
    for (; i + 32 <= n; i += 32) {
        acc0 = _mm256_fmadd_ps(_mm256_loadu_ps(a + i), _mm256_loadu_ps(b + i), acc0);
        acc1 = _mm256_fmadd_ps(_mm256_loadu_ps(a + i + 8), _mm256_loadu_ps(b + i + 8), acc1);
        acc2 = _mm256_fmadd_ps(_mm256_loadu_ps(a + i + 16), _mm256_loadu_ps(b + i + 16), acc2);
        acc3 = _mm256_fmadd_ps(_mm256_loadu_ps(a + i + 24), _mm256_loadu_ps(b + i + 24), acc3);
    }
    for (; i + 8 <= n; i += 8)
        acc0 = _mm256_fmadd_ps(_mm256_loadu_ps(a + i), _mm256_loadu_ps(b + i), acc0);
    float sum = horizontalSum(_mm256_add_ps(_mm256_add_ps(acc0, acc1), _mm256_add_ps(acc2, acc3)));
    for (; i < n; ++i)
        sum += a[i] * b[i];
    return sum;
}

/// Four rows at a time: one load of the query feeds four FMAs.
MEMORYGRAPH_TARGET_AVX2 void avx2DotFour(const float *query, const float *rows, qsizetype dim,
                                         float *scores)
{
    const float *r0 = rows;
    const float *r1 = rows + dim;
    const float *r2 = rows + 2 * dim;
    const float *r3 = rows + 3 * dim;
    __m256 acc0 = _mm256_setzero_ps();
    __m256 acc1 = _mm256_setzero_ps();
    __m256 acc2 = _mm256_setzero_ps();
    __m256 acc3 = _mm256_setzero_ps();
    qsizetype i = 0;
    for (; i + 8 <= dim; i += 8) {
        const __m256 q = _mm256_loadu_ps(query + i);
        acc0 = _mm256_fmadd_ps(q, _mm256_loadu_ps(r0 + i), acc0);
        acc1 = _mm256_fmadd_ps(q, _mm256_loadu_ps(r1 + i), acc1);
        acc2 = _mm256_fmadd_ps(q, _mm256_loadu_ps(r2 + i), acc2);
        acc3 = _mm256_fmadd_ps(q, _mm256_loadu_ps(r3 + i), acc3);
    }
    float s0 = horizontalSum(acc0), s1 = horizontalSum(acc1);
    float s2 = horizontalSum(acc2), s3 = horizontalSum(acc3);
    for (; i < dim; ++i) {
        s0 += query[i] * r0[i];
        s1 += query[i] * r1[i];
        s2 += query[i] * r2[i];
        s3 += query[i] * r3[i];
    }
    scores[0] = s0;
    scores[1] = s1;
    scores[2] = s2;
    scores[3] = s3;
}

MEMORYGRAPH_TARGET_AVX2 void avx2DotMany(const float *query, const float *rows, qsizetype rowCount,
                                         qsizetype dim, float *scores)
{
    qsizetype r = 0;
    for (; r + kRowsPerPass <= rowCount; r += kRowsPerPass)
        avx2DotFour(query, rows + r * dim, dim, scores + r);
    for (; r < rowCount; ++r)
        scores[r] = avx2Dot(query, rows + r * dim, dim);
}

/// The sum of eight 32-bit lanes. AVX2 only, so the AVX-512 kernel can use it too.
MEMORYGRAPH_TARGET_AVX2_INT inline qint32 horizontalSum(__m256i v)
{
    __m128i sum = _mm_add_epi32(_mm256_castsi256_si128(v), _mm256_extracti128_si256(v, 1));
    sum = _mm_add_epi32(sum, _mm_shuffle_epi32(sum, _MM_SHUFFLE(1, 0, 3, 2)));
    sum = _mm_add_epi32(sum, _mm_shuffle_epi32(sum, _MM_SHUFFLE(2, 3, 0, 1)));
    return _mm_cvtsi128_si32(sum);
}

/// 32 bytes a step: widened to 16-bit, multiplied and summed in pairs into 32-bit lanes (a
/// pair sums to at most 2 * 127 * 127, far from overflowing over 1536 dimensions).
MEMORYGRAPH_TARGET_AVX2 qint32 avx2DotInt8(const qint8 *a, const qint8 *b, qsizetype n)
{
    __m256i acc0 = _mm256_setzero_si256();
    __m256i acc1 = _mm256_setzero_si256();
    qsizetype i = 0;
    for (; i + 32 <= n; i += 32) {
        const __m256i va = _mm256_loadu_si256(reinterpret_cast<const __m256i *>(a + i));
        const __m256i vb = _mm256_loadu_si256(reinterpret_cast<const __m256i *>(b + i));
        const __m256i aLow = _mm256_cvtepi8_epi16(_mm256_castsi256_si128(va));
        const __m256i bLow = _mm256_cvtepi8_epi16(_mm256_castsi256_si128(vb));
        const __m256i aHigh = _mm256_cvtepi8_epi16(_mm256_extracti128_si256(va, 1));
        const __m256i bHigh = _mm256_cvtepi8_epi16(_mm256_extracti128_si256(vb, 1));
        acc0 = _mm256_add_epi32(acc0, _mm256_madd_epi16(aLow, bLow));
        acc1 = _mm256_add_epi32(acc1, _mm256_madd_epi16(aHigh, bHigh));
    }
    const __m256i acc = _mm256_add_epi32(acc0, acc1);
    qint32 total = horizontalSum(acc);
    for (; i < n; ++i)
        total += qint32(a[i]) * qint32(b[i]);
    return total;
}

// ---- AVX-512 VNNI (signed bytes only) ------------------------------------------------------

/// vpdpbusd multiplies unsigned by signed bytes, so a is shifted to a + 128 (its sign bit
/// flipped) and 128 * sum(b), summed alongside by the same instruction, is taken off.
MEMORYGRAPH_TARGET_VNNI qint32 vnniDotInt8(const qint8 *a, const qint8 *b, qsizetype n)
{
    const __m512i k128 = _mm512_set1_epi8(char(-128)); // 0x80: a's sign bit, and 128 as unsigned
    __m512i products = _mm512_setzero_si512();
    __m512i correction = _mm512_setzero_si512();
    qsizetype i = 0;
    for (; i + 64 <= n; i += 64) {
        const __m512i va = _mm512_loadu_si512(a + i);
        const __m512i vb = _mm512_loadu_si512(b + i);
        products = _mm512_dpbusd_epi32(products, _mm512_xor_si512(va, k128), vb);
        correction = _mm512_dpbusd_epi32(correction, k128, vb);
    }
    // Zero-masked extract: GCC 12's unmasked 512-bit intrinsics trip -Wuninitialized.
    const __m512i folded = _mm512_sub_epi32(products, correction);
    const __m256i half = _mm256_add_epi32(_mm512_maskz_extracti64x4_epi64(0xFF, folded, 0),
                                          _mm512_maskz_extracti64x4_epi64(0xFF, folded, 1));
    qint32 total = horizontalSum(half);
    for (; i < n; ++i)
        total += qint32(a[i]) * qint32(b[i]);
    return total;
}

#ifdef _MSC_VER

/// CPUID says what the processor has; XCR0 says which register states the OS saves.
bool cpuHasAvx2Fma()
{
    int info[4] = {};
    __cpuid(info, 0);
    if (info[0] < 7)
        return false;
    __cpuid(info, 1);
    const bool fma = (info[2] & (1 << 12)) != 0;
    const bool osxsave = (info[2] & (1 << 27)) != 0;
    const bool avx = (info[2] & (1 << 28)) != 0;
    if (!fma || !osxsave || !avx || (_xgetbv(0) & 0x6) != 0x6) // XMM and YMM state
        return false;
    __cpuidex(info, 7, 0);
    return (info[1] & (1 << 5)) != 0; // EBX: AVX2
}

bool cpuHasVnni()
{
    if (!cpuHasAvx2Fma() || (_xgetbv(0) & 0xE6) != 0xE6) // plus opmask and all of ZMM
        return false;
    int info[4] = {};
    __cpuidex(info, 7, 0);
    const bool f = (info[1] & (1 << 16)) != 0;    // EBX: AVX512F
    const bool bw = (info[1] & (1 << 30)) != 0;   // EBX: AVX512BW
    const bool vnni = (info[2] & (1 << 11)) != 0; // ECX: AVX512_VNNI
    return f && bw && vnni;
}

#else

bool cpuHasAvx2Fma()
{
    __builtin_cpu_init();
    return __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
}

bool cpuHasVnni()
{
    __builtin_cpu_init();
    return __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw")
           && __builtin_cpu_supports("avx512vnni");
}

#endif

#else

bool cpuHasAvx2Fma()
{
    return false;
}

bool cpuHasVnni()
{
    return false;
}

#endif

Kernel detectKernel()
{
    return cpuHasAvx2Fma() ? Kernel::Avx2Fma : Kernel::Portable;
}

} // namespace

Kernel activeKernel()
{
    static const Kernel kernel = detectKernel();
    return kernel;
}

bool supported(Kernel kernel)
{
    return kernel == Kernel::Portable || activeKernel() == Kernel::Avx2Fma;
}

const char *kernelName(Kernel kernel)
{
    return kernel == Kernel::Avx2Fma ? "avx2+fma" : "portable";
}

float dot(Kernel kernel, const float *a, const float *b, qsizetype n)
{
#if MEMORYGRAPH_SCORER_X86
    if (kernel == Kernel::Avx2Fma && supported(kernel))
        return avx2Dot(a, b, n);
#endif
    Q_UNUSED(kernel);
    return portableDot(a, b, n);
}

float dot(const float *a, const float *b, qsizetype n)
{
    return dot(activeKernel(), a, b, n);
}

DotFunction dotFunction()
{
#if MEMORYGRAPH_SCORER_X86
    if (activeKernel() == Kernel::Avx2Fma)
        return &avx2Dot;
#endif
    return &portableDot;
}

Int8Kernel activeInt8Kernel()
{
    static const Int8Kernel kernel = cpuHasVnni()      ? Int8Kernel::Avx512Vnni
                                     : cpuHasAvx2Fma() ? Int8Kernel::Avx2
                                                       : Int8Kernel::Portable;
    return kernel;
}

bool supported(Int8Kernel kernel)
{
    switch (kernel) {
    case Int8Kernel::Portable: return true;
    case Int8Kernel::Avx2: return cpuHasAvx2Fma();
    case Int8Kernel::Avx512Vnni: return cpuHasVnni();
    }
    return false;
}

qint32 dotInt8(Int8Kernel kernel, const qint8 *a, const qint8 *b, qsizetype n)
{
#if MEMORYGRAPH_SCORER_X86
    if (kernel == Int8Kernel::Avx512Vnni && supported(kernel))
        return vnniDotInt8(a, b, n);
    if (kernel == Int8Kernel::Avx2 && supported(kernel))
        return avx2DotInt8(a, b, n);
#endif
    Q_UNUSED(kernel);
    return portableDotInt8(a, b, n);
}

qint32 dotInt8(const qint8 *a, const qint8 *b, qsizetype n)
{
    return dotInt8(activeInt8Kernel(), a, b, n);
}

void dotMany(Kernel kernel, const float *query, const float *rows, qsizetype rowCount,
             qsizetype dim, float *scores)
{
#if MEMORYGRAPH_SCORER_X86
    if (kernel == Kernel::Avx2Fma && supported(kernel)) {
        avx2DotMany(query, rows, rowCount, dim, scores);
        return;
    }
#endif
    Q_UNUSED(kernel);
    portableDotMany(query, rows, rowCount, dim, scores);
}

void dotMany(const float *query, const float *rows, qsizetype rowCount, qsizetype dim,
             float *scores)
{
    dotMany(activeKernel(), query, rows, rowCount, dim, scores);
}

} // namespace MemoryGraph::VectorScorer
