#include "service/storage/conceptindex.h"

#include "service/embedding/conceptterms.h"
#include "service/storage/sqlitehandle.h"

#include <sqlite3.h>

namespace MemoryGraph::ConceptIndex {

namespace {

/// Concepts of a question looked for at the most: a word names up to four senses, so this
/// covers a question of about sixteen words.
constexpr int kMaxConcepts = 64;

QString textArgument(sqlite3_value *value)
{
    const auto *text = reinterpret_cast<const char *>(sqlite3_value_text(value));
    return text ? QString::fromUtf8(text, sqlite3_value_bytes(value)) : QString();
}

/// memorygraph_concepts(title, summary, slot text): NULL arguments count as empty text.
void conceptsFunction(sqlite3_context *context, int argc, sqlite3_value **argv)
{
    if (argc != 3) {
        sqlite3_result_error(context, "memorygraph_concepts takes title, summary and slots", -1);
        return;
    }
    const QByteArray tokens
        = memoryTokens(textArgument(argv[0]), textArgument(argv[1]), textArgument(argv[2]))
              .toLatin1();
    sqlite3_result_text(context, tokens.constData(), int(tokens.size()), SQLITE_TRANSIENT);
}

} // namespace

Result<void> registerSqlFunction(QSqlDatabase &db)
{
    sqlite3 *handle = sqliteHandleOf(db);
    if (!handle)
        return Error::internal(QStringLiteral("storage error: no SQLite handle for ")
                               + QLatin1String(kSqlFunction));
    // Deterministic: the same text gives the same tokens, so SQLite may use it in triggers and
    // factor repeated calls. Innocuous: it reads nothing but its arguments.
    const int flags = SQLITE_UTF8 | SQLITE_DETERMINISTIC | SQLITE_INNOCUOUS;
    const int rc = sqlite3_create_function_v2(handle, kSqlFunction, 3, flags, nullptr,
                                              conceptsFunction, nullptr, nullptr, nullptr);
    if (rc != SQLITE_OK)
        return Error::internal(
            QStringLiteral("storage error: cannot register %1: %2")
                .arg(QLatin1String(kSqlFunction), QString::fromUtf8(sqlite3_errstr(rc))));
    return {};
}

QString memoryTokens(const QString &title, const QString &summary, const QString &slotText)
{
    return ConceptTerms::tokens(title + QLatin1Char('\n') + summary + QLatin1Char('\n') + slotText,
                                ConceptTerms::kMemoryDepth)
        .join(QLatin1Char(' '));
}

Result<QVector<LexicalIndex::Hit>> search(QSqlDatabase &db, const QString &tenantId,
                                          const QString &scope, const QString &question,
                                          const LexicalIndex::SeedFilter &filter, int limit)
{
    static const LexicalIndex::Ranking byConcepts{
        QStringLiteral("node_concepts"),
        QStringLiteral("memorygraph_bm25(node_concepts, 0.0, 1.0)")};
    QStringList concepts = ConceptTerms::tokens(question, ConceptTerms::kQuestionDepth);
    if (concepts.size() > kMaxConcepts)
        concepts.resize(kMaxConcepts);
    auto affordable = LexicalIndex::affordableTerms(
        db, byConcepts.table, tenantId, scope, concepts,
        LexicalIndex::matchCounter(db, byConcepts.table, tenantId, scope));
    if (!affordable)
        return affordable.error();
    return LexicalIndex::searchTable(
        db, byConcepts,
        LexicalIndex::matchExpression(tenantId, scope, affordable.value(), kMaxConcepts), tenantId,
        scope, filter, limit);
}

} // namespace MemoryGraph::ConceptIndex
