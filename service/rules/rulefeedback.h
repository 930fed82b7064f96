#pragma once

#include "service/access/callscope.h"
#include "service/api/rulefeedbackrequest.h"
#include "service/core/config.h"
#include "service/core/identity.h"
#include "service/core/records.h"
#include "service/core/result.h"

#include <QJsonObject>

namespace MemoryGraph {

class Database;

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
