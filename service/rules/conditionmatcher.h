#pragma once

#include "service/core/result.h"

#include <QJsonValue>
#include <QString>
#include <QStringList>

/// The rule condition language of if_json / exceptions_json (reference §1). Pure functions over
/// Qt JSON values; a missing value is QJsonValue(QJsonValue::Undefined).
///
/// Definitions are split by concern: conditionmatcher.cpp (matching, paths), regexsafety.cpp
/// (isSafeRegex) and conditionvalidation.cpp (validateCondition).
namespace MemoryGraph::Rules {

/// True when value satisfies pattern. Per level: $and > $or > $not combinators, a single-key
/// $-operator object, an array (subset), an object (every key, dotted keys are paths), else
/// strict deep equality. Unknown operators and unsafe regexes simply do not match.
bool matchCondition(const QJsonValue &pattern, const QJsonValue &value);

/// Rule-level check: a missing, falsy or empty if_json is satisfied; a satisfied rule is then
/// vetoed when any element of an exceptions array matches. Non-array exceptions are ignored.
bool ruleMatchesContext(const QJsonValue &ifJson, const QJsonValue &exceptionsJson,
                        const QJsonValue &context);

/// The dotted paths an if_json inspects, sorted and de-duplicated; their count is the rule's
/// specificity. Exceptions are not counted.
QStringList conditionPaths(const QJsonValue &ifJson);

/// Walks "a.b.0" from root through objects and (numeric segment) arrays; anything else yields
/// undefined.
QJsonValue valueAtPath(const QJsonValue &root, const QString &dottedPath);

/// Guards $regex against catastrophic backtracking: 1..256 chars, no back-references or
/// look-around, at most 32 groups and 24 quantifiers, no quantified group containing a
/// quantifier or an alternation, at most one .* / .+ wildcard.
bool isSafeRegex(const QString &pattern);

/// Editor-side strictness the matcher does not have: rejects unknown operators, operands of the
/// wrong shape and operators sharing an object with other keys (e.g. {"$gte":1,"$lte":5}, which
/// silently never matches). Errors are 400 invalid_request naming the offending path below path.
Result<void> validateCondition(const QJsonValue &ifJson, const QString &path);

} // namespace MemoryGraph::Rules
