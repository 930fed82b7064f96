#pragma once

#include "service/api/chainreport.h"
#include "service/api/progress.h"
#include "service/core/config.h"
#include "service/core/result.h"

#include <QJsonObject>
#include <QString>

#include <optional>

namespace MemoryGraph {

class Database;

/// Recomputes a scope's hash chain from the stored commits (DESIGN: commits form a per-scope
/// hash chain): sequence continuity from 1, parent id/hash equal to the previous commit,
/// diff_sha256 = sha256(stable(diff)), commit_hash over the same fields as CommitLog::append,
/// and the id derived from the hash. Reads the chain in pages, so memory stays flat for
/// scopes with very many commits. Reports stage "verifying commits" once per page; a false
/// from the callback stops it with the error `cancelled`.
class ChainVerifier
{
public:
    ChainVerifier(Database &db, const ServiceConfig &config);

    Result<ChainReport> verify(const QString &tenantId, const QString &scope,
                               const ProgressCallback &progress = {}, int pageSize = 500);

private:
    Database &m_db;
    const ServiceConfig &m_config;
};

} // namespace MemoryGraph
