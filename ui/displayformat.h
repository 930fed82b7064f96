#pragma once

#include <QDateTime>
#include <QString>

namespace MemoryGraph::Ui {

/// Local time as "yyyy-MM-dd HH:mm:ss"; an em dash for an invalid (never set) time.
QString formatDateTime(const QDateTime &at);

/// A 0..1 score with two decimals.
QString formatScore(double value);

/// The first `length` characters of a hash or id, for narrow columns.
QString shortHash(const QString &hash, int length = 12);

/// A placeholder for empty optional fields, so blank cells are not mistaken for missing data.
QString orDash(const QString &text);

} // namespace MemoryGraph::Ui
