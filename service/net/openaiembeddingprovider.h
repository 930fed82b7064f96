#pragma once

#include "service/embedding/embeddingprovider.h"

#include <QUrl>

namespace MemoryGraph {

/// EMBEDDING_PROVIDER=openai: any OpenAI-compatible POST {base}/v1/embeddings endpoint
/// (OpenAI, Ollama, LM Studio, vLLM). The model must produce kEmbeddingDimension dimensions.
///
/// embed() blocks the calling thread. Each call builds its own QNetworkAccessManager and
/// waits in a local QEventLoop, so the provider may be shared by any number of worker threads
/// (none of which needs a running event loop); it must not be called from the GUI thread.
/// Inputs over kMaxBatch texts are sent as several requests, each bounded by the timeout.
///
/// Failures follow spec §4.4: throttling -> 429 upstream_embedding_rate_limited; timeout,
/// network failure or upstream 5xx -> 503 upstream_embedding_unavailable; any other status or
/// an unusable body -> 502 upstream_embedding_bad_response. The API key never appears in an
/// error message or log line.
class OpenAiEmbeddingProvider final : public EmbeddingProvider
{
public:
    static constexpr int kMaxBatch = 64;

    /// Fails with 400 invalid_configuration for an unusable base URL, model or key.
    static Result<std::unique_ptr<EmbeddingProvider>> create(const ServiceConfig &config);

    QString name() const override;
    QString model() const override;
    Result<QVector<Embedding>> embed(const QStringList &texts) override;

    QUrl endpoint() const { return m_endpoint; }

private:
    OpenAiEmbeddingProvider(QUrl endpoint, QString model, QString apiKey, int timeoutMs);

    Result<QVector<Embedding>> embedBatch(const QStringList &texts) const;

    const QUrl m_endpoint;
    const QString m_model;
    const QString m_apiKey;
    const int m_timeoutMs;
};

} // namespace MemoryGraph
