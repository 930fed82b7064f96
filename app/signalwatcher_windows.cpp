#include <QtGlobal>

#ifdef Q_OS_WIN

#include "app/signalwatcher.h"

#include <QMetaObject>
#include <QString>
#include <QtCore/qt_windows.h>

#include <functional>
#include <mutex>

namespace MemoryGraph {

namespace {

// The console control handler runs on a thread Windows creates for each event; it only posts
// the event to the watcher's thread. s_post is the watcher's way in, cleared before it dies.
std::mutex s_mutex;
std::function<void(int)> s_post; // guarded by s_mutex

BOOL WINAPI onConsoleControl(DWORD controlEvent)
{
    {
        const std::lock_guard<std::mutex> lock(s_mutex);
        if (!s_post)
            return FALSE; // not ours any more: Windows' default handling ends the process
        s_post(int(controlEvent));
    }
    // For these three Windows ends the process as soon as the handler returns. Waiting here
    // lets the main thread finish the requests in flight and save the indexes: the process
    // then exits from main(), or Windows ends it after its own grace period.
    if (controlEvent == CTRL_CLOSE_EVENT || controlEvent == CTRL_LOGOFF_EVENT
        || controlEvent == CTRL_SHUTDOWN_EVENT)
        ::Sleep(INFINITE);
    return TRUE;
}

} // namespace

SignalWatcher::SignalWatcher(QObject *parent) : QObject(parent) { }

SignalWatcher::~SignalWatcher()
{
    restoreDefaults();
}

bool SignalWatcher::watchTermination()
{
    {
        const std::lock_guard<std::mutex> lock(s_mutex);
        if (m_active || s_post)
            return false;
        // Not named "event": that would hide QObject::event (MSVC C4458).
        s_post = [this](int controlEvent) {
            QMetaObject::invokeMethod(
                this, [this, controlEvent] { deliver(controlEvent); }, Qt::QueuedConnection);
        };
        m_active = true;
    }
    if (!::SetConsoleCtrlHandler(onConsoleControl, TRUE)) {
        restoreDefaults();
        return false;
    }
    return true;
}

void SignalWatcher::deliver(int signalNumber)
{
    restoreDefaults(); // a second Ctrl+C gets Windows' default handling: the process ends
    emit terminationRequested(signalNumber);
}

void SignalWatcher::restoreDefaults()
{
    if (!m_active)
        return;
    m_active = false;
    ::SetConsoleCtrlHandler(onConsoleControl, FALSE);
    const std::lock_guard<std::mutex> lock(s_mutex);
    s_post = nullptr;
}

QString signalName(int signalNumber)
{
    switch (signalNumber) {
    case CTRL_C_EVENT: return QStringLiteral("Ctrl+C");
    case CTRL_BREAK_EVENT: return QStringLiteral("Ctrl+Break");
    case CTRL_CLOSE_EVENT: return QStringLiteral("console close");
    case CTRL_LOGOFF_EVENT: return QStringLiteral("logoff");
    case CTRL_SHUTDOWN_EVENT: return QStringLiteral("shutdown");
    default: return QString::number(signalNumber);
    }
}

} // namespace MemoryGraph

#endif // Q_OS_WIN
