#pragma once

#include "service/core/result.h"

#include <QSqlDatabase>
#include <QString>

/// A node's words (node_text) and senses (node_concepts) enter their FTS5 indexes at the end of
/// the write transaction that changed the node, one statement per index for the whole write.
/// FTS5 writes its pending terms out as a new index segment at every statement's savepoint, so
/// triggers that indexed each node as it was written made a segment per node and index, and
/// merging them took a fifth of a write. The triggers now queue the node's rowid
/// (`text_index_queue`); Database::write() indexes the queue before it commits, so a committed
/// store never holds a node its indexes miss, and a row another program queued is indexed by
/// the next write (or the next start).
namespace MemoryGraph::TextIndexQueue {

/// The node_text row of a node row (`row`: NEW in a trigger, `nodes` in a SELECT): its rowid,
/// scope token, title, summary and slot text.
QString wordsRow(const QString &row);

/// The node_concepts row of a node row: its rowid, scope token and the concept tokens of its
/// title, summary and slot text (ConceptIndex registers the function on every connection).
QString sensesRow(const QString &row);

/// Indexes every queued node in both indexes and empties the queue. Inside the caller's
/// write transaction; nothing to do costs one look at the queue.
Result<void> indexQueued(QSqlDatabase &db);

} // namespace MemoryGraph::TextIndexQueue
