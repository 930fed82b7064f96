#pragma once

#include <QByteArray>
#include <QtGlobal>

namespace MemoryGraph::VectorCode {

/// A unit vector as one float scale and a signed byte per dimension: a quarter of its float32
/// bytes. The backlog the index has not taken in yet is held and scanned in this form, then
/// the best candidates are scored again exactly; a dot of two codes differs from the exact
/// one by about 1e-3 on 1536 dimensions.
///
/// Empty for an empty input.
QByteArray encode(const float *unit, qsizetype dimension);

/// Dimensions of a code.
qsizetype dimension(const QByteArray &code);

/// The approximate dot product of the vectors behind two codes of the same dimension.
float approximateDot(const QByteArray &a, const QByteArray &b);
/// The same for codes stored elsewhere (CodeBlocks); `dimension` is that of both.
float approximateDot(const char *a, const char *b, qsizetype dimension);

} // namespace MemoryGraph::VectorCode
