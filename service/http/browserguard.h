#pragma once

#include "service/core/config.h"
#include "service/core/result.h"

#include <QByteArray>
#include <QHash>
#include <QHostAddress>
#include <QList>
#include <QPair>
#include <QString>

namespace MemoryGraph {

/// The socket a request arrived on: the listener's side of the connection.
struct ListenerEndpoint
{
    QHostAddress address;
    quint16 port = 0;
};

/// What the browser guards let through.
struct BrowserAdmission
{
    /// A CORS preflight from a configured origin: answer 204 with corsHeaders and stop there.
    bool preflight = false;
    /// Headers every answer to this request carries (empty unless the Origin is configured).
    QList<QPair<QByteArray, QByteArray>> corsHeaders;
};

/// The checks that keep a web page in the operator's browser away from the service (DESIGN
/// "Trust model"). Every program and page on the machine can reach a loopback port, so:
/// - Host must name the listener, which defeats DNS rebinding (421 misdirected_request);
/// - an Origin must be loopback or configured (403 forbidden_origin); CORS only for configured
/// ones;
/// - a POST must be JSON, which no cross-site "simple" request (form, text/plain) can be
///   without a preflight (415 unsupported_media_type).
/// Pure and transport-neutral, so /v1 and any later endpoint share the same rules.
namespace BrowserGuard {

/// 127.0.0.0/8 (also IPv4-mapped) or ::1.
bool isLoopbackAddress(const QHostAddress &address);

/// headers: lower-case names. The checks run in the order Host, Origin (and preflight), then
/// Content-Type, and the first failing one is the answer. postMediaType: what a POST must send;
/// JSON everywhere but the import route, whose body is application/x-ndjson (no more a simple
/// request than JSON: a page cannot send it without a preflight).
Result<BrowserAdmission> check(const QString &method, const QHash<QByteArray, QByteArray> &headers,
                               const ListenerEndpoint &listener, const ServiceConfig &config,
                               const QByteArray &postMediaType
                               = QByteArrayLiteral("application/json"));

} // namespace BrowserGuard
} // namespace MemoryGraph
