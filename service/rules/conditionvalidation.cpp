#include "service/rules/conditionmatcher.h"

#include <QJsonArray>
#include <QJsonObject>

namespace MemoryGraph::Rules {

namespace {

QString childPath(const QString &path, const QString &key)
{
    return path.isEmpty() ? key : path + u'.' + key;
}

QString indexPath(const QString &path, qsizetype index)
{
    return path + u'[' + QString::number(index) + u']';
}

/// $regex conditions seen so far in one rule.
struct RegexTally
{
    int count = 0;
};

Result<void> validateRegex(const QJsonValue &operand, const QString &path, RegexTally *tally)
{
    if (++tally->count > kMaxRegexConditionsPerRule)
        return Error::invalidField(path,
                                   QStringLiteral("a rule may hold at most %1 $regex conditions")
                                       .arg(kMaxRegexConditionsPerRule));
    if (!operand.isString())
        return Error::invalidField(path, QStringLiteral("$regex needs a string"));
    if (!isSafeRegex(operand.toString()))
        return Error::invalidField(
            path, QStringLiteral("$regex pattern is rejected by the safety check (1..256 chars; "
                                 "no back-references, look-around, nested or alternating "
                                 "quantified groups, repeated .*, or adjacent repeats that can "
                                 "match the same characters such as \\d+\\d+)"));
    if (!compiledRegex(operand.toString()))
        return Error::invalidField(path, QStringLiteral("$regex pattern does not compile"));
    return {};
}

Result<void> validatePattern(const QJsonValue &pattern, const QString &path, RegexTally *tally);

Result<void> validatePatternList(const QJsonValue &operand, const QString &path, const QString &op,
                                 RegexTally *tally)
{
    if (!operand.isArray())
        return Error::invalidField(path, op + QStringLiteral(" needs an array of conditions"));
    const QJsonArray list = operand.toArray();
    for (qsizetype i = 0; i < list.size(); ++i) {
        if (auto r = validatePattern(list.at(i), indexPath(path, i), tally); !r)
            return r;
    }
    return {};
}

Result<void> validateOperator(const QString &op, const QJsonValue &operand, const QString &path,
                              RegexTally *tally)
{
    if (op == u"$and" || op == u"$or")
        return validatePatternList(operand, path, op, tally);
    if (op == u"$not")
        return validatePattern(operand, path, tally);
    if (op == u"$eq" || op == u"$ne" || op == u"$exists" || op == u"$contains")
        return {};
    if (op == u"$in" || op == u"$nin") {
        if (!operand.isArray())
            return Error::invalidField(path, op + QStringLiteral(" needs an array of values"));
        return {};
    }
    if (op == u"$gt" || op == u"$gte" || op == u"$lt" || op == u"$lte") {
        // Strings would be coerced by Number() and only match by accident.
        if (!operand.isDouble())
            return Error::invalidField(path, op + QStringLiteral(" needs a number"));
        return {};
    }
    if (op == u"$regex")
        return validateRegex(operand, path, tally);
    return Error::invalidField(path, QStringLiteral("unknown operator ") + op);
}

Result<void> validateObject(const QJsonObject &object, const QString &path, RegexTally *tally)
{
    QStringList operators;
    for (auto it = object.begin(); it != object.end(); ++it) {
        if (it.key().startsWith(u'$'))
            operators.append(it.key());
    }
    // The matcher evaluates an operator only when it is alone in its object; next to other keys
    // it is either ignored ($and/$or/$not win and drop the rest) or looked up as a literal key.
    if (!operators.isEmpty() && object.size() > 1)
        return Error::invalidField(
            path, QStringLiteral("an operator must be the only key of its object (found %1 "
                                 "among %2 keys); combine conditions with $and")
                      .arg(operators.join(QStringLiteral(", ")))
                      .arg(object.size()));
    for (auto it = object.begin(); it != object.end(); ++it) {
        const QString sub = childPath(path, it.key());
        auto r = it.key().startsWith(u'$') ? validateOperator(it.key(), it.value(), sub, tally)
                                           : validatePattern(it.value(), sub, tally);
        if (!r)
            return r;
    }
    return {};
}

Result<void> validatePattern(const QJsonValue &pattern, const QString &path, RegexTally *tally)
{
    // Array patterns and primitives are literals compared by deep equality: nothing to check.
    if (pattern.isObject())
        return validateObject(pattern.toObject(), path, tally);
    return {};
}

/// Only the $regex conditions of a pattern, found where the matcher would evaluate them.
Result<void> validateRegexesOnly(const QJsonValue &pattern, const QString &path, RegexTally *tally)
{
    if (!pattern.isObject())
        return {};
    const QJsonObject object = pattern.toObject();
    const auto list = [&](const QString &op) -> Result<void> {
        const QJsonArray items = object.value(op).toArray();
        for (qsizetype i = 0; i < items.size(); ++i) {
            if (auto r = validateRegexesOnly(items.at(i), indexPath(childPath(path, op), i), tally);
                !r)
                return r;
        }
        return {};
    };
    if (object.contains(u"$and"))
        return list(QStringLiteral("$and"));
    if (object.contains(u"$or"))
        return list(QStringLiteral("$or"));
    if (object.contains(u"$not"))
        return validateRegexesOnly(object.value(u"$not"), childPath(path, QStringLiteral("$not")),
                                   tally);
    if (object.size() == 1 && object.begin().key().startsWith(u'$')) {
        if (object.begin().key() != u"$regex")
            return {};
        return validateRegex(object.begin().value(), childPath(path, QStringLiteral("$regex")),
                             tally);
    }
    for (auto it = object.begin(); it != object.end(); ++it) {
        if (auto r = validateRegexesOnly(it.value(), childPath(path, it.key()), tally); !r)
            return r;
    }
    return {};
}

} // namespace

Result<void> validateCondition(const QJsonValue &ifJson, const QString &path)
{
    RegexTally tally;
    return validatePattern(ifJson, path, &tally);
}

Result<void> validateRuleConditions(const QJsonValue &ifJson, const QJsonValue &exceptionsJson,
                                    const QString &ifPath, const QString &exceptionsPath)
{
    RegexTally tally;
    if (auto r = validatePattern(ifJson, ifPath, &tally); !r)
        return r;
    // Exceptions keep the matcher's leniency, except for what could stall evaluation.
    const QJsonArray exceptions = exceptionsJson.toArray();
    for (qsizetype i = 0; i < exceptions.size(); ++i) {
        if (auto r = validateRegexesOnly(exceptions.at(i), indexPath(exceptionsPath, i), &tally);
            !r)
            return r;
    }
    return {};
}

} // namespace MemoryGraph::Rules
