#include "service/storage/textrank.h"

#include "service/storage/sqlitehandle.h"

#include <algorithm>
#include <cmath>
#include <memory>
#include <sqlite3.h>
#include <vector>

namespace MemoryGraph::TextRank {

namespace {

constexpr double kK1 = 1.2;
constexpr double kB = 0.75;

/// What one query's ranking keeps from row to row: the table's row count and average row
/// length, each phrase's inverse document frequency (NaN until the phrase first scores in a
/// row), and the buffer each row's phrase counts are gathered in.
struct QueryStats
{
    sqlite3_int64 rows = 0;
    double averageLength = 1.0;
    std::vector<double> idf;
    std::vector<double> frequency;
};

void deleteStats(void *stats)
{
    delete static_cast<QueryStats *>(stats);
}

int countRow(const Fts5ExtensionApi *, Fts5Context *, void *rows)
{
    ++*static_cast<sqlite3_int64 *>(rows);
    return SQLITE_OK;
}

/// The query's stats, made on its first row.
QueryStats *statsOf(const Fts5ExtensionApi *api, Fts5Context *fts, int *rc)
{
    if (auto *kept = static_cast<QueryStats *>(api->xGetAuxdata(fts, 0)))
        return kept;
    sqlite3_int64 rows = 0;
    sqlite3_int64 tokens = 0;
    *rc = api->xRowCount(fts, &rows);
    if (*rc == SQLITE_OK)
        *rc = api->xColumnTotalSize(fts, -1, &tokens);
    if (*rc != SQLITE_OK)
        return nullptr;
    auto stats = std::make_unique<QueryStats>();
    stats->rows = rows;
    if (rows > 0 && tokens > 0)
        stats->averageLength = double(tokens) / double(rows);
    stats->idf.assign(size_t(api->xPhraseCount(fts)), std::nan(""));
    stats->frequency.resize(stats->idf.size());
    QueryStats *raw = stats.release(); // xSetAuxdata deletes it should it fail
    *rc = api->xSetAuxdata(fts, raw, deleteStats);
    return *rc == SQLITE_OK ? raw : nullptr;
}

/// bm25()'s inverse document frequency of a phrase, counted over the table once per query.
double idfOf(const Fts5ExtensionApi *api, Fts5Context *fts, QueryStats &stats, int phrase, int *rc)
{
    double &idf = stats.idf[size_t(phrase)];
    if (std::isnan(idf)) {
        sqlite3_int64 hits = 0;
        *rc = api->xQueryPhrase(fts, phrase, &hits, countRow);
        if (*rc != SQLITE_OK)
            return 0.0;
        idf = std::log((double(stats.rows) - double(hits) + 0.5) / (double(hits) + 0.5));
        if (idf <= 0.0)
            idf = 1e-6;
    }
    return idf;
}

/// Each phrase's weighted count in the current row (the weight of the column of each
/// instance), into the query's buffer: ranking runs for every matching row.
void countPhrases(const Fts5ExtensionApi *api, Fts5Context *fts, int argc, sqlite3_value **weights,
                  std::vector<double> &frequency, int *rc)
{
    std::fill(frequency.begin(), frequency.end(), 0.0);
    int instances = 0;
    *rc = api->xInstCount(fts, &instances);
    for (int i = 0; *rc == SQLITE_OK && i < instances; ++i) {
        int phrase = 0;
        int column = 0;
        int offset = 0;
        *rc = api->xInst(fts, i, &phrase, &column, &offset);
        if (*rc == SQLITE_OK)
            frequency[size_t(phrase)]
                += column < argc ? sqlite3_value_double(weights[column]) : 1.0;
    }
}

void rankRow(const Fts5ExtensionApi *api, Fts5Context *fts, sqlite3_context *context, int argc,
             sqlite3_value **weights)
{
    int rc = SQLITE_OK;
    QueryStats *stats = statsOf(api, fts, &rc);
    if (!stats) { // only when reading the table's counts failed
        sqlite3_result_error_code(context, rc);
        return;
    }
    countPhrases(api, fts, argc, weights, stats->frequency, &rc);
    int length = 0;
    if (rc == SQLITE_OK)
        rc = api->xColumnSize(fts, -1, &length);
    const double lengthNorm = kK1 * (1.0 - kB + kB * double(length) / stats->averageLength);
    double score = 0.0;
    const std::vector<double> &frequency = stats->frequency;
    for (size_t p = 0; rc == SQLITE_OK && p < frequency.size(); ++p) {
        if (frequency[p] == 0.0)
            continue; // adds nothing to this row: its document count is not needed yet
        const double idf = idfOf(api, fts, *stats, int(p), &rc);
        score += idf * (frequency[p] * (kK1 + 1.0)) / (frequency[p] + lengthNorm);
    }
    if (rc != SQLITE_OK)
        sqlite3_result_error_code(context, rc);
    else
        sqlite3_result_double(context, -score); // lower is better, as bm25() gives it
}

/// The FTS5 API of a connection (null when the SQLite build has no FTS5).
fts5_api *fts5Of(sqlite3 *handle)
{
    fts5_api *api = nullptr;
    sqlite3_stmt *statement = nullptr;
    if (sqlite3_prepare_v2(handle, "SELECT fts5(?1)", -1, &statement, nullptr) != SQLITE_OK)
        return nullptr;
    sqlite3_bind_pointer(statement, 1, static_cast<void *>(&api), "fts5_api_ptr", nullptr);
    sqlite3_step(statement);
    sqlite3_finalize(statement);
    return api;
}

} // namespace

Result<void> registerFunction(QSqlDatabase &db)
{
    sqlite3 *handle = sqliteHandleOf(db);
    fts5_api *api = handle ? fts5Of(handle) : nullptr;
    if (!api || api->iVersion < 2)
        return Error::internal(QStringLiteral("storage error: no FTS5 for ")
                               + QLatin1String(kFunction));
    const int rc = api->xCreateFunction(api, kFunction, nullptr, rankRow, nullptr);
    if (rc != SQLITE_OK)
        return Error::internal(
            QStringLiteral("storage error: cannot register %1: %2")
                .arg(QLatin1String(kFunction), QString::fromUtf8(sqlite3_errstr(rc))));
    return {};
}

} // namespace MemoryGraph::TextRank
