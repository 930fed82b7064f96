#pragma once

#include <QByteArray>
#include <QtGlobal>

#include <cstdint>
#include <vector>

namespace MemoryGraph::Bench {

/// xoshiro256** seeded through splitmix64: fast, and the same stream on every platform
/// (std::normal_distribution is not specified bit-for-bit, this is).
class Rng
{
public:
    explicit Rng(std::uint64_t seed);

    std::uint64_t next();
    /// Uniform in [0, 1).
    double uniform();
    /// Uniform integer in [0, bound).
    std::uint64_t below(std::uint64_t bound);
    /// Standard normal (Box-Muller; the second value of each pair is kept for the next call).
    double gaussian();

private:
    std::uint64_t m_s[4];
    double m_spare = 0.0;
    bool m_hasSpare = false;
};

/// Synthetic clustered embeddings: count / clusterSize random unit centres; node i belongs to a
/// cluster picked from its own seed and is its centre plus gaussian noise, L2-normalised.
/// Every node is regenerated on demand from (seed, i), so nothing of size count x dimension is
/// ever held unless the caller asks for it.
///
/// Geometry: the noise vector has expected norm `noise` (per-coordinate sigma noise/sqrt(dim)),
/// so with noise = 1 a node's cosine to its centre is about 0.71, two nodes of the same cluster
/// about 0.5, and nodes of different clusters about 0. Uniform random 1536-d data would make
/// every neighbour equally far and an ANN recall figure meaningless.
class ClusteredData
{
public:
    ClusteredData(std::uint64_t seed, qint64 count, int dimension = 1536, int clusterSize = 50,
                  double noise = 1.0);

    int dimension() const { return m_dimension; }
    int clusters() const { return m_clusters; }
    qint64 count() const { return m_count; }
    double noise() const { return m_noise; }

    /// The cluster node i belongs to (defined for any i >= 0, also beyond count()).
    int clusterOf(qint64 i) const;
    /// Writes node i's unit vector (dimension() floats) to out.
    void node(qint64 i, float *out) const;
    /// A query near a random cluster centre: centre plus noise of norm queryNoise, normalised.
    /// Returns the cluster.
    int query(Rng &rng, double queryNoise, float *out) const;

private:
    std::uint64_t m_seed;
    qint64 m_count;
    int m_dimension;
    int m_clusters;
    double m_noise;
    std::vector<float> m_centres; // clusters x dimension, unit rows
};

/// Appends the JSON array of values (shortest round-trip float text) to out.
void appendJsonFloats(QByteArray &out, const float *values, int count);

} // namespace MemoryGraph::Bench
