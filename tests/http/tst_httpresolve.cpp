// POST /v1/memory/resolve and POST /v1/memory/feedback over real HTTP (spec §4.15, §7;
// DESIGN decision 5; reference §2.6): whitelisted record bodies, tenant isolation, errors, and
// single-rule feedback moving the rule's counters as one audited commit.

#include "tests/http/rulestestdata.h"

#include <QTest>
#include <QUuid>

using namespace MemoryGraph;
using namespace MemoryGraph::Test;
using namespace MemoryGraph::Test::Rules;

namespace {

const QString kResolve = QStringLiteral("/v1/memory/resolve");
const QString kFeedback = QStringLiteral("/v1/memory/feedback");

QJsonObject sharedNode(const char *clientId, const char *type)
{
    return obj({{"client_id", s(clientId)},
                {"type", s(type)},
                {"text_summary", s(clientId)},
                {"memory_lane", s("shared")},
                {"slots", obj({{"colour", s("blue")}})}});
}

RuleStatus statusOf(const HttpTestServer &server, const QString &ruleId)
{
    auto rules = server.service()->listRules(s("default"), s("default"));
    for (const RuleSummary &r : rules.value()) {
        if (r.node.id == ruleId)
            return r.status;
    }
    return {};
}

QJsonObject feedback(const QString &ruleId, const char *outcome)
{
    return obj({{"rule_node_id", ruleId},
                {"outcome", s(outcome)},
                {"input_text", s("the rule helped")},
                {"run_id", s("run-1")},
                {"note", s("a note")}});
}

} // namespace

class tst_HttpResolve : public QObject
{
    Q_OBJECT

private slots:
    void nodeEdgeCommitAndDecisionBodies()
    {
        HttpTestServer server;
        QVERIFY2(server.isReady(), qPrintable(server.errorText()));
        const Reply w = server.write(
            writeBody({sharedNode("a", "event"), sharedNode("t", "topic")},
                      {writeEdge(s("part_of"), byClientId(s("a")), byClientId(s("t")))}));
        QVERIFY2(w.status == 200, w.describe());
        const QString nodeUri
            = w.json.value(s("nodes")).toArray().first().toObject().value(s("uri")).toString();

        Reply r = server.post(kResolve, obj({{"uri", nodeUri}}));
        QVERIFY2(r.status == 200, r.describe());
        QCOMPARE(keysOf(r.json),
                 keyList({"tenant_id", "scope", "uri", "kind", "node", "resolve_summary"}));
        QCOMPARE(r.json.value(s("kind")).toString(), s("event"));
        QCOMPARE(keysOf(r.json.value(s("node")).toObject()),
                 keyList({"id", "type", "title", "text_summary", "uri"}));
        QVERIFY(!containsKeyDeep(r.json, s("embedding")));

        r = server.post(kResolve, obj({{"uri", nodeUri}, {"include_slots", true}}));
        QCOMPARE(r.json.value(s("node"))
                     .toObject()
                     .value(s("slots"))
                     .toObject()
                     .value(s("colour"))
                     .toString(),
                 s("blue"));

        const QString edgeUri
            = w.json.value(s("edges")).toArray().first().toObject().value(s("uri")).toString();
        r = server.post(kResolve, obj({{"uri", edgeUri}}));
        QVERIFY2(r.status == 200, r.describe());
        QCOMPARE(keysOf(r.json.value(s("edge")).toObject()),
                 keyList({"id", "uri", "from_id", "to_id", "type", "weight"}));

        r = server.post(kResolve, obj({{"uri", w.json.value(s("commit_uri")).toString()}}));
        QVERIFY2(r.status == 200, r.describe());
        const QJsonObject commit = r.json.value(s("commit")).toObject();
        QCOMPARE(keysOf(commit), keyList({"commit_id", "commit_uri", "commit_hash", "parent",
                                          "kind", "actor", "created_at", "diff_sha256"}));
        QCOMPARE(commit.value(s("commit_hash")).toString(),
                 w.json.value(s("commit_hash")).toString());
        QCOMPARE(commit.value(s("kind")).toString(), s("write"));
        QVERIFY(commit.value(s("parent")).isNull()); // first commit of the scope

        const Reply select
            = server.post(s("/v1/memory/tools/select"),
                          obj({{"context", obj({})}, {"candidates", strs({"bash"})}}));
        QVERIFY2(select.status == 200, select.describe());
        const QString decisionUri
            = select.json.value(s("decision")).toObject().value(s("decision_uri")).toString();
        r = server.post(kResolve, obj({{"uri", decisionUri}}));
        QVERIFY2(r.status == 200, r.describe());
        QCOMPARE(r.json.value(s("kind")).toString(), s("decision"));
        QCOMPARE(r.json.value(s("decision")).toObject().value(s("selected_tool")).toString(),
                 s("bash"));
    }

    void resolveSummaryPerKind()
    {
        HttpTestServer server;
        QVERIFY2(server.isReady(), qPrintable(server.errorText()));
        const Reply first = server.write(writeBody({sharedNode("x", "entity")}));
        QVERIFY2(first.status == 200, first.describe());
        const Reply w = server.write(
            writeBody({sharedNode("a", "event"), sharedNode("t", "topic")},
                      {writeEdge(s("part_of"), byClientId(s("a")), byClientId(s("t")))}));
        QVERIFY2(w.status == 200, w.describe());
        const QJsonArray nodes = w.json.value(s("nodes")).toArray();
        const QString eventUri = nodes.at(0).toObject().value(s("uri")).toString();
        const QString topicUri = nodes.at(1).toObject().value(s("uri")).toString();
        const QString commitUri = w.json.value(s("commit_uri")).toString();
        const QString edgeUri
            = w.json.value(s("edges")).toArray().first().toObject().value(s("uri")).toString();
        const auto summaryOf = [&server](const QJsonObject &body) {
            return server.post(kResolve, body).json.value(s("resolve_summary")).toObject();
        };
        const auto sortedList = [](QStringList l) {
            l.sort();
            return l;
        };

        QJsonObject summary = summaryOf(obj({{"uri", eventUri}}));
        QCOMPARE(keysOf(summary),
                 keyList({"summary_version", "resolved_type", "payload_kind", "include_meta",
                          "slots_mode", "related_uris", "related_uri_count", "object_keys"}));
        QCOMPARE(summary.value(s("summary_version")).toString(), s("resolve_summary_v1"));
        QCOMPARE(summary.value(s("resolved_type")).toString(), s("event"));
        QCOMPARE(summary.value(s("payload_kind")).toString(), s("node"));
        QCOMPARE(summary.value(s("include_meta")).toBool(), false);
        QCOMPARE(summary.value(s("slots_mode")).toString(), s("none"));
        QCOMPARE(stringList(summary.value(s("related_uris"))), sortedList({eventUri, commitUri}));
        QCOMPARE(summary.value(s("related_uri_count")).toInt(), 2);
        QCOMPARE(stringList(summary.value(s("object_keys"))),
                 (QStringList{s("client_id"), s("commit_id"), s("id"), s("type")}));
        summary
            = summaryOf(obj({{"uri", eventUri}, {"include_slots", true}, {"include_meta", true}}));
        QCOMPARE(summary.value(s("slots_mode")).toString(), s("full"));
        QCOMPARE(summary.value(s("include_meta")).toBool(), true);

        summary = summaryOf(obj({{"uri", edgeUri}}));
        QCOMPARE(summary.value(s("payload_kind")).toString(), s("edge"));
        QCOMPARE(summary.value(s("resolved_type")).toString(), s("edge"));
        QCOMPARE(summary.value(s("include_meta")).toBool(), true);
        QCOMPARE(stringList(summary.value(s("related_uris"))),
                 sortedList({edgeUri, eventUri, topicUri, commitUri}));
        QCOMPARE(stringList(summary.value(s("object_keys"))),
                 (QStringList{s("commit_id"), s("dst_id"), s("id"), s("src_id"), s("type")}));

        // A commit links to its parent.
        summary = summaryOf(obj({{"uri", commitUri}}));
        QCOMPARE(summary.value(s("payload_kind")).toString(), s("commit"));
        QCOMPARE(stringList(summary.value(s("related_uris"))),
                 sortedList({commitUri, first.json.value(s("commit_uri")).toString()}));

        const Reply select
            = server.post(s("/v1/memory/tools/select"),
                          obj({{"context", obj({})}, {"candidates", strs({"bash"})}}));
        const QString decisionUri
            = select.json.value(s("decision")).toObject().value(s("decision_uri")).toString();
        summary = summaryOf(obj({{"uri", decisionUri}}));
        QCOMPARE(summary.value(s("payload_kind")).toString(), s("decision"));
        QCOMPARE(stringList(summary.value(s("related_uris"))), QStringList{decisionUri});
        QCOMPARE(stringList(summary.value(s("object_keys"))),
                 (QStringList{s("commit_id"), s("decision_id"), s("decision_kind"), s("run_id"),
                              s("selected_tool")}));
    }

    void errorsForMalformedForeignAndAbsentUris()
    {
        HttpTestServer server;
        QVERIFY2(server.isReady(), qPrintable(server.errorText()));
        Reply r = server.post(kResolve, obj({}));
        QCOMPARE(r.status, 400);
        QCOMPARE(r.issuePath(), s("uri"));
        r = server.post(kResolve, obj({{"uri", s("not-a-uri")}}));
        QCOMPARE(r.status, 400);
        QCOMPARE(r.errorCode(), s("invalid_request"));
        QCOMPARE(r.issuePath(), s("uri"));
        r = server.post(kResolve, obj({{"uri", s("memorygraph://default/default/gadget/1")}}));
        QCOMPARE(r.status, 400);
        QCOMPARE(r.issuePath(), s("uri"));
        r = server.post(kResolve,
                        obj({{"uri", s("memorygraph://acme/default/event/")
                                         + QUuid::createUuid().toString(QUuid::WithoutBraces)}}));
        QCOMPARE(r.status, 403);
        QCOMPARE(r.errorCode(), s("forbidden"));
        r = server.post(kResolve,
                        obj({{"uri", s("memorygraph://default/default/event/")
                                         + QUuid::createUuid().toString(QUuid::WithoutBraces)}}));
        QCOMPARE(r.status, 404);
        QCOMPARE(r.errorCode(), s("not_found"));
        QCOMPARE(r.json.value(s("details")).toObject().value(s("reason")).toString(),
                 s("node_not_found_in_scope"));
    }

    void feedbackMovesCountersAsOneCommitEach()
    {
        HttpTestServer server;
        QVERIFY2(server.isReady(), qPrintable(server.errorText()));
        RuleApi rules(server);
        const QString rule = rules.add(RuleNode(s("r"))
                                           .when(obj({{"task", s("x")}}))
                                           .then(obj({{"output", obj({{"format", s("json")}})}})));
        QVERIFY2(!rule.isEmpty(), rules.last.describe());
        const int commitsBefore = int(server.commits().size());

        Reply r = server.post(kFeedback, feedback(rule, "positive"));
        QVERIFY2(r.status == 200, r.describe());
        QCOMPARE(keysOf(r.json), keyList({"tenant_id", "scope", "commit_id", "commit_uri",
                                          "commit_hash", "feedback_id"}));
        QCOMPARE(r.json.value(s("commit_hash")).toString().size(), 64);
        QVERIFY(!r.json.value(s("feedback_id")).toString().isEmpty());
        QCOMPARE(statusOf(server, rule).positive, 1);
        QCOMPARE(statusOf(server, rule).negative, 0);

        // The commit is a rule_feedback commit, readable through resolve.
        const Reply commit
            = server.post(kResolve, obj({{"uri", r.json.value(s("commit_uri")).toString()}}));
        QVERIFY2(commit.status == 200, commit.describe());
        QCOMPARE(commit.json.value(s("commit")).toObject().value(s("kind")).toString(),
                 s("rule_feedback"));

        QCOMPARE(server.post(kFeedback, feedback(rule, "negative")).status, 200);
        QCOMPARE(statusOf(server, rule).negative, 1);
        QCOMPARE(server.post(kFeedback, feedback(rule, "neutral")).status, 200);
        QCOMPARE(statusOf(server, rule).positive, 1);
        QCOMPARE(statusOf(server, rule).negative, 1);
        QCOMPARE(int(server.commits().size()), commitsBefore + 3);
    }

    void feedbackErrors()
    {
        HttpTestServer server;
        QVERIFY2(server.isReady(), qPrintable(server.errorText()));
        Reply r = server.post(
            kFeedback, feedback(QUuid::createUuid().toString(QUuid::WithoutBraces), "positive"));
        QCOMPARE(r.status, 404);
        QCOMPARE(r.errorCode(), s("not_found"));
        QCOMPARE(r.json.value(s("details")).toObject().value(s("reason")).toString(),
                 s("rule_not_found_in_scope"));

        // A node that is not a rule is not a rule.
        const Reply w = server.write(writeBody({sharedNode("e", "event")}));
        const QString eventId
            = w.json.value(s("nodes")).toArray().first().toObject().value(s("id")).toString();
        QCOMPARE(server.post(kFeedback, feedback(eventId, "positive")).status, 404);
        const int commits = int(server.commits().size());

        QJsonObject noInput = feedback(eventId, "positive");
        noInput.remove(s("input_text"));
        r = server.post(kFeedback, noInput);
        QCOMPARE(r.status, 400);
        QCOMPARE(r.issuePath(), s("input_text"));
        r = server.post(kFeedback, feedback(eventId, "great"));
        QCOMPARE(r.status, 400);
        QCOMPARE(r.issuePath(), s("outcome"));
        r = server.post(kFeedback, feedback(s("rule-1"), "positive"));
        QCOMPARE(r.status, 400);
        QCOMPARE(r.issuePath(), s("rule_node_id"));
        QCOMPARE(int(server.commits().size()), commits); // nothing written on a 400 or 404
    }
};

QTEST_GUILESS_MAIN(tst_HttpResolve)
#include "tst_httpresolve.moc"
