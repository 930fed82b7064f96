#pragma once

#include "service/access/callscope.h"
#include "service/access/viewer.h"
#include "service/api/recalloutcome.h"
#include "service/api/recallrequest.h"
#include "service/assemble/contextbuilder.h"
#include "service/core/config.h"
#include "service/core/identity.h"
#include "service/core/records.h"
#include "service/rules/ruleevaluator.h"

#include <QJsonArray>
class QThreadPool;

namespace MemoryGraph {

class Database;
class IndexManager;
class RecallAudit;

/// What a recall checks before it does any work: the call scope (403 for another tenant), the
/// consumer ids and the rules_context identity (403 identity_mismatch).
struct RecallAdmission
{
    CallScope scope;
    Viewer viewer;
    std::optional<QJsonValue> rulesContext; ///< with the caller's identity, when given
};

/// The recall pipeline (spec §4.3, reference §4): seeds by vector similarity among visible,
/// ready, hot/warm nodes; a 1-2 hop neighbourhood; spreading activation and score; a bounded
/// subgraph with draft topics appended; and the context text.
class RecallEngine
{
public:
    /// textChannels: the threads the text channels of text questions run on, beside the
    /// vector channel on the request's own thread (the answer waits for the slower of the two,
    /// not for both). Long-lived, owned by the service: each thread keeps its connection with
    /// its prepared statements and page cache. A request that finds every thread busy runs its
    /// text channels itself (waitForFinished takes back a job no thread has started).
    RecallEngine(Database &db, IndexManager &indexes, RecallAudit &audit, QThreadPool &textChannels,
                 const ServiceConfig &config);

    /// endpoint: "recall" or "recall_text" (profile policy key and audit label).
    Result<RecallOutcome> recall(const RecallRequest &request, const QVector<float> &query,
                                 const RequestMeta &meta, const QString &endpoint);

    /// The tenant and identity checks of recall(), for callers that must pass them before they
    /// spend an embedding call (recall_text, context/assemble).
    static Result<RecallAdmission> admit(const RecallRequest &request, const RequestMeta &meta,
                                         const ServiceConfig &config);

private:
    Database &m_db;
    IndexManager &m_indexes;
    RecallAudit &m_audit;
    QThreadPool &m_textChannels;
    const ServiceConfig &m_config;
};

} // namespace MemoryGraph
