#pragma once

#include <QString>
#include <QVector>

/// What a word means beyond its spelling, for the offline embedder: the WordNet 3.0 concepts
/// (synsets) it names and the broader concepts above them, so that "felines" meets "cats" and
/// "reptile" meets "gecko". The table is generated from WordNet at build time
/// (tools/conceptgen) and compiled in; it is read once, on first use.
namespace MemoryGraph::WordConcepts {

/// Levels of broader concepts followed above a word's own (gecko -> lizard -> saurian ->
/// diapsid -> reptile is four).
constexpr int kMaxDepth = 4;

struct Concept
{
    int id = 0;    // the synset's row in the table: stable for one WordNet version
    int depth = 0; // 0: a sense of the word itself; n: n levels broader
};

/// The concepts of a lower-case word's two most frequent senses as a noun and as a verb, found
/// through its base form ("bunnies" -> bunny, "mice" -> mouse, "went" -> go), each broader
/// concept up to kMaxDepth once, at its nearest depth. Empty for a word WordNet does not know.
QVector<Concept> of(const QString &word);

/// Synsets in the compiled-in table (0 when it could not be read).
int synsetCount();

} // namespace MemoryGraph::WordConcepts
