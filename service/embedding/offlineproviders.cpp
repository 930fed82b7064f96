#include "service/embedding/embeddingprovider.h"
#include "service/embedding/fakeembeddingprovider.h"
#include "service/embedding/localembeddingprovider.h"

namespace MemoryGraph {

Result<std::unique_ptr<EmbeddingProvider>> makeOfflineEmbeddingProvider(const ServiceConfig &config)
{
    const QString kind = config.embeddingProvider.trimmed().toLower();
    if (kind == QLatin1String("none"))
        return std::unique_ptr<EmbeddingProvider>();
    if (kind == QLatin1String("fake"))
        return std::unique_ptr<EmbeddingProvider>(std::make_unique<FakeEmbeddingProvider>());
    if (kind == QLatin1String("local"))
        return std::unique_ptr<EmbeddingProvider>(std::make_unique<LocalEmbeddingProvider>());
    // The core library does not link Qt Network; the composition root must use
    // makeEmbeddingProvider() from service/net for "openai".
    if (kind == QLatin1String("openai"))
        return Error::internal(QStringLiteral(
            "EMBEDDING_PROVIDER=openai needs the network module (makeEmbeddingProvider)"));
    return Error::internal(QStringLiteral("unknown EMBEDDING_PROVIDER '%1'").arg(kind));
}

} // namespace MemoryGraph
