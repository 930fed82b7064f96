#pragma once

#include "service/core/config.h"
#include "service/core/jsonbody.h"
#include "service/core/result.h"

#include <QJsonValue>
#include <QString>
#include <QVector>

#include <optional>

namespace MemoryGraph {

/// The seven recall knobs of spec §4.3.1.
struct RecallKnobs
{
    int limit = 24;
    int hops = 2;
    int maxNodes = 60;
    int maxEdges = 80;
    int rankedLimit = 140;
    double minEdgeWeight = 0.2;
    double minEdgeConfidence = 0.2;
};

/// The defaults of a named profile; nullopt for an unknown name.
std::optional<RecallKnobs> recallProfileKnobs(const QString &profile);

/// A validated /recall or /recall_text body (spec §4.3, §4.4).
struct RecallRequest
{
    QString tenantId;
    QString scope;
    QString consumerAgentId;
    QString consumerTeamId;
    QVector<float> queryEmbedding; ///< /recall
    QString queryText;             ///< /recall_text
    std::optional<int> limit;
    std::optional<int> hops;
    std::optional<int> maxNodes;
    std::optional<int> maxEdges;
    std::optional<int> rankedLimit;
    std::optional<double> minEdgeWeight;
    std::optional<double> minEdgeConfidence;
    std::optional<int> contextTokenBudget;
    std::optional<int> contextCharBudget;
    QString compactionProfile = QStringLiteral("balanced");
    bool includeMeta = false;
    bool includeSlots = false;
    bool includeSlotsPreview = false;
    int slotsPreviewKeys = 10;
    bool returnDebug = false;
    bool includeEmbeddings = false;
    bool rulesContextGiven = false;
    QJsonValue rulesContext;
    bool rulesIncludeShadow = false;
    int rulesLimit = 50;

    /// Any of the seven knobs present: the request pinned them, so no adaptive downgrade.
    bool hasExplicitKnobs() const;

    /// textQuery: query_text instead of query_embedding. `vectors`: the embeddings
    /// parseJsonBody() decoded from the same body.
    static Result<RecallRequest> fromJson(const QJsonObject &body, bool textQuery,
                                          int maxTextLength,
                                          const DecodedVectors *vectors = nullptr);
};

/// Which profile and knobs a recall runs with, and why.
struct ResolvedKnobs
{
    QString profile;
    QString profileSource; ///< request_default, global, endpoint, tenant_default, tenant_endpoint
    bool adaptiveApplied = false;
    RecallKnobs knobs;
};

/// Profile layering (tenant_endpoint > tenant_default > endpoint > global), adaptive downgrade
/// under queue pressure when no knob was pinned, then the request's own knobs on top.
ResolvedKnobs resolveRecallKnobs(const RecallRequest &request, const QString &tenantId,
                                 const QString &endpoint, const ServiceConfig &config,
                                 double queueWaitMs);

} // namespace MemoryGraph
