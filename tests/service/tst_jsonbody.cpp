// Request bodies are parsed once, with embeddings decoded straight to float32: the result must
// read exactly as Qt's own parse of the same bytes would, and hash the same.

#include "service/api/recallrequest.h"
#include "service/api/writerequest.h"
#include "service/core/hashing.h"
#include "service/core/jsonbody.h"
#include "service/core/vocabulary.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTest>

using namespace MemoryGraph;

namespace {

constexpr int kDim = Vocabulary::kEmbeddingDimension;

QByteArray numbers(int count, const QByteArray &at5 = QByteArray())
{
    QByteArray out = "[";
    for (int i = 0; i < count; ++i) {
        if (i > 0)
            out += ',';
        out += (i == 5 && !at5.isEmpty()) ? at5 : QByteArray::number(0.001 * (i % 97) - 0.04);
    }
    return out + ']';
}

QByteArray writeBody(const QByteArray &embedding)
{
    return R"({"input_text":"t","scope":"s","nodes":[{"client_id":"a","type":"event",)"
           R"("text_summary":"one"},{"client_id":"b","type":"event","text_summary":"two",)"
           R"("embedding":)"
           + embedding + "}]}";
}

QJsonObject qtParse(const QByteArray &bytes)
{
    return QJsonDocument::fromJson(bytes).object();
}

QString issuePath(const Error &e)
{
    return e.details.value(QStringLiteral("issues"))
        .toArray()
        .at(0)
        .toObject()
        .value(QStringLiteral("path"))
        .toString();
}

} // namespace

class tst_JsonBody : public QObject
{
    Q_OBJECT

private slots:
    void readsLikeQtsParser();
    void decodesEmbeddingsByTheirPath();
    void writeRequestIsTheSameEitherWay();
    void recallTakesTheDecodedQuery();
    void aBadElementStaysForTheParserToName();
    void aStringIsNoEmbedding();
    void aRepeatedKeyKeepsTheLastValue();
    void malformedBodiesAreRefusedWithTheOffset();
};

void tst_JsonBody::readsLikeQtsParser()
{
    const QByteArray bytes = R"({"s":"é ✓ \u00e9","i":42,"neg":-7,"big":18446744073709551615,)"
                             R"("d":1.5e-3,"t":true,"f":false,"n":null,"a":[1,"x",[2,{"k":[]}]],)"
                             R"("o":{"nested":{"deep":[{"x":0.25}]}},"dup":1,"dup":2})";
    auto parsed = parseJsonBody(bytes);
    QVERIFY(parsed);
    QCOMPARE(parsed.value().object, qtParse(bytes));
    QVERIFY(parsed.value().vectors.isEmpty());
}

void tst_JsonBody::decodesEmbeddingsByTheirPath()
{
    const QByteArray bytes = writeBody(numbers(kDim));
    auto parsed = parseJsonBody(bytes);
    QVERIFY(parsed);
    const JsonBody &body = parsed.value();
    QCOMPARE(body.vectors.keys(), QStringList{QStringLiteral("nodes[1].embedding")});
    const QVector<float> &v = body.vectors.value(QStringLiteral("nodes[1].embedding"));
    QCOMPARE(v.size(), kDim);
    QCOMPARE(v.at(3), float(0.001 * 3 - 0.04));
    // In the object the array stands as its digest.
    const QJsonValue stands = body.object.value(QStringLiteral("nodes"))
                                  .toArray()
                                  .at(1)
                                  .toObject()
                                  .value(QStringLiteral("embedding"));
    QCOMPARE(stands.toString(), embeddingDigest(v));
    QVERIFY(stands.toString().startsWith(QStringLiteral("float32-sha256:")));
}

void tst_JsonBody::writeRequestIsTheSameEitherWay()
{
    const QByteArray bytes = writeBody(numbers(kDim));
    auto parsed = parseJsonBody(bytes);
    QVERIFY(parsed);
    auto fast = WriteRequest::fromJson(parsed.value().object, 8000, &parsed.value().vectors);
    auto slow = WriteRequest::fromJson(qtParse(bytes));
    QVERIFY2(fast, qPrintable(fast ? QString() : fast.error().message));
    QVERIFY(slow);
    QCOMPARE(fast.value().nodes.size(), 2);
    QCOMPARE(fast.value().nodes[1].embedding, slow.value().nodes[1].embedding);
    QVERIFY(fast.value().nodes[0].embedding.isEmpty());
    // Request keys and content ids hash the raw nodes: identical whichever parser ran.
    for (int i = 0; i < 2; ++i)
        QCOMPARE(stableJson(fast.value().nodes[i].raw), stableJson(slow.value().nodes[i].raw));
}

void tst_JsonBody::recallTakesTheDecodedQuery()
{
    const QByteArray bytes = R"({"scope":"s","query_embedding":)" + numbers(kDim) + "}";
    auto parsed = parseJsonBody(bytes);
    QVERIFY(parsed);
    QCOMPARE(parsed.value().vectors.size(), 1);
    auto request
        = RecallRequest::fromJson(parsed.value().object, false, 8000, &parsed.value().vectors);
    QVERIFY(request);
    QCOMPARE(request.value().queryEmbedding,
             RecallRequest::fromJson(qtParse(bytes), false, 8000).value().queryEmbedding);

    // A decoded query of the wrong length is refused as before, by its name.
    const QByteArray shortQuery = R"({"query_embedding":)" + numbers(12) + "}";
    auto shortParsed = parseJsonBody(shortQuery);
    QVERIFY(shortParsed);
    auto refused = RecallRequest::fromJson(shortParsed.value().object, false, 8000,
                                           &shortParsed.value().vectors);
    QVERIFY(!refused);
    QCOMPARE(issuePath(refused.error()), QStringLiteral("query_embedding"));
    QVERIFY(refused.error().message.contains(QStringLiteral("got 12")));
}

void tst_JsonBody::aBadElementStaysForTheParserToName()
{
    for (const QByteArray &bad : {QByteArray("1e39"), QByteArray("\"x\""), QByteArray("null")}) {
        const QByteArray bytes = writeBody(numbers(kDim, bad));
        auto parsed = parseJsonBody(bytes);
        QVERIFY(parsed);
        QVERIFY(parsed.value().vectors.isEmpty());
        auto request = WriteRequest::fromJson(parsed.value().object, 8000, &parsed.value().vectors);
        QVERIFY2(!request, bad.constData());
        QCOMPARE(issuePath(request.error()), QStringLiteral("nodes[1].embedding[5]"));
    }
}

void tst_JsonBody::aStringIsNoEmbedding()
{
    // Even one spelled like the digest a decoded array stands as.
    const QString digest = embeddingDigest(QVector<float>(kDim, 0.0f));
    const QByteArray bytes = writeBody('"' + digest.toUtf8() + '"');
    auto parsed = parseJsonBody(bytes);
    QVERIFY(parsed);
    auto request = WriteRequest::fromJson(parsed.value().object, 8000, &parsed.value().vectors);
    QVERIFY(!request);
    QCOMPARE(issuePath(request.error()), QStringLiteral("nodes[1].embedding"));
    QVERIFY(request.error().message.contains(QStringLiteral("array of numbers")));
}

void tst_JsonBody::aRepeatedKeyKeepsTheLastValue()
{
    // A valid array first, a broken one last: the broken one counts, as with Qt's parser.
    const QByteArray bytes = R"({"query_embedding":)" + numbers(kDim) + R"(,"query_embedding":)"
                             + numbers(kDim, "1e39") + "}";
    auto parsed = parseJsonBody(bytes);
    QVERIFY(parsed);
    QVERIFY(parsed.value().vectors.isEmpty());
    auto request
        = RecallRequest::fromJson(parsed.value().object, false, 8000, &parsed.value().vectors);
    QVERIFY(!request);
    QCOMPARE(issuePath(request.error()), QStringLiteral("query_embedding[5]"));
}

void tst_JsonBody::malformedBodiesAreRefusedWithTheOffset()
{
    auto broken = parseJsonBody(R"({"a": [1, 2,)");
    QVERIFY(!broken);
    QCOMPARE(broken.error().status, 400);
    QCOMPARE(broken.error().code, QStringLiteral("invalid_request"));
    QVERIFY(broken.error().message.startsWith(QStringLiteral("malformed JSON at offset")));

    for (const QByteArray &notAnObject : {QByteArray("[1,2]"), QByteArray("  ")}) {
        auto refused = parseJsonBody(notAnObject);
        QVERIFY(!refused);
        QCOMPARE(refused.error().message, QStringLiteral("request body must be a JSON object"));
    }
}

QTEST_GUILESS_MAIN(tst_JsonBody)
#include "tst_jsonbody.moc"
