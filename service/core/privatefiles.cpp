#include "service/core/privatefiles.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QLoggingCategory>

Q_LOGGING_CATEGORY(lcPrivateFiles, "memorygraph.service.files")

namespace MemoryGraph::PrivateFiles {

namespace {

Error folderError(const QString &path, const QString &reason)
{
    // The path goes to the log only: error texts can reach HTTP callers.
    qCWarning(lcPrivateFiles) << "data folder" << path << reason;
    return Error::make(500, QStringLiteral("storage_unavailable"),
                       QStringLiteral("cannot prepare the data folder"));
}

/// chmod to exactly `wanted`. A folder on a file system without Unix modes may refuse; that is
/// logged, not fatal, since the folder is still usable. On Windows Qt turns the modes given to
/// mkdir and open into an owner-only access list when it creates the folder or file; there
/// setPermissions only clears the read-only attribute.
bool tighten(const QString &path, QFileDevice::Permissions wanted)
{
    if (QFile::setPermissions(path, wanted))
        return true;
    qCWarning(lcPrivateFiles) << "cannot restrict the permissions of" << path;
    return false;
}

} // namespace

Result<void> ensureFolder(const QString &path)
{
    const QFileInfo info(QDir::cleanPath(QDir(path).absolutePath()));
    if (!info.exists()) {
        if (!QDir().mkpath(info.absolutePath()))
            return folderError(path, QStringLiteral("cannot create its parent"));
        // Created owner-only from the start, so there is no moment with looser permissions.
        if (!QDir().mkdir(info.absoluteFilePath(), kFolderPermissions)
            && !QFileInfo(info.absoluteFilePath()).isDir())
            return folderError(path, QStringLiteral("cannot be created"));
    } else if (!info.isDir()) {
        return folderError(path, QStringLiteral("is not a folder"));
    }
    // mkdir's mode passes through the umask: set the exact mode (and tighten an old folder).
    tighten(info.absoluteFilePath(), kFolderPermissions);
    return {};
}

Result<void> ensureFile(const QString &path)
{
    QFile file(path);
    if (!file.exists() && !file.open(QIODevice::ReadWrite | QIODevice::NewOnly, kFilePermissions)
        && !file.exists()) {
        qCWarning(lcPrivateFiles) << "cannot create" << path << file.errorString();
        return Error::make(500, QStringLiteral("storage_unavailable"),
                           QStringLiteral("cannot create a data file"));
    }
    file.close();
    restrictFile(path);
    return {};
}

bool restrictFile(const QString &path)
{
    return !QFileInfo::exists(path) || tighten(path, kFilePermissions);
}

} // namespace MemoryGraph::PrivateFiles
