#include "service/http/browserguard.h"

#include <QJsonValue>
#include <QRegularExpression>

#include <optional>

namespace MemoryGraph::BrowserGuard {

bool isLoopbackAddress(const QHostAddress &address)
{
    bool isV4 = false;
    const quint32 v4 = address.toIPv4Address(&isV4);
    if (isV4)
        return (v4 >> 24) == 127;
    return address.isLoopback();
}

namespace {

constexpr int kEchoLimit = 200; // caller text echoed in details is cut to this many characters

const QByteArray kAllowMethods = QByteArrayLiteral("GET, POST, DELETE");
const QByteArray kAllowHeaders = QByteArrayLiteral(
    "Content-Type, X-Api-Key, Authorization, X-Tenant-Id, X-Request-Id, X-Admin-Token, "
    "Mcp-Session-Id, MCP-Protocol-Version, Mcp-Method, Mcp-Name");
const QByteArray kPreflightMaxAgeSec = QByteArrayLiteral("600");

QJsonValue echoed(const QByteArray &value)
{
    return QString::fromLatin1(value.left(kEchoLimit));
}

/// How a Host header writes an address: dotted IPv4 (also for an IPv4-mapped IPv6 socket) or
/// a bracketed IPv6 literal.
QString hostLiteral(const QHostAddress &address)
{
    bool isV4 = false;
    const quint32 v4 = address.toIPv4Address(&isV4);
    if (isV4)
        return QHostAddress(v4).toString();
    QHostAddress plain(address);
    plain.setScopeId(QString());
    return QLatin1Char('[') + plain.toString().toLower() + QLatin1Char(']');
}

struct HostAndPort
{
    QString host;
    std::optional<quint16> port;
};

/// "name", "name:port", "[v6]" or "[v6]:port"; nullopt for anything else.
std::optional<HostAndPort> splitHostHeader(const QString &value)
{
    QString host = value;
    QString portText;
    bool hasPort = false;
    if (value.startsWith(QLatin1Char('['))) {
        const qsizetype close = value.indexOf(QLatin1Char(']'));
        if (close < 0)
            return std::nullopt;
        host = value.left(close + 1);
        const QString rest = value.mid(close + 1);
        if (!rest.isEmpty()) {
            if (!rest.startsWith(QLatin1Char(':')))
                return std::nullopt;
            portText = rest.mid(1);
            hasPort = true;
        }
    } else if (const qsizetype colon = value.indexOf(QLatin1Char(':')); colon >= 0) {
        if (value.indexOf(QLatin1Char(':'), colon + 1) >= 0)
            return std::nullopt; // an unbracketed IPv6 literal or junk
        host = value.left(colon);
        portText = value.mid(colon + 1);
        hasPort = true;
    }
    if (host.isEmpty())
        return std::nullopt;
    HostAndPort out{host, std::nullopt};
    if (hasPort) {
        static const QRegularExpression digits(QStringLiteral("^[0-9]{1,5}$"));
        if (!digits.match(portText).hasMatch() || portText.toUInt() > 65535)
            return std::nullopt;
        out.port = quint16(portText.toUInt());
    }
    return out;
}

/// The names a Host header may use for this listener without configuration.
QStringList namesOf(const ListenerEndpoint &listener)
{
    QStringList names{hostLiteral(listener.address)};
    if (isLoopbackAddress(listener.address))
        names << QStringLiteral("127.0.0.1") << QStringLiteral("localhost")
              << QStringLiteral("[::1]");
    return names;
}

/// A port, when given, must be the listener's; configured names may also be listed with an
/// exact port ("name:port"), e.g. behind a proxy that keeps its own port in Host.
bool hostNamesListener(const QByteArray &header, const ListenerEndpoint &listener,
                       const ServiceConfig &config)
{
    const QString value = QString::fromLatin1(header).trimmed().toLower();
    const auto parsed = splitHostHeader(value);
    if (!parsed)
        return false;
    const bool portMatches = !parsed->port || *parsed->port == listener.port;
    if (portMatches
        && (namesOf(listener).contains(parsed->host) || config.allowedHosts.contains(parsed->host)))
        return true;
    return config.allowedHosts.contains(value);
}

bool isLoopbackOrigin(const QString &origin)
{
    static const QRegularExpression loopback(
        QStringLiteral("^https?://(127\\.0\\.0\\.1|localhost|\\[::1\\])(:[0-9]{1,5})?$"));
    return loopback.match(origin).hasMatch();
}

bool isMediaType(const QByteArray &contentType, const QByteArray &expected)
{
    const qsizetype semicolon = contentType.indexOf(';');
    const QByteArray mediaType = semicolon < 0 ? contentType : contentType.left(semicolon);
    return mediaType.trimmed().toLower() == expected;
}

Error misdirected(const QByteArray &host, bool present)
{
    return Error::make(421, QStringLiteral("misdirected_request"),
                       QStringLiteral("the Host header does not name this server"),
                       {{QStringLiteral("reason"),
                         present ? QStringLiteral("unknown_host") : QStringLiteral("missing_host")},
                        {QStringLiteral("host"), present ? echoed(host) : QJsonValue()}});
}

Error forbiddenOrigin(const QByteArray &origin, const QString &reason)
{
    return Error::make(
        403, QStringLiteral("forbidden_origin"),
        QStringLiteral("requests from this origin are not allowed"),
        {{QStringLiteral("reason"), reason}, {QStringLiteral("origin"), echoed(origin)}});
}

Error unsupportedMediaType(const QByteArray &contentType, bool present, const QByteArray &expected)
{
    const QString type = QString::fromLatin1(expected);
    return Error::make(
        415, QStringLiteral("unsupported_media_type"),
        QStringLiteral("a POST body must be sent with Content-Type: ") + type,
        {{QStringLiteral("content_type"), present ? echoed(contentType) : QJsonValue()},
         {QStringLiteral("expected"), type}});
}

QList<QPair<QByteArray, QByteArray>> corsHeadersFor(const QByteArray &origin)
{
    return {
        {QByteArrayLiteral("Access-Control-Allow-Origin"), origin},
        {QByteArrayLiteral("Vary"), QByteArrayLiteral("Origin")},
        {QByteArrayLiteral("Access-Control-Expose-Headers"), QByteArrayLiteral("Mcp-Session-Id")}};
}

QList<QPair<QByteArray, QByteArray>> preflightHeadersFor(const QByteArray &origin)
{
    auto headers = corsHeadersFor(origin);
    headers.append({QByteArrayLiteral("Access-Control-Allow-Methods"), kAllowMethods});
    headers.append({QByteArrayLiteral("Access-Control-Allow-Headers"), kAllowHeaders});
    headers.append({QByteArrayLiteral("Access-Control-Max-Age"), kPreflightMaxAgeSec});
    return headers;
}

} // namespace

Result<BrowserAdmission> check(const QString &method, const QHash<QByteArray, QByteArray> &headers,
                               const ListenerEndpoint &listener, const ServiceConfig &config,
                               const QByteArray &postMediaType)
{
    const auto host = headers.constFind(QByteArrayLiteral("host"));
    if (host == headers.constEnd())
        return misdirected({}, false);
    if (!hostNamesListener(*host, listener, config))
        return misdirected(*host, true);

    BrowserAdmission admission;
    const auto origin = headers.constFind(QByteArrayLiteral("origin"));
    if (origin != headers.constEnd()) {
        const QByteArray sent = origin->trimmed();
        const QString normalized = QString::fromLatin1(sent).toLower();
        // "null" (sandboxed frames, file: pages) is never loopback and never configurable.
        const bool configured
            = normalized != QLatin1String("null") && config.allowedOrigins.contains(normalized);
        const bool preflight
            = method == QLatin1String("OPTIONS")
              && headers.contains(QByteArrayLiteral("access-control-request-method"));
        if (preflight) {
            if (!configured)
                return forbiddenOrigin(sent, QStringLiteral("preflight_not_allowed"));
            admission.preflight = true;
            admission.corsHeaders = preflightHeadersFor(sent);
            return admission;
        }
        if (!configured && !isLoopbackOrigin(normalized))
            return forbiddenOrigin(sent, QStringLiteral("origin_not_allowed"));
        if (configured)
            admission.corsHeaders = corsHeadersFor(sent);
    }

    if (method == QLatin1String("POST")) {
        const auto contentType = headers.constFind(QByteArrayLiteral("content-type"));
        if (contentType == headers.constEnd())
            return unsupportedMediaType({}, false, postMediaType);
        if (!isMediaType(*contentType, postMediaType))
            return unsupportedMediaType(*contentType, true, postMediaType);
    }
    return admission;
}

} // namespace MemoryGraph::BrowserGuard
