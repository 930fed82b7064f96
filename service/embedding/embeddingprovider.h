#pragma once

#include "service/core/config.h"
#include "service/core/result.h"

#include <QStringList>
#include <QVector>

#include <memory>

namespace MemoryGraph {

using Embedding = QVector<float>;

/// Turns texts into 1536-dimensional vectors. Implementations are thread-safe and blocking: they
/// are called from worker threads (recall_text handlers, the backfill worker), never the GUI.
///
/// Errors (spec §4.4): 429 upstream_embedding_rate_limited, 503 upstream_embedding_unavailable
/// (both with details.retry_after_sec), 502 upstream_embedding_bad_response.
class EmbeddingProvider
{
public:
    virtual ~EmbeddingProvider() = default;

    /// Reported as query.embedding_provider, e.g. "local:hashing-v2" or "openai:<model>".
    virtual QString name() const = 0;
    /// Stored as a node's embedding_model.
    virtual QString model() const = 0;
    /// Whether vectors stored under storedModel come from an earlier version of this provider
    /// and are re-embedded in the background (comparing them with this version's would mix
    /// two vector spaces). Vectors a client supplied are never replaced.
    virtual bool supersedes(const QString &storedModel) const
    {
        Q_UNUSED(storedModel);
        return false;
    }
    /// One vector per text, in order, each of kEmbeddingDimension finite numbers.
    virtual Result<QVector<Embedding>> embed(const QStringList &texts) = 0;
};

/// The providers that need no network: "fake" and "local". Returns nullptr for "none";
/// an error for "openai" (that one is built by the net module).
Result<std::unique_ptr<EmbeddingProvider>>
makeOfflineEmbeddingProvider(const ServiceConfig &config);

} // namespace MemoryGraph
