#include "service/net/openaiembeddingprovider.h"

#include "service/net/embeddingwire.h"
#include "service/net/upstreamembeddingerrors.h"

#include <QEventLoop>
#include <QNetworkAccessManager>
#include <QNetworkReply>
#include <QNetworkRequest>
#include <QTimer>

namespace MemoryGraph {

namespace {

Error badConfiguration(const QString &variable, const QString &why)
{
    return Error::make(400, QStringLiteral("invalid_configuration"),
                       variable + QStringLiteral(": ") + why,
                       {{QStringLiteral("variable"), variable}});
}

// Waits for the reply in a private event loop; false when the deadline passed first.
bool waitForReply(QNetworkReply *reply, int timeoutMs)
{
    if (reply->isFinished())
        return true;
    QEventLoop loop;
    QTimer deadline;
    deadline.setSingleShot(true);
    QObject::connect(reply, &QNetworkReply::finished, &loop, &QEventLoop::quit);
    QObject::connect(&deadline, &QTimer::timeout, &loop, &QEventLoop::quit);
    deadline.start(timeoutMs);
    loop.exec(QEventLoop::ExcludeUserInputEvents);
    return reply->isFinished();
}

// Errors below 200 are transport and proxy failures (QNetworkReply::NetworkError ranges);
// the rest describe an HTTP status that did arrive.
bool isTransportFailure(QNetworkReply::NetworkError error)
{
    return error != QNetworkReply::NoError && int(error) < 200;
}

QString transportReason(QNetworkReply::NetworkError error)
{
    switch (error) {
    case QNetworkReply::ConnectionRefusedError: return QStringLiteral("connection_refused");
    case QNetworkReply::HostNotFoundError: return QStringLiteral("host_not_found");
    case QNetworkReply::TimeoutError: return QStringLiteral("timeout");
    case QNetworkReply::RemoteHostClosedError: return QStringLiteral("connection_closed");
    case QNetworkReply::SslHandshakeFailedError: return QStringLiteral("tls_failed");
    default: return QStringLiteral("network_error");
    }
}

} // namespace

Result<std::unique_ptr<EmbeddingProvider>>
OpenAiEmbeddingProvider::create(const ServiceConfig &config)
{
    const QUrl url = EmbeddingWire::endpoint(config.embeddingBaseUrl);
    if (!url.isValid())
        return badConfiguration(QStringLiteral("EMBEDDING_BASE_URL"),
                                QStringLiteral("expected an http or https URL"));
    const QString modelName = config.embeddingModel.trimmed();
    if (modelName.isEmpty())
        return badConfiguration(QStringLiteral("EMBEDDING_MODEL"),
                                QStringLiteral("required for the openai provider"));
    const QString key = config.embeddingApiKey.trimmed();
    for (QChar c : key) {
        // A control character would split the Authorization header; say so without the key.
        if (c.unicode() < 0x20 || c.unicode() == 0x7f || c.unicode() > 0x7e)
            return badConfiguration(QStringLiteral("EMBEDDING_API_KEY"),
                                    QStringLiteral("contains characters not allowed in a header"));
    }
    return std::unique_ptr<EmbeddingProvider>(
        new OpenAiEmbeddingProvider(url, modelName, key, qMax(1, config.embeddingTimeoutMs)));
}

OpenAiEmbeddingProvider::OpenAiEmbeddingProvider(QUrl endpoint, QString model, QString apiKey,
                                                 int timeoutMs)
    : m_endpoint(std::move(endpoint)), m_model(std::move(model)), m_apiKey(std::move(apiKey)),
      m_timeoutMs(timeoutMs)
{
}

QString OpenAiEmbeddingProvider::name() const
{
    return QStringLiteral("openai:") + m_model;
}

QString OpenAiEmbeddingProvider::model() const
{
    return m_model;
}

Result<QVector<Embedding>> OpenAiEmbeddingProvider::embed(const QStringList &texts)
{
    // Providers reject empty inputs with a 400, which would read as a bad upstream response;
    // it is the caller's mistake, so report it as one.
    for (const QString &text : texts) {
        if (text.trimmed().isEmpty())
            return Error::make(400, QStringLiteral("invalid_request"),
                               QStringLiteral("text has nothing to embed"));
    }

    QVector<Embedding> out;
    out.reserve(texts.size());
    for (qsizetype start = 0; start < texts.size(); start += kMaxBatch) {
        auto batch = embedBatch(texts.mid(start, kMaxBatch));
        if (!batch)
            return UpstreamEmbedding::redacted(batch.error(), m_apiKey);
        out.append(std::move(batch).value());
    }
    return out;
}

Result<QVector<Embedding>> OpenAiEmbeddingProvider::embedBatch(const QStringList &texts) const
{
    using namespace UpstreamEmbedding;

    QNetworkRequest request(m_endpoint);
    request.setHeader(QNetworkRequest::ContentTypeHeader, QByteArrayLiteral("application/json"));
    request.setRawHeader(QByteArrayLiteral("Accept"), QByteArrayLiteral("application/json"));
    // Following a redirect could carry the Authorization header to another host.
    request.setAttribute(QNetworkRequest::RedirectPolicyAttribute,
                         QNetworkRequest::ManualRedirectPolicy);
    if (!m_apiKey.isEmpty())
        request.setRawHeader(QByteArrayLiteral("Authorization"),
                             QByteArrayLiteral("Bearer ") + m_apiKey.toLatin1());

    // Created on the calling thread and destroyed before returning: nothing is shared between
    // concurrent callers, and no event loop has to outlive the call.
    QNetworkAccessManager manager;
    const std::unique_ptr<QNetworkReply> reply(
        manager.post(request, EmbeddingWire::requestBody(m_model, texts)));

    if (!waitForReply(reply.get(), m_timeoutMs)) {
        reply->abort();
        return unavailable(
            QStringLiteral("timeout"),
            QStringLiteral("the embedding provider did not answer within %1 ms").arg(m_timeoutMs));
    }

    const QNetworkReply::NetworkError networkError = reply->error();
    if (isTransportFailure(networkError))
        return unavailable(transportReason(networkError),
                           QStringLiteral("the embedding provider at %1 is unreachable (%2)")
                               .arg(m_endpoint.host(), transportReason(networkError)));

    const int status = reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
    const QByteArray body = reply->readAll();
    const QJsonObject upstream{{QStringLiteral("upstream_status"), status}};
    const int retryAfter
        = retryAfterSeconds(reply->rawHeader(QByteArrayLiteral("Retry-After")),
                            reply->rawHeader(QByteArrayLiteral("retry-after-ms")), 0);

    if (status >= 200 && status < 300) {
        auto parsed = EmbeddingWire::parseResponse(body, int(texts.size()));
        if (parsed || !mentionsRateLimit(body))
            return parsed;
    }
    if (status == 429 || mentionsRateLimit(body))
        return rateLimited(retryAfter > 0 ? retryAfter : kRateLimitRetryAfterSec, upstream);
    if (status >= 500)
        return unavailable(QStringLiteral("upstream_error"),
                           QStringLiteral("the embedding provider failed with HTTP %1").arg(status),
                           retryAfter > 0 ? retryAfter : kUnavailableRetryAfterSec, upstream);
    if (status <= 0)
        return unavailable(QStringLiteral("network_error"),
                           QStringLiteral("the embedding provider sent no HTTP response"));

    QJsonObject details = errorHints(body);
    details.insert(QStringLiteral("upstream_status"), status);
    return badResponse(
        QStringLiteral("upstream_status"),
        QStringLiteral("the embedding provider rejected the request with HTTP %1").arg(status),
        details);
}

} // namespace MemoryGraph
