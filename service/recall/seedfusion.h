#pragma once

#include <QString>
#include <QVector>

/// Stage 1's channels (vector similarity, lexical BM25, concept BM25 and the period a question
/// names)
/// merged into one seed order by reciprocal rank fusion: each channel adds 1 / (k + rank) for
/// the nodes it ranks. Ranks, not scores, are added, because cosines and BM25 scores live on
/// unrelated scales.
namespace MemoryGraph::SeedFusion {

/// Smaller than the customary 60: on the recall-quality corpus k = 5..20 kept more of each
/// channel's top places (tests/benchmark/README.md, "Recall quality").
constexpr int kRrfK = 10;

/// How much the concept channel's ranks count against the lexical channel's: it answers
/// questions put in other words, but a memory that merely shares broad concepts with the
/// question must not pass one that has its words (tests/benchmark/README.md, "Recall quality").
constexpr double kConceptWeight = 0.35;

/// How much each channel's ranks count.
struct Weights
{
    double vector = 1.0;
    double lexical = 1.0;
    double time = 1.0;
    double concepts = kConceptWeight;
};

/// The vector channel's weight for an embedder: the offline hashing embedders ("local",
/// "fake") are lexical themselves, so their ranks repeat the lexical channel's evidence and
/// count a quarter; a semantic model's count fully.
double vectorWeightFor(const QString &embeddingProvider);

struct Fused
{
    qint64 label = 0;
    int vectorRank = 0;  ///< 1-based; 0 = not in the vector list
    int lexicalRank = 0; ///< 1-based; 0 = not in the lexical list
    int timeRank = 0;    ///< 1-based; 0 = not in the period's list
    int conceptRank = 0; ///< 1-based; 0 = not in the concept list
    double score = 0.0;  ///< normalised: 1 for a label first in every non-empty list

    int channels() const
    {
        return (vectorRank > 0) + (lexicalRank > 0) + (timeRank > 0) + (conceptRank > 0);
    }
};

/// Each channel's labels, best first, each label at most once per list.
struct Orders
{
    QVector<qint64> vector;
    QVector<qint64> lexical;
    QVector<qint64> time;
    QVector<qint64> concepts;
};

/// The result is best first, a label found by more channels before one found by fewer at the
/// same score, then the smaller label.
QVector<Fused> fuse(const Orders &orders, const Weights &weights = {});

} // namespace MemoryGraph::SeedFusion
