#pragma once

#include "service/embedding/embeddingprovider.h"

namespace MemoryGraph {

/// The provider EMBEDDING_PROVIDER names: the OpenAI-compatible client for "openai", otherwise
/// makeOfflineEmbeddingProvider() (nullptr for "none"). The composition root calls this one.
Result<std::unique_ptr<EmbeddingProvider>> makeEmbeddingProvider(const ServiceConfig &config);

} // namespace MemoryGraph
