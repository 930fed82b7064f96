#include "service/embedding/wordconcepts.h"

#include <QSet>
#include <QTest>

using namespace MemoryGraph;

namespace {

/// depth of the concept in `concepts`, -1 when absent.
int depthOf(const QVector<WordConcepts::Concept> &concepts, int id)
{
    for (const WordConcepts::Concept &c : concepts) {
        if (c.id == id)
            return c.depth;
    }
    return -1;
}

/// The nearest concept two words share, as (depth in a, depth in b); (-1, -1) when none.
QPair<int, int> nearestShared(const QString &a, const QString &b)
{
    const QVector<WordConcepts::Concept> ca = WordConcepts::of(a);
    const QVector<WordConcepts::Concept> cb = WordConcepts::of(b);
    QPair<int, int> best{-1, -1};
    for (const WordConcepts::Concept &c : ca) {
        const int other = depthOf(cb, c.id);
        if (other >= 0 && (best.first < 0 || c.depth + other < best.first + best.second))
            best = {c.depth, other};
    }
    return best;
}

} // namespace

class tst_WordConcepts : public QObject
{
    Q_OBJECT
private slots:
    void theTableIsCompiledIn();
    void relatedWordsShareAConcept_data();
    void relatedWordsShareAConcept();
    void inflectedFormsFindTheirBaseForm_data();
    void inflectedFormsFindTheirBaseForm();
    void eachConceptOnceAtItsNearestDepth();
    void unknownWordsHaveNone();
};

void tst_WordConcepts::theTableIsCompiledIn()
{
    // WordNet 3.0 has 82,115 noun and 13,767 verb synsets.
    QCOMPARE(WordConcepts::synsetCount(), 82115 + 13767);
}

void tst_WordConcepts::relatedWordsShareAConcept_data()
{
    QTest::addColumn<QString>("a");
    QTest::addColumn<QString>("b");
    QTest::addColumn<int>("depthInA");
    QTest::addColumn<int>("depthInB");
    // synonyms share a sense; a kind of thing meets the kind it belongs to higher up.
    QTest::newRow("synonyms") << "car"
                              << "automobile" << 0 << 0;
    QTest::newRow("kind of") << "cat"
                             << "feline" << 1 << 0;
    QTest::newRow("four levels") << "gecko"
                                 << "reptile" << 4 << 0;
    QTest::newRow("verbs") << "purchase"
                           << "buy" << 0 << 0;
}

void tst_WordConcepts::relatedWordsShareAConcept()
{
    QFETCH(QString, a);
    QFETCH(QString, b);
    QFETCH(int, depthInA);
    QFETCH(int, depthInB);
    QCOMPARE(nearestShared(a, b), qMakePair(depthInA, depthInB));
}

void tst_WordConcepts::inflectedFormsFindTheirBaseForm_data()
{
    QTest::addColumn<QString>("inflected");
    QTest::addColumn<QString>("base");
    QTest::newRow("plural") << "cats"
                            << "cat";
    QTest::newRow("-ies") << "bunnies"
                          << "bunny";
    QTest::newRow("-es") << "boxes"
                         << "box";
    QTest::newRow("irregular noun") << "mice"
                                    << "mouse";
    QTest::newRow("irregular verb") << "went"
                                    << "go";
    QTest::newRow("-ing, e dropped") << "taking"
                                     << "take";
}

void tst_WordConcepts::inflectedFormsFindTheirBaseForm()
{
    QFETCH(QString, inflected);
    QFETCH(QString, base);
    const QVector<WordConcepts::Concept> expected = WordConcepts::of(base);
    QVERIFY(!expected.isEmpty());
    QSet<int> got;
    for (const WordConcepts::Concept &c : WordConcepts::of(inflected))
        got.insert(c.id);
    for (const WordConcepts::Concept &c : expected)
        QVERIFY2(got.contains(c.id), qPrintable(QStringLiteral("concept %1").arg(c.id)));
}

void tst_WordConcepts::eachConceptOnceAtItsNearestDepth()
{
    const QVector<WordConcepts::Concept> concepts = WordConcepts::of(QStringLiteral("dog"));
    QVERIFY(!concepts.isEmpty());
    QSet<int> ids;
    int lastDepth = 0;
    for (const WordConcepts::Concept &c : concepts) {
        QVERIFY(!ids.contains(c.id));
        ids.insert(c.id);
        QVERIFY(c.depth >= lastDepth && c.depth <= WordConcepts::kMaxDepth);
        lastDepth = c.depth;
    }
    QCOMPARE(concepts.first().depth, 0);
}

void tst_WordConcepts::unknownWordsHaveNone()
{
    QVERIFY(WordConcepts::of(QStringLiteral("xqzzyv")).isEmpty());
    QVERIFY(WordConcepts::of(QString()).isEmpty());
    QVERIFY(WordConcepts::of(QStringLiteral("Cat")).isEmpty()); // callers fold case first
}

QTEST_GUILESS_MAIN(tst_WordConcepts)
#include "tst_wordconcepts.moc"
