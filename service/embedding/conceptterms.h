#pragma once

#include "service/embedding/wordconcepts.h"

#include <QString>
#include <QStringList>

/// The concept channel's terms: the WordNet concepts a text's words name, each as one token
/// ("c<synset>") an FTS5 index ranks with BM25 like a word, so a rare concept counts more than a
/// common one and "felines" finds a memory about a cat.
namespace MemoryGraph::ConceptTerms {

/// Broader levels a memory's words carry: all that WordConcepts follows, so a memory about a
/// gecko also stands for lizards, saurians, diapsids and reptiles.
constexpr int kMemoryDepth = WordConcepts::kMaxDepth;

/// Broader levels a question's words carry: their own senses and the one above, so "bunnies"
/// meets "rabbits" and "mimic" meets "imitate", but a question does not match every animal.
/// Depths and the choice are measured in tests/benchmark/README.md, "Recall quality".
constexpr int kQuestionDepth = 1;

/// The token of every concept of the text's words (lower-cased, stop words dropped, as the
/// lexical channel reads them) up to maxDepth levels broader, each once, in reading order.
/// Once, because repeated concepts made a memory longer to BM25 without ranking it better.
QStringList tokens(const QString &text, int maxDepth);

} // namespace MemoryGraph::ConceptTerms
