#pragma once

#include <QLockFile>
#include <QString>

namespace MemoryGraph {

/// One process per data folder: memorygraph.lock (a QLockFile: the owner's pid, stale once that
/// process is gone) and, next to it, memorygraph.owner.json with the owner's pid, mode and the
/// URL it serves HTTP on, so a second start can say who holds the folder and `memorygraph mcp`
/// can reach the owner.
class InstanceLock
{
public:
    struct Owner
    {
        qint64 pid = 0;
        QString mode; ///< window, headless or mcp-stdio
        QString url;  ///< empty when the owner serves no HTTP
    };

    explicit InstanceLock(const QString &dataDir);
    ~InstanceLock();

    InstanceLock(const InstanceLock &) = delete;
    InstanceLock &operator=(const InstanceLock &) = delete;

    /// Takes the folder for this process (mode as in Owner); false when another process holds it.
    bool tryLock(const QString &mode);
    /// Records the URL this process now serves (empty: none).
    void publishUrl(const QString &url);
    /// Who holds the folder (read from the owner file, else the lock file).
    Owner owner() const;
    /// "pid 1234 (headless, serving http://127.0.0.1:8787)" for messages.
    static QString describe(const Owner &owner);

private:
    void writeOwner();

    QString m_ownerPath;
    QString m_lockPath;
    QLockFile m_lock;
    QString m_mode;
    QString m_url;
    bool m_locked = false;
};

} // namespace MemoryGraph
