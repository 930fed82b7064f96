#include "service/net/embeddingwire.h"

#include "service/core/vocabulary.h"
#include "service/net/upstreamembeddingerrors.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

#include <cfloat>
#include <cmath>

namespace MemoryGraph::EmbeddingWire {

namespace {

Error malformed(const QString &reason, const QString &message)
{
    return UpstreamEmbedding::badResponse(reason, message);
}

} // namespace

QUrl endpoint(const QString &baseUrl)
{
    QUrl url(baseUrl.trimmed(), QUrl::StrictMode);
    const QString scheme = url.scheme().toLower();
    if (!url.isValid() || url.host().isEmpty()
        || (scheme != QLatin1String("http") && scheme != QLatin1String("https")))
        return QUrl();

    QString path = url.path();
    while (path.endsWith(QLatin1Char('/')))
        path.chop(1);
    if (!path.endsWith(QLatin1String("/embeddings"))) {
        if (!path.endsWith(QLatin1String("/v1")))
            path += QLatin1String("/v1");
        path += QLatin1String("/embeddings");
    }
    url.setPath(path);
    return url;
}

QByteArray requestBody(const QString &model, const QStringList &texts)
{
    const QJsonObject body{{QStringLiteral("model"), model},
                           {QStringLiteral("input"), QJsonArray::fromStringList(texts)}};
    return QJsonDocument(body).toJson(QJsonDocument::Compact);
}

Result<QVector<Embedding>> parseResponse(const QByteArray &body, int expectedCount)
{
    QJsonParseError parseError;
    const QJsonDocument doc = QJsonDocument::fromJson(body, &parseError);
    if (parseError.error != QJsonParseError::NoError || !doc.isObject())
        return malformed(QStringLiteral("malformed_json"),
                         QStringLiteral("the embedding provider did not return a JSON object"));
    const QJsonValue data = doc.object().value(QStringLiteral("data"));
    if (!data.isArray())
        return malformed(QStringLiteral("missing_data"),
                         QStringLiteral("the embedding provider response has no data array"));
    const QJsonArray items = data.toArray();
    if (items.size() != expectedCount)
        return malformed(QStringLiteral("wrong_count"),
                         QStringLiteral("the embedding provider returned %1 embeddings for "
                                        "%2 texts")
                             .arg(items.size())
                             .arg(expectedCount));

    constexpr int dim = Vocabulary::kEmbeddingDimension;
    QVector<Embedding> out(expectedCount);
    QVector<bool> seen(expectedCount, false);
    for (int position = 0; position < items.size(); ++position) {
        const QJsonObject item = items.at(position).toObject();
        // Providers may answer out of order; "index" says which input a vector belongs to.
        const QJsonValue indexValue = item.value(QStringLiteral("index"));
        const double rawIndex = indexValue.isUndefined() ? position : indexValue.toDouble(-1);
        const bool inRange
            = rawIndex >= 0 && rawIndex < expectedCount && std::floor(rawIndex) == rawIndex;
        const int index = inRange ? int(rawIndex) : -1;
        if (index < 0 || seen.at(index))
            return malformed(QStringLiteral("bad_index"),
                             QStringLiteral("the embedding provider returned a missing, duplicate "
                                            "or out-of-range index"));
        seen[index] = true;

        const QJsonArray vector = item.value(QStringLiteral("embedding")).toArray();
        if (vector.size() != dim)
            return malformed(QStringLiteral("wrong_dimension"),
                             QStringLiteral("the embedding provider returned %1 dimensions, "
                                            "expected %2; choose a %2-dimensional model")
                                 .arg(vector.size())
                                 .arg(dim));
        Embedding &v = out[index];
        v.resize(dim);
        for (int i = 0; i < dim; ++i) {
            const QJsonValue x = vector.at(i);
            // Range-check in double first: converting an out-of-range double to float is UB.
            const double d = x.toDouble();
            if (!x.isDouble() || !std::isfinite(d) || std::fabs(d) > double(FLT_MAX))
                return malformed(QStringLiteral("non_finite"),
                                 QStringLiteral("the embedding provider returned a non-numeric "
                                                "or non-finite component"));
            v[i] = float(d);
        }
    }
    return out;
}

} // namespace MemoryGraph::EmbeddingWire
