// The lexical seed channel: an FTS5 index kept with the nodes (write, edit, forget, upgrade),
// walled by tenant and scope, under the seed rules; its ranks fused with the vector channel's.
#include "service/api/lifecyclerequests.h"
#include "service/api/recallrequest.h"
#include "service/api/writerequest.h"
#include "service/memoryservice.h"
#include "service/storage/lexicalindex.h"
#include "tests/support/recalltesting.h"
#include "tests/support/tempservice.h"

#include <QDir>
#include <QJsonArray>
#include <QSqlDatabase>
#include <QSqlError>
#include <QSqlQuery>
#include <QTest>

using namespace MemoryGraph;
using namespace MemoryGraph::Test;

namespace {

constexpr int kFiller = 40;

QJsonObject memory(const QString &clientId, const QString &summary, int vectorAxis,
                   const QJsonObject &extra = {})
{
    QJsonObject n{{QStringLiteral("client_id"), clientId},
                  {QStringLiteral("type"), QStringLiteral("event")},
                  {QStringLiteral("title"), clientId},
                  {QStringLiteral("text_summary"), summary},
                  {QStringLiteral("embedding"), axis(vectorAxis)},
                  {QStringLiteral("memory_lane"), QStringLiteral("shared")}};
    for (auto it = extra.begin(); it != extra.end(); ++it)
        n.insert(it.key(), it.value());
    return n;
}

/// Filler memories about everyday things, so the words under test are rare in the scope.
QJsonArray filler()
{
    QJsonArray nodes;
    for (int i = 0; i < kFiller; ++i)
        nodes.append(memory(QStringLiteral("f%1").arg(i),
                            QStringLiteral("Routine note %1 about the weekly team meeting").arg(i),
                            i + 1));
    return nodes;
}

} // namespace

class tst_LexicalRecall : public QObject
{
    Q_OBJECT

private slots:
    void wordsFindWhatTheVectorMisses();
    void theChannelKeepsTheSeedRulesAndWalls();
    void editsAndForgetFollowTheIndex();
    void anUpgradedStoreGainsTheIndex();
    void aVectorRecallIsUnchanged();
    void theSettingPicksTheChannels();
    void aQuestionsPeriodFindsDatedMemories();
    void occurredAtIsCheckedAndShown();
    void wordsMostMemoriesHoldAreNotRanked();
    void theTextChannelsKeepTheirThread();
};

void tst_LexicalRecall::wordsFindWhatTheVectorMisses()
{
    TempService svc(localEmbedder());
    QVERIFY2(svc.isValid(), qPrintable(svc.errorText()));
    QVERIFY(writeNodes(svc.service(), filler()));
    // Its vector points nowhere near any text's embedding; only its words can find it.
    QVERIFY(
        writeNodes(svc.service(),
                   {memory(QStringLiteral("invoice"),
                           QStringLiteral("Invoice ZX4471 from Harbourline was paid late"), 900)}));
    auto recalled = recallText(svc.service(), QStringLiteral("What happened with ZX4471?"));
    QVERIFY2(recalled, why(recalled));
    QCOMPARE(recalled.value().seedChannels, QStringLiteral("hybrid"));
    const RecallSeed *seed = seedOf(recalled.value(), QStringLiteral("invoice"));
    QVERIFY2(seed, "the word ZX4471 must make the invoice a seed");
    QCOMPARE(seed->lexicalRank, 1);
    QVERIFY(recalled.value().lexicalCandidates >= 1);
    // Stemmed alike on both sides: "invoices" meets "invoice".
    auto plural = recallText(svc.service(), QStringLiteral("invoices from harbourline"));
    QVERIFY2(plural, why(plural));
    QVERIFY(seedOf(plural.value(), QStringLiteral("invoice")));
    // The context text an agent reads carries the memory.
    QVERIFY(recalled.value().context.text.contains(QStringLiteral("ZX4471")));
}

void tst_LexicalRecall::theChannelKeepsTheSeedRulesAndWalls()
{
    TempService svc(localEmbedder());
    QVERIFY2(svc.isValid(), qPrintable(svc.errorText()));
    QVERIFY(writeNodes(svc.service(), filler()));
    const QString word = QStringLiteral("Quillfeather");
    QVERIFY(
        writeNodes(svc.service(),
                   {memory(QStringLiteral("cold"), word + QStringLiteral(" archived"), 901,
                           {{QStringLiteral("tier"), QStringLiteral("cold")}}),
                    memory(QStringLiteral("evidence"), word + QStringLiteral(" raw log"), 902,
                           {{QStringLiteral("type"), QStringLiteral("evidence")}}),
                    memory(QStringLiteral("private"), word + QStringLiteral(" secret"), 903,
                           {{QStringLiteral("memory_lane"), QStringLiteral("private")},
                            {QStringLiteral("owner_agent_id"), QStringLiteral("someone-else")}})}));
    QVERIFY(writeNodes(svc.service(), {memory(QStringLiteral("elsewhere"), word, 905)},
                       QStringLiteral("other-scope")));
    auto recalled = recallText(svc.service(), word, 20);
    QVERIFY2(recalled, why(recalled));
    for (const RecallSeed &s : recalled.value().seeds)
        QVERIFY2(s.lexicalRank == 0, qPrintable(s.node.clientId + QStringLiteral(" leaked")));
    QCOMPARE(recalled.value().lexicalCandidates, 0);
}

void tst_LexicalRecall::editsAndForgetFollowTheIndex()
{
    TempService svc(localEmbedder());
    QVERIFY2(svc.isValid(), qPrintable(svc.errorText()));
    QVERIFY(writeNodes(svc.service(), filler()));
    QVERIFY(
        writeNodes(svc.service(), {memory(QStringLiteral("m"), QStringLiteral("Marmalade"), 950)}));
    QVERIFY(
        writeNodes(svc.service(), {memory(QStringLiteral("m"), QStringLiteral("Tangerine"), 950)}));
    auto old = recallText(svc.service(), QStringLiteral("marmalade"));
    QVERIFY2(old, why(old));
    QCOMPARE(old.value().lexicalCandidates, 0);
    auto edited = recallText(svc.service(), QStringLiteral("tangerine"));
    QVERIFY2(edited, why(edited));
    const RecallSeed *seed = seedOf(edited.value(), QStringLiteral("m"));
    QVERIFY(seed && seed->lexicalRank == 1);

    NodeForgetRequest forget;
    forget.nodeId = seed->node.id;
    forget.reason = QStringLiteral("test");
    forget.inputText = QStringLiteral("forget the tangerine");
    auto forgotten = svc->forgetNode(forget, RequestMeta{});
    QVERIFY2(forgotten, why(forgotten));
    auto after = recallText(svc.service(), QStringLiteral("tangerine"));
    QVERIFY2(after, why(after));
    QCOMPARE(after.value().lexicalCandidates, 0);
    QVERIFY(!seedOf(after.value(), QStringLiteral("m")));
}

void tst_LexicalRecall::anUpgradedStoreGainsTheIndex()
{
    TempService svc(localEmbedder());
    QVERIFY2(svc.isValid(), qPrintable(svc.errorText()));
    QVERIFY(writeNodes(svc.service(), filler()));
    QVERIFY(writeNodes(svc.service(),
                       {memory(QStringLiteral("old"), QStringLiteral("Zeppelin hangar lease"), 960,
                               {{QStringLiteral("slots"),
                                 QJsonObject{{QStringLiteral("vendor"),
                                              QStringLiteral("Brightwater Estates")}}}})}));
    // Back to the schema before the lexical index (and the steps after it), rows in place.
    const QString file = storeFile(svc);
    const QString failed = runSqlOnFile(
        file,
        undoNodeVectorsSql()
            + QStringList{QStringLiteral("DROP TRIGGER IF EXISTS node_text_added"),
                          QStringLiteral("DROP TRIGGER IF EXISTS node_text_changed"),
                          QStringLiteral("DROP TRIGGER node_text_removed"),
                          QStringLiteral("DROP TABLE node_text"),
                          QStringLiteral("DROP INDEX nodes_occurred_at"),
                          QStringLiteral("ALTER TABLE nodes DROP COLUMN occurred_at"),
                          QStringLiteral("DROP TABLE automation_run_nodes"),
                          QStringLiteral("DROP TABLE automation_runs"),
                          QStringLiteral("DROP TABLE automation_versions"),
                          QStringLiteral("DROP TABLE automation_defs"),
                          QStringLiteral("DROP TABLE automation_reviews"),
                          QStringLiteral("DROP TABLE automation_compensation_actions"),
                          QStringLiteral("DROP TABLE automation_shadow_requests"),
                          QStringLiteral("DROP INDEX nodes_scope_salience"),
                          QStringLiteral("DELETE FROM schema_migrations WHERE name IN "
                                         "('lexical_index', 'node_occurred_at', 'automations',"
                                         " 'nodes_salience_order')")});
    QVERIFY2(failed.isEmpty(), qPrintable(failed));
    QVERIFY2(svc.reopen(), qPrintable(svc.errorText()));
    // Title and slot text were indexed by the upgrade.
    for (const QString &query : {QStringLiteral("zeppelin"), QStringLiteral("brightwater")}) {
        auto recalled = recallText(svc.service(), query);
        QVERIFY2(recalled, why(recalled));
        const RecallSeed *seed = seedOf(recalled.value(), QStringLiteral("old"));
        QVERIFY2(seed && seed->lexicalRank == 1, qPrintable(query));
    }
}

void tst_LexicalRecall::aVectorRecallIsUnchanged()
{
    TempService svc(localEmbedder());
    QVERIFY2(svc.isValid(), qPrintable(svc.errorText()));
    QVERIFY(writeNodes(svc.service(), filler()));
    const QJsonArray q = axis(3);
    auto request = RecallRequest::fromJson(
        QJsonObject{{QStringLiteral("query_embedding"), q}, {QStringLiteral("limit"), 5}}, false,
        8000);
    QVERIFY(request);
    auto recalled = svc->recall(request.value(), RequestMeta{});
    QVERIFY2(recalled, why(recalled));
    QCOMPARE(recalled.value().seedChannels, QStringLiteral("vector"));
    QVERIFY(!recalled.value().seeds.isEmpty());
    QCOMPARE(recalled.value().seeds.first().node.clientId, QStringLiteral("f2"));
    for (const RecallSeed &s : recalled.value().seeds) {
        QCOMPARE(s.relevance, s.similarity);
        QCOMPARE(s.lexicalRank, 0);
        QVERIFY(s.vectorRank > 0);
    }
}

void tst_LexicalRecall::theSettingPicksTheChannels()
{
    for (const QString &channels : {QStringLiteral("vector"), QStringLiteral("lexical")}) {
        TempService svc(localEmbedder(channels));
        QVERIFY2(svc.isValid(), qPrintable(svc.errorText()));
        QVERIFY(writeNodes(svc.service(), filler()));
        QVERIFY(writeNodes(svc.service(), {memory(QStringLiteral("invoice"),
                                                  QStringLiteral("Invoice ZX4471"), 900)}));
        auto recalled = recallText(svc.service(), QStringLiteral("ZX4471"));
        QVERIFY2(recalled, why(recalled));
        QCOMPARE(recalled.value().seedChannels, channels);
        for (const RecallSeed &s : recalled.value().seeds) {
            if (channels == QLatin1String("vector"))
                QCOMPARE(s.lexicalRank, 0);
            else
                QCOMPARE(s.vectorRank, 0);
        }
        if (channels == QLatin1String("lexical")) {
            QCOMPARE(recalled.value().seeds.size(), 1);
            QCOMPARE(recalled.value().stage1Mode, QStringLiteral("lexical"));
        }
    }
}

void tst_LexicalRecall::aQuestionsPeriodFindsDatedMemories()
{
    TempService svc(localEmbedder());
    QVERIFY2(svc.isValid(), qPrintable(svc.errorText()));
    QVERIFY(writeNodes(svc.service(), filler()));
    QVERIFY(writeNodes(svc.service(),
                       {memory(QStringLiteral("march"), QStringLiteral("Checkout outage"), 970,
                               {{QStringLiteral("occurred_at"), QStringLiteral("2025-03-03")}}),
                        memory(QStringLiteral("april"), QStringLiteral("Checkout outage"), 971,
                               {{QStringLiteral("occurred_at"), QStringLiteral("2025-04-09")}})}));
    auto recalled = recallText(svc.service(), QStringLiteral("What broke in March 2025?"));
    QVERIFY2(recalled, why(recalled));
    QCOMPARE(recalled.value().period, QStringLiteral("2025-03-01T00:00:00Z/2025-04-01T00:00:00Z"));
    const RecallSeed *march = seedOf(recalled.value(), QStringLiteral("march"));
    QVERIFY2(march && march->timeRank == 1, "the March event is dated in the question's period");
    const RecallSeed *april = seedOf(recalled.value(), QStringLiteral("april"));
    QVERIFY(!april || april->timeRank == 0);
    // The context text says when it happened.
    QVERIFY2(
        recalled.value().context.text.contains(QStringLiteral("- 2025-03-03: Checkout outage")),
        qPrintable(recalled.value().context.text));
}

void tst_LexicalRecall::occurredAtIsCheckedAndShown()
{
    for (const QString &bad : {QStringLiteral("yesterday"), QStringLiteral("2025-02-30"),
                               QStringLiteral("2025-03-03T10:00:00")}) {
        auto request = WriteRequest::fromJson(writeBody({memory(
            QStringLiteral("x"), QStringLiteral("x"), 1, {{QStringLiteral("occurred_at"), bad}})}));
        QVERIFY2(!request, qPrintable(bad));
        QCOMPARE(request.error().status, 400);
        QVERIFY2(request.error().message.contains(QStringLiteral("occurred_at"))
                     || request.error()
                            .details.value(QStringLiteral("field"))
                            .toString()
                            .contains(QStringLiteral("occurred_at")),
                 why(request).constData());
    }
    auto withOffset = WriteRequest::fromJson(writeBody(
        {memory(QStringLiteral("x"), QStringLiteral("x"), 1,
                {{QStringLiteral("occurred_at"), QStringLiteral("2025-03-03T23:30:00-02:00")}})}));
    QVERIFY2(withOffset, why(withOffset));
    QCOMPARE(withOffset.value().nodes.first().occurredAt,
             QDateTime(QDate(2025, 3, 4), QTime(1, 30), Qt::UTC));
}

void tst_LexicalRecall::wordsMostMemoriesHoldAreNotRanked()
{
    // A scope larger than the ranked-row budget where every memory mentions the meeting.
    TempService svc(localEmbedder());
    QVERIFY2(svc.isValid(), qPrintable(svc.errorText()));
    constexpr int kMemories = int(LexicalIndex::kRankedRowBudget) + 100;
    for (int from = 0; from < kMemories; from += 100) {
        QJsonArray nodes;
        for (int i = from; i < from + 100; ++i)
            nodes.append(
                memory(QStringLiteral("m%1").arg(i),
                       QStringLiteral("Routine note %1 about the weekly team meeting").arg(i),
                       i % (kVectorDim - 1) + 1));
        QVERIFY(writeNodes(svc.service(), nodes));
    }
    QVERIFY(writeNodes(svc.service(),
                       {memory(QStringLiteral("invoice"),
                               QStringLiteral("Invoice ZX4471 was discussed at the meeting"), 0)}));
    auto recalled = recallText(svc.service(), QStringLiteral("meeting about ZX4471"), 10);
    QVERIFY2(recalled, why(recalled));
    // "meeting" would rank every memory; only the rare word is looked for.
    QCOMPARE(recalled.value().lexicalCandidates, 1);
    QCOMPARE(recalled.value().conceptCandidates, 0);
    const RecallSeed *seed = seedOf(recalled.value(), QStringLiteral("invoice"));
    QVERIFY(seed);
    QCOMPARE(seed->lexicalRank, 1);
}

void tst_LexicalRecall::theTextChannelsKeepTheirThread()
{
    TempService svc(localEmbedder());
    QVERIFY2(svc.isValid(), qPrintable(svc.errorText()));
    QVERIFY(writeNodes(svc.service(), filler()));
    // A vector recall first: the audit writer's thread opens its connection now, not later.
    auto byVector = RecallRequest::fromJson(
        QJsonObject{{QStringLiteral("query_embedding"), axis(1)}}, false, 8000);
    QVERIFY2(byVector, why(byVector));
    auto recalled = svc.service()->recall(byVector.value(), RequestMeta{});
    QVERIFY2(recalled, why(recalled));
    QTRY_COMPARE(storeScalar(storeFile(svc), QStringLiteral("SELECT count(*) FROM recall_audit")),
                 qint64(1));

    const QStringList before = QSqlDatabase::connectionNames();
    auto first = recallText(svc.service(), QStringLiteral("the weekly team meeting"));
    QVERIFY2(first, why(first));
    // The text channels ran on a thread whose connection outlives the question...
    const QStringList kept = QSqlDatabase::connectionNames();
    QCOMPARE(kept.size(), before.size() + 1);
    // ...and the next question runs there again rather than opening the store anew.
    auto second = recallText(svc.service(), QStringLiteral("a routine note"));
    QVERIFY2(second, why(second));
    QCOMPARE(QSqlDatabase::connectionNames(), kept);
}

QTEST_GUILESS_MAIN(tst_LexicalRecall)
#include "tst_lexicalrecall.moc"
