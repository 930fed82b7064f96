#pragma once

#include "service/embedding/embeddingprovider.h"

namespace MemoryGraph {

/// EMBEDDING_PROVIDER=fake: synthetic unit vectors derived from SHA-256 of the text, for smoke
/// tests only (spec §5.5). Identical texts get identical vectors; different texts get vectors
/// that are close to orthogonal, so recall works but similarity means nothing.
class FakeEmbeddingProvider final : public EmbeddingProvider
{
public:
    QString name() const override;
    QString model() const override;
    Result<QVector<Embedding>> embed(const QStringList &texts) override;

    /// The vector for one text; exposed so tests can compare without going through a batch.
    static Embedding vectorFor(const QString &text);
};

} // namespace MemoryGraph
