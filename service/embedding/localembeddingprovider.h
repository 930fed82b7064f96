#pragma once

#include "service/embedding/embeddingprovider.h"

namespace MemoryGraph {

/// EMBEDDING_PROVIDER=local (the desktop default, DESIGN decision 6): an offline lexical
/// embedder, so recall_text works without any network or model download.
///
/// Features are word unigrams (weight 1.0), bigrams of neighbouring terms (0.5) and character
/// trigrams of each term with boundary markers (0.3), taken from Lexical::terms(), and each
/// word's WordNet concepts with the broader ones above them (0.6 for the word's own senses down
/// to 0.05 four levels up; WordConcepts). Each feature is hashed (FNV-1a, fixed, so vectors
/// are stable across runs and platforms) to one of the 1536 dimensions with a sign; counts are
/// damped to 1 + ln(tf) and the vector is L2-normalised. Cosine similarity therefore measures
/// shared wording and a little shared meaning: "dark editor themes" is near "prefers dark mode
/// in the editor", and "which colleague keeps a reptile" finds "Yuki's leopard gecko"; "car"
/// meets "automobile" (one WordNet sense), but no paraphrase beyond what WordNet spells out.
///
/// Version 2 added the concepts; vectors stored by an older version are re-embedded in the
/// background (supersedes()), so a scope never mixes the two.
class LocalEmbeddingProvider final : public EmbeddingProvider
{
public:
    QString name() const override;
    QString model() const override;
    /// The earlier versions of this embedder ("local-hashing-v1").
    bool supersedes(const QString &storedModel) const override;
    /// Fails with 400 invalid_request when a text has no word characters at all.
    Result<QVector<Embedding>> embed(const QStringList &texts) override;

    static Result<Embedding> vectorFor(const QString &text);
};

} // namespace MemoryGraph
