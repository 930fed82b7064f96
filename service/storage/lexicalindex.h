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

/// Words of a question the lexical channel looks for at the most: a longer question adds
/// little but cost.
constexpr int kMaxWords = 32;

/// The FTS5 query for these terms within the scope: any of the first maxTerms distinct terms
/// may match (BM25 weighs them by rarity). Empty when no term is left to look for.
QString matchExpression(const QString &tenantId, const QString &scope, const QStringList &terms,
                        int maxTerms = kMaxWords);

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

/// An FTS5 table of the node rows (rowid = the node's rowid, first column scope_key) and the
/// bm25() that ranks it, its arguments being the columns' weights: "bm25(node_text, 0.0, ...)".
struct Ranking
{
    QString table;
    QString bm25;
};

/// search() over any such table: the best `limit` nodes the filter admits for the MATCH
/// expression (matchExpression()), best first.
Result<QVector<Hit>> searchTable(QSqlDatabase &db, const Ranking &ranking, const QString &match,
                                 const QString &tenantId, const QString &scope,
                                 const SeedFilter &filter, int limit);

} // namespace MemoryGraph::LexicalIndex
