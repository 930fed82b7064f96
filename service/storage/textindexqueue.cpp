#include "service/storage/textindexqueue.h"

#include "service/storage/conceptindex.h"
#include "service/storage/database.h"

namespace MemoryGraph::TextIndexQueue {

namespace {

/// The (tenant, scope) token of a node row that LexicalIndex::scopeKey builds too.
QString scopeKeyOf(const QString &row)
{
    return QStringLiteral("'k' || lower(hex(%1.tenant_id || char(10) || %1.scope))").arg(row);
}

/// The string values of a node row's slots, separated by spaces.
QString slotTextOf(const QString &row)
{
    return QStringLiteral("(SELECT group_concat(value, ' ') FROM json_tree("
                          "CASE WHEN json_valid(%1.slots) THEN %1.slots ELSE '{}' END)"
                          " WHERE type = 'text')")
        .arg(row);
}

/// The queued nodes in rowid order, the order FTS5 appends to a segment fastest.
QString queuedNodes()
{
    return QStringLiteral(" FROM text_index_queue JOIN nodes ON nodes.rowid = node_rowid"
                          " ORDER BY node_rowid");
}

} // namespace

QString wordsRow(const QString &row)
{
    return QStringLiteral("%1.rowid, %2, %1.title, %1.text_summary, %3")
        .arg(row, scopeKeyOf(row), slotTextOf(row));
}

QString sensesRow(const QString &row)
{
    return QStringLiteral("%1.rowid, %2, %3(%1.title, %1.text_summary, %4)")
        .arg(row, scopeKeyOf(row), QLatin1String(ConceptIndex::kSqlFunction), slotTextOf(row));
}

Result<void> indexQueued(QSqlDatabase &db)
{
    bool queued = false;
    auto looked
        = runCachedSql(db, QStringLiteral("SELECT EXISTS (SELECT 1 FROM text_index_queue)"), {},
                       [&queued](QSqlQuery &q) { queued = q.next() && q.value(0).toBool(); });
    if (!looked || !queued)
        return looked;
    static const QStringList statements{
        QStringLiteral("INSERT INTO node_text (rowid, scope_key, title, summary, slots) SELECT ")
            + wordsRow(QStringLiteral("nodes")) + queuedNodes(),
        QStringLiteral("INSERT INTO node_concepts (rowid, scope_key, concepts) SELECT ")
            + sensesRow(QStringLiteral("nodes")) + queuedNodes(),
        QStringLiteral("DELETE FROM text_index_queue"),
    };
    for (const QString &statement : statements) {
        if (auto done = runCachedSql(db, statement, {}); !done)
            return done;
    }
    return {};
}

} // namespace MemoryGraph::TextIndexQueue
