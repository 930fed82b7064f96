#include "service/rules/rulefeedback.h"

#include "service/access/commitcontext.h"
#include "service/api/requestfields.h"
#include "service/core/ids.h"
#include "service/core/jsonreader.h"
#include "service/core/jsonvalues.h"
#include "service/core/vocabulary.h"
#include "service/storage/commitlog.h"
#include "service/storage/database.h"
#include "service/storage/rulestore.h"
#include "service/storage/scopedlookup.h"

#include <QJsonArray>

namespace MemoryGraph {

RuleFeedbackEngine::RuleFeedbackEngine(Database &db, const ServiceConfig &config)
    : m_db(db), m_config(config)
{
}

Result<RuleFeedbackOutcome> RuleFeedbackEngine::record(const RuleFeedbackRequest &req,
                                                       const RequestMeta &meta)
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
        const QJsonObject diff{
            {QStringLiteral("rule_feedback"),
             QJsonArray{QJsonObject{{QStringLiteral("feedback_id"), f.id},
                                    {QStringLiteral("rule_node_id"), f.ruleNodeId},
                                    {QStringLiteral("outcome"), f.outcome},
                                    {QStringLiteral("run_id"), nullable(f.runId)}}}}};
        auto commit = CommitLog::append(db, out.scope, QStringLiteral("rule_feedback"), ctx.actor,
                                        ctx.inputSha256, diff);
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
