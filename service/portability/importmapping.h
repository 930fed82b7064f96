#pragma once

#include "service/api/callscopetypes.h"
#include "service/api/portability.h"
#include "service/portability/importscan.h"

#include <QHash>
#include <QJsonObject>
#include <QSqlDatabase>

namespace MemoryGraph {

/// The ids an import writes under, decided before anything is written, and the conflicts with
/// what the target store holds. Ids only: a map per kind from the file's id to the written one.
struct ImportMapping
{
    QHash<QString, QString> nodeIds;     ///< every node of the file
    QHash<QString, QString> edgeIds;     ///< every edge of the file
    QHash<QString, QString> decisionIds; ///< every decision of the file
    QHash<QString, QString> feedbackIds; ///< every rule feedback row of the file
    QHash<QString, QString> clientIds;   ///< only the client ids that change
    /// Every id that changes (nodes, decisions, feedback, replay run and playbook ids): string
    /// values equal to one of them in slots and decision metadata are rewritten.
    QHash<QString, QString> values;

    /// `id` as written: through `map` when the file defines it, else unchanged (a reference
    /// to a record the file does not carry, such as a forgotten rule).
    static QString mapped(const QHash<QString, QString> &map, const QString &id)
    {
        return map.value(id, id);
    }
    /// Replaces every string equal to a key of `values`, at any depth.
    QJsonObject rewritten(const QJsonObject &object) const;
};

/// Decides the ids of an import into `target` (see ImportRequest's policies) from the scan and
/// the target store, reading through `db`; fills the report's per-kind remap and conflict
/// counts and its conflict list. Under Preserve an id (or client id) the store already holds
/// is a conflict; under Remap it is renamed.
Result<ImportMapping> mapImport(QSqlDatabase &db, const ImportScan &scan, const CallScope &target,
                                const ImportRequest &request, ImportReport *report);

} // namespace MemoryGraph
