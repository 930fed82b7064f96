#include "service/core/jsonreader.h"

#include <cfloat>
#include <cmath>

namespace MemoryGraph {

JsonReader::JsonReader(const QJsonObject &object, const QString &pathPrefix,
                       const DecodedVectors *vectors)
    : m_object(object), m_prefix(pathPrefix), m_vectors(vectors)
{
}

QString JsonReader::path(const QString &key) const
{
    if (m_prefix.isEmpty())
        return key;
    if (key.isEmpty())
        return m_prefix;
    return m_prefix + QLatin1Char('.') + key;
}

QJsonValue JsonReader::value(const char *key) const
{
    return m_object.value(QLatin1String(key));
}

bool JsonReader::fail(const QString &key, const QString &message)
{
    if (!m_error)
        m_error = Error::invalidField(path(key), message);
    return false;
}

bool JsonReader::absorb(const JsonReader &child)
{
    if (!m_error && child.m_error)
        m_error = child.m_error;
    return ok();
}

bool JsonReader::string(const char *key, QString *out, int maxLength)
{
    if (!ok())
        return false;
    const QJsonValue v = value(key);
    if (v.isUndefined() || v.isNull())
        return true;
    if (!v.isString())
        return fail(QLatin1String(key), QStringLiteral("must be a string"));
    const QString s = v.toString().trimmed();
    if (s.isEmpty())
        return fail(QLatin1String(key), QStringLiteral("must not be empty"));
    if (s.size() > maxLength)
        return fail(QLatin1String(key),
                    QStringLiteral("must be at most %1 characters").arg(maxLength));
    *out = s;
    return true;
}

bool JsonReader::requiredString(const char *key, QString *out, int maxLength)
{
    if (!ok())
        return false;
    const QJsonValue v = value(key);
    if (v.isUndefined() || v.isNull())
        return fail(QLatin1String(key), QStringLiteral("is required"));
    return string(key, out, maxLength);
}

bool JsonReader::enumValue(const char *key, QString *out, const QStringList &allowed)
{
    QString s;
    if (!string(key, &s, 256))
        return false;
    if (s.isNull())
        return true;
    if (!allowed.contains(s))
        return fail(QLatin1String(key),
                    QStringLiteral("must be one of: ") + allowed.join(QStringLiteral(", ")));
    *out = s;
    return true;
}

bool JsonReader::boolean(const char *key, std::optional<bool> *out)
{
    if (!ok())
        return false;
    const QJsonValue v = value(key);
    if (v.isUndefined() || v.isNull())
        return true;
    if (!v.isBool())
        return fail(QLatin1String(key), QStringLiteral("must be a boolean"));
    *out = v.toBool();
    return true;
}

bool JsonReader::number(const char *key, std::optional<double> *out, double min, double max)
{
    if (!ok())
        return false;
    const QJsonValue v = value(key);
    if (v.isUndefined() || v.isNull())
        return true;
    if (!v.isDouble() || !std::isfinite(v.toDouble()))
        return fail(QLatin1String(key), QStringLiteral("must be a number"));
    const double d = v.toDouble();
    if (d < min || d > max)
        return fail(QLatin1String(key),
                    QStringLiteral("must be between %1 and %2").arg(min).arg(max));
    *out = d;
    return true;
}

bool JsonReader::integer(const char *key, std::optional<int> *out, int min, int max)
{
    std::optional<double> d;
    if (!number(key, &d, min, max))
        return false;
    if (!d)
        return true;
    if (std::floor(*d) != *d)
        return fail(QLatin1String(key), QStringLiteral("must be an integer"));
    *out = int(*d);
    return true;
}

bool JsonReader::object(const char *key, QJsonObject *out, bool *present)
{
    if (!ok())
        return false;
    const QJsonValue v = value(key);
    if (present)
        *present = !(v.isUndefined() || v.isNull());
    if (v.isUndefined() || v.isNull())
        return true;
    if (!v.isObject())
        return fail(QLatin1String(key), QStringLiteral("must be an object"));
    *out = v.toObject();
    return true;
}

bool JsonReader::array(const char *key, QJsonArray *out, bool *present)
{
    if (!ok())
        return false;
    const QJsonValue v = value(key);
    if (present)
        *present = !(v.isUndefined() || v.isNull());
    if (v.isUndefined() || v.isNull())
        return true;
    if (!v.isArray())
        return fail(QLatin1String(key), QStringLiteral("must be an array"));
    *out = v.toArray();
    return true;
}

bool JsonReader::stringList(const char *key, QStringList *out, int minCount, int maxCount,
                            bool *present)
{
    QJsonArray items;
    bool given = false;
    if (!array(key, &items, &given))
        return false;
    if (present)
        *present = given;
    if (!given)
        return true;
    if (items.size() < minCount || items.size() > maxCount)
        return fail(QLatin1String(key),
                    QStringLiteral("must have %1..%2 entries").arg(minCount).arg(maxCount));
    QStringList list;
    for (int i = 0; i < items.size(); ++i) {
        const QString s = items.at(i).toString().trimmed();
        if (!items.at(i).isString() || s.isEmpty())
            return fail(QStringLiteral("%1[%2]").arg(QLatin1String(key)).arg(i),
                        QStringLiteral("must be a non-empty string"));
        list << s;
    }
    *out = list;
    return true;
}

bool JsonReader::floatVector(const char *key, QVector<float> *out, int dimension, bool required)
{
    if (!ok())
        return false;
    const QJsonValue v = value(key);
    if (v.isUndefined() || v.isNull())
        return required ? fail(QLatin1String(key), QStringLiteral("is required")) : true;
    if (m_vectors && v.isString())
        return decodedVector(key, out, dimension);
    if (!v.isArray())
        return fail(QLatin1String(key), QStringLiteral("must be an array of numbers"));
    const QJsonArray items = v.toArray();
    if (items.size() != dimension)
        return fail(QLatin1String(key), QStringLiteral("must have exactly %1 numbers, got %2")
                                            .arg(dimension)
                                            .arg(items.size()));
    QVector<float> vector(dimension);
    for (int i = 0; i < dimension; ++i) {
        // Named only when it fails: a write parses 1536 numbers per node.
        const auto element
            = [key, i] { return QStringLiteral("%1[%2]").arg(QLatin1String(key)).arg(i); };
        const QJsonValue item = items.at(i);
        if (!item.isDouble() || !std::isfinite(item.toDouble()))
            return fail(element(), QStringLiteral("must be a finite number"));
        // Checked in double: converting an out-of-range double to float is undefined.
        const double d = item.toDouble();
        if (std::fabs(d) > double(FLT_MAX))
            return fail(element(), QStringLiteral("must be within the float32 range (|x| <= %1)")
                                       .arg(double(FLT_MAX)));
        vector[i] = float(d);
    }
    *out = vector;
    return true;
}

bool JsonReader::decodedVector(const char *key, QVector<float> *out, int dimension)
{
    const auto found = m_vectors->constFind(path(QLatin1String(key)));
    if (found == m_vectors->cend()) // a string sent as an embedding
        return fail(QLatin1String(key), QStringLiteral("must be an array of numbers"));
    if (found->size() != dimension)
        return fail(QLatin1String(key), QStringLiteral("must have exactly %1 numbers, got %2")
                                            .arg(dimension)
                                            .arg(found->size()));
    *out = *found;
    return true;
}

QString normalizeText(const QString &text, int maxLength)
{
    QString s = text.simplified();
    if (maxLength > 0 && s.size() > maxLength)
        s = s.left(maxLength - 1) + QChar(0x2026);
    return s;
}

} // namespace MemoryGraph
