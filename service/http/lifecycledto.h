#pragma once

#include "service/lifecycle/lifecycleengine.h"

#include <QJsonObject>

namespace MemoryGraph::Dto {

// Whitelisted bodies for the lifecycle routes, keys as in reference §6.1 and §6.2.
QJsonObject rehydrate(const RehydrateOutcome &outcome);
QJsonObject nodesActivate(const NodesActivateOutcome &outcome);
/// POST /v1/memory/forget: the commit and what was removed (never the text).
QJsonObject nodeForget(const NodeForgetOutcome &outcome);

} // namespace MemoryGraph::Dto
