#include "service/storage/lexicalindex.h"

#include "service/storage/database.h"
#include "service/storage/sqltext.h"

namespace MemoryGraph::LexicalIndex {

namespace {

constexpr int kMaxWords = 32; // a longer question adds little but cost

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

QString matchExpression(const QString &tenantId, const QString &scope, const QStringList &words)
{
    QStringList terms;
    for (const QString &word : words) {
        if (!word.isEmpty() && !terms.contains(quoted(word)))
            terms << quoted(word);
        if (terms.size() == kMaxWords)
            break;
    }
    if (terms.isEmpty())
        return {};
    return QStringLiteral("scope_key : ") + quoted(scopeKey(tenantId, scope))
           + QStringLiteral(" AND (") + terms.join(QStringLiteral(" OR ")) + QLatin1Char(')');
}

Result<QVector<Hit>> search(QSqlDatabase &db, const QString &tenantId, const QString &scope,
                            const QStringList &words, const SeedFilter &filter, int limit)
{
    const QString match = matchExpression(tenantId, scope, words);
    if (match.isEmpty() || limit <= 0)
        return QVector<Hit>();
    QVariantList args{match, tenantId, scope};
    SqlText::appendSeedRuleArgs(args, filter.types, filter.viewerAgent, filter.viewerTeam);
    args << limit;
    // The MATCH drives the query (only the scope's rows that hold a word); the nodes row
    // behind each supplies the seed filters. bm25() is lower for better matches.
    auto q = runSql(
        db,
        QStringLiteral("SELECT n.vector_label, -bm25(node_text, 0.0, 2.0, 1.0, 0.5) AS score"
                       " FROM node_text JOIN nodes n ON n.rowid = node_text.rowid"
                       " WHERE node_text MATCH ? AND n.tenant_id = ? AND n.scope = ? AND ")
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
