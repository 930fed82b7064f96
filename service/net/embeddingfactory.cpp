#include "service/net/embeddingfactory.h"

#include "service/net/openaiembeddingprovider.h"

namespace MemoryGraph {

Result<std::unique_ptr<EmbeddingProvider>> makeEmbeddingProvider(const ServiceConfig &config)
{
    if (config.embeddingProvider.trimmed().toLower() == QLatin1String("openai"))
        return OpenAiEmbeddingProvider::create(config);
    return makeOfflineEmbeddingProvider(config);
}

} // namespace MemoryGraph
