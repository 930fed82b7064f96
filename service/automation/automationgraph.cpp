#include "service/automation/automationgraph.h"

#include "service/core/jsonreader.h"

#include <QSet>

#include <map>
#include <set>

namespace MemoryGraph {

namespace {

constexpr int kMaxNodes = 200;
constexpr int kMaxEdges = 500;
const QString kNodesPrefix = QStringLiteral("$nodes.");
const QString kParamsPrefix = QStringLiteral("$params.");

QJsonObject issue(const QString &code, const QString &message,
                  const QJsonObject &extra = QJsonObject())
{
    QJsonObject o = extra;
    o.insert(QStringLiteral("code"), code);
    o.insert(QStringLiteral("message"), message);
    return o;
}

/// "$nodes.<id>.<path>" → (id, path); false for anything else.
bool splitNodeBinding(const QString &text, QString *id, QString *path)
{
    if (!text.startsWith(kNodesPrefix))
        return false;
    const QString rest = text.mid(kNodesPrefix.size());
    const int dot = rest.indexOf(QLatin1Char('.'));
    *id = dot < 0 ? rest : rest.left(dot);
    *path = dot < 0 ? QString() : rest.mid(dot + 1);
    return !id->isEmpty();
}

void collectBindings(const QJsonValue &v, QStringList *out)
{
    if (v.isString()) {
        QString id, path;
        if (splitNodeBinding(v.toString(), &id, &path) && !out->contains(id))
            out->append(id);
    } else if (v.isArray()) {
        for (const QJsonValue &e : v.toArray())
            collectBindings(e, out);
    } else if (v.isObject()) {
        const QJsonObject o = v.toObject();
        for (auto it = o.begin(); it != o.end(); ++it)
            collectBindings(it.value(), out);
    }
}

/// The parts of a node that are bound at run time.
QJsonValue bindableParts(const AutomationGraphNode &n)
{
    QJsonObject o;
    for (const char *key : {"inputs", "expression", "required_artifacts"}) {
        const QJsonValue v = n.raw.value(QLatin1String(key));
        if (!v.isUndefined())
            o.insert(QLatin1String(key), v);
    }
    return o;
}

bool parseNode(const QJsonValue &value, const QString &at, AutomationGraphNode *out,
               JsonReader &outer)
{
    if (!value.isObject())
        return outer.fail(at, QStringLiteral("must be an object"));
    const QJsonObject o = value.toObject();
    JsonReader r(o, outer.path(at));
    r.requiredString("node_id", &out->nodeId, 128);
    if (r.ok() && o.value(QStringLiteral("kind")).isUndefined())
        r.fail(QStringLiteral("kind"), QStringLiteral("is required"));
    r.enumValue("kind", &out->kind, AutomationGraphs::nodeKinds());
    QString name;
    r.string("name", &name, 200);
    QJsonObject scratch;
    r.object("inputs", &scratch);
    r.object("metadata", &scratch);
    r.object("policy", &scratch);
    if (r.ok() && out->kind == QLatin1String("playbook")) {
        QString id, mode;
        r.requiredString("playbook_id", &id, 128);
        std::optional<int> version;
        r.integer("version", &version, 1, 1000000);
        r.enumValue("mode", &mode, AutomationGraphs::playbookModes());
    } else if (r.ok() && out->kind == QLatin1String("approval")) {
        QString key;
        r.string("approval_key", &key, 256);
    } else if (r.ok() && out->kind == QLatin1String("condition")) {
        if (o.value(QStringLiteral("expression")).isUndefined())
            r.fail(QStringLiteral("expression"), QStringLiteral("is required"));
    } else if (r.ok() && out->kind == QLatin1String("artifact_gate")) {
        QStringList required;
        bool present = false;
        r.stringList("required_artifacts", &required, 1, 200, &present);
        if (r.ok() && !present)
            r.fail(QStringLiteral("required_artifacts"), QStringLiteral("is required"));
    }
    out->raw = o;
    return outer.absorb(r);
}

} // namespace

const AutomationGraphNode *AutomationGraph::node(const QString &id) const
{
    for (const AutomationGraphNode &n : nodes) {
        if (n.nodeId == id)
            return &n;
    }
    return nullptr;
}

QStringList AutomationGraph::dependenciesOf(const QString &id) const
{
    QStringList deps;
    for (const AutomationGraphEdge &e : edges) {
        if (e.to == id && e.from != id && !deps.contains(e.from))
            deps << e.from;
    }
    deps.sort();
    return deps;
}

QJsonObject AutomationGraphCheck::toJson() const
{
    return {{QStringLiteral("node_ids"), QJsonArray::fromStringList(nodeIds)},
            {QStringLiteral("start_node_ids"), QJsonArray::fromStringList(startNodeIds)},
            {QStringLiteral("topological_order"), QJsonArray::fromStringList(topologicalOrder)},
            {QStringLiteral("issues"), issues}};
}

Error AutomationGraphCheck::error() const
{
    return Error::make(400, QStringLiteral("automation_graph_invalid"),
                       QStringLiteral("the automation graph has %1 issue(s); first: %2")
                           .arg(issues.size())
                           .arg(issues.first().toObject().value(QStringLiteral("code")).toString()),
                       toJson());
}

namespace AutomationGraphs {

const QStringList &nodeKinds()
{
    static const QStringList v{QStringLiteral("playbook"), QStringLiteral("approval"),
                               QStringLiteral("condition"), QStringLiteral("artifact_gate")};
    return v;
}

const QStringList &edgeTypes()
{
    static const QStringList v{QStringLiteral("depends_on"), QStringLiteral("on_success"),
                               QStringLiteral("on_failure")};
    return v;
}

const QStringList &playbookModes()
{
    static const QStringList v{QStringLiteral("strict"), QStringLiteral("guided"),
                               QStringLiteral("simulate")};
    return v;
}

Result<AutomationGraph> parse(const QJsonValue &value, const QString &path)
{
    if (value.isUndefined() || value.isNull())
        return Error::invalidField(path, QStringLiteral("is required"));
    if (!value.isObject())
        return Error::invalidField(path, QStringLiteral("must be an object"));
    const QJsonObject o = value.toObject();
    JsonReader r(o, path);
    QJsonArray nodes, edges;
    bool nodesPresent = false;
    r.array("nodes", &nodes, &nodesPresent);
    r.array("edges", &edges);
    if (r.ok() && (!nodesPresent || nodes.isEmpty()))
        r.fail(QStringLiteral("nodes"), QStringLiteral("must have at least 1 entry"));
    if (r.ok() && nodes.size() > kMaxNodes)
        r.fail(QStringLiteral("nodes"),
               QStringLiteral("must have at most %1 entries").arg(kMaxNodes));
    if (r.ok() && edges.size() > kMaxEdges)
        r.fail(QStringLiteral("edges"),
               QStringLiteral("must have at most %1 entries").arg(kMaxEdges));
    AutomationGraph g;
    for (int i = 0; r.ok() && i < nodes.size(); ++i) {
        AutomationGraphNode n;
        if (parseNode(nodes.at(i), QStringLiteral("nodes[%1]").arg(i), &n, r))
            g.nodes.append(n);
    }
    QJsonArray normalisedEdges;
    for (int i = 0; r.ok() && i < edges.size(); ++i) {
        const QString at = QStringLiteral("edges[%1]").arg(i);
        if (!edges.at(i).isObject()) {
            r.fail(at, QStringLiteral("must be an object"));
            break;
        }
        QJsonObject eo = edges.at(i).toObject();
        JsonReader er(eo, r.path(at));
        AutomationGraphEdge e;
        er.requiredString("from", &e.from, 128);
        er.requiredString("to", &e.to, 128);
        e.type = QStringLiteral("on_success");
        er.enumValue("type", &e.type, edgeTypes());
        QJsonObject meta;
        er.object("metadata", &meta);
        if (!r.absorb(er))
            break;
        eo.insert(QStringLiteral("type"), e.type);
        normalisedEdges.append(eo);
        g.edges.append(e);
    }
    if (!r.ok())
        return r.error();
    g.raw = o;
    g.raw.insert(QStringLiteral("edges"), normalisedEdges);
    return g;
}

AutomationGraphCheck check(const AutomationGraph &g)
{
    AutomationGraphCheck c;
    QSet<QString> ids;
    for (const AutomationGraphNode &n : g.nodes) {
        if (ids.contains(n.nodeId)) {
            c.issues.append(issue(QStringLiteral("duplicate_node_id"),
                                  QStringLiteral("node_id %1 is used more than once").arg(n.nodeId),
                                  {{QStringLiteral("node_id"), n.nodeId}}));
            continue;
        }
        ids.insert(n.nodeId);
        c.nodeIds << n.nodeId;
    }
    // Adjacency over the edges whose ends exist; every edge is checked on its own.
    std::map<QString, std::set<QString>> out;
    std::map<QString, int> indegree;
    for (const QString &id : std::as_const(c.nodeIds))
        indegree[id] = 0;
    for (int i = 0; i < g.edges.size(); ++i) {
        const AutomationGraphEdge &e = g.edges[i];
        const QJsonObject where{{QStringLiteral("edge_index"), i},
                                {QStringLiteral("from"), e.from},
                                {QStringLiteral("to"), e.to}};
        bool usable = true;
        if (!ids.contains(e.from)) {
            c.issues.append(issue(
                QStringLiteral("edge_from_missing"),
                QStringLiteral("edge %1 starts at unknown node %2").arg(i).arg(e.from), where));
            usable = false;
        }
        if (!ids.contains(e.to)) {
            c.issues.append(
                issue(QStringLiteral("edge_to_missing"),
                      QStringLiteral("edge %1 ends at unknown node %2").arg(i).arg(e.to), where));
            usable = false;
        }
        if (e.from == e.to) {
            c.issues.append(
                issue(QStringLiteral("self_cycle"),
                      QStringLiteral("edge %1 links node %2 to itself").arg(i).arg(e.from), where));
            usable = false;
        }
        if (e.type == QLatin1String("on_failure")) {
            c.issues.append(issue(
                QStringLiteral("unsupported_edge_type"),
                QStringLiteral("edge %1: on_failure edges are not supported (no failure branching)")
                    .arg(i),
                where));
            usable = false;
        }
        if (usable && out[e.from].insert(e.to).second)
            ++indegree[e.to];
    }
    // Kahn's algorithm, ties alphabetical.
    std::set<QString> ready;
    for (const auto &[id, deg] : indegree) {
        if (deg == 0)
            ready.insert(id);
    }
    c.startNodeIds = QStringList(ready.begin(), ready.end());
    if (!c.nodeIds.isEmpty() && c.startNodeIds.isEmpty())
        c.issues.append(issue(QStringLiteral("missing_start_node"),
                              QStringLiteral("every node has a dependency: no node can start")));
    std::map<QString, int> remaining = indegree;
    while (!ready.empty()) {
        const QString id = *ready.begin();
        ready.erase(ready.begin());
        c.topologicalOrder << id;
        for (const QString &next : out[id]) {
            if (--remaining[next] == 0)
                ready.insert(next);
        }
    }
    if (c.topologicalOrder.size() < c.nodeIds.size()) {
        QStringList cyclic;
        for (const QString &id : std::as_const(c.nodeIds)) {
            if (!c.topologicalOrder.contains(id))
                cyclic << id;
        }
        cyclic.sort();
        c.issues.append(issue(QStringLiteral("cycle_detected"),
                              QStringLiteral("the graph has a cycle through: ")
                                  + cyclic.join(QStringLiteral(", ")),
                              {{QStringLiteral("node_ids"), QJsonArray::fromStringList(cyclic)}}));
    }
    // Bindings: the named node must exist, not be the consumer, and reach it by edges.
    const auto reaches = [&out](const QString &from, const QString &to) {
        QSet<QString> seen{from};
        QStringList stack{from};
        while (!stack.isEmpty()) {
            const QString id = stack.takeLast();
            for (const QString &next : out[id]) {
                if (next == to)
                    return true;
                if (!seen.contains(next)) {
                    seen.insert(next);
                    stack << next;
                }
            }
        }
        return false;
    };
    for (const AutomationGraphNode &n : g.nodes) {
        for (const QString &ref : boundNodeIds(bindableParts(n))) {
            const QJsonObject where{{QStringLiteral("node_id"), n.nodeId},
                                    {QStringLiteral("binding_node_id"), ref}};
            if (ref == n.nodeId)
                c.issues.append(issue(QStringLiteral("binding_self_reference"),
                                      QStringLiteral("node %1 binds its own output").arg(n.nodeId),
                                      where));
            else if (!ids.contains(ref))
                c.issues.append(issue(
                    QStringLiteral("binding_node_missing"),
                    QStringLiteral("node %1 binds unknown node %2").arg(n.nodeId, ref), where));
            else if (!reaches(ref, n.nodeId))
                c.issues.append(issue(
                    QStringLiteral("binding_dependency_missing"),
                    QStringLiteral("node %1 binds node %2 but no edge path leads from %2 to %1")
                        .arg(n.nodeId, ref),
                    where));
        }
    }
    return c;
}

QStringList boundNodeIds(const QJsonValue &value)
{
    QStringList ids;
    collectBindings(value, &ids);
    return ids;
}

QJsonValue valueAt(const QJsonValue &value, const QString &path)
{
    if (path.isEmpty())
        return value;
    QJsonValue cur = value;
    for (const QString &part : path.split(QLatin1Char('.'))) {
        if (cur.isObject()) {
            const QJsonObject o = cur.toObject();
            if (!o.contains(part))
                return QJsonValue(QJsonValue::Undefined);
            cur = o.value(part);
        } else if (cur.isArray()) {
            bool ok = false;
            const int i = part.toInt(&ok);
            const QJsonArray a = cur.toArray();
            if (!ok || i < 0 || i >= a.size())
                return QJsonValue(QJsonValue::Undefined);
            cur = a.at(i);
        } else {
            return QJsonValue(QJsonValue::Undefined);
        }
    }
    return cur;
}

QJsonValue bind(const QJsonValue &value, const QJsonObject &params,
                const QHash<QString, QJsonObject> &outputs)
{
    if (value.isString()) {
        const QString s = value.toString();
        QString id, path;
        if (splitNodeBinding(s, &id, &path)) {
            const QJsonValue v = valueAt(outputs.value(id), path);
            return v.isUndefined() ? QJsonValue() : v;
        }
        if (s.startsWith(kParamsPrefix) || s == QLatin1String("$params")) {
            const QJsonValue v = valueAt(params, s.mid(qMin(s.size(), kParamsPrefix.size())));
            return v.isUndefined() ? QJsonValue() : v;
        }
        return value;
    }
    if (value.isArray()) {
        QJsonArray a;
        for (const QJsonValue &e : value.toArray())
            a.append(bind(e, params, outputs));
        return a;
    }
    if (value.isObject()) {
        QJsonObject o = value.toObject();
        for (auto it = o.begin(); it != o.end(); ++it)
            it.value() = bind(it.value(), params, outputs);
        return o;
    }
    return value;
}

} // namespace AutomationGraphs
} // namespace MemoryGraph
