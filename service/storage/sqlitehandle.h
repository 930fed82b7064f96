#pragma once

#include <QSqlDatabase>
#include <QSqlDriver>
#include <QVariant>

struct sqlite3;

namespace MemoryGraph {

/// The SQLite handle behind a QSQLITE connection, nullptr for another driver: for what Qt's
/// driver does not offer (SQL functions, FTS5 rank functions).
inline sqlite3 *sqliteHandleOf(const QSqlDatabase &db)
{
    const QVariant handle = db.driver()->handle();
    if (!handle.isValid() || qstrcmp(handle.typeName(), "sqlite3*") != 0)
        return nullptr;
    return *static_cast<sqlite3 *const *>(handle.constData());
}

} // namespace MemoryGraph
