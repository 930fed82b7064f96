#include "service/rules/jsonsemantics.h"

#include <QJsonObject>
#include <QSet>

#include <algorithm>
#include <cmath>
#include <limits>

namespace MemoryGraph::Rules {

bool deepEqual(const QJsonValue &a, const QJsonValue &b)
{
    if (a.type() != b.type())
        return false;
    switch (a.type()) {
    case QJsonValue::Null:
    case QJsonValue::Undefined: return true;
    case QJsonValue::Bool: return a.toBool() == b.toBool();
    case QJsonValue::Double: return a.toDouble() == b.toDouble();
    case QJsonValue::String: return a.toString() == b.toString();
    case QJsonValue::Array: {
        const QJsonArray x = a.toArray();
        const QJsonArray y = b.toArray();
        if (x.size() != y.size())
            return false;
        for (qsizetype i = 0; i < x.size(); ++i) {
            if (!deepEqual(x.at(i), y.at(i)))
                return false;
        }
        return true;
    }
    case QJsonValue::Object: {
        const QJsonObject x = a.toObject();
        const QJsonObject y = b.toObject();
        if (x.size() != y.size())
            return false;
        for (auto it = x.begin(); it != x.end(); ++it) {
            const auto other = y.constFind(it.key());
            if (other == y.constEnd() || !deepEqual(it.value(), other.value()))
                return false;
        }
        return true;
    }
    }
    return false;
}

bool isTruthy(const QJsonValue &value)
{
    switch (value.type()) {
    case QJsonValue::Null:
    case QJsonValue::Undefined: return false;
    case QJsonValue::Bool: return value.toBool();
    case QJsonValue::Double: {
        const double d = value.toDouble();
        return d != 0 && !std::isnan(d);
    }
    case QJsonValue::String: return !value.toString().isEmpty();
    case QJsonValue::Array:
    case QJsonValue::Object: return true;
    }
    return false;
}

namespace {

double stringToJsNumber(const QString &text)
{
    const QString trimmed = text.trimmed();
    if (trimmed.isEmpty())
        return 0;
    bool ok = false;
    const double d = trimmed.toDouble(&ok);
    return ok ? d : std::numeric_limits<double>::quiet_NaN();
}

// Primary collation weight of one character, following the ICU root order for ASCII. Characters
// outside the table sort after all letters by code point.
int primaryWeight(QChar c)
{
    static const QString punctuation
        = QStringLiteral("\t\n\v\f\r _-,;:!?.'\"()[]{}@*/\\&#%`^+<=>|~$");
    const char16_t u = c.unicode();
    const qsizetype p = punctuation.indexOf(c);
    if (p >= 0)
        return int(p);
    if (u >= u'0' && u <= u'9')
        return 100 + (u - u'0');
    if (u >= u'a' && u <= u'z')
        return 200 + (u - u'a');
    if (u >= u'A' && u <= u'Z')
        return 200 + (u - u'A');
    return 1000 + u;
}

} // namespace

double toJsNumber(const QJsonValue &value)
{
    switch (value.type()) {
    case QJsonValue::Double: return value.toDouble();
    case QJsonValue::Bool: return value.toBool() ? 1 : 0;
    case QJsonValue::Null: return 0;
    case QJsonValue::String: return stringToJsNumber(value.toString());
    case QJsonValue::Array: {
        // Number([]) is 0 and Number([x]) is Number(String(x)); longer arrays are NaN.
        const QJsonArray array = value.toArray();
        if (array.isEmpty())
            return 0;
        if (array.size() == 1) {
            const QJsonValue only = array.first();
            if (only.isDouble() || only.isString())
                return only.isDouble() ? only.toDouble() : stringToJsNumber(only.toString());
            if (only.isNull())
                return 0;
        }
        return std::numeric_limits<double>::quiet_NaN();
    }
    case QJsonValue::Object:
    case QJsonValue::Undefined: return std::numeric_limits<double>::quiet_NaN();
    }
    return std::numeric_limits<double>::quiet_NaN();
}

bool localeLess(const QString &a, const QString &b)
{
    // Level 1: letters without case, punctuation < digits < letters.
    const qsizetype n = std::min(a.size(), b.size());
    for (qsizetype i = 0; i < n; ++i) {
        const int wa = primaryWeight(a.at(i));
        const int wb = primaryWeight(b.at(i));
        if (wa != wb)
            return wa < wb;
    }
    if (a.size() != b.size())
        return a.size() < b.size();
    // Level 3: the first case difference decides, lowercase first.
    for (qsizetype i = 0; i < n; ++i) {
        const bool la = a.at(i).isLower();
        const bool lb = b.at(i).isLower();
        if (la != lb)
            return la;
    }
    return a < b;
}

QStringList normalizedNames(const QStringList &names)
{
    QStringList out;
    QSet<QString> seen;
    for (const QString &raw : names) {
        const QString name = raw.trimmed();
        if (name.isEmpty() || seen.contains(name))
            continue;
        seen.insert(name);
        out.append(name);
    }
    return out;
}

QStringList normalizedNames(const QJsonArray &array)
{
    QStringList names;
    for (const QJsonValue &v : array) {
        if (v.isString())
            names.append(v.toString());
    }
    return normalizedNames(names);
}

} // namespace MemoryGraph::Rules
