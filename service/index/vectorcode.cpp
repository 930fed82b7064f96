#include "service/index/vectorcode.h"

#include "service/index/vectorscorer.h"

#include <algorithm>
#include <cmath>
#include <cstring>

namespace MemoryGraph::VectorCode {

namespace {

constexpr qsizetype kHeader = qsizetype(sizeof(float)); // the scale, then the bytes
constexpr float kLevels = 127.0f;

float scaleOf(const char *code)
{
    float scale = 0;
    std::memcpy(&scale, code, sizeof(scale));
    return scale;
}

const qint8 *bytesOf(const char *code)
{
    return reinterpret_cast<const qint8 *>(code + kHeader);
}

} // namespace

QByteArray encode(const float *unit, qsizetype dimension)
{
    if (dimension <= 0)
        return {};
    float largest = 0;
    for (qsizetype i = 0; i < dimension; ++i)
        largest = std::max(largest, std::fabs(unit[i]));
    // Each dimension on its own grid of 255 levels spanning the largest component.
    const float scale = largest > 0 ? largest / kLevels : 1.0f;
    QByteArray code(kHeader + dimension, Qt::Uninitialized);
    std::memcpy(code.data(), &scale, sizeof(scale));
    auto *bytes = reinterpret_cast<qint8 *>(code.data() + kHeader);
    for (qsizetype i = 0; i < dimension; ++i)
        bytes[i] = qint8(std::lround(unit[i] / scale));
    return code;
}

qsizetype dimension(const QByteArray &code)
{
    return code.size() > kHeader ? code.size() - kHeader : 0;
}

float approximateDot(const QByteArray &a, const QByteArray &b)
{
    Q_ASSERT(dimension(a) == dimension(b));
    return approximateDot(a.constData(), b.constData(), dimension(a));
}

float approximateDot(const char *a, const char *b, qsizetype dimension)
{
    return scaleOf(a) * scaleOf(b)
           * float(VectorScorer::dotInt8(bytesOf(a), bytesOf(b), dimension));
}

} // namespace MemoryGraph::VectorCode
