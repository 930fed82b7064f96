#include "service/api/writerequest.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QTest>

using namespace MemoryGraph;

class tst_WriteRequest : public QObject
{
    Q_OBJECT

private slots:
    void rejectsInvalidFields_data();
    void rejectsInvalidFields();
    void acceptsMinimalBodies();
};

void tst_WriteRequest::rejectsInvalidFields_data()
{
    QTest::addColumn<QByteArray>("body");
    QTest::addColumn<QString>("path");
    const auto row = [](const char *name, const char *body, const char *path) {
        QTest::newRow(name) << QByteArray(body) << QString::fromLatin1(path);
    };
    row("§4.2 input_text or input_sha256 required", R"({"nodes":[]})", "input_text");
    row("input_sha256 must be hex", R"({"input_sha256":"zz"})", "input_sha256");
    row("input_text must be a string", R"({"input_text":5})", "input_text");
    row("memory_lane enum", R"({"input_text":"x","memory_lane":"public"})", "memory_lane");
    row("auto_embed boolean", R"({"input_text":"x","auto_embed":"yes"})", "auto_embed");
    row("nodes must be an array", R"({"input_text":"x","nodes":{}})", "nodes");
    row("node must be an object", R"({"input_text":"x","nodes":[1]})", "nodes[0]");
    row("node type required", R"({"input_text":"x","nodes":[{"text_summary":"a"}]})",
        "nodes[0].type");
    row("node type enum", R"({"input_text":"x","nodes":[{"type":"thing"}]})", "nodes[0].type");
    row("node tier enum", R"({"input_text":"x","nodes":[{"type":"event","tier":"lukewarm"}]})",
        "nodes[0].tier");
    row("salience range", R"({"input_text":"x","nodes":[{"type":"event","salience":2}]})",
        "nodes[0].salience");
    row("slots object", R"({"input_text":"x","nodes":[{"type":"event","slots":[]}]})",
        "nodes[0].slots");
    row("node id uuid", R"({"input_text":"x","nodes":[{"type":"event","id":"abc"}]})",
        "nodes[0].id");
    row("embedding length", R"({"input_text":"x","nodes":[{"type":"event","embedding":[1,2]}]})",
        "nodes[0].embedding");
    row("empty string", R"({"input_text":"x","nodes":[{"type":"event","title":"  "}]})",
        "nodes[0].title");
    row("edge type required", R"({"input_text":"x","edges":[{"src":{"id":"a"}}]})",
        "edges[0].type");
    row("edge src required",
        R"({"input_text":"x","edges":[{"type":"part_of","dst":{"client_id":"b"}}]})",
        "edges[0].src");
    row("edge endpoint needs id",
        R"({"input_text":"x","edges":[{"type":"part_of","src":{},"dst":{"client_id":"b"}}]})",
        "edges[0].src");
    row("edge weight range",
        R"({"input_text":"x","edges":[{"type":"part_of","src":{"client_id":"a"},"dst":{"client_id":"b"},"weight":-1}]})",
        "edges[0].weight");
}

void tst_WriteRequest::rejectsInvalidFields()
{
    QFETCH(QByteArray, body);
    QFETCH(QString, path);
    auto r = WriteRequest::fromJson(QJsonDocument::fromJson(body).object());
    QVERIFY(!r.ok());
    QCOMPARE(r.error().status, 400);
    QCOMPARE(r.error().code, QStringLiteral("invalid_request"));
    const QJsonObject issue
        = r.error().details.value(QStringLiteral("issues")).toArray().first().toObject();
    QCOMPARE(issue.value(QStringLiteral("path")).toString(), path);
    QVERIFY(r.error().message.contains(path));
}

void tst_WriteRequest::acceptsMinimalBodies()
{
    auto a = WriteRequest::fromJson(QJsonDocument::fromJson(R"({"input_text":"hello"})").object());
    QVERIFY(a.ok());
    QVERIFY(!a.value().nodesGiven);
    auto b = WriteRequest::fromJson(
        QJsonDocument::fromJson(
            R"({"input_sha256":"ABCDEF0123456789abcdef0123456789abcdef0123456789abcdef0123456789",
            "nodes":[{"type":"event","text_summary":"x","tenant_id":null}]})")
            .object());
    QVERIFY(b.ok());
    QCOMPARE(b.value().inputSha256.left(6), QStringLiteral("abcdef"));
    QCOMPARE(b.value().nodes.size(), 1);
}

QTEST_GUILESS_MAIN(tst_WriteRequest)
#include "tst_writerequest.moc"
