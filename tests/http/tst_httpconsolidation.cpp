#include "tests/http/httptestserver.h"

#include <QTest>

using namespace MemoryGraph;
using MemoryGraph::Test::HttpTestServer;
using MemoryGraph::Test::Reply;

namespace {

QJsonArray axis()
{
    QJsonArray v;
    for (int i = 0; i < 1536; ++i)
        v.append(i == 0 ? 1.0 : 0.0);
    return v;
}

QJsonObject concept_(const QString &clientId)
{
    return {{QStringLiteral("client_id"), clientId},
            {QStringLiteral("type"), QStringLiteral("concept")},
            {QStringLiteral("title"), QStringLiteral("Rollback plan")},
            {QStringLiteral("text_summary"), QStringLiteral("How we undo a release")},
            {QStringLiteral("memory_lane"), QStringLiteral("shared")},
            {QStringLiteral("embedding"), axis()}};
}

/// The node objects of a recall reply's subgraph, by id.
QHash<QString, QJsonObject> subgraphNodes(const Reply &r)
{
    QHash<QString, QJsonObject> out;
    const QJsonArray nodes = r.json.value(QStringLiteral("subgraph"))
                                 .toObject()
                                 .value(QStringLiteral("nodes"))
                                 .toArray();
    for (const QJsonValue &n : nodes)
        out.insert(n.toObject().value(QStringLiteral("id")).toString(), n.toObject());
    return out;
}

} // namespace

/// Spec §2.9 and §9: the slots offline consolidation writes are visible to callers only with
/// include_slots=true or through slots_preview.
class tst_HttpConsolidation : public QObject
{
    Q_OBJECT

private slots:
    void consolidationSlotsNeedIncludeSlots();
};

void tst_HttpConsolidation::consolidationSlotsNeedIncludeSlots()
{
    QProcessEnvironment env;
    env.insert(QStringLiteral("EMBEDDING_PROVIDER"), QStringLiteral("none"));
    HttpTestServer server(env);
    QVERIFY2(server.isReady(), qPrintable(server.errorText()));
    const Reply first
        = server.post(QStringLiteral("/v1/memory/write"),
                      QJsonDocument(Test::writeBody({concept_(QStringLiteral("a"))})).toJson());
    QCOMPARE(first.status, 200);
    QTest::qWait(3);
    const Reply second
        = server.post(QStringLiteral("/v1/memory/write"),
                      QJsonDocument(Test::writeBody({concept_(QStringLiteral("b"))})).toJson());
    QCOMPARE(second.status, 200);
    const QString a = first.json.value(QStringLiteral("nodes"))
                          .toArray()
                          .first()
                          .toObject()
                          .value(QStringLiteral("id"))
                          .toString();
    const QString b = second.json.value(QStringLiteral("nodes"))
                          .toArray()
                          .first()
                          .toObject()
                          .value(QStringLiteral("id"))
                          .toString();

    auto applied
        = server.service()->consolidate(QStringLiteral("default"), QStringLiteral("default"), true);
    QVERIFY(applied && !applied.value().commitId.isEmpty());

    const auto recall = [&server](const QJsonObject &flags) {
        QJsonObject body = flags;
        body.insert(QStringLiteral("query_embedding"), axis());
        return server.post(QStringLiteral("/v1/memory/recall"), QJsonDocument(body).toJson());
    };

    const Reply plain = recall({});
    QCOMPARE(plain.status, 200);
    const auto plainNodes = subgraphNodes(plain);
    QVERIFY(plainNodes.contains(a) && plainNodes.contains(b));
    QVERIFY(!plainNodes.value(a).contains(QStringLiteral("slots")));
    QVERIFY(!plainNodes.value(b).contains(QStringLiteral("slots")));
    QVERIFY(!plain.body.contains("alias_of"));
    QVERIFY(!plain.body.contains("merged_from"));

    const Reply withSlots = recall({{QStringLiteral("include_slots"), true}});
    QCOMPARE(withSlots.status, 200);
    const auto slotNodes = subgraphNodes(withSlots);
    const QJsonObject dupSlots = slotNodes.value(b).value(QStringLiteral("slots")).toObject();
    QCOMPARE(dupSlots.value(QStringLiteral("alias_of")).toString(), a);
    QCOMPARE(dupSlots.value(QStringLiteral("superseded_by")).toString(), a);
    const QJsonObject canonicalSlots = slotNodes.value(a).value(QStringLiteral("slots")).toObject();
    QCOMPARE(canonicalSlots.value(QStringLiteral("merged_from")).toArray(), QJsonArray{b});
    QCOMPARE(canonicalSlots.value(QStringLiteral("merged_count")).toInt(), 1);

    const Reply preview = recall({{QStringLiteral("include_slots_preview"), true}});
    QCOMPARE(preview.status, 200);
    QCOMPARE(subgraphNodes(preview)
                 .value(b)
                 .value(QStringLiteral("slots_preview"))
                 .toObject()
                 .value(QStringLiteral("alias_of"))
                 .toString(),
             a);
}

QTEST_GUILESS_MAIN(tst_HttpConsolidation)
#include "tst_httpconsolidation.moc"
