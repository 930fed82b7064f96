#pragma once

#include "service/http/httpcall.h"

namespace MemoryGraph {

class Authenticator;
class MemoryService;

/// One factory per route: each turns an HttpCall into a reply through the service facade.
namespace Routes {

RouteHandler health(MemoryService *service, const Authenticator &authenticator);
RouteHandler write(MemoryService *service);
/// textQuery: /recall_text (query_text) instead of /recall (query_embedding).
RouteHandler recall(MemoryService *service, bool textQuery);
RouteHandler rulesEvaluate(MemoryService *service);
RouteHandler ruleState(MemoryService *service);
RouteHandler toolsSelect(MemoryService *service);
RouteHandler toolsFeedback(MemoryService *service);
RouteHandler toolsDecision(MemoryService *service);
RouteHandler toolsRun(MemoryService *service);
RouteHandler contextAssemble(MemoryService *service);
RouteHandler resolve(MemoryService *service);
RouteHandler ruleFeedback(MemoryService *service);
RouteHandler replayRunStart(MemoryService *service);
RouteHandler replayStepBefore(MemoryService *service);
RouteHandler replayStepAfter(MemoryService *service);
RouteHandler replayRunEnd(MemoryService *service);
RouteHandler replayRunsGet(MemoryService *service);
RouteHandler archiveRehydrate(MemoryService *service);
RouteHandler nodesActivate(MemoryService *service);
RouteHandler memoryForget(MemoryService *service);

} // namespace Routes
} // namespace MemoryGraph
