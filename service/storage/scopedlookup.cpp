#include "service/storage/scopedlookup.h"

#include "service/storage/graphstore.h"

namespace MemoryGraph {

bool inCallScope(const NodeRecord &n, const CallScope &cs)
{
    return n.tenantId == cs.tenantId && n.scope == cs.scope;
}

Result<NodeRecord> findNodeInScope(QSqlDatabase &db, const CallScope &cs, const QString &nodeId,
                                   const NodeAccess &access)
{
    auto node = GraphStore::findNode(db, nodeId.toLower());
    if (!node)
        return node.error();
    if (!node.value() || !inCallScope(*node.value(), cs) || !access.allows(*node.value()))
        return Error::notFound(
            QStringLiteral("no such node in this scope"),
            {{QStringLiteral("reason"), QStringLiteral("node_not_found_in_scope")}});
    return *node.value();
}

Result<NodeRecord> findRuleInScope(QSqlDatabase &db, const CallScope &cs, const QString &ruleNodeId,
                                   const NodeAccess &access)
{
    auto node = GraphStore::findNode(db, ruleNodeId);
    if (!node)
        return node.error();
    if (!node.value() || !inCallScope(*node.value(), cs)
        || node.value()->type != QLatin1String("rule") || !access.allows(*node.value()))
        return Error::notFound(
            QStringLiteral("no rule with this id in the scope"),
            {{QStringLiteral("reason"), QStringLiteral("rule_not_found_in_scope")}});
    return *node.value();
}

} // namespace MemoryGraph
