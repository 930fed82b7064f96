#pragma once

#include <QString>
#include <QStringList>

/// Text analysis for the offline "local" embedder: turns free text into comparable terms.
/// Everything here is deterministic and locale-independent, so vectors built on one machine
/// match queries embedded on another.
namespace MemoryGraph::Lexical {

/// Lower-cased, stop-word-free, stemmed terms in reading order. Words are runs of
/// letters, digits and combining marks; an apostrophe between letters is dropped
/// ("user's" -> "users" -> "user"). Han and kana characters, which are written without spaces,
/// become one term each.
QStringList terms(const QString &text);

/// The same words lower-cased and stop-word-free, but not stemmed: for an index that stems
/// them its own way (the FTS5 lexical index).
QStringList words(const QString &text);

/// Light English suffix stemming (plural -s/-es/-ies, -ed, -ing, final -e, doubled consonants).
/// It aims at making inflections of one word agree, not at producing dictionary stems; words
/// with anything but a-z are returned unchanged.
QString stem(const QString &word);

/// A small list of English function words that carry no topic.
bool isStopWord(const QString &word);

} // namespace MemoryGraph::Lexical
