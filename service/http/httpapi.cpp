#include "service/http/httpapi.h"

#include "service/access/callscope.h"
#include "service/automation/automationengine.h"
#include "service/core/ids.h"
#include "service/http/browserguard.h"
#include "service/http/dto.h"
#include "service/http/filereply.h"
#include "service/http/mcpendpoint.h"
#include "service/http/routes.h"
#include "service/memoryservice.h"

#include <QDateTime>
#include <QElapsedTimer>
#include <QHttpServer>
#include <QHttpServerRequest>
#include <QHttpServerResponder>
#include <QHttpServerResponse>
#include <QJsonDocument>
#include <QLoggingCategory>
#include <QPointer>
#include <QTcpSocket>

#include <memory>

namespace MemoryGraph {

namespace {

Q_LOGGING_CATEGORY(lcHttp, "memorygraph.http")

QString methodName(QHttpServerRequest::Method m)
{
    switch (m) {
    case QHttpServerRequest::Method::Get: return QStringLiteral("GET");
    case QHttpServerRequest::Method::Put: return QStringLiteral("PUT");
    case QHttpServerRequest::Method::Delete: return QStringLiteral("DELETE");
    case QHttpServerRequest::Method::Post: return QStringLiteral("POST");
    case QHttpServerRequest::Method::Head: return QStringLiteral("HEAD");
    case QHttpServerRequest::Method::Options: return QStringLiteral("OPTIONS");
    case QHttpServerRequest::Method::Patch: return QStringLiteral("PATCH");
    case QHttpServerRequest::Method::Connect: return QStringLiteral("CONNECT");
    case QHttpServerRequest::Method::Trace: return QStringLiteral("TRACE");
    default: return QStringLiteral("UNKNOWN");
    }
}

/// The caller's X-Request-Id if it is short printable ASCII, else a new UUID.
QString requestIdFor(const QByteArray &given)
{
    const QByteArray id = given.trimmed();
    if (id.isEmpty() || id.size() > 128)
        return randomUuid();
    for (char c : id) {
        if (c < 0x21 || c > 0x7e)
            return randomUuid();
    }
    return QString::fromLatin1(id);
}

/// Caller text echoed in an error is cut short.
QString echoed(const QString &text)
{
    constexpr int kEchoLimit = 200;
    return text.left(kEchoLimit);
}

ListenerEndpoint listenerOf(const QTcpSocket *socket)
{
    return socket ? ListenerEndpoint{socket->localAddress(), socket->localPort()}
                  : ListenerEndpoint{};
}

/// 5xx errors whose text the caller may read: the spec's upstream embedding failures and the
/// dispatcher's own busy answer. Anything else may carry SQLite text or file paths.
bool isPublicServerError(const Error &e)
{
    return e.code.startsWith(QLatin1String("upstream_embedding_"))
           || e.code == QLatin1String("server_busy");
}

/// An internal failure as the caller sees it: its code and request id, nothing else. The
/// original goes to the log under the same request id.
Error concealed(const Error &e, const QString &requestId)
{
    qCWarning(lcHttp).noquote() << "request" << requestId << "failed:" << e.status << e.code
                                << e.message
                                << QJsonDocument(e.details).toJson(QJsonDocument::Compact);
    return Error::make(e.status, e.code,
                       QStringLiteral("internal error; see the server log for request ")
                           + requestId);
}

HttpReply errorReply(const Error &error, const QString &requestId)
{
    const Error e
        = error.status >= 500 && !isPublicServerError(error) ? concealed(error, requestId) : error;
    HttpReply reply;
    reply.status = e.status;
    reply.body = Dto::error(e, requestId);
    const QJsonValue retryAfter = e.details.value(QStringLiteral("retry_after_sec"));
    if (retryAfter.isDouble())
        reply.headers.append(
            {QByteArrayLiteral("Retry-After"), QByteArray::number(qMax(1, retryAfter.toInt()))});
    if (e.status == 405)
        reply.headers.append({QByteArrayLiteral("Allow"),
                              e.details.value(QStringLiteral("allow")).toString().toLatin1()});
    return reply;
}

QHttpServerResponse responseFor(const HttpReply &reply)
{
    if (reply.raw && reply.rawBody.isEmpty())
        return QHttpServerResponse(QHttpServerResponse::StatusCode(reply.status));
    if (reply.raw)
        return QHttpServerResponse(QByteArrayLiteral("application/json"), reply.rawBody,
                                   QHttpServerResponse::StatusCode(reply.status));
    if (reply.status == 204) // a preflight answer has no body
        return QHttpServerResponse(QHttpServerResponse::StatusCode::NoContent);
    return QHttpServerResponse(QByteArrayLiteral("application/json"),
                               QJsonDocument(reply.body).toJson(QJsonDocument::Compact),
                               QHttpServerResponse::StatusCode(reply.status));
}

} // namespace

HttpApi::HttpApi(MemoryService *service, QObject *context, ServedCallback onServed)
    : m_service(service), m_context(context), m_onServed(std::move(onServed)),
      m_authenticator(service->config()),
      m_limiter(std::make_unique<RateLimiter>(service->config().rateLimits))
{
    // Handlers block on SQLite and, later, on embedding providers: keep them off the server
    // thread and off the global pool the UI uses.
    m_pool.setMaxThreadCount(qMax(4, QThread::idealThreadCount() * 2));
    registerRoutes();
}

HttpApi::~HttpApi()
{
    drain();
}

void HttpApi::drain()
{
    m_pool.waitForDone();
}

void HttpApi::addRoute(const QString &method, const QString &path, RouteClass routeClass,
                       RouteHandler handler, bool embedsText)
{
    const bool isV1 = path.startsWith(QLatin1String("/v1/"));
    m_routes.insert(path, Route{{method}, isV1, isV1, routeClass, embedsText, std::move(handler)});
}

void HttpApi::registerRoutes()
{
    addRoute(QStringLiteral("GET"), QStringLiteral("/health"), RouteClass::None,
             Routes::health(m_service, m_authenticator));
    addRoute(QStringLiteral("POST"), QStringLiteral("/v1/memory/write"), RouteClass::Write,
             Routes::write(m_service));
    addRoute(QStringLiteral("POST"), QStringLiteral("/v1/memory/recall"), RouteClass::Recall,
             Routes::recall(m_service, false));
    addRoute(QStringLiteral("POST"), QStringLiteral("/v1/memory/recall_text"), RouteClass::Recall,
             Routes::recall(m_service, true), true);
    addRoute(QStringLiteral("POST"), QStringLiteral("/v1/memory/rules/evaluate"),
             RouteClass::Recall, Routes::rulesEvaluate(m_service));
    addRoute(QStringLiteral("POST"), QStringLiteral("/v1/memory/rules/state"), RouteClass::Write,
             Routes::ruleState(m_service));
    addRoute(QStringLiteral("POST"), QStringLiteral("/v1/memory/tools/select"), RouteClass::Recall,
             Routes::toolsSelect(m_service));
    addRoute(QStringLiteral("POST"), QStringLiteral("/v1/memory/tools/feedback"), RouteClass::Write,
             Routes::toolsFeedback(m_service));
    addRoute(QStringLiteral("POST"), QStringLiteral("/v1/memory/tools/decision"),
             RouteClass::Recall, Routes::toolsDecision(m_service));
    addRoute(QStringLiteral("POST"), QStringLiteral("/v1/memory/tools/run"), RouteClass::Recall,
             Routes::toolsRun(m_service));
    addRoute(QStringLiteral("POST"), QStringLiteral("/v1/memory/tools/runs/list"),
             RouteClass::Recall, Routes::toolsRunsList(m_service));
    addRoute(QStringLiteral("POST"), QStringLiteral("/v1/memory/context/assemble"),
             RouteClass::Recall, Routes::contextAssemble(m_service), true);
    addRoute(QStringLiteral("POST"), QStringLiteral("/v1/memory/resolve"), RouteClass::Recall,
             Routes::resolve(m_service));
    addRoute(QStringLiteral("POST"), QStringLiteral("/v1/memory/feedback"), RouteClass::Write,
             Routes::ruleFeedback(m_service));
    addRoute(QStringLiteral("POST"), QStringLiteral("/v1/memory/replay/run/start"),
             RouteClass::Write, Routes::replayRunStart(m_service));
    addRoute(QStringLiteral("POST"), QStringLiteral("/v1/memory/replay/step/before"),
             RouteClass::Write, Routes::replayStepBefore(m_service));
    addRoute(QStringLiteral("POST"), QStringLiteral("/v1/memory/replay/step/after"),
             RouteClass::Write, Routes::replayStepAfter(m_service));
    addRoute(QStringLiteral("POST"), QStringLiteral("/v1/memory/replay/run/end"), RouteClass::Write,
             Routes::replayRunEnd(m_service));
    addRoute(QStringLiteral("POST"), QStringLiteral("/v1/memory/replay/runs/get"),
             RouteClass::Recall, Routes::replayRunsGet(m_service));
    registerPlaybookRoutes();
    addRoute(QStringLiteral("POST"), QStringLiteral("/v1/memory/archive/rehydrate"),
             RouteClass::Write, Routes::archiveRehydrate(m_service));
    addRoute(QStringLiteral("POST"), QStringLiteral("/v1/memory/nodes/activate"), RouteClass::Write,
             Routes::nodesActivate(m_service));
    // spec §4.14: reads spend the recall quota, everything that changes state the write one.
    for (const QString &path : AutomationEngine::routePaths())
        addRoute(QStringLiteral("POST"), QStringLiteral("/v1/automations/") + path,
                 AutomationEngine::isReadRoute(path) ? RouteClass::Recall : RouteClass::Write,
                 Routes::automation(m_service, path));
    addRoute(QStringLiteral("POST"), QStringLiteral("/v1/memory/forget"), RouteClass::Write,
             Routes::memoryForget(m_service));
    registerAdminRoutes();
    // MCP (Streamable HTTP): authenticated like /v1; the body is JSON-RPC, parsed by the
    // endpoint; each tool call is charged as the /v1 route it runs.
    m_mcp = std::make_unique<McpEndpoint>(m_service);
    m_routes.insert(QStringLiteral("/mcp"),
                    Route{{QStringLiteral("POST"), QStringLiteral("DELETE")},
                          true,
                          false,
                          RouteClass::None,
                          false,
                          [this](const HttpCall &call) {
                              return m_mcp->handle(call, [this, &call](const QString &path,
                                                                       const QJsonObject &body) {
                                  return invoke(path, body, call.meta, call.peer);
                              });
                          }});
}

void HttpApi::registerPlaybookRoutes()
{
    // Reference §7.4: get and candidate read (recall class); every other route may write.
    const QString base = QStringLiteral("/v1/memory/replay/playbooks/");
    const std::pair<const char *, RouteHandler (*)(MemoryService *)> writes[]
        = {{"compile_from_run", &Routes::playbookCompile},
           {"promote", &Routes::playbookPromote},
           {"repair", &Routes::playbookRepair},
           {"repair/review", &Routes::playbookReview},
           {"run", &Routes::playbookRun},
           {"dispatch", &Routes::playbookDispatch}};
    for (const auto &[path, factory] : writes)
        addRoute(QStringLiteral("POST"), base + QLatin1String(path), RouteClass::Write,
                 factory(m_service));
    addRoute(QStringLiteral("POST"), base + QStringLiteral("get"), RouteClass::Recall,
             Routes::playbookGet(m_service));
    addRoute(QStringLiteral("POST"), base + QStringLiteral("candidate"), RouteClass::Recall,
             Routes::playbookCandidate(m_service));
}

void HttpApi::registerAdminRoutes()
{
    // The admin token, not memory credentials, and no quota: operator routes over every lane.
    Route exportRoute{{QStringLiteral("POST")}, false, true,
                      RouteClass::None,         false, Routes::adminExport(m_service)};
    m_routes.insert(QString::fromLatin1(Routes::kAdminExportPath), exportRoute);
    Route importRoute{{QStringLiteral("POST")}, false, false,
                      RouteClass::None,         false, Routes::adminImport(m_service)};
    importRoute.maxBodyBytes
        = qMax(m_service->config().maxBodyBytes, m_service->config().maxImportBodyBytes);
    importRoute.mediaType = QByteArrayLiteral("application/x-ndjson");
    m_routes.insert(QString::fromLatin1(Routes::kAdminImportPath), importRoute);
}

Result<QJsonObject> HttpApi::invoke(const QString &path, const QJsonObject &body,
                                    const RequestMeta &meta, const QHostAddress &peer) const
{
    const auto found = m_routes.constFind(path);
    if (found == m_routes.constEnd() || !found->methods.contains(QLatin1String("POST"))
        || !found->jsonBody)
        return Error::make(404, QStringLiteral("not_found"), QStringLiteral("no route ") + path);
    HttpCall call;
    call.method = QStringLiteral("POST");
    call.path = path;
    call.peer = peer;
    call.meta = meta;
    call.body = QJsonDocument(body).toJson(QJsonDocument::Compact);
    const qint64 maxBody = m_service->config().maxBodyBytes;
    if (call.body.size() > maxBody)
        return Error::make(413, QStringLiteral("payload_too_large"),
                           QStringLiteral("request body is larger than %1 bytes").arg(maxBody),
                           {{QStringLiteral("max_bytes"), maxBody}});
    // Parsed as /v1 parses it, so embeddings decode the same way.
    auto parsed = parseJsonBody(call.body);
    if (!parsed)
        return parsed.error();
    call.json = std::move(parsed.value().object);
    call.vectors = std::move(parsed.value().vectors);
    const Result<HttpReply> reply
        = found->routeClass == RouteClass::None ? found->handler(call) : runCharged(*found, call);
    if (!reply)
        return reply.error();
    return reply.value().body;
}

void HttpApi::install(QHttpServer &server)
{
    // One entry point for every request: the route table below decides 404/405 itself, so
    // every answer, including errors, goes through the same envelope and request log.
    server.setMissingHandler(
        [this](const QHttpServerRequest &request, QHttpServerResponder &&responder) {
            handle(request, std::move(responder));
        });
}

Result<HttpReply> HttpApi::run(const Route &route, HttpCall &call) const
{
    if (route.authenticated) {
        auto principal
            = m_authenticator.authenticate(call.header("x-api-key"), call.header("authorization"),
                                           QDateTime::currentSecsSinceEpoch());
        if (!principal)
            return principal.error();
        call.meta.principal = principal.value();
    }
    if (route.jsonBody) {
        auto parsed = parseJsonBody(call.body);
        if (!parsed)
            return parsed.error();
        call.json = std::move(parsed.value().object);
        call.vectors = std::move(parsed.value().vectors);
    }
    if (route.routeClass == RouteClass::None)
        return route.handler(call);
    return runCharged(route, call);
}

/// Quotas are spent by the tenant the call is authorised for, after the tenant check, and a
/// refused (401/403) call spends nothing.
Result<HttpReply> HttpApi::runCharged(const Route &route, HttpCall &call) const
{
    const auto tenant = quotaTenant(call);
    if (!tenant)
        return tenant.error();
    RateCharge charge;
    charge.routeClass = route.routeClass;
    // Only recall routes can return debug embeddings, so only they draw on that quota.
    charge.debugEmbeddings = (call.path.startsWith(QLatin1String("/v1/memory/recall"))
                              || call.path == QLatin1String("/v1/memory/context/assemble"))
                             && call.json.value(QStringLiteral("return_debug")).toBool()
                             && call.json.value(QStringLiteral("include_embeddings")).toBool();
    charge.textEmbedding = route.embedsText;
    if (auto refused
        = m_limiter->admit(charge, call.peer.toString(), call.meta.loopback, tenant.value()))
        return *refused;
    Result<HttpReply> reply = route.handler(call);
    if (!reply && (reply.error().status == 401 || reply.error().status == 403))
        m_limiter->refundTenant(charge, tenant.value());
    return reply;
}

/// The tenant the handler will act for (body, else X-Tenant-Id, else the credential's, else the
/// default). A credential for another tenant is refused here, as the handler would refuse it,
/// before any quota is touched; a malformed tenant id charges no tenant (the handler refuses it).
Result<QString> HttpApi::quotaTenant(const HttpCall &call) const
{
    const QJsonValue named = call.json.value(QStringLiteral("tenant_id"));
    const QString bodyTenant = named.isString() ? named.toString().trimmed() : QString();
    const auto scope = resolveCallScope(bodyTenant, QString(), call.meta, m_service->config());
    if (scope)
        return scope.value().tenantId;
    if (scope.error().status == 403)
        return scope.error();
    return QString();
}

std::optional<Error> HttpApi::routeFor(const HttpCall &call, qint64 bodySize, Route *route) const
{
    const auto found = m_routes.constFind(call.path);
    if (found == m_routes.constEnd())
        return Error::make(404, QStringLiteral("not_found"),
                           QStringLiteral("no route ") + call.method + QLatin1Char(' ')
                               + echoed(call.path),
                           {{QStringLiteral("reason"), QStringLiteral("unknown_route")},
                            {QStringLiteral("method"), call.method},
                            {QStringLiteral("path"), echoed(call.path)}});
    if (!found->methods.contains(call.method)) {
        const QString allow = found->methods.join(QStringLiteral(", "));
        return Error::make(
            405, QStringLiteral("method_not_allowed"),
            call.path + QStringLiteral(" accepts ") + allow,
            {{QStringLiteral("allow"), allow}, {QStringLiteral("method"), call.method}});
    }
    const qint64 maxBody
        = found->maxBodyBytes > 0 ? found->maxBodyBytes : m_service->config().maxBodyBytes;
    if (bodySize > maxBody)
        return Error::make(413, QStringLiteral("payload_too_large"),
                           QStringLiteral("request body is larger than %1 bytes").arg(maxBody),
                           {{QStringLiteral("max_bytes"), maxBody}});
    *route = *found;
    return std::nullopt;
}

void HttpApi::handle(const QHttpServerRequest &request, QHttpServerResponder &&responder)
{
    auto timer = std::make_shared<QElapsedTimer>();
    timer->start();
    auto call = std::make_shared<HttpCall>();
    call->method = methodName(request.method());
    call->path = request.url().path();
    call->query = request.url().query();
    for (const auto &[name, value] : request.headers())
        call->headers.insert(name.toLower(), value);
    call->peer = request.remoteAddress();
    call->meta.requestId = requestIdFor(call->header("x-request-id"));
    call->meta.headerTenant = QString::fromUtf8(call->header("x-tenant-id")).trimmed();
    call->meta.loopback = BrowserGuard::isLoopbackAddress(call->peer);
    call->meta.adminAuthorized = m_authenticator.adminTokenMatches(call->header("x-admin-token"));

    // The browser guards come first, for every path, known or not.
    const auto known = m_routes.constFind(call->path);
    const QByteArray mediaType
        = known != m_routes.constEnd() ? known->mediaType : QByteArrayLiteral("application/json");
    const auto admission
        = BrowserGuard::check(call->method, call->headers, listenerOf(responder.socket()),
                              m_service->config(), mediaType);
    const HeaderList corsHeaders = admission ? admission.value().corsHeaders : HeaderList();
    const Finish finish = finisher(call, timer, std::move(responder), corsHeaders);
    if (!admission) {
        finish(admission.error());
        return;
    }
    if (admission.value().preflight) {
        finish(HttpReply{204, {}, {}});
        return;
    }
    Route route;
    if (auto refused = routeFor(*call, request.body().size(), &route)) {
        finish(*refused);
        return;
    }
    call->body = request.body(); // the request object dies when this function returns
    enqueue(route, call, timer, finish);
}

void HttpApi::enqueue(const Route &route, const std::shared_ptr<HttpCall> &call,
                      const std::shared_ptr<QElapsedTimer> &timer, const Finish &finish)
{
    // Count before handing over; the worker uncounts as soon as it starts. Only this (server)
    // thread adds, so the cap holds exactly.
    const int cap = m_service->config().listener.maxQueuedRequests;
    if (m_waiting.fetch_add(1) >= cap) {
        m_waiting.fetch_sub(1);
        finish(Error::make(503, QStringLiteral("server_busy"),
                           QStringLiteral("too many requests are waiting; retry shortly"),
                           {{QStringLiteral("retry_after_sec"), 1},
                            {QStringLiteral("max_queued_requests"), cap}}));
        return;
    }
    m_pool.start([this, route, call, finish, timer] {
        m_waiting.fetch_sub(1);
        call->meta.queueWaitMs = double(timer->nsecsElapsed()) / 1e6;
        finish(run(route, *call));
    });
}

HttpApi::Finish HttpApi::finisher(const std::shared_ptr<HttpCall> &call,
                                  const std::shared_ptr<QElapsedTimer> &timer,
                                  QHttpServerResponder &&responder,
                                  const HeaderList &extraHeaders) const
{
    QPointer<QTcpSocket> socket = responder.socket();
    auto shared = std::make_shared<QHttpServerResponder>(std::move(responder));
    return [context = m_context, onServed = m_onServed, call, timer, socket, shared,
            extraHeaders](const Result<HttpReply> &outcome) {
        HttpReply reply
            = outcome ? outcome.value() : errorReply(outcome.error(), call->meta.requestId);
        reply.headers.append(extraHeaders);
        auto response = std::make_shared<QHttpServerResponse>(responseFor(reply));
        response->setHeader(QByteArrayLiteral("X-Request-Id"), call->meta.requestId.toLatin1());
        for (const auto &[name, value] : reply.headers)
            response->setHeader(name, value);

        RequestLogEntry entry;
        entry.at = QDateTime::currentDateTimeUtc();
        entry.method = call->method;
        entry.path = call->path;
        entry.status = reply.status;
        entry.tenantId = reply.body.value(QStringLiteral("tenant_id")).toString();
        if (entry.tenantId.isEmpty())
            entry.tenantId
                = call->meta.principal ? call->meta.principal->tenantId : call->meta.headerTenant;
        entry.requestId = call->meta.requestId;
        entry.errorCode = outcome ? QString() : outcome.error().code;
        entry.detail = reply.logDetail;

        // Back to the server thread: sockets are only touched (and deleted) there.
        if (!context)
            return;
        std::shared_ptr<ReplyFile> file = reply.file;
        HeaderList fileHeaders;
        if (file) {
            // The file is read on the server thread from now on.
            file->device->moveToThread(context->thread());
            fileHeaders = {{QByteArrayLiteral("Content-Type"), file->contentType},
                           {QByteArrayLiteral("X-Request-Id"), call->meta.requestId.toLatin1()}};
            fileHeaders.append(reply.headers);
        }
        QMetaObject::invokeMethod(
            context,
            [onServed, socket, shared, response, timer, entry, file, fileHeaders]() mutable {
                if (!socket || socket->state() != QAbstractSocket::ConnectedState)
                    return; // the client went away; nothing to answer
                if (file)
                    FileReply::send(std::move(*shared), socket, entry.status, fileHeaders,
                                    std::move(file->device));
                else
                    response->write(std::move(*shared));
                entry.latencyMs = double(timer->nsecsElapsed()) / 1e6;
                if (onServed)
                    onServed(entry);
            },
            Qt::QueuedConnection);
    };
}

} // namespace MemoryGraph
