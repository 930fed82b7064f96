#pragma once

#include <QObject>

class QSocketNotifier;

namespace MemoryGraph {

/// Turns SIGINT and SIGTERM into a Qt signal on the owning thread (self-pipe). After the first
/// signal the default handlers are restored, so a second Ctrl+C ends a stuck shutdown at once.
/// At most one instance may watch at a time.
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
    void readSignal();
    void restoreDefaults();

    QSocketNotifier *m_notifier = nullptr;
    bool m_active = false; ///< this instance owns the self-pipe and the handlers
};

/// "SIGINT", "SIGTERM" or the number.
QString signalName(int signalNumber);

} // namespace MemoryGraph
