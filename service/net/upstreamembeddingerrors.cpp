#include "service/net/upstreamembeddingerrors.h"

#include <QJsonDocument>
#include <QRegularExpression>

#include <algorithm>
#include <cmath>

namespace MemoryGraph::UpstreamEmbedding {

namespace {

const QString kRetryAfter = QStringLiteral("retry_after_sec");

int clampRetry(double seconds)
{
    if (!std::isfinite(seconds))
        return kMaxRetryAfterSec;
    return int(std::clamp(std::ceil(seconds), 1.0, double(kMaxRetryAfterSec)));
}

bool isIdentifier(const QString &text)
{
    static const QRegularExpression re(QStringLiteral("^[A-Za-z0-9_.:-]{1,64}$"));
    return re.match(text).hasMatch();
}

QJsonValue redactValue(const QJsonValue &value, const QString &secret)
{
    if (value.isString()) {
        QString s = value.toString();
        return s.replace(secret, QStringLiteral("[redacted]"));
    }
    if (value.isArray()) {
        QJsonArray out;
        for (const QJsonValue &item : value.toArray())
            out.append(redactValue(item, secret));
        return out;
    }
    if (value.isObject()) {
        QJsonObject out;
        const QJsonObject in = value.toObject();
        for (auto it = in.begin(); it != in.end(); ++it)
            out.insert(it.key(), redactValue(it.value(), secret));
        return out;
    }
    return value;
}

} // namespace

Error rateLimited(int retryAfterSec, QJsonObject details)
{
    details.insert(kRetryAfter, retryAfterSec);
    return Error::make(429, QStringLiteral("upstream_embedding_rate_limited"),
                       QStringLiteral("the embedding provider is rate limiting requests; "
                                      "retry after %1 s")
                           .arg(retryAfterSec),
                       details);
}

Error unavailable(const QString &reason, const QString &message, int retryAfterSec,
                  QJsonObject details)
{
    details.insert(kRetryAfter, retryAfterSec);
    details.insert(QStringLiteral("reason"), reason);
    return Error::make(503, QStringLiteral("upstream_embedding_unavailable"), message, details);
}

Error badResponse(const QString &reason, const QString &message, QJsonObject details)
{
    details.insert(QStringLiteral("reason"), reason);
    return Error::make(502, QStringLiteral("upstream_embedding_bad_response"), message, details);
}

int retryAfterSeconds(const QByteArray &retryAfter, const QByteArray &retryAfterMs, int fallback,
                      const QDateTime &now)
{
    const QByteArray value = retryAfter.trimmed();
    if (!value.isEmpty()) {
        bool ok = false;
        const double seconds = value.toDouble(&ok);
        if (ok && seconds >= 0)
            return clampRetry(seconds);
        // HTTP dates end in "GMT", which Qt's RFC 2822 parser does not take; it takes +0000.
        QString date = QString::fromLatin1(value);
        if (date.endsWith(QLatin1String(" GMT")))
            date = date.chopped(3) + QLatin1String("+0000");
        const QDateTime at = QDateTime::fromString(date, Qt::RFC2822Date);
        if (at.isValid())
            return clampRetry(double(now.msecsTo(at)) / 1000.0);
    }
    bool ok = false;
    const double ms = retryAfterMs.trimmed().toDouble(&ok);
    if (ok && ms >= 0)
        return clampRetry(ms / 1000.0);
    return fallback;
}

bool mentionsRateLimit(const QByteArray &body)
{
    // Bodies of throttling errors are short; a long body is an embedding payload, not a
    // complaint, and scanning it could find the phrase inside a client's own text.
    if (body.size() > 64 * 1024)
        return false;
    const QByteArray lower = body.toLower();
    return lower.contains("rate limit") || lower.contains("rate_limit")
           || lower.contains("too many requests");
}

QJsonObject errorHints(const QByteArray &body)
{
    QJsonObject hints;
    const QJsonValue error = QJsonDocument::fromJson(body).object().value(QStringLiteral("error"));
    if (!error.isObject())
        return hints;
    const QJsonObject e = error.toObject();
    const QString type = e.value(QStringLiteral("type")).toString();
    const QString code = e.value(QStringLiteral("code")).toString();
    if (isIdentifier(type))
        hints.insert(QStringLiteral("upstream_error_type"), type);
    if (isIdentifier(code))
        hints.insert(QStringLiteral("upstream_error_code"), code);
    return hints;
}

Error redacted(Error error, const QString &secret)
{
    if (secret.isEmpty())
        return error;
    error.message.replace(secret, QStringLiteral("[redacted]"));
    error.details = redactValue(error.details, secret).toObject();
    return error;
}

} // namespace MemoryGraph::UpstreamEmbedding
