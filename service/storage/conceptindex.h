#pragma once

#include "service/core/result.h"
#include "service/storage/lexicalindex.h"

#include <QSqlDatabase>
#include <QString>
#include <QVector>

/// The concept recall channel: SQLite FTS5 over the WordNet concepts of each node's title,
/// summary and slot text (ConceptTerms), kept in the transaction that changes the node
/// (TextIndexQueue indexes it before the commit) through the SQL function registered here.
namespace MemoryGraph::ConceptIndex {

/// The SQL function the triggers call: memorygraph_concepts(title, summary, slot text) gives
/// the node's concept tokens, separated by spaces.
inline constexpr char kSqlFunction[] = "memorygraph_concepts";

/// Registers kSqlFunction on a connection. Every connection that may write nodes needs it: a
/// trigger calling a function its connection does not know fails the write.
Result<void> registerSqlFunction(QSqlDatabase &db);

/// The memory's concept tokens, as kSqlFunction computes them.
QString memoryTokens(const QString &title, const QString &summary, const QString &slotText);

/// The best `limit` nodes of the scope the filter admits whose concepts the question's words
/// name, by BM25 over the concept tokens (a rare concept counts more).
Result<QVector<LexicalIndex::Hit>> search(QSqlDatabase &db, const QString &tenantId,
                                          const QString &scope, const QString &question,
                                          const LexicalIndex::SeedFilter &filter, int limit);

} // namespace MemoryGraph::ConceptIndex
