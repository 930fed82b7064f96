#pragma once

#include "service/access/callscope.h"
#include "service/access/viewer.h"
#include "service/core/records.h"
#include "service/core/result.h"

class QSqlDatabase;

namespace MemoryGraph {

/// Whether the node belongs to the call's tenant and scope (spec §5.4).
bool inCallScope(const NodeRecord &n, const CallScope &cs);

/// The node with this id (compared lower-case) in the call's tenant and scope that `access`
/// allows; a node of another tenant or scope, or one hidden by lanes, is reported like a
/// missing one: 404 not_found, reason node_not_found_in_scope.
Result<NodeRecord> findNodeInScope(QSqlDatabase &db, const CallScope &cs, const QString &nodeId,
                                   const NodeAccess &access);

/// The rule node with this id in the call's tenant and scope that `access` allows; anything
/// else is 404 not_found, reason rule_not_found_in_scope.
Result<NodeRecord> findRuleInScope(QSqlDatabase &db, const CallScope &cs, const QString &ruleNodeId,
                                   const NodeAccess &access);

} // namespace MemoryGraph
