#pragma once

#include <QObject>

class QSocketNotifier;

namespace MemoryGraph {

/// Turns a request to terminate into a Qt signal on the owning thread. After the first request
/// the default handling is restored, so a second Ctrl+C ends a stuck shutdown at once.
/// At most one instance may watch at a time.
///  - Unix: SIGINT and SIGTERM, through a self-pipe (signalwatcher_unix.cpp).
///  - Windows: the console control events Ctrl+C, Ctrl+Break, closing the console window, logoff
///    and shutdown (signalwatcher_windows.cpp); the number is then the CTRL_*_EVENT value.
class SignalWatcher : public QObject
{
    Q_OBJECT
public:
    explicit SignalWatcher(QObject *parent = nullptr);
    ~SignalWatcher() override;

    /// Installs the handlers. Returns false (and changes nothing) when that is not possible.
    bool watchTermination();

signals:
    void terminationRequested(int signalNumber);

private:
    /// First request: back to the default handling, then terminationRequested.
    void deliver(int signalNumber);
    void restoreDefaults();

    QSocketNotifier *m_notifier = nullptr; ///< Unix only: the self-pipe's reading end
    bool m_active = false;                 ///< this instance owns the handlers
};

/// "SIGINT", "SIGTERM" (Unix), "Ctrl+C", "console close", "shutdown"... (Windows), or the
/// number.
QString signalName(int signalNumber);

} // namespace MemoryGraph
