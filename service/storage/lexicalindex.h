#pragma once

#include "service/core/result.h"

#include <QSqlDatabase>
#include <QStringList>
#include <QVector>

/// The lexical recall channel: SQLite FTS5 over each node's title, summary and slot text,
/// maintained by triggers in the node's own transaction (see the "lexical_index" migration).
namespace MemoryGraph::LexicalIndex {

/// The token every row of a (tenant, scope) carries in its scope_key column: the wall each
/// query is built behind.
QString scopeKey(const QString &tenantId, const QString &scope);

/// The FTS5 query for these words within the scope: any word may match (BM25 weighs them by
/// rarity). Empty when no word is left to look for.
QString matchExpression(const QString &tenantId, const QString &scope, const QStringList &words);

struct Hit
{
    qint64 label = 0;   ///< the node's vector label
    double score = 0.0; ///< BM25, larger is better
};

/// Who may read and what may seed: the filters the vector channel's exact scan applies too.
struct SeedFilter
{
    QStringList types;
    QString viewerAgent;
    QString viewerTeam;
};

/// The best `limit` ready, hot or warm nodes of the scope the filter admits, by BM25 over the
/// words (title weighs twice the summary, slot text half).
Result<QVector<Hit>> search(QSqlDatabase &db, const QString &tenantId, const QString &scope,
                            const QStringList &words, const SeedFilter &filter, int limit);

} // namespace MemoryGraph::LexicalIndex
