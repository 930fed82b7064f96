#include "service/rules/conditionmatcher.h"

#include <QJsonArray>
#include <QJsonObject>
#include <QRegularExpression>

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

Result<void> validatePattern(const QJsonValue &pattern, const QString &path);

Result<void> validatePatternList(const QJsonValue &operand, const QString &path, const QString &op)
{
    if (!operand.isArray())
        return Error::invalidField(path, op + QStringLiteral(" needs an array of conditions"));
    const QJsonArray list = operand.toArray();
    for (qsizetype i = 0; i < list.size(); ++i) {
        if (auto r = validatePattern(list.at(i), indexPath(path, i)); !r)
            return r;
    }
    return {};
}

Result<void> validateOperator(const QString &op, const QJsonValue &operand, const QString &path)
{
    if (op == u"$and" || op == u"$or")
        return validatePatternList(operand, path, op);
    if (op == u"$not")
        return validatePattern(operand, path);
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
    if (op == u"$regex") {
        if (!operand.isString())
            return Error::invalidField(path, QStringLiteral("$regex needs a string"));
        if (!isSafeRegex(operand.toString()))
            return Error::invalidField(
                path, QStringLiteral("$regex pattern is rejected by the safety check (1..256 "
                                     "chars, no back-references, look-around, nested or "
                                     "alternating quantified groups, or repeated .*)"));
        if (!QRegularExpression(operand.toString()).isValid())
            return Error::invalidField(path, QStringLiteral("$regex pattern does not compile"));
        return {};
    }
    return Error::invalidField(path, QStringLiteral("unknown operator ") + op);
}

Result<void> validateObject(const QJsonObject &object, const QString &path)
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
        auto r = it.key().startsWith(u'$') ? validateOperator(it.key(), it.value(), sub)
                                           : validatePattern(it.value(), sub);
        if (!r)
            return r;
    }
    return {};
}

Result<void> validatePattern(const QJsonValue &pattern, const QString &path)
{
    // Array patterns and primitives are literals compared by deep equality: nothing to check.
    if (pattern.isObject())
        return validateObject(pattern.toObject(), path);
    return {};
}

} // namespace

Result<void> validateCondition(const QJsonValue &ifJson, const QString &path)
{
    return validatePattern(ifJson, path);
}

} // namespace MemoryGraph::Rules
