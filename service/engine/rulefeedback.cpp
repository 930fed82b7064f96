#include "service/engine/rulefeedback.h"

#include "service/core/ids.h"
#include "service/core/jsonreader.h"
#include "service/engine/commitcontext.h"
#include "service/engine/commitlog.h"
#include "service/engine/jsonvalues.h"
#include "service/engine/requestfields.h"
#include "service/engine/vocabulary.h"
#include "service/engine/scopedlookup.h"
#include "service/storage/database.h"
#include "service/storage/rulestore.h"

#include <QJsonArray>

namespace MemoryGraph {

Result<RuleFeedbackRequest> RuleFeedbackRequest::fromJson(const QJsonObject &body, int maxTextLength)
{
    RuleFeedbackRequest q;
    JsonReader r(body);
    r.string("tenant_id", &q.tenantId, 64);
    r.string("scope", &q.scope, 256);
    readUuid(r, "rule_node_id", &q.ruleNodeId, true);
    if (r.ok() && (body.value(QStringLiteral("outcome")).isUndefined() || body.value(QStringLiteral("outcome")).isNull()))
        r.fail(QStringLiteral("outcome"), QStringLiteral("is required"));
    r.enumValue("outcome", &q.outcome, Vocabulary::outcomes());
    r.string("run_id", &q.runId, 256);
    r.string("note", &q.note, 1 << 16);
    r.string("actor", &q.actor, 256);
    readCommitInput(r, &q.inputText, &q.inputSha256);
    if (!r.ok())
        return r.error();
    q.note = normalizeText(q.note, maxTextLength);
    q.inputText = normalizeText(q.inputText, maxTextLength);
    return q;
}

RuleFeedbackEngine::RuleFeedbackEngine(Database &db, const ServiceConfig &config) : m_db(db), m_config(config) {}

Result<RuleFeedbackOutcome> RuleFeedbackEngine::record(const RuleFeedbackRequest &req, const RequestMeta &meta)
{
    auto begun = beginCommit(req, meta, m_config);
    if (!begun)
        return begun.error();
    const CommitContext &ctx = begun.value();
    RuleFeedbackOutcome out;
    out.scope = ctx.scope;
    auto written = m_db.write([&](QSqlDatabase &db) -> Result<void> {
        auto node = findRuleInScope(db, out.scope, req.ruleNodeId, NodeAccess::of(meta));
        if (!node)
            return node.error();
        // A rule written before its first state change has no state row yet.
        if (auto r = RuleStore::ensureRuleDef(db, node.value()); !r)
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
            {QStringLiteral("run_id"), nullable(f.runId)}}}}};
        auto commit = CommitLog::append(db, out.scope, QStringLiteral("rule_feedback"), ctx.actor, ctx.inputSha256, diff);
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
