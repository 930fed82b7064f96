#pragma once

#include "service/api/portability.h"
#include "service/api/progress.h"
#include "service/core/config.h"
#include "service/core/identity.h"

#include <QStringList>

class QIODevice;

namespace MemoryGraph {

class Database;
class EmbeddingProvider;
class IndexManager;

/// Imports an export file into a (tenant, scope) of this store (docs/export-format.md):
/// 1. check: the whole file is read and validated (nothing is written on any problem);
/// 2. map: the ids it is written under are decided against the target store, and ids or client
///    ids the store already holds are conflicts (refused with 409) or renamed, per the policies;
/// 3. write: records in file order, one commit of kind "import" per batch, appended to the
///    target scope's own hash chain. All batches share one transaction: a cancel or a failure
///    leaves the store as it was.
/// A dry run stops after 2 and reports what would be added and what conflicts.
class ScopeImporter
{
public:
    /// provider: the store's embedder (null: none); decides which vectors can stay.
    ScopeImporter(Database &db, const ServiceConfig &config, const EmbeddingProvider *provider);

    /// `in` must be seekable (it is read twice). meta: the caller (the commits' actor).
    Result<ImportReport> run(const ImportRequest &request, QIODevice *in, const RequestMeta &meta,
                             const ProgressCallback &progress);

    /// After a real import: the nodes written with a vector, which the scope's index must
    /// mirror (see mirrorVectors()).
    const QStringList &nodesWithVectors() const { return m_nodesWithVectors; }

    /// Hands the imported vectors to the index, reading them back a chunk at a time.
    Result<void> mirrorVectors(IndexManager &indexes, const QString &tenantId,
                               const QString &scope) const;

private:
    Database &m_db;
    const ServiceConfig &m_config;
    const EmbeddingProvider *m_provider;
    QStringList m_nodesWithVectors;
};

} // namespace MemoryGraph
