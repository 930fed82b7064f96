#include "service/storage/lexicalindex.h"

#include "service/storage/database.h"
#include "service/storage/sqltext.h"

#include <QDateTime>
#include <QSet>

#include <algorithm>
#include <mutex>
#include <optional>

namespace MemoryGraph::LexicalIndex {

namespace {

/// A word as an FTS5 string: double quotes doubled, so no word is read as query syntax.
QString quoted(const QString &word)
{
    QString inner = word;
    inner.replace(QLatin1Char('"'), QStringLiteral("\"\""));
    return QLatin1Char('"') + inner + QLatin1Char('"');
}

/// Rows matching the expression, counted up to cap + 1 (FTS5 yields them in rowid order, so
/// the count stops early instead of visiting every match).
Result<qint64> countRows(QSqlDatabase &db, const QString &table, const QString &match, qint64 cap)
{
    qint64 rows = 0;
    auto ran = runCachedSql(db,
                            QStringLiteral("SELECT count(*) FROM (SELECT 1 FROM %1 WHERE %1 MATCH ?"
                                           " LIMIT ?)")
                                .arg(table),
                            {match, cap + 1}, [&rows](QSqlQuery &q) {
                                if (q.next())
                                    rows = q.value(0).toLongLong();
                            });
    if (!ran)
        return ran.error();
    return rows;
}

/// Counts of common terms, kept a minute: a common term stays common for longer than that, and
/// counting one is what costs (a rare term is counted in a few steps, so it is not kept).
class CommonCounts
{
public:
    std::optional<qint64> find(const QString &key)
    {
        const std::lock_guard guard(m_lock);
        const auto it = m_counts.constFind(key);
        if (it == m_counts.cend() || it->expires < QDateTime::currentMSecsSinceEpoch())
            return std::nullopt;
        return it->rows;
    }
    void keep(const QString &key, qint64 rows)
    {
        if (rows < kWorthKeeping)
            return;
        const std::lock_guard guard(m_lock);
        if (m_counts.size() >= kMaxKept)
            m_counts.clear();
        m_counts.insert(key, {rows, QDateTime::currentMSecsSinceEpoch() + kKeepMs});
    }

private:
    static constexpr qint64 kWorthKeeping = 100;
    static constexpr qint64 kKeepMs = 60000;
    static constexpr qsizetype kMaxKept = 20000;
    struct Count
    {
        qint64 rows;
        qint64 expires;
    };
    std::mutex m_lock;
    QHash<QString, Count> m_counts;
};

Result<qint64> cappedCount(QSqlDatabase &db, const QString &table, const QString &match, qint64 cap)
{
    static CommonCounts common;
    const QString key = db.databaseName() + QLatin1Char('\n') + table + QLatin1Char('\n')
                        + QString::number(cap) + QLatin1Char('\n') + match;
    if (const auto known = common.find(key))
        return *known;
    auto rows = countRows(db, table, match, cap);
    if (rows)
        common.keep(key, rows.value());
    return rows;
}

QStringList distinctTerms(const QStringList &terms, int maxTerms)
{
    QStringList out;
    QSet<QString> seen;
    for (const QString &term : terms) {
        if (out.size() == maxTerms)
            break;
        if (!term.isEmpty() && !seen.contains(term)) {
            seen.insert(term);
            out << term;
        }
    }
    return out;
}

} // namespace

QString scopeKey(const QString &tenantId, const QString &scope)
{
    // Matches the triggers' 'k' || lower(hex(tenant_id || char(10) || scope)).
    return QLatin1Char('k')
           + QString::fromLatin1((tenantId + QLatin1Char('\n') + scope).toUtf8().toHex());
}

QString scopeMatch(const QString &tenantId, const QString &scope)
{
    return QStringLiteral("scope_key : ") + quoted(scopeKey(tenantId, scope));
}

QString matchExpression(const QString &tenantId, const QString &scope, const QStringList &terms,
                        int maxTerms)
{
    QStringList anyOf;
    for (const QString &term : distinctTerms(terms, maxTerms))
        anyOf << quoted(term);
    if (anyOf.isEmpty())
        return {};
    return scopeMatch(tenantId, scope) + QStringLiteral(" AND (")
           + anyOf.join(QStringLiteral(" OR ")) + QLatin1Char(')');
}

TermCounter matchCounter(QSqlDatabase &db, const QString &table, const QString &tenantId,
                         const QString &scope)
{
    return [&db, table, wall = scopeMatch(tenantId, scope)](
               const QStringList &terms, qint64 cap) -> Result<QHash<QString, qint64>> {
        QHash<QString, qint64> rows;
        for (const QString &term : terms) {
            auto n = cappedCount(db, table, wall + QStringLiteral(" AND ") + quoted(term), cap);
            if (!n)
                return n.error();
            rows.insert(term, n.value());
        }
        return rows;
    };
}

Result<QStringList> affordableTerms(QSqlDatabase &db, const QString &table, const QString &tenantId,
                                    const QString &scope, const QStringList &terms,
                                    const TermCounter &count)
{
    auto scopeRows = cappedCount(db, table, scopeMatch(tenantId, scope), kRankedRowBudget);
    if (!scopeRows)
        return scopeRows.error();
    if (scopeRows.value() <= kRankedRowBudget || terms.isEmpty())
        return terms;
    auto rows = count(terms, kRankedRowBudget);
    if (!rows)
        return rows.error();
    QStringList rarestFirst = terms;
    std::stable_sort(rarestFirst.begin(), rarestFirst.end(),
                     [&rows](const QString &a, const QString &b) {
                         return rows.value().value(a) < rows.value().value(b);
                     });
    QSet<QString> kept;
    qint64 ranked = 0;
    for (const QString &term : std::as_const(rarestFirst)) {
        const qint64 n = rows.value().value(term);
        if (n == 0)
            continue; // matches nothing here
        if (ranked + n > kRankedRowBudget)
            break;
        ranked += n;
        kept.insert(term);
    }
    QStringList out;
    for (const QString &term : terms) {
        if (kept.contains(term))
            out << term;
    }
    return out;
}

Result<QVector<Hit>> search(QSqlDatabase &db, const QString &tenantId, const QString &scope,
                            const QStringList &words, const SeedFilter &filter, int limit)
{
    static const Ranking byWords{QStringLiteral("node_text"),
                                 QStringLiteral("memorygraph_bm25(node_text, 0.0, 2.0, 1.0, 0.5)")};
    auto terms
        = affordableTerms(db, byWords.table, tenantId, scope, distinctTerms(words, kMaxWords),
                          matchCounter(db, byWords.table, tenantId, scope));
    if (!terms)
        return terms.error();
    return searchTable(db, byWords, matchExpression(tenantId, scope, terms.value()), tenantId,
                       scope, filter, limit);
}

Result<QVector<Hit>> searchTable(QSqlDatabase &db, const Ranking &ranking, const QString &match,
                                 const QString &tenantId, const QString &scope,
                                 const SeedFilter &filter, int limit)
{
    if (match.isEmpty() || limit <= 0)
        return QVector<Hit>();
    QVariantList args{match, tenantId, scope};
    SqlText::appendSeedRuleArgs(args, filter.types, filter.viewerAgent, filter.viewerTeam);
    args << limit;
    // The MATCH drives the query (only the scope's rows that hold a word); the nodes row
    // behind each supplies the seed filters. The rank (TextRank) is lower for better matches.
    // One text per table and number of seed types: prepared once per connection and kept.
    QVector<Hit> hits;
    auto ran = runCachedSql(
        db,
        QStringLiteral(
            "SELECT n.vector_label, -%1 AS score FROM %2 JOIN nodes n ON n.rowid = %2.rowid"
            " WHERE %2 MATCH ? AND n.tenant_id = ? AND n.scope = ? AND ")
                .arg(ranking.bm25, ranking.table)
            + SqlText::seedRules(filter.types.size(), QStringLiteral("n."))
            + QStringLiteral(" ORDER BY score DESC, n.vector_label LIMIT ?"),
        args, [&hits](QSqlQuery &q) {
            while (q.next())
                hits.append({q.value(0).toLongLong(), q.value(1).toDouble()});
        });
    if (!ran)
        return ran.error();
    return hits;
}

} // namespace MemoryGraph::LexicalIndex
