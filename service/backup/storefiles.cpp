#include "service/backup/storefiles.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QTemporaryFile>

#include <filesystem>
#include <system_error>

#ifdef Q_OS_WIN
#include <io.h>
#else
#include <fcntl.h>
#include <unistd.h>
#endif

namespace MemoryGraph::StoreFiles {

namespace {

std::filesystem::path nativePath(const QString &path)
{
#ifdef Q_OS_WIN
    return std::filesystem::path(path.toStdWString());
#else
    return std::filesystem::path(QFile::encodeName(path).toStdString());
#endif
}

Error fileError(const QString &what, const QString &path, const QString &why)
{
    return Error::internal(QStringLiteral("%1 %2: %3").arg(what, path, why));
}

} // namespace

QString databasePath(const QString &dataDir)
{
    return QDir(dataDir).filePath(QStringLiteral("memorygraph.sqlite"));
}

QString indexFolder(const QString &dataDir)
{
    return QDir(dataDir).filePath(QStringLiteral("index"));
}

QStringList companionSuffixes()
{
    return {QStringLiteral("-wal"), QStringLiteral("-shm"), QStringLiteral("-journal")};
}

bool sameFile(const QString &a, const QString &b)
{
    const QString ca = QFileInfo(a).canonicalFilePath();
    return !ca.isEmpty() && ca == QFileInfo(b).canonicalFilePath();
}

Result<void> syncFile(const QString &path)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadWrite))
        return fileError(QStringLiteral("cannot open"), path, file.errorString());
#ifdef Q_OS_WIN
    const bool synced = ::_commit(file.handle()) == 0;
#else
    const bool synced = ::fsync(file.handle()) == 0;
#endif
    if (!synced)
        return fileError(QStringLiteral("cannot flush"), path,
                         QString::fromStdString(std::generic_category().message(errno)));
    return {};
}

void syncFolder(const QString &path)
{
#ifndef Q_OS_WIN
    const int fd = ::open(QFile::encodeName(path).constData(), O_RDONLY);
    if (fd >= 0) {
        (void)::fsync(fd);
        ::close(fd);
    }
#else
    Q_UNUSED(path); // NTFS journals renames itself
#endif
}

Result<void> replaceFile(const QString &from, const QString &to)
{
    std::error_code ec;
    std::filesystem::rename(nativePath(from), nativePath(to), ec);
    if (ec)
        return fileError(QStringLiteral("cannot rename ") + from + QStringLiteral(" to"), to,
                         QString::fromStdString(ec.message()));
    return {};
}

Result<void> keepCopy(const QString &from, const QString &to)
{
    std::error_code ec;
    std::filesystem::create_hard_link(nativePath(from), nativePath(to), ec);
    if (!ec)
        return {};
    std::filesystem::copy_file(nativePath(from), nativePath(to), ec);
    if (ec)
        return fileError(QStringLiteral("cannot copy ") + from + QStringLiteral(" to"), to,
                         QString::fromStdString(ec.message()));
    return syncFile(to);
}

void removeWithCompanions(const QString &path)
{
    QFile::remove(path);
    for (const QString &suffix : companionSuffixes())
        QFile::remove(path + suffix);
}

ScratchFile::ScratchFile(const QString &finalPath)
{
    // QTemporaryFile creates it owner-only with a name no one else has.
    QTemporaryFile file(finalPath + QStringLiteral(".XXXXXX.partial"));
    file.setAutoRemove(false);
    if (!file.open()) {
        m_error = file.errorString();
        return;
    }
    m_path = file.fileName();
}

ScratchFile::~ScratchFile()
{
    if (!m_path.isEmpty())
        removeWithCompanions(m_path);
}

} // namespace MemoryGraph::StoreFiles
