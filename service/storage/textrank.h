#pragma once

#include "service/core/result.h"

#include <QSqlDatabase>

/// The rank of the text channels' FTS5 matches: BM25 exactly as FTS5's bm25() computes it
/// (k1 1.2, b 0.75, one weight per column), except that a phrase's document count is looked up
/// only once the phrase scores in a row. Every text query starts with the scope filter, a
/// phrase that matches the whole scope in a column of weight 0: bm25() counted its rows for
/// every query, a cost in proportion to the scope (4 ms of a 100,000-node scope's 4.5).
namespace MemoryGraph::TextRank {

/// The FTS5 auxiliary function: memorygraph_bm25(table, weight of column 0, ...).
inline constexpr char kFunction[] = "memorygraph_bm25";

/// Registers kFunction with FTS5 on a connection; every connection that searches needs it.
Result<void> registerFunction(QSqlDatabase &db);

} // namespace MemoryGraph::TextRank
