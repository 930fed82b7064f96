// Reciprocal rank fusion of the vector and lexical seed lists.
#include "service/recall/seedfusion.h"

#include <QTest>

using namespace MemoryGraph;

class tst_SeedFusion : public QObject
{
    Q_OBJECT

private slots:
    void bothChannelsOutrankOne();
    void ranksAreKeptPerChannel();
    void oneListAloneScoresUpToOne();
    void tiesAreStable();
    void weightsTiltTheOrder();
    void aThirdChannelCounts();
    void conceptsCountLessThanWords();
};

void tst_SeedFusion::bothChannelsOutrankOne()
{
    // 3 is second in both lists; 1 and 2 are first in one list each and absent from the other.
    const auto fused = SeedFusion::fuse({{1, 3, 4}, {2, 3, 5}, {}, {}});
    QCOMPARE(fused.first().label, qint64(3));
    QCOMPARE(fused.size(), 5);
    QVERIFY(fused.at(0).score > fused.at(1).score);
}

void tst_SeedFusion::ranksAreKeptPerChannel()
{
    const auto fused = SeedFusion::fuse({{7, 8}, {8}, {}, {}});
    QCOMPARE(fused.first().label, qint64(8));
    QCOMPARE(fused.first().vectorRank, 2);
    QCOMPARE(fused.first().lexicalRank, 1);
    QCOMPARE(fused.last().label, qint64(7));
    QCOMPARE(fused.last().vectorRank, 1);
    QCOMPARE(fused.last().lexicalRank, 0);
}

void tst_SeedFusion::oneListAloneScoresUpToOne()
{
    const auto fused = SeedFusion::fuse({{}, {4, 5}, {}, {}});
    QCOMPARE(fused.size(), 2);
    QCOMPARE(fused.first().score, 1.0);
    QCOMPARE(fused.last().score, double(SeedFusion::kRrfK + 1) / double(SeedFusion::kRrfK + 2));
    const auto both = SeedFusion::fuse({{9}, {9}, {}, {}});
    QCOMPARE(both.first().score, 1.0);
}

void tst_SeedFusion::tiesAreStable()
{
    // 5 and 6 are first in one list each: equal scores, the smaller label first.
    const auto fused = SeedFusion::fuse({{6}, {5}, {}, {}});
    QCOMPARE(fused.at(0).label, qint64(5));
    QCOMPARE(fused.at(1).label, qint64(6));
    QCOMPARE(fused.at(0).score, fused.at(1).score);
}

void tst_SeedFusion::weightsTiltTheOrder()
{
    SeedFusion::Weights weights;
    weights.vector = SeedFusion::vectorWeightFor(QStringLiteral("local"));
    QVERIFY(weights.vector < 1.0);
    QCOMPARE(SeedFusion::vectorWeightFor(QStringLiteral("openai:text-embedding-3-small")), 1.0);
    const auto fused = SeedFusion::fuse({{6}, {5}, {}, {}}, weights);
    QCOMPARE(fused.at(0).label, qint64(5)); // the lexical first place outweighs the vector one
    QCOMPARE(fused.at(0).score, 1.0 / (1.0 + weights.vector));
}

void tst_SeedFusion::aThirdChannelCounts()
{
    const auto fused = SeedFusion::fuse({{1, 2}, {1, 2}, {2}, {}});
    QCOMPARE(fused.first().label, qint64(2));
    QCOMPARE(fused.first().timeRank, 1);
    QCOMPARE(fused.first().channels(), 3);
}

void tst_SeedFusion::conceptsCountLessThanWords()
{
    // A first place by concepts alone does not pass a first place by words...
    const auto alone = SeedFusion::fuse({{}, {1}, {}, {2}});
    QCOMPARE(alone.first().label, qint64(1));
    QCOMPARE(alone.last().conceptRank, 1);
    QCOMPARE(alone.last().score, SeedFusion::kConceptWeight / (1.0 + SeedFusion::kConceptWeight));
    // ...but settles a tie between two word matches.
    const auto tie = SeedFusion::fuse({{}, {3, 4}, {}, {4}});
    QCOMPARE(tie.first().label, qint64(4));
    QCOMPARE(tie.first().channels(), 2);
}

QTEST_GUILESS_MAIN(tst_SeedFusion)
#include "tst_seedfusion.moc"
