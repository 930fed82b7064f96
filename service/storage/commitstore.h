#pragma once

#include "service/core/result.h"

#include <QByteArray>
#include <QSqlDatabase>
#include <QString>
#include <QVector>

namespace MemoryGraph::CommitStore {

/// The stored fields of one commit, exactly as written (diff as its stored text), as the
/// hash-chain check needs them.
struct StoredCommit
{
    QString id;
    qint64 sequence = 0;
    QString parentId;
    QString parentHash;
    QString inputSha256;
    QString diffSha256;
    QByteArray diffText;
    QString actor;
    QString kind;
    QString commitHash;
};

/// One page of a scope's chain after `afterSequence`, oldest first (keyset paging on the
/// (tenant_id, scope, seq) unique index, so a page costs the same at any depth).
Result<QVector<StoredCommit>> chainPage(QSqlDatabase &db, const QString &tenantId,
                                        const QString &scope, qint64 afterSequence, int limit);

/// The sequence of the scope's newest commit (0 for a scope without commits): how long its
/// chain is.
Result<qint64> newestSequence(QSqlDatabase &db, const QString &tenantId, const QString &scope);

} // namespace MemoryGraph::CommitStore
