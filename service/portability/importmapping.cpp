#include "service/portability/importmapping.h"

#include "service/core/ids.h"
#include "service/storage/portabilitystore.h"

#include <QJsonArray>
#include <QSet>

namespace MemoryGraph {

namespace {

using ExportFormat::Kind;
using ExportFormat::kindName;

/// A replay record's client id around the run or playbook id it belongs to:
/// replay:run:<run>, replay:step:<run>:<step>, replay:playbook:<playbook>:v<n>, ...
struct ReplayFamily
{
    QString prefix;
    QString familyId; ///< the run or playbook id (a UUID)
    QString rest;
};

std::optional<ReplayFamily> replayFamily(const QString &clientId)
{
    static const QStringList prefixes{
        QStringLiteral("replay:run:"), QStringLiteral("replay:run_end:"),
        QStringLiteral("replay:step:"), QStringLiteral("replay:step_result:"),
        QStringLiteral("replay:playbook:")};
    constexpr int kUuidLength = 36;
    for (const QString &prefix : prefixes) {
        if (!clientId.startsWith(prefix))
            continue;
        const QString rest = clientId.mid(prefix.size());
        const QString head = rest.left(kUuidLength);
        if (isUuid(head)
            && (rest.size() == kUuidLength || rest.at(kUuidLength) == QLatin1Char(':')))
            return ReplayFamily{prefix, head, rest.mid(kUuidLength)};
    }
    return std::nullopt;
}

QJsonValue rewrittenValue(const QJsonValue &value, const QHash<QString, QString> &values)
{
    if (value.isString())
        return values.value(value.toString(), value.toString());
    if (value.isArray()) {
        QJsonArray out;
        for (const QJsonValue &item : value.toArray())
            out.append(rewrittenValue(item, values));
        return out;
    }
    if (value.isObject()) {
        QJsonObject out;
        const QJsonObject object = value.toObject();
        for (auto it = object.constBegin(); it != object.constEnd(); ++it)
            out.insert(it.key(), rewrittenValue(it.value(), values));
        return out;
    }
    return value;
}

/// Counts conflicts per kind and lists the first few.
class ConflictList
{
public:
    explicit ConflictList(ImportReport *report) : m_report(report) { }

    void add(Kind kind, qint64 line, const QString &id, const QString &clientId,
             const QString &reason)
    {
        ++m_report->conflictCount;
        ++m_report->kinds[kindName(kind)].conflicts;
        if (m_report->conflicts.size() < ImportReport::kMaxListedConflicts)
            m_report->conflicts.append({kindName(kind), line, id, clientId, reason});
    }

private:
    ImportReport *m_report;
};

/// Decides ids against the store through one connection.
class Mapper
{
public:
    Mapper(QSqlDatabase &db, const ImportScan &scan, const CallScope &target,
           const ImportRequest &request, ImportReport *report)
        : m_db(db), m_scan(scan), m_target(target), m_request(request), m_report(report),
          m_conflicts(report)
    {
    }

    Result<ImportMapping> run()
    {
        if (auto found = findTakenClientIds(); !found)
            return found.error();
        if (m_request.clientIdPolicy == IdPolicy::Remap && !m_taken.isEmpty()) {
            if (auto renamed = renameTakenClientIds(); !renamed)
                return renamed.error();
        }
        for (auto step :
             {&Mapper::mapNodes, &Mapper::mapEdges, &Mapper::mapDecisions, &Mapper::mapFeedback}) {
            if (auto mapped = (this->*step)(); !mapped)
                return mapped.error();
        }
        return std::move(m_mapping);
    }

private:
    bool remapIds() const { return m_request.idPolicy == IdPolicy::Remap; }

    Result<void> findTakenClientIds()
    {
        for (const ImportScan::NodeRef &n : m_scan.nodes) {
            if (n.clientId.isEmpty())
                continue;
            m_fileClientIds.insert(n.clientId);
            auto taken = PortabilityStore::clientIdTaken(m_db, m_target.tenantId, m_target.scope,
                                                         n.clientId);
            if (!taken)
                return taken.error();
            if (taken.value())
                m_taken.insert(n.clientId);
        }
        return {};
    }

    /// A replay run or playbook with any client id taken gets a new run or playbook id for all
    /// of its records (the replay routes find them by it); any other taken client id gets a
    /// suffix "~<tag>" shared by this import.
    Result<void> renameTakenClientIds()
    {
        QHash<QString, QString> families;
        for (const QString &clientId : std::as_const(m_taken)) {
            if (const auto family = replayFamily(clientId);
                family && !families.contains(family->familyId))
                families.insert(family->familyId, randomUuid());
        }
        const QString tag = randomUuid().left(8);
        QSet<QString> assigned;
        for (const ImportScan::NodeRef &n : m_scan.nodes) {
            if (n.clientId.isEmpty())
                continue;
            const auto family = replayFamily(n.clientId);
            QString renamed;
            if (family && families.contains(family->familyId)) {
                renamed = family->prefix + families.value(family->familyId) + family->rest;
            } else if (m_taken.contains(n.clientId)) {
                auto free = freeClientId(n.clientId + QStringLiteral("~") + tag, assigned);
                if (!free)
                    return free.error();
                renamed = free.value();
            } else {
                continue;
            }
            assigned.insert(renamed);
            m_mapping.clientIds.insert(n.clientId, renamed);
            ++m_report->kinds[kindName(Kind::Node)].remappedClientIds;
        }
        for (auto it = families.cbegin(); it != families.cend(); ++it)
            m_mapping.values.insert(it.key(), it.value());
        return {};
    }

    Result<QString> freeClientId(const QString &base, const QSet<QString> &assigned)
    {
        QString candidate = base;
        for (int n = 2;; ++n) {
            if (!m_fileClientIds.contains(candidate) && !assigned.contains(candidate)) {
                auto taken = PortabilityStore::clientIdTaken(m_db, m_target.tenantId,
                                                             m_target.scope, candidate);
                if (!taken)
                    return taken.error();
                if (!taken.value())
                    return candidate;
            }
            candidate = base + QLatin1Char('-') + QString::number(n);
        }
    }

    /// A node with a client id is written under the id the write path derives from the target
    /// scope and its client id, whatever the policy; others keep their id or get a new one.
    Result<void> mapNodes()
    {
        ImportKindReport &kind = m_report->kinds[kindName(Kind::Node)];
        for (const ImportScan::NodeRef &n : m_scan.nodes) {
            const QString clientId = ImportMapping::mapped(m_mapping.clientIds, n.clientId);
            QString id = n.id;
            if (!clientId.isEmpty())
                id = stableUuid(m_target.key + QStringLiteral(":node:") + clientId);
            else if (remapIds())
                id = randomUuid();
            m_mapping.nodeIds.insert(n.id, id);
            if (id != n.id) {
                ++kind.remappedIds;
                m_mapping.values.insert(n.id, id);
            }
            if (m_taken.contains(clientId)) {
                m_conflicts.add(Kind::Node, n.line, id, clientId,
                                QStringLiteral("client_id_exists"));
                continue;
            }
            if (!m_usedNodeIds.contains(id)) {
                m_usedNodeIds.insert(id);
                auto exists = PortabilityStore::nodeExists(m_db, id);
                if (!exists)
                    return exists.error();
                if (!exists.value())
                    continue;
            }
            m_conflicts.add(Kind::Node, n.line, id, clientId, QStringLiteral("id_exists"));
        }
        return {};
    }

    Result<void> mapEdges()
    {
        ImportKindReport &kind = m_report->kinds[kindName(Kind::Edge)];
        for (const ImportScan::EdgeRef &e : m_scan.edges) {
            const QString src = m_mapping.nodeIds.value(e.srcId);
            const QString dst = m_mapping.nodeIds.value(e.dstId);
            // Remapped edges take the id the write path derives for a new edge.
            const QString id = remapIds()
                                   ? stableUuid(m_target.key + QStringLiteral(":edge:") + e.type
                                                + QLatin1Char(':') + src + QLatin1Char(':') + dst)
                                   : e.id;
            m_mapping.edgeIds.insert(e.id, id);
            if (id != e.id)
                ++kind.remappedIds;
            auto exists = PortabilityStore::edgeExists(m_db, id);
            if (!exists)
                return exists.error();
            if (exists.value())
                m_conflicts.add(Kind::Edge, e.line, id, QString(), QStringLiteral("id_exists"));
        }
        return {};
    }

    Result<void> mapIds(Kind kindOf, const QVector<ImportScan::IdRef> &refs,
                        QHash<QString, QString> *map,
                        Result<bool> (*exists)(QSqlDatabase &, const QString &))
    {
        ImportKindReport &kind = m_report->kinds[kindName(kindOf)];
        for (const ImportScan::IdRef &r : refs) {
            if (remapIds()) {
                const QString id = randomUuid();
                map->insert(r.id, id);
                m_mapping.values.insert(r.id, id);
                ++kind.remappedIds;
                continue;
            }
            map->insert(r.id, r.id);
            auto found = exists(m_db, r.id);
            if (!found)
                return found.error();
            if (found.value())
                m_conflicts.add(kindOf, r.line, r.id, QString(), QStringLiteral("id_exists"));
        }
        return {};
    }

    Result<void> mapDecisions()
    {
        return mapIds(Kind::Decision, m_scan.decisions, &m_mapping.decisionIds,
                      &PortabilityStore::decisionExists);
    }

    Result<void> mapFeedback()
    {
        return mapIds(Kind::RuleFeedback, m_scan.feedback, &m_mapping.feedbackIds,
                      &PortabilityStore::feedbackExists);
    }

    QSqlDatabase &m_db;
    const ImportScan &m_scan;
    const CallScope &m_target;
    const ImportRequest &m_request;
    ImportReport *m_report;
    ConflictList m_conflicts;
    ImportMapping m_mapping;
    QSet<QString> m_fileClientIds;
    QSet<QString> m_taken;       ///< client ids of the file the target scope already uses
    QSet<QString> m_usedNodeIds; ///< node ids this import writes (a repeat is a conflict)
};

} // namespace

QJsonObject ImportMapping::rewritten(const QJsonObject &object) const
{
    if (values.isEmpty())
        return object;
    return rewrittenValue(object, values).toObject();
}

Result<ImportMapping> mapImport(QSqlDatabase &db, const ImportScan &scan, const CallScope &target,
                                const ImportRequest &request, ImportReport *report)
{
    return Mapper(db, scan, target, request, report).run();
}

} // namespace MemoryGraph
