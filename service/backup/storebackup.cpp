#include "service/backup/storebackup.h"

#include "service/backup/storefiles.h"
#include "service/core/privatefiles.h"
#include "service/storage/storecopy.h"

#include <QDir>
#include <QFileInfo>

namespace MemoryGraph::StoreBackup {

namespace {

Error invalidTarget(const QString &message)
{
    return Error::make(400, QStringLiteral("invalid_target"), message);
}

/// The target as an absolute path, refused when writing it could harm the store.
Result<QString> checkTarget(const QString &databaseFile, const QString &targetFile)
{
    if (targetFile.trimmed().isEmpty())
        return invalidTarget(QStringLiteral("no backup file named"));
    const QFileInfo target(QDir::cleanPath(QDir(QDir::currentPath()).absoluteFilePath(targetFile)));
    if (target.isDir())
        return invalidTarget(QStringLiteral("%1 is a folder; name a file").arg(target.filePath()));
    if (!target.absoluteDir().exists())
        return invalidTarget(
            QStringLiteral("the folder %1 does not exist").arg(target.absolutePath()));
    if (!QFileInfo::exists(databaseFile))
        return Error::make(404, QStringLiteral("not_found"),
                           QStringLiteral("there is no store at %1").arg(databaseFile));
    QStringList storeFiles{databaseFile};
    for (const QString &suffix : StoreFiles::companionSuffixes())
        storeFiles << databaseFile + suffix;
    for (const QString &file : std::as_const(storeFiles)) {
        if (StoreFiles::sameFile(file, target.filePath())
            || QDir::cleanPath(QFileInfo(file).absoluteFilePath()) == target.filePath())
            return invalidTarget(
                QStringLiteral("%1 is the store itself; name another file").arg(target.filePath()));
    }
    return target.filePath();
}

/// Renames the finished copy over the target and makes the rename durable.
Result<void> moveIntoPlace(StoreFiles::ScratchFile &copy, const QString &target)
{
    PrivateFiles::restrictFile(copy.path());
    if (auto synced = StoreFiles::syncFile(copy.path()); !synced)
        return synced;
    if (auto moved = StoreFiles::replaceFile(copy.path(), target); !moved)
        return moved;
    copy.release();
    StoreFiles::syncFolder(QFileInfo(target).absolutePath());
    return {};
}

} // namespace

Result<BackupOutcome> run(const QString &databaseFile, const QString &targetFile,
                          const ProgressCallback &progress)
{
    auto target = checkTarget(databaseFile, targetFile);
    if (!target)
        return target.error();
    StoreFiles::ScratchFile copy(target.value());
    if (copy.path().isEmpty())
        return Error::internal(QStringLiteral("cannot create a file beside %1: %2")
                                   .arg(target.value(), copy.errorText()));
    auto pages = StoreCopy::copy(databaseFile, copy.path(), progress);
    if (!pages)
        return pages.error();
    auto checked = StoreCopy::inspect(copy.path(), StoreCopy::Check::Quick, progress);
    if (!checked)
        return checked.error();
    if (auto placed = moveIntoPlace(copy, target.value()); !placed)
        return placed.error();
    BackupOutcome outcome;
    outcome.file = target.value();
    outcome.store = checked.value();
    return outcome;
}

} // namespace MemoryGraph::StoreBackup
