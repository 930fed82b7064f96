#pragma once

#include "service/embedding/embeddingprovider.h"

namespace MemoryGraph {

/// EMBEDDING_PROVIDER=local (the desktop default, DESIGN decision 6): an offline lexical
/// embedder, so recall_text works without any network or model download.
///
/// Features are word unigrams (weight 1.0), bigrams of neighbouring terms (0.5) and character
/// trigrams of each term with boundary markers (0.3), taken from Lexical::terms(). Each feature
/// is hashed (FNV-1a, fixed, so vectors are stable across runs and platforms) to one of the
/// 1536 dimensions with a sign; counts are damped to 1 + ln(tf) and the vector is L2-normalised.
/// Cosine similarity therefore measures shared wording, not meaning: "dark editor themes" is
/// near "prefers dark mode in the editor", but "car" is not near "automobile".
class LocalEmbeddingProvider final : public EmbeddingProvider
{
public:
    QString name() const override;
    QString model() const override;
    /// Fails with 400 invalid_request when a text has no word characters at all.
    Result<QVector<Embedding>> embed(const QStringList &texts) override;

    static Result<Embedding> vectorFor(const QString &text);
};

} // namespace MemoryGraph
