#include "service/embedding/conceptterms.h"

#include "service/embedding/lexicalterms.h"
#include "service/embedding/wordconcepts.h"

#include <QHash>
#include <QSet>

namespace MemoryGraph::ConceptTerms {

namespace {

/// Words a thread remembers the concepts of; past it the cache starts over. Every node write
/// computes its tokens, and most words recur, so a lookup saves the base-form search and the
/// walk up the hierarchy.
constexpr int kCachedWords = 20000;

/// A word's concept tokens, nearest first, with the depth each was found at.
struct WordTokens
{
    QStringList tokens;
    QVector<int> depths;
};

WordTokens lookUp(const QString &word)
{
    WordTokens found;
    for (const WordConcepts::Concept &c : WordConcepts::of(word)) {
        found.tokens << QLatin1Char('c') + QString::number(c.id);
        found.depths << c.depth;
    }
    return found;
}

const WordTokens &tokensOf(const QString &word)
{
    thread_local QHash<QString, WordTokens> cache;
    auto it = cache.constFind(word);
    if (it == cache.cend()) {
        if (cache.size() >= kCachedWords)
            cache.clear();
        it = cache.insert(word, lookUp(word));
    }
    return *it;
}

} // namespace

QStringList tokens(const QString &text, int maxDepth)
{
    QStringList out;
    QSet<QString> seen;
    for (const QString &word : Lexical::words(text)) {
        const WordTokens &w = tokensOf(word);
        for (qsizetype i = 0; i < w.tokens.size() && w.depths.at(i) <= maxDepth; ++i) {
            if (!seen.contains(w.tokens.at(i))) {
                seen.insert(w.tokens.at(i));
                out << w.tokens.at(i);
            }
        }
    }
    return out;
}

} // namespace MemoryGraph::ConceptTerms
