#include "service/core/jsonbody.h"

#include "service/core/hashing.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonParseError>

#include <cfloat>
#include <cmath>
#include <optional>
#include <simdjson.h>

namespace MemoryGraph {

namespace {

using simdjson::dom::element;
using simdjson::dom::element_type;

bool isEmbeddingKey(std::string_view key)
{
    return key == "embedding" || key == "query_embedding";
}

/// The array as float32 when every element is a number within float32 range; else nothing,
/// and the array stays JSON for the request parser to name the bad element.
std::optional<QVector<float>> decodeFloats(simdjson::dom::array array)
{
    QVector<float> out;
    out.reserve(qsizetype(array.size()));
    for (element item : array) {
        double value = 0;
        if (item.get_double().get(value) != simdjson::SUCCESS) // also takes integers
            return std::nullopt;
        if (!std::isfinite(value) || std::fabs(value) > double(FLT_MAX))
            return std::nullopt;
        out.append(float(value));
    }
    return out;
}

/// Turns the parsed DOM into Qt's JSON, decoding embedding arrays into `vectors` on the way.
/// Paths are built only for containers: only they can hold an embedding.
class Converter
{
public:
    explicit Converter(DecodedVectors *vectors) : m_vectors(vectors) { }

    QJsonValue value(element e, const QString &path)
    {
        switch (e.type()) {
        case element_type::OBJECT: return object(e.get_object().value_unsafe(), path);
        case element_type::ARRAY: return array(e.get_array().value_unsafe(), path);
        case element_type::STRING: {
            const std::string_view s = e.get_string().value_unsafe();
            return QString::fromUtf8(s.data(), qsizetype(s.size()));
        }
        case element_type::INT64: return QJsonValue(qint64(e.get_int64().value_unsafe()));
        case element_type::UINT64: return QJsonValue(double(e.get_uint64().value_unsafe()));
        case element_type::DOUBLE: return QJsonValue(e.get_double().value_unsafe());
        case element_type::BOOL: return QJsonValue(e.get_bool().value_unsafe());
        case element_type::NULL_VALUE: break;
        }
        return QJsonValue(QJsonValue::Null);
    }

    QJsonObject object(simdjson::dom::object o, const QString &path)
    {
        QJsonObject out;
        for (const simdjson::dom::key_value_pair field : o) {
            const QString key = QString::fromUtf8(field.key.data(), qsizetype(field.key.size()));
            const auto at = [&] { return path.isEmpty() ? key : path + QLatin1Char('.') + key; };
            if (isEmbeddingKey(field.key)) {
                if (field.value.type() == element_type::ARRAY) {
                    if (auto floats = decodeFloats(field.value.get_array().value_unsafe())) {
                        out.insert(key, embeddingDigest(*floats));
                        m_vectors->insert(at(), std::move(*floats));
                        continue;
                    }
                }
                m_vectors->remove(at()); // a repeated key: the last one counts, as in Qt
            }
            out.insert(key, isContainer(field.value) ? value(field.value, at())
                                                     : value(field.value, QString()));
        }
        return out;
    }

    QJsonArray array(simdjson::dom::array a, const QString &path)
    {
        QJsonArray out;
        qsizetype index = 0;
        for (element item : a) {
            out.append(isContainer(item)
                           ? value(item, path + QLatin1Char('[') + QString::number(index)
                                             + QLatin1Char(']'))
                           : value(item, QString()));
            ++index;
        }
        return out;
    }

private:
    static bool isContainer(element e)
    {
        return e.type() == element_type::OBJECT || e.type() == element_type::ARRAY;
    }

    DecodedVectors *m_vectors;
};

/// Qt's parser words the errors: it runs only for a body the fast parser refused.
Result<JsonBody> parseWithQt(const QByteArray &bytes)
{
    QJsonParseError err{};
    const QJsonDocument doc = QJsonDocument::fromJson(bytes, &err);
    if (err.error != QJsonParseError::NoError)
        return Error::make(
            400, QStringLiteral("invalid_request"),
            QStringLiteral("malformed JSON at offset %1: %2")
                .arg(err.offset)
                .arg(err.errorString()),
            {{QStringLiteral("issues"),
              QJsonArray{QJsonObject{{QStringLiteral("path"), QString()},
                                     {QStringLiteral("message"), err.errorString()}}}}});
    if (!doc.isObject())
        return Error::invalidField(QString(), QStringLiteral("request body must be a JSON object"));
    return JsonBody{doc.object(), {}};
}

} // namespace

Result<JsonBody> parseJsonBody(const QByteArray &bytes)
{
    if (bytes.trimmed().isEmpty())
        return Error::invalidField(QString(), QStringLiteral("request body must be a JSON object"));
    // A parser keeps buffers of about ten times the largest document it parsed: each thread
    // keeps one for ordinary bodies, a large body gets its own that is freed right after.
    constexpr qsizetype kReusedParserBytes = 1 << 20;
    thread_local simdjson::dom::parser reused;
    std::optional<simdjson::dom::parser> oneOff;
    simdjson::dom::parser &parser = bytes.size() <= kReusedParserBytes ? reused : oneOff.emplace();
    element root;
    if (parser.parse(bytes.constData(), size_t(bytes.size())).get(root) != simdjson::SUCCESS
        || root.type() != element_type::OBJECT)
        return parseWithQt(bytes);
    JsonBody body;
    body.object = Converter(&body.vectors).object(root.get_object().value_unsafe(), QString());
    return body;
}

QString embeddingDigest(const QVector<float> &vector)
{
    return QStringLiteral("float32-sha256:")
           + sha256Hex(
               QByteArray::fromRawData(reinterpret_cast<const char *>(vector.constData()),
                                       qsizetype(vector.size()) * qsizetype(sizeof(float))));
}

} // namespace MemoryGraph
