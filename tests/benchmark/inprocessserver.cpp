#include "tests/benchmark/inprocessserver.h"

#include "service/core/config.h"
#include "service/http/httpserverhost.h"
#include "service/memoryservice.h"

#include <QElapsedTimer>
#include <QProcessEnvironment>
#include <QThreadPool>

namespace MemoryGraph::Bench {

InProcessServer::InProcessServer()
{
    m_thread.setObjectName(QStringLiteral("bench-http"));
}

InProcessServer::~InProcessServer()
{
    stop();
}

bool InProcessServer::start(const QString &dataDir, QString *error)
{
    if (m_service) {
        *error = QStringLiteral("already started");
        return false;
    }
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    // The offline embedder turns recall_text questions into vectors; the nodes carry client
    // vectors, which it never replaces.
    env.insert(QStringLiteral("EMBEDDING_PROVIDER"), QStringLiteral("local"));
    env.insert(QStringLiteral("MEMORY_AUTH_MODE"), QStringLiteral("off"));
    auto config = ServiceConfig::fromEnvironment(env);
    if (!config) {
        *error = QStringLiteral("configuration: ") + config.error().message;
        return false;
    }
    ServiceConfig serviceConfig = config.value();
    serviceConfig.dataDir = dataDir;
    auto service = MemoryService::open(serviceConfig);
    if (!service) {
        *error = QStringLiteral("open: ") + service.error().message;
        return false;
    }
    m_service = std::move(service).value();

    auto *host = new HttpServerHost(m_service.get());
    host->moveToThread(&m_thread);
    m_host = host;
    // Deleted in the HTTP thread's last event processing, as in the app.
    QObject::connect(&m_thread, &QThread::finished, host, &QObject::deleteLater);
    m_thread.start();

    auto failure = std::make_shared<QString>();
    QObject::connect(
        host, &HttpServerHost::startFailed, host,
        [failure](const QString &reason) { *failure = reason; }, Qt::DirectConnection);
    QMetaObject::invokeMethod(
        host, [host] { host->start(QStringLiteral("127.0.0.1"), 0); },
        Qt::BlockingQueuedConnection);
    m_port = host->port();
    if (m_port == 0) {
        *error = QStringLiteral("HTTP server did not start: ") + *failure;
        stop();
        return false;
    }
    return true;
}

InProcessServer::StopTimes InProcessServer::stop()
{
    StopTimes times;
    QElapsedTimer timer;
    timer.start();
    if (m_host && m_thread.isRunning())
        QMetaObject::invokeMethod(m_host.data(), &HttpServerHost::stop,
                                  Qt::BlockingQueuedConnection);
    if (m_thread.isRunning()) {
        m_thread.quit();
        m_thread.wait();
    }
    delete m_host.data(); // normally gone already through deleteLater
    m_port = 0;
    times.httpStopMs = double(timer.nsecsElapsed()) / 1e6;

    timer.restart();
    QThreadPool::globalInstance()->waitForDone();
    m_service.reset();
    times.serviceCloseMs = double(timer.nsecsElapsed()) / 1e6;
    return times;
}

} // namespace MemoryGraph::Bench
