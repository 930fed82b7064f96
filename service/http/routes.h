#pragma once

#include "service/http/httpcall.h"

namespace MemoryGraph {

class Authenticator;
class MemoryService;

/// One factory per route: each turns an HttpCall into a reply through the service facade.
namespace Routes {

inline constexpr char kAdminExportPath[] = "/v1/admin/export";
/// Its body is an export file: the one route with a larger body cap
/// (MEMORY_MAX_IMPORT_BODY_BYTES) and an application/x-ndjson body.
inline constexpr char kAdminImportPath[] = "/v1/admin/import";

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
RouteHandler toolsRunsList(MemoryService *service);
RouteHandler contextAssemble(MemoryService *service);
RouteHandler resolve(MemoryService *service);
RouteHandler ruleFeedback(MemoryService *service);
RouteHandler replayRunStart(MemoryService *service);
RouteHandler replayStepBefore(MemoryService *service);
RouteHandler replayStepAfter(MemoryService *service);
RouteHandler replayRunEnd(MemoryService *service);
RouteHandler replayRunsGet(MemoryService *service);
// Replay playbooks (reference §7.4), POST /v1/memory/replay/playbooks/...
RouteHandler playbookCompile(MemoryService *service);
RouteHandler playbookGet(MemoryService *service);
RouteHandler playbookCandidate(MemoryService *service);
RouteHandler playbookPromote(MemoryService *service);
RouteHandler playbookRepair(MemoryService *service);
RouteHandler playbookReview(MemoryService *service);
RouteHandler playbookRun(MemoryService *service);
RouteHandler playbookDispatch(MemoryService *service);
RouteHandler archiveRehydrate(MemoryService *service);
RouteHandler nodesActivate(MemoryService *service);
/// One of the /v1/automations/ routes, by its path below that prefix.
RouteHandler automation(MemoryService *service, const QString &path);
RouteHandler memoryForget(MemoryService *service);
/// POST /v1/admin/export and /v1/admin/import (X-Admin-Token; see adminroutes.cpp).
RouteHandler adminExport(MemoryService *service);
RouteHandler adminImport(MemoryService *service);

} // namespace Routes
} // namespace MemoryGraph
