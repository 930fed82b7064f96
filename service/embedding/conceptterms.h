#pragma once

#include <QString>
#include <QStringList>

/// The concept channel's terms: the WordNet concepts a text's words name, each as one token
/// ("c<synset>") an FTS5 index ranks with BM25 like a word, so a rare concept counts more than a
/// common one and "felines" finds a memory about a cat.
namespace MemoryGraph::ConceptTerms {

/// Broader levels a memory's words carry: a memory about a gecko also stands for lizards,
/// saurians and diapsids (tests/benchmark/README.md, "Recall quality", has the figures).
constexpr int kMemoryDepth = 3;

/// Broader levels a question's words carry: its words' own senses only, so that a question
/// about felines finds cats but not every animal.
constexpr int kQuestionDepth = 0;

/// The token of every concept of the text's words (lower-cased, stop words dropped, as the
/// lexical channel reads them) up to maxDepth levels broader, in reading order. A concept that
/// several words share comes once per word: its count is the memory's term frequency.
QStringList tokens(const QString &text, int maxDepth);

} // namespace MemoryGraph::ConceptTerms
