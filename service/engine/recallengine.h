#pragma once

#include "service/core/config.h"
#include "service/core/identity.h"
#include "service/core/records.h"
#include "service/engine/callscope.h"
#include "service/engine/contextbuilder.h"
#include "service/engine/recallrequest.h"
#include "service/engine/ruleevaluator.h"
#include "service/engine/viewer.h"

#include <QJsonArray>

namespace MemoryGraph {

class Database;
class IndexManager;
class RecallAudit;

struct RecallSeed
{
    NodeRecord node;
    double similarity = 0.0;
};

struct RankedEntry
{
    QString id;
    double activation = 0.0;
    double score = 0.0;
};

/// Everything a recall produced; the HTTP layer turns it into the whitelisted response.
struct RecallOutcome
{
    QString tenantId;
    QString scope;
    QString endpoint;
    ResolvedKnobs resolved;
    QVector<RecallSeed> seeds;
    QVector<RankedEntry> ranked;
    QVector<NodeRecord> nodes;     ///< the returned subgraph
    QVector<EdgeRecord> edges;
    ContextResult context;
    int neighborhoodNodes = 0;
    int neighborhoodEdges = 0;
    QString stage1Mode;            ///< ann | exact
    int annCandidates = 0;
    bool debugEmbeddingsIncluded = false;
    QJsonArray debugEmbeddings;
    QString queryText;             ///< recall_text
    QString embeddingProvider;     ///< recall_text
    std::optional<RuleEvaluation> rules;   ///< when the request carried rules_context
};

/// What a recall checks before it does any work: the call scope (403 for another tenant), the
/// consumer ids and the rules_context identity (403 identity_mismatch).
struct RecallAdmission
{
    CallScope scope;
    Viewer viewer;
    std::optional<QJsonValue> rulesContext;   ///< with the caller's identity, when given
};

/// The recall pipeline (spec §4.3, reference §4): seeds by vector similarity among visible,
/// ready, hot/warm nodes; a 1-2 hop neighbourhood; spreading activation and score; a bounded
/// subgraph with draft topics appended; and the context text.
class RecallEngine
{
public:
    RecallEngine(Database &db, IndexManager &indexes, RecallAudit &audit,
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
    const ServiceConfig &m_config;
};

} // namespace MemoryGraph
