#pragma once

#include "service/core/result.h"

#include <QJsonValue>
#include <QRegularExpression>
#include <QString>
#include <QStringList>

#include <optional>

/// The rule condition language of if_json / exceptions_json (reference §1). Pure functions over
/// Qt JSON values; a missing value is QJsonValue(QJsonValue::Undefined).
///
/// Definitions are split by concern: conditionmatcher.cpp (matching, paths), regexsafety.cpp
/// (isSafeRegex), regexcache.cpp (compiled patterns) and conditionvalidation.cpp (validation).
namespace MemoryGraph::Rules {

/// A rule (its if condition and all its exceptions together) holds at most this many $regex
/// conditions. Validation refuses more; a stored rule over the limit never matches.
constexpr int kMaxRegexConditionsPerRule = 32;

/// $regex tests only the first this-many characters of a string value.
constexpr qsizetype kMaxRegexSubjectLength = 4096;

/// True when value satisfies pattern. Per level: $and > $or > $not combinators, a single-key
/// $-operator object, an array (subset), an object (every key, dotted keys are paths), else
/// strict deep equality. Unknown operators and unsafe regexes simply do not match, and neither
/// does a pattern with more than kMaxRegexConditionsPerRule $regex conditions.
bool matchCondition(const QJsonValue &pattern, const QJsonValue &value);

/// Rule-level check: a missing, falsy or empty if_json is satisfied; a satisfied rule is then
/// vetoed when any element of an exceptions array matches. Non-array exceptions are ignored.
/// A rule with more than kMaxRegexConditionsPerRule $regex conditions does not match.
bool ruleMatchesContext(const QJsonValue &ifJson, const QJsonValue &exceptionsJson,
                        const QJsonValue &context);

/// The dotted paths an if_json inspects, sorted and de-duplicated; their count is the rule's
/// specificity. Exceptions are not counted.
QStringList conditionPaths(const QJsonValue &ifJson);

/// Walks "a.b.0" from root through objects and (numeric segment) arrays; anything else yields
/// undefined.
QJsonValue valueAtPath(const QJsonValue &root, const QString &dottedPath);

/// The $regex conditions the matcher would evaluate in condition (an if or one exception).
int countRegexConditions(const QJsonValue &condition);

/// Guards $regex against catastrophic backtracking: 1..256 chars, no back-references,
/// look-around, recursion or verbs, at most 32 groups and 24 quantifiers, no quantified group
/// containing a quantifier or an alternation ((a+)+, (a|a)*), no two repeated atoms that can
/// match the same character without a separating character between them (\d+\d+, a*a*,
/// \w+x?\w+), counted repeats {n,m} with bounds up to 256 and m - n at most 16, at most one
/// .* / .+ wildcard.
bool isSafeRegex(const QString &pattern);

/// The compiled $regex, or nullopt when isSafeRegex refuses the pattern or it does not compile.
/// Each pattern is compiled once and kept in a bounded, thread-safe cache.
std::optional<QRegularExpression> compiledRegex(const QString &pattern);

/// The part of a string value that $regex tests: its first kMaxRegexSubjectLength characters
/// (one fewer rather than split a surrogate pair).
QString regexSubject(const QString &text);

/// Editor-side strictness the matcher does not have: rejects unknown operators, operands of the
/// wrong shape, unsafe regexes, more than kMaxRegexConditionsPerRule $regex conditions and
/// operators sharing an object with other keys (e.g. {"$gte":1,"$lte":5}, which silently never
/// matches). Errors are 400 invalid_request naming the offending path below path.
Result<void> validateCondition(const QJsonValue &ifJson, const QString &path);

/// Rule-level check before a rule enforces: validateCondition on ifJson, every $regex in the
/// exceptions safe, and at most kMaxRegexConditionsPerRule $regex conditions in the if and the
/// exceptions together (the error names the first one over the limit).
Result<void> validateRuleConditions(const QJsonValue &ifJson, const QJsonValue &exceptionsJson,
                                    const QString &ifPath, const QString &exceptionsPath);

} // namespace MemoryGraph::Rules
