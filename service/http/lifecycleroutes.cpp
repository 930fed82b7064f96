#include "service/http/lifecycledto.h"
#include "service/http/routes.h"
#include "service/memoryservice.h"

namespace MemoryGraph::Routes {

// spec §4.5
RouteHandler archiveRehydrate(MemoryService *service)
{
    return [service](const HttpCall &call) -> Result<HttpReply> {
        auto request = RehydrateRequest::fromJson(call.json, service->config().maxTextLength);
        if (!request)
            return request.error();
        auto outcome = service->rehydrate(request.value(), call.meta);
        if (!outcome)
            return outcome.error();
        return HttpReply{200, Dto::rehydrate(outcome.value()), {}};
    };
}

// spec §4.6
RouteHandler nodesActivate(MemoryService *service)
{
    return [service](const HttpCall &call) -> Result<HttpReply> {
        auto request = NodesActivateRequest::fromJson(call.json, service->config().maxTextLength);
        if (!request)
            return request.error();
        auto outcome = service->activateNodes(request.value(), call.meta);
        if (!outcome)
            return outcome.error();
        return HttpReply{200, Dto::nodesActivate(outcome.value()), {}};
    };
}

// Forget one node: the window's Forget, with lanes and owners as access control; audited.
RouteHandler memoryForget(MemoryService *service)
{
    return [service](const HttpCall &call) -> Result<HttpReply> {
        auto request = NodeForgetRequest::fromJson(call.json, service->config().maxTextLength);
        if (!request)
            return request.error();
        auto outcome = service->forgetNode(request.value(), call.meta);
        if (!outcome)
            return outcome.error();
        return HttpReply{200, Dto::nodeForget(outcome.value()), {}};
    };
}

} // namespace MemoryGraph::Routes
