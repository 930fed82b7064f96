#pragma once

#include "service/api/portability.h"
#include "service/api/progress.h"
#include "service/core/config.h"

class QIODevice;

namespace MemoryGraph {

class Database;

/// Writes one (tenant, scope) as an export file (docs/export-format.md): the header, then each
/// kind's records in a stable order, read inside one read transaction so the file is a single
/// consistent picture even while agents write. Streams: records are read in chunks and written
/// as they come, never the whole scope at once.
class ScopeExporter
{
public:
    ScopeExporter(Database &db, const ServiceConfig &config);

    /// 404 when the scope holds nothing; `cancelled` when progress asked to stop (what was
    /// written to `out` is then incomplete: the caller discards it).
    Result<ExportOutcome> run(const ExportRequest &request, QIODevice *out,
                              const ProgressCallback &progress);

private:
    Database &m_db;
    const ServiceConfig &m_config;
};

} // namespace MemoryGraph
