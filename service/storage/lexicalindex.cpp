#include "service/storage/lexicalindex.h"

#include "service/storage/database.h"
#include "service/storage/sqltext.h"

#include <QSet>

namespace MemoryGraph::LexicalIndex {

namespace {

/// A word as an FTS5 string: double quotes doubled, so no word is read as query syntax.
QString quoted(const QString &word)
{
    QString inner = word;
    inner.replace(QLatin1Char('"'), QStringLiteral("\"\""));
    return QLatin1Char('"') + inner + QLatin1Char('"');
}

} // namespace

QString scopeKey(const QString &tenantId, const QString &scope)
{
    // Matches the triggers' 'k' || lower(hex(tenant_id || char(10) || scope)).
    return QLatin1Char('k')
           + QString::fromLatin1((tenantId + QLatin1Char('\n') + scope).toUtf8().toHex());
}

QString matchExpression(const QString &tenantId, const QString &scope, const QStringList &terms,
                        int maxTerms)
{
    QStringList anyOf;
    QSet<QString> seen;
    for (const QString &term : terms) {
        if (anyOf.size() == maxTerms)
            break;
        if (!term.isEmpty() && !seen.contains(term)) {
            seen.insert(term);
            anyOf << quoted(term);
        }
    }
    if (anyOf.isEmpty())
        return {};
    return QStringLiteral("scope_key : ") + quoted(scopeKey(tenantId, scope))
           + QStringLiteral(" AND (") + anyOf.join(QStringLiteral(" OR ")) + QLatin1Char(')');
}

Result<QVector<Hit>> search(QSqlDatabase &db, const QString &tenantId, const QString &scope,
                            const QStringList &words, const SeedFilter &filter, int limit)
{
    static const Ranking byWords{QStringLiteral("node_text"),
                                 QStringLiteral("bm25(node_text, 0.0, 2.0, 1.0, 0.5)")};
    return searchTable(db, byWords, matchExpression(tenantId, scope, words), tenantId, scope,
                       filter, limit);
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
    // behind each supplies the seed filters. bm25() is lower for better matches.
    auto q = runSql(
        db,
        QStringLiteral(
            "SELECT n.vector_label, -%1 AS score FROM %2 JOIN nodes n ON n.rowid = %2.rowid"
            " WHERE %2 MATCH ? AND n.tenant_id = ? AND n.scope = ? AND ")
                .arg(ranking.bm25, ranking.table)
            + SqlText::seedRules(filter.types.size(), QStringLiteral("n."))
            + QStringLiteral(" ORDER BY score DESC, n.vector_label LIMIT ?"),
        args);
    if (!q)
        return q.error();
    QVector<Hit> hits;
    while (q.value().next())
        hits.append({q.value().value(0).toLongLong(), q.value().value(1).toDouble()});
    return hits;
}

} // namespace MemoryGraph::LexicalIndex
