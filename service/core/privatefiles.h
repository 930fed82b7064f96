#pragma once

#include "service/core/result.h"

#include <QFileDevice>
#include <QString>

/// The data folder holds every tenant's memory: it and everything the service writes into it are
/// readable by the owning user only (folders 0700, files 0600), whatever the process umask.
namespace MemoryGraph::PrivateFiles {

constexpr QFileDevice::Permissions kFolderPermissions
    = QFileDevice::ReadOwner | QFileDevice::WriteOwner | QFileDevice::ExeOwner;
constexpr QFileDevice::Permissions kFilePermissions
    = QFileDevice::ReadOwner | QFileDevice::WriteOwner;

/// Creates path (missing parents get the usual defaults) as an owner-only folder; an existing
/// folder with looser permissions is tightened. Fails when the folder cannot be created.
Result<void> ensureFolder(const QString &path);

/// Creates an empty owner-only file at path unless one exists, then makes it owner-only.
Result<void> ensureFile(const QString &path);

/// Makes an existing file owner-only; a missing file is fine. Returns false when chmod failed.
bool restrictFile(const QString &path);

} // namespace MemoryGraph::PrivateFiles
