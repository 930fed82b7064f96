// Embeddings are stored and searched as float32: a JSON number that is finite as a double but
// beyond float32 (1e39) must be refused with the element named, never turned into infinity.

#include "service/api/recallrequest.h"
#include "service/api/writerequest.h"
#include "service/core/vocabulary.h"

#include <QJsonArray>
#include <QJsonObject>
#include <QTest>

#include <algorithm>
#include <cfloat>
#include <cmath>

using namespace MemoryGraph;

namespace {

/// A valid embedding whose element `index` is replaced by `value`.
QJsonArray embeddingWith(int index, double value)
{
    QJsonArray a;
    for (int i = 0; i < Vocabulary::kEmbeddingDimension; ++i)
        a.append(i == index ? value : 0.25);
    return a;
}

QJsonObject recallBody(const QJsonArray &embedding)
{
    return {{QStringLiteral("query_embedding"), embedding}};
}

QJsonObject writeBodyWith(const QJsonArray &embedding)
{
    const QJsonObject plain{{QStringLiteral("type"), QStringLiteral("event")},
                            {QStringLiteral("text_summary"), QStringLiteral("plain")}};
    QJsonObject withVector = plain;
    withVector.insert(QStringLiteral("embedding"), embedding);
    return {{QStringLiteral("input_text"), QStringLiteral("x")},
            {QStringLiteral("nodes"), QJsonArray{plain, withVector}}};
}

QString issuePath(const Error &error)
{
    return error.details.value(QStringLiteral("issues"))
        .toArray()
        .first()
        .toObject()
        .value(QStringLiteral("path"))
        .toString();
}

} // namespace

class tst_Float32Range : public QObject
{
    Q_OBJECT

private slots:
    void recallRefusesOutOfRange_data() { outOfRangeRows(); }
    void recallRefusesOutOfRange();
    void writeRefusesOutOfRange_data() { outOfRangeRows(); }
    void writeRefusesOutOfRange();
    void extremesThatFitAreKept();

private:
    static void outOfRangeRows();
};

void tst_Float32Range::outOfRangeRows()
{
    QTest::addColumn<int>("index");
    QTest::addColumn<double>("value");
    QTest::newRow("1e39") << 3 << 1e39;
    QTest::newRow("-1e39") << 5 << -1e39;
    QTest::newRow("just above FLT_MAX") << 0 << std::nextafter(double(FLT_MAX), 1e300);
    QTest::newRow("1e308") << Vocabulary::kEmbeddingDimension - 1 << 1e308;
}

void tst_Float32Range::recallRefusesOutOfRange()
{
    QFETCH(int, index);
    QFETCH(double, value);
    const auto r = RecallRequest::fromJson(recallBody(embeddingWith(index, value)), false, 4096);
    QVERIFY(!r.ok());
    QCOMPARE(r.error().status, 400);
    QCOMPARE(r.error().code, QStringLiteral("invalid_request"));
    QCOMPARE(issuePath(r.error()), QStringLiteral("query_embedding[%1]").arg(index));
    QVERIFY2(r.error().message.contains(QStringLiteral("float32")), qPrintable(r.error().message));
}

void tst_Float32Range::writeRefusesOutOfRange()
{
    QFETCH(int, index);
    QFETCH(double, value);
    const auto r = WriteRequest::fromJson(writeBodyWith(embeddingWith(index, value)));
    QVERIFY(!r.ok());
    QCOMPARE(r.error().status, 400);
    QCOMPARE(r.error().code, QStringLiteral("invalid_request"));
    QCOMPARE(issuePath(r.error()), QStringLiteral("nodes[1].embedding[%1]").arg(index));
}

void tst_Float32Range::extremesThatFitAreKept()
{
    const double largest = double(FLT_MAX);
    const auto recall
        = RecallRequest::fromJson(recallBody(embeddingWith(2, -largest)), false, 4096);
    QVERIFY2(recall.ok(), recall.ok() ? "" : qPrintable(recall.error().message));
    QCOMPARE(recall.value().queryEmbedding.at(2), -FLT_MAX);

    // Below float32's smallest magnitude a value rounds to zero: finite, so accepted.
    const auto write = WriteRequest::fromJson(writeBodyWith(embeddingWith(7, 1e-50)));
    QVERIFY2(write.ok(), write.ok() ? "" : qPrintable(write.error().message));
    const QVector<float> stored = write.value().nodes.at(1).embedding;
    QCOMPARE(stored.size(), Vocabulary::kEmbeddingDimension);
    QVERIFY(std::all_of(stored.begin(), stored.end(), [](float f) { return std::isfinite(f); }));
    QCOMPARE(stored.at(0), 0.25f);
}

QTEST_GUILESS_MAIN(tst_Float32Range)
#include "tst_float32range.moc"
