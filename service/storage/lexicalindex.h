#pragma once

#include "service/core/result.h"

#include <QHash>
#include <QSqlDatabase>
#include <QStringList>
#include <QVector>

#include <functional>

/// The lexical recall channel: SQLite FTS5 over each node's title, summary and slot text,
/// kept in the transaction that changes the node (TextIndexQueue indexes it before the commit).
namespace MemoryGraph::LexicalIndex {

/// The token every row of a (tenant, scope) carries in its scope_key column: the wall each
/// query is built behind.
QString scopeKey(const QString &tenantId, const QString &scope);

/// The FTS5 expression matching exactly the scope's rows.
QString scopeMatch(const QString &tenantId, const QString &scope);

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
/// rank that orders its matches, its arguments being the columns' weights:
/// "memorygraph_bm25(node_text, 0.0, ...)" (TextRank).
struct Ranking
{
    QString table;
    QString bm25;
};

/// Rows of a large scope a channel ranks for one question at the most (about 2 µs a row).
constexpr qint64 kRankedRowBudget = 1500;

/// How many of the scope's rows each term matches; a count may stop at `cap` + 1.
using TermCounter
    = std::function<Result<QHash<QString, qint64>>(const QStringList &terms, qint64 cap)>;

/// The terms worth ranking, in their given order. In a scope of at most kRankedRowBudget rows,
/// all of them; in a larger one the rarest first while the rows they match add up to the
/// budget. BM25 gives a term that many of the scope's rows hold almost no weight, and ranking
/// costs time per matching row: a question whose words every memory held took 40 ms at
/// 10,000 memories and grew with the scope.
Result<QStringList> affordableTerms(QSqlDatabase &db, const QString &table, const QString &tenantId,
                                    const QString &scope, const QStringList &terms,
                                    const TermCounter &count);

/// A TermCounter for any such table: the scope's rows holding each term, counted up to the cap.
TermCounter matchCounter(QSqlDatabase &db, const QString &table, const QString &tenantId,
                         const QString &scope);

/// search() over any such table: the best `limit` nodes the filter admits for the MATCH
/// expression (matchExpression()), best first.
Result<QVector<Hit>> searchTable(QSqlDatabase &db, const Ranking &ranking, const QString &match,
                                 const QString &tenantId, const QString &scope,
                                 const SeedFilter &filter, int limit);

} // namespace MemoryGraph::LexicalIndex
