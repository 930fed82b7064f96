#pragma once

#include <QByteArray>
#include <QVector>

#include <cmath>
#include <cstring>

namespace MemoryGraph::VectorMath {

/// Dot product with several accumulators so the compiler can vectorise without -ffast-math.
inline float dot(const float *a, const float *b, int n)
{
    float acc[8] = {0, 0, 0, 0, 0, 0, 0, 0};
    int i = 0;
    for (; i + 8 <= n; i += 8) {
        for (int j = 0; j < 8; ++j)
            acc[j] += a[i + j] * b[i + j];
    }
    float sum = 0;
    for (float v : acc)
        sum += v;
    for (; i < n; ++i)
        sum += a[i] * b[i];
    return sum;
}

inline float norm(const float *a, int n)
{
    return std::sqrt(dot(a, a, n));
}

/// Cosine similarity; 0 when either vector is zero.
inline float cosine(const float *a, const float *b, int n)
{
    const float na = norm(a, n);
    const float nb = norm(b, n);
    return (na == 0 || nb == 0) ? 0.0f : dot(a, b, n) / (na * nb);
}

inline QVector<float> fromBytes(const QByteArray &bytes)
{
    QVector<float> v(int(bytes.size() / qsizetype(sizeof(float))));
    std::memcpy(v.data(), bytes.constData(), size_t(v.size()) * sizeof(float));
    return v;
}

inline QByteArray toBytes(const QVector<float> &v)
{
    return QByteArray(reinterpret_cast<const char *>(v.constData()),
                      qsizetype(v.size()) * qsizetype(sizeof(float)));
}

} // namespace MemoryGraph::VectorMath
