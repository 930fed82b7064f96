#pragma once

#include <QObject>
#include <QString>

class QLocalServer;

namespace MemoryGraph {

/// A second start of the window hands over to the window that already owns the data folder:
/// the owner listens on a local socket named after the folder and the user, a second start
/// connects, sends "activate" and waits for "activated" (the owner has shown its window).
/// The socket is private to the user; only the lock holder listens, so a socket left by a
/// crashed owner is removed before listening.
class ActivationServer : public QObject
{
    Q_OBJECT
public:
    explicit ActivationServer(QObject *parent = nullptr);
    ~ActivationServer() override;

    /// The socket name for a data folder (its canonical path): per user, stable across starts;
    /// on Linux a path in $XDG_RUNTIME_DIR.
    static QString nameFor(const QString &canonicalDataDir);

    /// Listens on name, replacing a stale socket. Call only while holding the folder's lock.
    /// On failure returns false and says why in *errorText.
    bool listen(const QString &name, QString *errorText = nullptr);

    /// Asks the owner listening on name to bring its window to the front. True once it
    /// answered that it did; false when nobody answered within timeoutMs.
    static bool requestActivation(const QString &name, int timeoutMs);

signals:
    /// A second start asked for the window; answered as soon as this signal returns.
    void activationRequested();

private:
    void onNewConnection();

    QLocalServer *m_server = nullptr;
};

} // namespace MemoryGraph
