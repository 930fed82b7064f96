#pragma once

#include "service/core/requestlog.h"
#include "service/http/authenticator.h"
#include "service/http/httpcall.h"
#include "service/http/ratelimiter.h"

#include <QHash>
#include <QObject>
#include <QPointer>
#include <QThreadPool>

#include <functional>
#include <memory>

class QHttpServer;
class QHttpServerRequest;
class QHttpServerResponder;

namespace MemoryGraph {

class MemoryService;

/// The /v1 route table and the pipeline every request goes through: request id, body limit,
/// authentication, JSON parsing, handler on a worker thread, error envelope, request log.
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

private:
    struct Route
    {
        QString method;
        bool authenticated = true;
        bool jsonBody = true;
        RouteClass routeClass = RouteClass::None;
        bool embedsText = false;
        RouteHandler handler;
    };

    void addRoute(const QString &method, const QString &path, RouteClass routeClass,
                  RouteHandler handler, bool embedsText = false);
    void registerRoutes();
    void handle(const QHttpServerRequest &request, QHttpServerResponder &&responder);
    Result<HttpReply> run(const Route &route, HttpCall &call) const;

    MemoryService *m_service;
    QPointer<QObject> m_context;
    ServedCallback m_onServed;
    Authenticator m_authenticator;
    std::unique_ptr<RateLimiter> m_limiter;
    QHash<QString, Route> m_routes;
    QThreadPool m_pool;
};

} // namespace MemoryGraph
