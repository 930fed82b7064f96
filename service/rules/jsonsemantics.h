#pragma once

#include <QJsonArray>
#include <QJsonValue>
#include <QString>
#include <QStringList>

/// JavaScript value semantics the rule language was defined with (Aionis is TypeScript), so that
/// rules written against the reference behave the same here. "undefined" is
/// QJsonValue::Undefined, which is also what QJsonObject::value() returns for a missing key.
namespace MemoryGraph::Rules {

/// Structural equality with strict types: 1 != "1", null != undefined, objects compare by key set.
bool deepEqual(const QJsonValue &a, const QJsonValue &b);

/// JS truthiness: false, 0, NaN, "", null and undefined are falsy; arrays and objects are truthy.
bool isTruthy(const QJsonValue &value);

/// JS Number(value): numbers as is, booleans 0/1, null 0, strings parsed (blank → 0), a one-element
/// array by its element, anything else NaN.
double toJsNumber(const QJsonValue &value);

/// Deterministic stand-in for JS String.prototype.localeCompare (ICU root order): whitespace and
/// punctuation before digits before letters, letters case-insensitive first, lowercase first on a
/// tie. Independent of the machine's locale so that sorted lists hash the same everywhere.
bool localeLess(const QString &a, const QString &b);

/// The strings of a JSON array, trimmed, empties dropped, first occurrence kept. Non-strings are
/// skipped.
QStringList normalizedNames(const QJsonArray &array);

/// Same normalisation for a string list.
QStringList normalizedNames(const QStringList &names);

} // namespace MemoryGraph::Rules
