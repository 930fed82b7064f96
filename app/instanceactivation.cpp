#include "app/instanceactivation.h"

#include <QCryptographicHash>
#include <QDeadlineTimer>
#include <QDir>
#include <QLocalServer>
#include <QLocalSocket>
#include <QPointer>
#include <QStandardPaths>
#include <QThread>

namespace MemoryGraph {

namespace {

const QByteArray ActivateRequest = QByteArrayLiteral("activate\n");
const QByteArray ActivatedAnswer = QByteArrayLiteral("activated\n");
constexpr qint64 MaxRequestBytes = 64; ///< anything longer is not a request of ours
constexpr int ConnectRetryMs = 2000;
constexpr unsigned long ConnectRetryPauseMs = 100;

} // namespace

ActivationServer::ActivationServer(QObject *parent)
    : QObject(parent), m_server(new QLocalServer(this))
{
    // Owner-only socket: no other user can ask for, or time, our window.
    m_server->setSocketOptions(QLocalServer::UserAccessOption);
    connect(m_server, &QLocalServer::newConnection, this, &ActivationServer::onNewConnection);
}

ActivationServer::~ActivationServer() = default;

QString ActivationServer::nameFor(const QString &canonicalDataDir)
{
    // The home folder keeps users apart where sockets share one namespace (Windows pipes, a
    // shared /tmp); hashing keeps the name short and free of path characters.
    const QByteArray key = QDir::homePath().toUtf8() + '\n' + canonicalDataDir.toUtf8();
    const QByteArray digest = QCryptographicHash::hash(key, QCryptographicHash::Sha256);
    const QString name
        = QStringLiteral("memorygraph-") + QString::fromLatin1(digest.toHex().left(32));
#if defined(Q_OS_UNIX) && !defined(Q_OS_MACOS)
    // In the user's own runtime folder ($XDG_RUNTIME_DIR, owner-only) rather than the shared
    // /tmp, where another user could take the name first. macOS's temporary folder is per user
    // already; Windows pipe names take no folder.
    const QString runtime = QStandardPaths::writableLocation(QStandardPaths::RuntimeLocation);
    if (!runtime.isEmpty())
        return runtime + QLatin1Char('/') + name;
#endif
    return name;
}

bool ActivationServer::listen(const QString &name, QString *errorText)
{
    // We hold the folder's lock, so a socket of that name is a leftover of a crashed owner.
    QLocalServer::removeServer(name);
    if (m_server->listen(name))
        return true;
    if (errorText)
        *errorText = m_server->errorString();
    return false;
}

void ActivationServer::onNewConnection()
{
    while (QLocalSocket *socket = m_server->nextPendingConnection()) {
        connect(socket, &QLocalSocket::disconnected, socket, &QObject::deleteLater);
        connect(socket, &QLocalSocket::readyRead, this, [this, socket] {
            if (!socket->canReadLine()) {
                if (socket->bytesAvailable() > MaxRequestBytes)
                    socket->abort();
                return;
            }
            const QByteArray line = socket->readLine(MaxRequestBytes);
            if (line != ActivateRequest) {
                socket->abort();
                return;
            }
            QPointer<QLocalSocket> guard(socket);
            emit activationRequested();
            if (!guard)
                return;
            socket->write(ActivatedAnswer);
            socket->flush();
            socket->disconnectFromServer();
        });
    }
}

bool ActivationServer::requestActivation(const QString &name, int timeoutMs)
{
    const QDeadlineTimer deadline(timeoutMs);
    // The owner listens right after taking the lock; give one that just did a moment to.
    const QDeadlineTimer connectDeadline(qMin(timeoutMs, ConnectRetryMs));
    QLocalSocket socket;
    for (;;) {
        socket.connectToServer(name);
        if (socket.waitForConnected(int(connectDeadline.remainingTime())))
            break;
        if (connectDeadline.hasExpired())
            return false;
        QThread::msleep(ConnectRetryPauseMs);
    }
    socket.write(ActivateRequest);
    if (!socket.waitForBytesWritten(int(deadline.remainingTime())))
        return false;
    while (!socket.canReadLine()) {
        if (deadline.hasExpired() || !socket.waitForReadyRead(int(deadline.remainingTime())))
            return false;
    }
    return socket.readLine(MaxRequestBytes) == ActivatedAnswer;
}

} // namespace MemoryGraph
