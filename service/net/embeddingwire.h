#pragma once

#include "service/core/result.h"
#include "service/embedding/embeddingprovider.h"

#include <QByteArray>
#include <QStringList>
#include <QUrl>

/// The OpenAI-compatible /v1/embeddings wire format, shared by OpenAI, Ollama, LM Studio and vLLM.
namespace MemoryGraph::EmbeddingWire {

/// {base}/v1/embeddings; a base that already ends in /v1 (or names /embeddings itself) is not
/// extended twice. Invalid when base is not an http(s) URL with a host.
QUrl endpoint(const QString &baseUrl);

/// {"model": model, "input": [texts]}.
QByteArray requestBody(const QString &model, const QStringList &texts);

/// Reads {"data": [{"embedding": [...], "index": i}, ...]} back into input order. Any deviation
/// (not JSON, wrong count, duplicate or out-of-range index, wrong dimension, a non-finite or
/// non-numeric component) is 502 upstream_embedding_bad_response.
Result<QVector<Embedding>> parseResponse(const QByteArray &body, int expectedCount);

} // namespace MemoryGraph::EmbeddingWire
