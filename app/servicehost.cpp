#include "app/servicehost.h"

#include "service/http/httpserverhost.h"
#include "service/lifecycle/maintenancescheduler.h"
#include "service/memoryservice.h"

#include <QThreadPool>

namespace MemoryGraph {

ServiceHost::ServiceHost(std::unique_ptr<MemoryService> service, QObject *parent)
    : QObject(parent), m_service(std::move(service))
{
    qRegisterMetaType<MemoryGraph::RequestLogEntry>();

    m_thread.setObjectName(QStringLiteral("memorygraph-http"));
    auto *http = new HttpServerHost(m_service.get());
    http->moveToThread(&m_thread);
    m_http = http;
    // The host is created and destroyed with its thread: deleteLater on finished() runs in the
    // HTTP thread's final event processing, before wait() returns.
    connect(&m_thread, &QThread::finished, http, &QObject::deleteLater);

    connect(http, &HttpServerHost::started, this, [this](const QString &address, quint16 port) {
        m_listening = true;
        emit httpStarted(address, port);
    });
    connect(http, &HttpServerHost::startFailed, this, [this](const QString &reason) {
        m_listening = false;
        emit httpStartFailed(reason);
    });
    connect(http, &HttpServerHost::stopped, this, [this] {
        m_listening = false;
        emit httpStopped();
    });
    connect(http, &HttpServerHost::requestServed, this, &ServiceHost::requestServed);

    m_thread.start();
}

ServiceHost::~ServiceHost()
{
    shutdown();
}

void ServiceHost::startHttp(const QString &address, quint16 port)
{
    if (m_shutDown || !m_http)
        return;
    HttpServerHost *http = m_http.data();
    QMetaObject::invokeMethod(
        http,
        [http, address, port] {
            if (http->port() != 0)
                http->stop();
            http->start(address, port);
        },
        Qt::QueuedConnection);
}

void ServiceHost::stopHttp()
{
    if (m_shutDown || !m_http)
        return;
    QMetaObject::invokeMethod(m_http.data(), &HttpServerHost::stop, Qt::QueuedConnection);
}

void ServiceHost::startMaintenance()
{
    if (m_shutDown || m_maintenance)
        return;
    m_maintenance = std::make_unique<MaintenanceScheduler>(m_service.get());
    m_maintenance->start();
}

void ServiceHost::shutdown()
{
    if (m_shutDown)
        return;
    m_shutDown = true;

    m_maintenance.reset(); // stops the schedule before the service can go away

    if (m_http && m_thread.isRunning())
        QMetaObject::invokeMethod(m_http.data(), &HttpServerHost::stop,
                                  Qt::BlockingQueuedConnection);
    m_listening = false;
    m_thread.quit();
    m_thread.wait();
    delete m_http.data(); // normally already gone through deleteLater; null then

    // UI and HTTP work queued on the global pool may still hold the service.
    QThreadPool::globalInstance()->waitForDone();
    m_service.reset();
}

} // namespace MemoryGraph
