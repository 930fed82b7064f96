#include "tests/benchmark/clustereddata.h"

#include <algorithm>
#include <charconv>
#include <cmath>

namespace MemoryGraph::Bench {

namespace {

std::uint64_t splitmix64(std::uint64_t &state)
{
    std::uint64_t z = (state += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

std::uint64_t rotl(std::uint64_t x, int k)
{
    return (x << k) | (x >> (64 - k));
}

/// Independent stream per (seed, purpose, index).
std::uint64_t streamSeed(std::uint64_t seed, std::uint64_t purpose, std::uint64_t index)
{
    std::uint64_t s = seed ^ (purpose * 0xD1B54A32D192ED03ULL);
    splitmix64(s);
    s ^= index * 0x9E3779B97F4A7C15ULL;
    return splitmix64(s);
}

void normalise(float *v, int dimension)
{
    double sum = 0.0;
    for (int j = 0; j < dimension; ++j)
        sum += double(v[j]) * double(v[j]);
    const double scale = sum > 0.0 ? 1.0 / std::sqrt(sum) : 0.0;
    for (int j = 0; j < dimension; ++j)
        v[j] = float(double(v[j]) * scale);
}

constexpr double kTwoPi = 6.283185307179586476925286766559;
constexpr std::uint64_t kPurposeCentre = 1;
constexpr std::uint64_t kPurposeNode = 2;

} // namespace

Rng::Rng(std::uint64_t seed)
{
    std::uint64_t state = seed;
    for (auto &word : m_s)
        word = splitmix64(state);
}

std::uint64_t Rng::next()
{
    const std::uint64_t result = rotl(m_s[1] * 5, 7) * 9;
    const std::uint64_t t = m_s[1] << 17;
    m_s[2] ^= m_s[0];
    m_s[3] ^= m_s[1];
    m_s[1] ^= m_s[2];
    m_s[0] ^= m_s[3];
    m_s[2] ^= t;
    m_s[3] = rotl(m_s[3], 45);
    return result;
}

double Rng::uniform()
{
    return double(next() >> 11) * (1.0 / 9007199254740992.0);
}

std::uint64_t Rng::below(std::uint64_t bound)
{
    return bound == 0 ? 0 : next() % bound;
}

double Rng::gaussian()
{
    if (m_hasSpare) {
        m_hasSpare = false;
        return m_spare;
    }
    double u1 = uniform();
    while (u1 <= 0.0)
        u1 = uniform();
    const double u2 = uniform();
    const double radius = std::sqrt(-2.0 * std::log(u1));
    const double angle = kTwoPi * u2;
    m_spare = radius * std::sin(angle);
    m_hasSpare = true;
    return radius * std::cos(angle);
}

ClusteredData::ClusteredData(std::uint64_t seed, qint64 count, int dimension, int clusterSize,
                             double noise)
    : m_seed(seed), m_count(count), m_dimension(dimension),
      m_clusters(int(std::max<qint64>(1, count / std::max(1, clusterSize)))), m_noise(noise)
{
    m_centres.resize(size_t(m_clusters) * size_t(m_dimension));
    for (int c = 0; c < m_clusters; ++c) {
        Rng rng(streamSeed(m_seed, kPurposeCentre, std::uint64_t(c)));
        float *row = m_centres.data() + size_t(c) * size_t(m_dimension);
        for (int j = 0; j < m_dimension; ++j)
            row[j] = float(rng.gaussian());
        normalise(row, m_dimension);
    }
}

int ClusteredData::clusterOf(qint64 i) const
{
    Rng rng(streamSeed(m_seed, kPurposeNode, std::uint64_t(i)));
    return int(rng.below(std::uint64_t(m_clusters)));
}

void ClusteredData::node(qint64 i, float *out) const
{
    // The first draw picks the cluster (same as clusterOf), the rest is the noise.
    Rng rng(streamSeed(m_seed, kPurposeNode, std::uint64_t(i)));
    const int cluster = int(rng.below(std::uint64_t(m_clusters)));
    const float *centre = m_centres.data() + size_t(cluster) * size_t(m_dimension);
    const double sigma = m_noise / std::sqrt(double(m_dimension));
    for (int j = 0; j < m_dimension; ++j)
        out[j] = float(double(centre[j]) + sigma * rng.gaussian());
    normalise(out, m_dimension);
}

int ClusteredData::query(Rng &rng, double queryNoise, float *out) const
{
    const int cluster = int(rng.below(std::uint64_t(m_clusters)));
    const float *centre = m_centres.data() + size_t(cluster) * size_t(m_dimension);
    const double sigma = queryNoise / std::sqrt(double(m_dimension));
    for (int j = 0; j < m_dimension; ++j)
        out[j] = float(double(centre[j]) + sigma * rng.gaussian());
    normalise(out, m_dimension);
    return cluster;
}

void appendJsonFloats(QByteArray &out, const float *values, int count)
{
    out.append('[');
    char buffer[32];
    for (int j = 0; j < count; ++j) {
        if (j > 0)
            out.append(',');
        const auto result = std::to_chars(buffer, buffer + sizeof(buffer), values[j]);
        out.append(buffer, qsizetype(result.ptr - buffer));
    }
    out.append(']');
}

} // namespace MemoryGraph::Bench
