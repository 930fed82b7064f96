#include "app/instancelock.h"

#include "service/core/privatefiles.h"

#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSaveFile>

namespace MemoryGraph {

InstanceLock::InstanceLock(const QString &dataDir)
    : m_ownerPath(QDir(dataDir).filePath(QStringLiteral("memorygraph.owner.json"))),
      m_lockPath(QDir(dataDir).filePath(QStringLiteral("memorygraph.lock"))), m_lock(m_lockPath)
{
    m_lock.setStaleLockTime(0); // stale only when its process is gone, never by age
}

InstanceLock::~InstanceLock()
{
    if (!m_locked)
        return;
    QFile::remove(m_ownerPath);
    m_lock.unlock();
}

bool InstanceLock::tryLock(const QString &mode)
{
    if (!m_lock.tryLock(0))
        return false;
    PrivateFiles::restrictFile(m_lockPath); // it names this process and host
    m_locked = true;
    m_mode = mode;
    writeOwner();
    return true;
}

void InstanceLock::publishUrl(const QString &url)
{
    m_url = url;
    if (m_locked)
        writeOwner();
}

void InstanceLock::writeOwner()
{
    QSaveFile file(m_ownerPath);
    if (!file.open(QIODevice::WriteOnly))
        return;
    const QJsonObject o{{QStringLiteral("pid"), QCoreApplication::applicationPid()},
                        {QStringLiteral("mode"), m_mode},
                        {QStringLiteral("url"), m_url}};
    file.write(QJsonDocument(o).toJson(QJsonDocument::Compact));
    if (file.commit())
        PrivateFiles::restrictFile(m_ownerPath);
}

InstanceLock::Owner InstanceLock::owner() const
{
    Owner out;
    qint64 pid = 0;
    QString host;
    QString app;
    if (m_lock.getLockInfo(&pid, &host, &app))
        out.pid = pid;
    QFile file(m_ownerPath);
    if (file.open(QIODevice::ReadOnly)) {
        const QJsonObject o = QJsonDocument::fromJson(file.readAll()).object();
        // The owner file belongs to the lock's holder only when the pids agree.
        if (out.pid == 0 || qint64(o.value(QStringLiteral("pid")).toDouble()) == out.pid) {
            out.pid = qint64(o.value(QStringLiteral("pid")).toDouble());
            out.mode = o.value(QStringLiteral("mode")).toString();
            out.url = o.value(QStringLiteral("url")).toString();
        }
    }
    return out;
}

QString InstanceLock::describe(const Owner &owner)
{
    QString text = QStringLiteral("pid %1").arg(owner.pid);
    QStringList parts;
    if (!owner.mode.isEmpty())
        parts << owner.mode;
    parts << (owner.url.isEmpty() ? QStringLiteral("no HTTP listener")
                                  : QStringLiteral("serving ") + owner.url);
    return text + QStringLiteral(" (") + parts.join(QStringLiteral(", ")) + QLatin1Char(')');
}

} // namespace MemoryGraph
