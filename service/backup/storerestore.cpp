#include "service/backup/storerestore.h"

#include "service/backup/storefiles.h"
#include "service/core/privatefiles.h"
#include "service/storage/storecopy.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSaveFile>

namespace MemoryGraph::StoreRestore {

namespace {

QString markerPath(const QString &dataDir)
{
    return QDir(dataDir).filePath(QStringLiteral("memorygraph.restore-pending.json"));
}

QString pendingCopyPath(const QString &dataDir)
{
    return StoreFiles::databasePath(dataDir) + QStringLiteral(".restore-pending");
}

Error invalidSource(const QString &message)
{
    return Error::make(400, QStringLiteral("invalid_source"), message);
}

/// The backup file as an absolute path, refused when it is missing or the store itself.
Result<QString> checkSource(const QString &dataDir, const QString &sourceFile)
{
    if (sourceFile.trimmed().isEmpty())
        return invalidSource(QStringLiteral("no backup file named"));
    const QString source = QDir::cleanPath(QDir(QDir::currentPath()).absoluteFilePath(sourceFile));
    if (!QFileInfo(source).isFile())
        return Error::make(404, QStringLiteral("not_found"),
                           QStringLiteral("%1 does not exist or is not a file").arg(source));
    if (StoreFiles::sameFile(source, StoreFiles::databasePath(dataDir)))
        return invalidSource(
            QStringLiteral("%1 is the store of this data folder; name a backup").arg(source));
    return source;
}

/// Looks at the source, copies it to `copy` and checks the copy in full; the copy ends synced
/// and owner-only.
Result<StoreSummary> copyIn(const QString &source, const QString &copy,
                            const ProgressCallback &progress)
{
    // A first look, so a wrong file fails before gigabytes are copied.
    if (auto looked = StoreCopy::inspect(source, StoreCopy::Check::SchemaOnly, {}); !looked)
        return looked.error();
    if (auto pages = StoreCopy::copy(source, copy, progress); !pages)
        return pages.error();
    auto checked = StoreCopy::inspect(copy, StoreCopy::Check::Full, progress);
    if (!checked)
        return checked.error();
    PrivateFiles::restrictFile(copy);
    if (auto synced = StoreFiles::syncFile(copy); !synced)
        return synced.error();
    return checked;
}

/// A name for the replaced store that no file has yet.
QString keepName(const QString &store)
{
    const QString base = store + QStringLiteral(".before-restore-")
                         + QDateTime::currentDateTime().toString(QStringLiteral("yyyyMMdd-HHmmss"));
    QString name = base;
    for (int n = 2; QFileInfo::exists(name); ++n)
        name = base + QLatin1Char('-') + QString::number(n);
    return name;
}

/// Keeps the current store (if any) under a new name and clears the companions that must not
/// meet the restored file: a -wal or -journal left beside it would be replayed into it.
Result<QString> keepPrevious(const QString &dataDir)
{
    const QString store = StoreFiles::databasePath(dataDir);
    if (!QFileInfo::exists(store)) {
        StoreFiles::removeWithCompanions(store);
        return QString();
    }
    StoreCopy::settle(store);
    const QString kept = keepName(store);
    if (auto copied = StoreFiles::keepCopy(store, kept); !copied)
        return copied.error();
    for (const QString &suffix : {QStringLiteral("-wal"), QStringLiteral("-journal")}) {
        if (!QFileInfo::exists(store + suffix))
            continue;
        if (auto moved = StoreFiles::replaceFile(store + suffix, kept + suffix); !moved)
            return moved.error();
    }
    QFile::remove(store + QStringLiteral("-shm"));
    return kept;
}

/// Removes the vector index files: they describe the replaced store.
int removeIndexFiles(const QString &dataDir)
{
    QDir folder(StoreFiles::indexFolder(dataDir));
    int removed = 0;
    const QStringList files = folder.entryList(QDir::Files | QDir::Hidden | QDir::System);
    for (const QString &name : files) {
        if (folder.remove(name))
            ++removed;
    }
    return removed;
}

/// Puts the checked copy in the store's place.
Result<RestoreOutcome> swapIn(const QString &dataDir, const QString &copy, const QString &source,
                              const StoreSummary &summary)
{
    auto kept = keepPrevious(dataDir);
    if (!kept)
        return kept.error();
    if (auto moved = StoreFiles::replaceFile(copy, StoreFiles::databasePath(dataDir)); !moved)
        return moved.error();
    StoreFiles::syncFolder(dataDir);
    RestoreOutcome outcome;
    outcome.dataDir = dataDir;
    outcome.source = source;
    outcome.previousStore = kept.value();
    outcome.indexFilesRemoved = removeIndexFiles(dataDir);
    outcome.store = summary;
    return outcome;
}

QJsonObject markerJson(const PendingRestore &p)
{
    return {{QStringLiteral("source"), p.source},
            {QStringLiteral("requested_at"), p.requestedAt.toString(Qt::ISODateWithMs)},
            {QStringLiteral("schema_version"), p.store.schemaVersion},
            {QStringLiteral("nodes"), p.store.nodes},
            {QStringLiteral("edges"), p.store.edges},
            {QStringLiteral("commits"), p.store.commits},
            {QStringLiteral("pages"), p.store.pages},
            {QStringLiteral("bytes"), p.store.bytes}};
}

Result<void> writeMarker(const QString &dataDir, const PendingRestore &p)
{
    const QString path = markerPath(dataDir);
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly))
        return Error::internal(QStringLiteral("cannot write %1: %2").arg(path, file.errorString()));
    file.write(QJsonDocument(markerJson(p)).toJson());
    if (!file.commit())
        return Error::internal(QStringLiteral("cannot write %1: %2").arg(path, file.errorString()));
    PrivateFiles::restrictFile(path);
    return {};
}

} // namespace

Result<RestoreOutcome> restore(const QString &dataDir, const QString &sourceFile,
                               const ProgressCallback &progress)
{
    auto source = checkSource(dataDir, sourceFile);
    if (!source)
        return source.error();
    if (auto folder = PrivateFiles::ensureFolder(dataDir); !folder)
        return folder.error();
    StoreFiles::ScratchFile copy(StoreFiles::databasePath(dataDir));
    if (copy.path().isEmpty())
        return Error::internal(
            QStringLiteral("cannot create a file in %1: %2").arg(dataDir, copy.errorText()));
    auto checked = copyIn(source.value(), copy.path(), progress);
    if (!checked)
        return checked.error();
    auto outcome = swapIn(dataDir, copy.path(), source.value(), checked.value());
    if (!outcome)
        return outcome.error();
    copy.release();
    discardPending(dataDir);
    return outcome;
}

Result<PendingRestore> schedule(const QString &dataDir, const QString &sourceFile,
                                const ProgressCallback &progress)
{
    auto source = checkSource(dataDir, sourceFile);
    if (!source)
        return source.error();
    const QString target = pendingCopyPath(dataDir);
    StoreFiles::ScratchFile copy(target);
    if (copy.path().isEmpty())
        return Error::internal(
            QStringLiteral("cannot create a file in %1: %2").arg(dataDir, copy.errorText()));
    auto checked = copyIn(source.value(), copy.path(), progress);
    if (!checked)
        return checked.error();
    discardPending(dataDir);
    if (auto moved = StoreFiles::replaceFile(copy.path(), target); !moved)
        return moved.error();
    copy.release();
    PendingRestore p;
    p.source = source.value();
    p.requestedAt = QDateTime::currentDateTimeUtc();
    p.store = checked.value();
    // The marker is what makes the copy a pending restore: written last.
    if (auto marked = writeMarker(dataDir, p); !marked) {
        QFile::remove(target);
        return marked.error();
    }
    StoreFiles::syncFolder(dataDir);
    return p;
}

std::optional<PendingRestore> pending(const QString &dataDir)
{
    QFile file(markerPath(dataDir));
    if (!QFileInfo::exists(pendingCopyPath(dataDir)) || !file.open(QIODevice::ReadOnly))
        return std::nullopt;
    const QJsonObject o = QJsonDocument::fromJson(file.readAll()).object();
    PendingRestore p;
    p.source = o.value(QStringLiteral("source")).toString();
    p.requestedAt = QDateTime::fromString(o.value(QStringLiteral("requested_at")).toString(),
                                          Qt::ISODateWithMs);
    p.store.schemaVersion = o.value(QStringLiteral("schema_version")).toInt();
    p.store.nodes = qint64(o.value(QStringLiteral("nodes")).toDouble());
    p.store.edges = qint64(o.value(QStringLiteral("edges")).toDouble());
    p.store.commits = qint64(o.value(QStringLiteral("commits")).toDouble());
    p.store.pages = qint64(o.value(QStringLiteral("pages")).toDouble());
    p.store.bytes = qint64(o.value(QStringLiteral("bytes")).toDouble());
    return p;
}

void discardPending(const QString &dataDir)
{
    QFile::remove(markerPath(dataDir));
    StoreFiles::removeWithCompanions(pendingCopyPath(dataDir));
}

Result<std::optional<RestoreOutcome>> applyPending(const QString &dataDir)
{
    const auto waiting = pending(dataDir);
    if (!waiting) {
        discardPending(dataDir); // a copy whose marker was never written, or the reverse
        return std::optional<RestoreOutcome>();
    }
    const QString copy = pendingCopyPath(dataDir);
    auto looked = StoreCopy::inspect(copy, StoreCopy::Check::SchemaOnly, {});
    if (!looked) {
        discardPending(dataDir);
        return looked.error();
    }
    auto outcome = swapIn(dataDir, copy, waiting->source, waiting->store);
    discardPending(dataDir);
    if (!outcome)
        return outcome.error();
    return std::optional<RestoreOutcome>(outcome.value());
}

} // namespace MemoryGraph::StoreRestore
