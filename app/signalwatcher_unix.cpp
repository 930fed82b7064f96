#include <QtGlobal>

#ifdef Q_OS_UNIX

#include "app/signalwatcher.h"

#include <QSocketNotifier>
#include <QString>

#include <cerrno>
#include <csignal>
#include <fcntl.h>
#include <sys/socket.h>
#include <unistd.h>

namespace MemoryGraph {

namespace {

int s_fds[2] = {-1, -1}; // [0] written by the handler, [1] read by the notifier

void onTerminationSignal(int signalNumber)
{
    const int savedErrno = errno;
    const char byte = char(signalNumber);
    if (::write(s_fds[0], &byte, 1) < 0) {
        // Nothing useful can be done inside a signal handler.
    }
    errno = savedErrno;
}

bool setHandler(int signalNumber, void (*handler)(int))
{
    struct sigaction action = {};
    action.sa_handler = handler;
    sigemptyset(&action.sa_mask);
    action.sa_flags = SA_RESTART;
    return ::sigaction(signalNumber, &action, nullptr) == 0;
}

/// A connected pair that child processes do not inherit (macOS has no SOCK_CLOEXEC).
bool openSelfPipe()
{
#ifdef SOCK_CLOEXEC
    if (::socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, s_fds) != 0)
        return false;
#else
    if (::socketpair(AF_UNIX, SOCK_STREAM, 0, s_fds) != 0)
        return false;
    for (const int fd : s_fds)
        ::fcntl(fd, F_SETFD, ::fcntl(fd, F_GETFD) | FD_CLOEXEC);
#endif
    ::fcntl(s_fds[0], F_SETFL, ::fcntl(s_fds[0], F_GETFL) | O_NONBLOCK);
    return true;
}

} // namespace

SignalWatcher::SignalWatcher(QObject *parent) : QObject(parent) { }

SignalWatcher::~SignalWatcher()
{
    restoreDefaults();
}

bool SignalWatcher::watchTermination()
{
    if (m_active || s_fds[0] != -1)
        return false;
    if (!openSelfPipe()) {
        s_fds[0] = s_fds[1] = -1;
        return false;
    }
    m_active = true;

    m_notifier = new QSocketNotifier(qintptr(s_fds[1]), QSocketNotifier::Read, this);
    connect(m_notifier, &QSocketNotifier::activated, this, [this] {
        char byte = 0;
        if (::read(s_fds[1], &byte, 1) == 1)
            deliver(int(byte));
    });

    if (!setHandler(SIGINT, onTerminationSignal) || !setHandler(SIGTERM, onTerminationSignal)) {
        restoreDefaults();
        return false;
    }
    return true;
}

void SignalWatcher::deliver(int signalNumber)
{
    setHandler(SIGINT, SIG_DFL);
    setHandler(SIGTERM, SIG_DFL);
    emit terminationRequested(signalNumber);
}

void SignalWatcher::restoreDefaults()
{
    if (!m_active)
        return;
    m_active = false;
    setHandler(SIGINT, SIG_DFL);
    setHandler(SIGTERM, SIG_DFL);
    delete m_notifier;
    m_notifier = nullptr;
    for (int &fd : s_fds) {
        if (fd != -1)
            ::close(fd);
        fd = -1;
    }
}

QString signalName(int signalNumber)
{
    switch (signalNumber) {
    case SIGINT: return QStringLiteral("SIGINT");
    case SIGTERM: return QStringLiteral("SIGTERM");
    default: return QString::number(signalNumber);
    }
}

} // namespace MemoryGraph

#endif // Q_OS_UNIX
