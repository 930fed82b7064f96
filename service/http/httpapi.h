#pragma once

#include "service/core/requestlog.h"
#include "service/http/authenticator.h"
#include "service/http/httpcall.h"
#include "service/http/ratelimiter.h"

#include <QHash>
#include <QHostAddress>
#include <QObject>
#include <QPointer>
#include <QThreadPool>

#include <atomic>
#include <functional>
#include <memory>

class QElapsedTimer;
class QHttpServer;
class QHttpServerRequest;
class QHttpServerResponder;

namespace MemoryGraph {

class McpEndpoint;
class MemoryService;

/// The /v1 route table and the pipeline every request goes through: request id, browser guards
/// (Host, Origin, Content-Type), route and body limit, queue cap, authentication, JSON parsing,
/// tenant check and quota, handler on a worker thread, error envelope, request log.
class HttpApi
{
public:
    using ServedCallback = std::function<void(const RequestLogEntry &)>;

    /// context: an object living on the server thread; replies are written from there.
    HttpApi(MemoryService *service, QObject *context, ServedCallback onServed);
    ~HttpApi();

    /// Makes this API answer every request the server receives.
    void install(QHttpServer &server);

    /// Waits for handlers still running (call before the server goes away).
    void drain();

    /// Runs one POST /v1 route for a caller already authenticated (meta): the same parsing,
    /// quotas, handler and access rules as over HTTP. The MCP tools go through here.
    Result<QJsonObject> invoke(const QString &path, const QJsonObject &body,
                               const RequestMeta &meta, const QHostAddress &peer) const;

private:
    struct Route
    {
        QStringList methods;
        bool authenticated = true;
        bool jsonBody = true;
        RouteClass routeClass = RouteClass::None;
        bool embedsText = false;
        RouteHandler handler;
        qint64 maxBodyBytes = 0;                                      ///< 0: MEMORY_MAX_BODY_BYTES
        QByteArray mediaType = QByteArrayLiteral("application/json"); ///< of a POST body
    };

    using Finish = std::function<void(const Result<HttpReply> &)>;
    using HeaderList = QList<QPair<QByteArray, QByteArray>>;

    void addRoute(const QString &method, const QString &path, RouteClass routeClass,
                  RouteHandler handler, bool embedsText = false);
    void registerRoutes();
    void registerPlaybookRoutes();
    void registerAdminRoutes();
    void handle(const QHttpServerRequest &request, QHttpServerResponder &&responder);
    /// 404 / 405 / 413 for a request the route table cannot serve; else fills *route.
    std::optional<Error> routeFor(const HttpCall &call, qint64 bodySize, Route *route) const;
    /// Runs the route on the worker pool, or answers 503 server_busy when too many wait already.
    void enqueue(const Route &route, const std::shared_ptr<HttpCall> &call,
                 const std::shared_ptr<QElapsedTimer> &timer, const Finish &finish);
    Result<HttpReply> run(const Route &route, HttpCall &call) const;
    Result<HttpReply> runCharged(const Route &route, HttpCall &call) const;
    Result<QString> quotaTenant(const HttpCall &call) const;
    Finish finisher(const std::shared_ptr<HttpCall> &call,
                    const std::shared_ptr<QElapsedTimer> &timer, QHttpServerResponder &&responder,
                    const HeaderList &extraHeaders) const;

    MemoryService *m_service;
    std::unique_ptr<McpEndpoint> m_mcp;
    QPointer<QObject> m_context;
    ServedCallback m_onServed;
    Authenticator m_authenticator;
    std::unique_ptr<RateLimiter> m_limiter;
    QHash<QString, Route> m_routes;
    QThreadPool m_pool;
    std::atomic<int> m_waiting{0}; ///< handed to the pool, not yet running
};

} // namespace MemoryGraph
