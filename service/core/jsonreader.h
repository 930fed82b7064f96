#pragma once

#include "service/core/jsonbody.h"
#include "service/core/result.h"

#include <QJsonArray>
#include <QJsonObject>
#include <QStringList>
#include <QVector>

#include <optional>

namespace MemoryGraph {

/// Reads typed fields from a request object and keeps the first error, which names the field by
/// its full path ("nodes[2].salience"). Each reader returns false once an error is recorded.
/// null counts as absent. Strings are trimmed; a present string must not be empty.
class JsonReader
{
public:
    /// `vectors` are the embeddings decoded while the body was parsed (parseJsonBody()); the
    /// readers of nested objects pass theirs on (vectors()).
    explicit JsonReader(const QJsonObject &object, const QString &pathPrefix = QString(),
                        const DecodedVectors *vectors = nullptr);

    bool string(const char *key, QString *out, int maxLength = 4096);
    bool requiredString(const char *key, QString *out, int maxLength = 4096);
    bool enumValue(const char *key, QString *out, const QStringList &allowed);
    bool boolean(const char *key, std::optional<bool> *out);
    bool number(const char *key, std::optional<double> *out, double min, double max);
    bool integer(const char *key, std::optional<int> *out, int min, int max);
    bool object(const char *key, QJsonObject *out, bool *present = nullptr);
    bool array(const char *key, QJsonArray *out, bool *present = nullptr);
    bool stringList(const char *key, QStringList *out, int minCount, int maxCount,
                    bool *present = nullptr);

    /// An array of exactly `dimension` numbers, each representable as a float32 (|x| <= FLT_MAX):
    /// a double such as 1e39 would silently become infinity. The failing element is named
    /// ("embedding[5]"). An array decoded while parsing is taken as it is.
    bool floatVector(const char *key, QVector<float> *out, int dimension, bool required = false);

    /// Records a custom error for key (or for the prefix itself when key is empty).
    bool fail(const QString &key, const QString &message);

    /// Takes over a nested reader's error, if any; returns ok().
    bool absorb(const JsonReader &child);

    bool ok() const { return !m_error.has_value(); }
    const Error &error() const { return *m_error; }
    QString path(const QString &key) const;
    const DecodedVectors *vectors() const { return m_vectors; }

private:
    QJsonValue value(const char *key) const;
    bool decodedVector(const char *key, QVector<float> *out, int dimension);

    QJsonObject m_object;
    QString m_prefix;
    const DecodedVectors *m_vectors = nullptr;
    std::optional<Error> m_error;
};

/// Collapses whitespace runs to one space, trims, and cuts to maxLength characters.
QString normalizeText(const QString &text, int maxLength);

} // namespace MemoryGraph
