#include "service/rules/conditionmatcher.h"

#include "service/rules/jsonsemantics.h"

#include <QJsonArray>
#include <QJsonObject>
#include <QRegularExpression>

#include <algorithm>
#include <cmath>

namespace MemoryGraph::Rules {

namespace {

const QJsonValue kUndefined(QJsonValue::Undefined);

// One path step. Array indices must be canonical non-negative integers, as JS would only find
// elements under "0", "1", ... and never under "01".
QJsonValue step(const QJsonValue &current, const QString &segment)
{
    if (current.isObject())
        return current.toObject().value(segment);
    if (current.isArray()) {
        const bool digitsOnly = !segment.isEmpty()
                                && std::all_of(segment.begin(), segment.end(),
                                               [](QChar c) { return c >= u'0' && c <= u'9'; });
        if (!digitsOnly || (segment.size() > 1 && segment.startsWith(u'0')))
            return kUndefined;
        bool ok = false;
        const qsizetype index = segment.toLongLong(&ok);
        return ok ? current.toArray().at(index) : kUndefined; // out of range is Undefined
    }
    return kUndefined;
}

bool compareNumber(const QString &op, const QJsonValue &value, const QJsonValue &operand)
{
    // Only JSON numbers take part; the operand goes through JS Number() like the reference.
    if (!value.isDouble())
        return false;
    const double v = value.toDouble();
    const double o = toJsNumber(operand);
    if (std::isnan(o))
        return false;
    if (op == u"$gt")
        return v > o;
    if (op == u"$gte")
        return v >= o;
    if (op == u"$lt")
        return v < o;
    return v <= o;
}

bool containsElement(const QJsonArray &array, const QJsonValue &value)
{
    return std::any_of(array.begin(), array.end(),
                       [&](const QJsonValue &element) { return deepEqual(element, value); });
}

bool matchRegex(const QJsonValue &value, const QJsonValue &operand)
{
    if (!value.isString() || !operand.isString())
        return false;
    // Compiled once per pattern; a refused or broken pattern (a rule stored before the safety
    // check tightened, say) simply does not match.
    const std::optional<QRegularExpression> re = compiledRegex(operand.toString());
    return re && re->match(regexSubject(value.toString())).hasMatch();
}

bool matchOperator(const QString &op, const QJsonValue &operand, const QJsonValue &value)
{
    if (op == u"$eq")
        return deepEqual(value, operand);
    if (op == u"$ne")
        return !deepEqual(value, operand);
    if (op == u"$exists")
        return isTruthy(operand) ? !value.isUndefined() : value.isUndefined();
    if (op == u"$in")
        return operand.isArray() && containsElement(operand.toArray(), value);
    if (op == u"$nin")
        return operand.isArray() && !containsElement(operand.toArray(), value);
    if (op == u"$gt" || op == u"$gte" || op == u"$lt" || op == u"$lte")
        return compareNumber(op, value, operand);
    if (op == u"$contains") {
        if (value.isString())
            return operand.isString() && value.toString().contains(operand.toString());
        return value.isArray() && containsElement(value.toArray(), operand);
    }
    if (op == u"$regex")
        return matchRegex(value, operand);
    return false;
}

bool matchPattern(const QJsonValue &pattern, const QJsonValue &value);

bool matchObject(const QJsonObject &pattern, const QJsonValue &value)
{
    if (pattern.contains(u"$and")) {
        const QJsonValue all = pattern.value(u"$and");
        if (!all.isArray())
            return false;
        const QJsonArray list = all.toArray();
        return std::all_of(list.begin(), list.end(),
                           [&](const QJsonValue &p) { return matchPattern(p, value); });
    }
    if (pattern.contains(u"$or")) {
        const QJsonValue any = pattern.value(u"$or");
        if (!any.isArray())
            return false;
        const QJsonArray list = any.toArray();
        return std::any_of(list.begin(), list.end(),
                           [&](const QJsonValue &p) { return matchPattern(p, value); });
    }
    if (pattern.contains(u"$not"))
        return !matchPattern(pattern.value(u"$not"), value);

    if (pattern.size() == 1 && pattern.begin().key().startsWith(u'$'))
        return matchOperator(pattern.begin().key(), pattern.begin().value(), value);

    // Several keys (operators included, which is why {"$gte":1,"$lte":5} looks up literal keys).
    for (auto it = pattern.begin(); it != pattern.end(); ++it) {
        const QString &key = it.key();
        const QJsonValue sub = key.contains(u'.') ? valueAtPath(value, key) : step(value, key);
        if (!matchPattern(it.value(), sub))
            return false;
    }
    return true;
}

bool matchPattern(const QJsonValue &pattern, const QJsonValue &value)
{
    if (pattern.isObject())
        return matchObject(pattern.toObject(), value);
    if (pattern.isArray()) {
        if (!value.isArray())
            return false;
        const QJsonArray wanted = pattern.toArray();
        const QJsonArray have = value.toArray();
        return std::all_of(wanted.begin(), wanted.end(),
                           [&](const QJsonValue &w) { return containsElement(have, w); });
    }
    return deepEqual(pattern, value);
}

/// countRegexConditions over every element of an exceptions array (0 for anything else).
int countExceptionRegexes(const QJsonValue &exceptionsJson)
{
    int count = 0;
    const QJsonArray exceptions = exceptionsJson.toArray();
    for (const QJsonValue &e : exceptions)
        count += countRegexConditions(e);
    return count;
}

bool isPathOperator(const QString &key)
{
    return key == u"$and" || key == u"$or" || key == u"$not";
}

void collectPaths(const QJsonValue &node, const QString &prefix, QStringList *out)
{
    if (!node.isObject() || node.toObject().isEmpty()) {
        if (!prefix.isEmpty())
            out->append(prefix);
        return;
    }
    const QJsonObject object = node.toObject();
    for (auto it = object.begin(); it != object.end(); ++it) {
        const QString &key = it.key();
        if (key == u"$and" || key == u"$or") {
            const QJsonArray list = it.value().toArray();
            for (const QJsonValue &element : list)
                collectPaths(element, prefix, out);
        } else if (isPathOperator(key)) {
            collectPaths(it.value(), prefix, out);
        } else if (key.startsWith(u'$')) {
            if (!prefix.isEmpty())
                out->append(prefix);
        } else {
            collectPaths(it.value(), prefix.isEmpty() ? key : prefix + u'.' + key, out);
        }
    }
}

} // namespace

QJsonValue valueAtPath(const QJsonValue &root, const QString &dottedPath)
{
    QJsonValue current = root;
    const QStringList segments = dottedPath.split(u'.');
    for (const QString &segment : segments) {
        current = step(current, segment);
        if (current.isUndefined())
            break;
    }
    return current;
}

bool matchCondition(const QJsonValue &pattern, const QJsonValue &value)
{
    if (countRegexConditions(pattern) > kMaxRegexConditionsPerRule)
        return false;
    return matchPattern(pattern, value);
}

int countRegexConditions(const QJsonValue &condition)
{
    // Mirrors matchObject: which keys it evaluates, and that operands of other operators are
    // literals.
    if (!condition.isObject())
        return 0;
    const QJsonObject object = condition.toObject();
    const auto countList = [](const QJsonValue &list) {
        int n = 0;
        const QJsonArray items = list.toArray();
        for (const QJsonValue &item : items)
            n += countRegexConditions(item);
        return n;
    };
    if (object.contains(u"$and"))
        return countList(object.value(u"$and"));
    if (object.contains(u"$or"))
        return countList(object.value(u"$or"));
    if (object.contains(u"$not"))
        return countRegexConditions(object.value(u"$not"));
    if (object.size() == 1 && object.begin().key().startsWith(u'$'))
        return object.begin().key() == u"$regex" ? 1 : 0;
    int n = 0;
    for (auto it = object.begin(); it != object.end(); ++it)
        n += countRegexConditions(it.value());
    return n;
}

bool ruleMatchesContext(const QJsonValue &ifJson, const QJsonValue &exceptionsJson,
                        const QJsonValue &context)
{
    // Bounds the regex work of one rule, whatever was stored before validation refused more.
    if (countRegexConditions(ifJson) + countExceptionRegexes(exceptionsJson)
        > kMaxRegexConditionsPerRule)
        return false;
    const bool unconditional
        = !isTruthy(ifJson) || (ifJson.isObject() && ifJson.toObject().isEmpty());
    if (!unconditional && !matchPattern(ifJson, context))
        return false;
    if (!exceptionsJson.isArray())
        return true;
    // An exception {} matches everything and so disables the rule; that is intended.
    const QJsonArray exceptions = exceptionsJson.toArray();
    return std::none_of(exceptions.begin(), exceptions.end(),
                        [&](const QJsonValue &e) { return matchPattern(e, context); });
}

QStringList conditionPaths(const QJsonValue &ifJson)
{
    QStringList paths;
    collectPaths(ifJson, QString(), &paths);
    std::sort(paths.begin(), paths.end());
    paths.erase(std::unique(paths.begin(), paths.end()), paths.end());
    return paths;
}

} // namespace MemoryGraph::Rules
