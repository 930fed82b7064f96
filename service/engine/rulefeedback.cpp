#include "service/engine/rulefeedback.h"

#include "service/core/ids.h"
#include "service/core/jsonreader.h"
#include "service/engine/commitlog.h"
#include "service/storage/database.h"
#include "service/storage/graphstore.h"
#include "service/storage/rulestore.h"

#include <QJsonArray>

namespace MemoryGraph {

Result<RuleFeedbackRequest> RuleFeedbackRequest::fromJson(const QJsonObject &body, int maxTextLength)
{
    RuleFeedbackRequest q;
    JsonReader r(body);
    r.string("tenant_id", &q.tenantId, 64);
    r.string("scope", &q.scope, 256);
    if (r.requiredString("rule_node_id", &q.ruleNodeId, 64) && !isUuid(q.ruleNodeId))
        r.fail(QStringLiteral("rule_node_id"), QStringLiteral("must be a UUID"));
    q.ruleNodeId = q.ruleNodeId.toLower();
    if (r.ok() && (body.value(QStringLiteral("outcome")).isUndefined() || body.value(QStringLiteral("outcome")).isNull()))
        r.fail(QStringLiteral("outcome"), QStringLiteral("is required"));
    r.enumValue("outcome", &q.outcome, {QStringLiteral("positive"), QStringLiteral("negative"), QStringLiteral("neutral")});
    r.string("run_id", &q.runId, 256);
    r.string("note", &q.note, 1 << 16);
    r.string("actor", &q.actor, 256);
    r.string("input_text", &q.inputText, 1 << 22);
    r.string("input_sha256", &q.inputSha256, 64);
    if (r.ok() && q.inputText.isEmpty() && q.inputSha256.isEmpty())
        r.fail(QStringLiteral("input_text"), QStringLiteral("input_text or input_sha256 is required"));
    if (!r.ok())
        return r.error();
    q.note = normalizeText(q.note, maxTextLength);
    q.inputText = normalizeText(q.inputText, maxTextLength);
    return q;
}

RuleFeedbackEngine::RuleFeedbackEngine(Database &db, const ServiceConfig &config) : m_db(db), m_config(config) {}

Result<RuleFeedbackOutcome> RuleFeedbackEngine::record(const RuleFeedbackRequest &req, const RequestMeta &meta)
{
    auto cs = resolveCallScope(req.tenantId, req.scope, meta, m_config);
    if (!cs)
        return cs.error();
    auto inputSha = CommitLog::inputDigest(req.inputText, req.inputSha256);
    if (!inputSha)
        return inputSha.error();
    const QString actor = !req.actor.isEmpty() ? req.actor
                          : meta.principal && !meta.principal->agentId.isEmpty() ? meta.principal->agentId
                          : m_config.authMode == AuthMode::Off ? m_config.localAgentId
                                                                : QStringLiteral("system");
    RuleFeedbackOutcome out;
    out.scope = cs.value();
    auto written = m_db.write([&](QSqlDatabase &db) -> Result<void> {
        auto node = GraphStore::findNode(db, req.ruleNodeId);
        if (!node)
            return node.error();
        if (!node.value() || node.value()->tenantId != out.scope.tenantId || node.value()->scope != out.scope.scope
            || node.value()->type != QLatin1String("rule"))
            return Error::notFound(QStringLiteral("no rule with this id in the scope"),
                                   {{QStringLiteral("reason"), QStringLiteral("rule_not_found_in_scope")}});
        // A rule written before its first state change has no state row yet.
        if (auto r = RuleStore::ensureRuleDef(db, *node.value()); !r)
            return r;
        FeedbackRecord &f = out.feedback;
        f.id = randomUuid();
        f.tenantId = out.scope.tenantId;
        f.scope = out.scope.scope;
        f.ruleNodeId = req.ruleNodeId;
        f.runId = req.runId;
        f.outcome = req.outcome;
        f.note = req.note;
        f.source = QStringLiteral("rule_feedback");
        const QJsonObject diff{{QStringLiteral("rule_feedback"), QJsonArray{QJsonObject{
            {QStringLiteral("feedback_id"), f.id},
            {QStringLiteral("rule_node_id"), f.ruleNodeId},
            {QStringLiteral("outcome"), f.outcome},
            {QStringLiteral("run_id"), f.runId.isEmpty() ? QJsonValue() : QJsonValue(f.runId)}}}}};
        auto commit = CommitLog::append(db, out.scope, QStringLiteral("rule_feedback"), actor, inputSha.value(), diff);
        if (!commit)
            return commit.error();
        out.commit = commit.value();
        f.commitId = out.commit.id;
        f.createdAt = out.commit.createdAt;
        if (auto r = RuleStore::insertFeedback(db, f); !r)
            return r;
        return RuleStore::recordOutcome(db, f.ruleNodeId, f.outcome);
    });
    if (!written)
        return written.error();
    return out;
}

} // namespace MemoryGraph
