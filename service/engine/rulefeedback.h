#pragma once

#include "service/core/config.h"
#include "service/core/identity.h"
#include "service/core/records.h"
#include "service/core/result.h"
#include "service/engine/callscope.h"

#include <QJsonObject>

namespace MemoryGraph {

class Database;

/// POST /v1/memory/feedback: one outcome for one rule (reference §2.6; its input rule is the one
/// tools/feedback reuses, spec §4.15).
struct RuleFeedbackRequest
{
    QString tenantId;
    QString scope;
    QString ruleNodeId;   ///< lower-case UUID
    QString outcome;      ///< positive | negative | neutral
    QString runId;
    QString note;
    QString actor;
    QString inputText;
    QString inputSha256;
    static Result<RuleFeedbackRequest> fromJson(const QJsonObject &body, int maxTextLength);
};

struct RuleFeedbackOutcome
{
    CallScope scope;
    CommitRecord commit;
    FeedbackRecord feedback;
};

/// Stores one feedback row (source rule_feedback), moves the rule's positive or negative counter
/// (neutral moves neither) and audits both as one rule_feedback commit. An unknown rule is 404.
class RuleFeedbackEngine
{
public:
    RuleFeedbackEngine(Database &db, const ServiceConfig &config);
    Result<RuleFeedbackOutcome> record(const RuleFeedbackRequest &request, const RequestMeta &meta);

private:
    Database &m_db;
    const ServiceConfig &m_config;
};

} // namespace MemoryGraph
