#pragma once

// Export of a (tenant, scope) to a JSON Lines file and import of such a file into a store
// (docs/export-format.md): the requests and what they report.

#include "service/core/result.h"

#include <QDateTime>
#include <QJsonObject>
#include <QMap>
#include <QString>
#include <QStringList>
#include <QVector>

namespace MemoryGraph {

/// The kinds of record an export file holds, in the order it holds them.
inline const QStringList &portableKinds()
{
    static const QStringList kinds{QStringLiteral("node"),          QStringLiteral("edge"),
                                   QStringLiteral("rule"),          QStringLiteral("decision"),
                                   QStringLiteral("rule_feedback"), QStringLiteral("commit")};
    return kinds;
}

/// What an export writes: one scope, every lane (an operator's operation).
struct ExportRequest
{
    QString tenantId; ///< empty: the configured default tenant
    QString scope;    ///< empty: the configured default scope
    /// Vectors travel as base64 float32 with their model, so a store embedding with the same
    /// model need not embed again; without them the importing store re-embeds every node.
    bool includeEmbeddings = true;
};

struct ExportOutcome
{
    QString tenantId;
    QString scope;
    QDateTime exportedAt;
    QMap<QString, qint64> counts; ///< records per kind ("node", "edge", ...)
    qint64 replayRuns = 0;        ///< replay runs among the nodes (for information)
    qint64 bytes = 0;             ///< size of the file written
    bool includeEmbeddings = true;

    QJsonObject toJson() const;
};

/// How an import names the records it adds.
enum class IdPolicy {
    Preserve, ///< keep the file's ids; an id already used in the store refuses the import (409)
    Remap,    ///< give every record a new id (references follow)
};

QString idPolicyName(IdPolicy policy);

struct ImportRequest
{
    QString tenantId; ///< target tenant; empty: the file's
    QString scope;    ///< target scope; empty: the file's
    bool dryRun = false;
    IdPolicy idPolicy = IdPolicy::Preserve;
    /// Remap: a client id already used in the target scope is renamed (a replay run or
    /// playbook gets a new run or playbook id); Preserve: such a client id refuses the import.
    IdPolicy clientIdPolicy = IdPolicy::Preserve;
    int batchSize = 500; ///< records per commit (a batch also closes at 4 MiB of lines)
    QString actor;       ///< the commits' actor; empty: the caller (see commitActor)
};

/// One record the target store already holds an id or client id of.
struct ImportConflict
{
    QString kind; ///< node, edge, decision, rule_feedback
    qint64 line = 0;
    QString id;       ///< the id as it would be written
    QString clientId; ///< for client id conflicts
    QString reason;   ///< id_exists | client_id_exists

    QJsonObject toJson() const;
};

/// Per kind: how many records the file holds and how many the import adds (or would add).
struct ImportKindReport
{
    qint64 records = 0;
    qint64 added = 0;
    qint64 conflicts = 0;
    qint64 remappedIds = 0;       ///< records written under an id other than the file's
    qint64 remappedClientIds = 0; ///< nodes written under a client id other than the file's
};

/// What an import did (or, dry, would do). Nothing is written by a dry run or a refused import.
struct ImportReport
{
    static constexpr int kMaxListedConflicts = 100;

    bool dryRun = false;
    int formatVersion = 0;
    QString sourceTenantId;
    QString sourceScope;
    QDateTime exportedAt;
    QString appVersion;
    QString tenantId; ///< target
    QString scope;    ///< target
    IdPolicy idPolicy = IdPolicy::Preserve;
    IdPolicy clientIdPolicy = IdPolicy::Preserve;
    QMap<QString, ImportKindReport> kinds; ///< node, edge, rule, decision, rule_feedback, commit
    qint64 conflictCount = 0;
    QVector<ImportConflict> conflicts; ///< the first kMaxListedConflicts, in file order
    qint64 vectorsKept = 0;            ///< nodes imported with their vector (same model)
    qint64 vectorsPending = 0;         ///< nodes left for the background embedder
    QStringList commitIds;             ///< one per batch, in chain order (real imports)

    /// A real import with these options would go through (no refused conflict).
    bool canImport() const { return conflictCount == 0; }
    QJsonObject toJson() const;
};

} // namespace MemoryGraph
