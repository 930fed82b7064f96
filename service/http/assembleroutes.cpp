#include "service/http/assembledto.h"
#include "service/http/routes.h"
#include "service/memoryservice.h"

namespace MemoryGraph::Routes {

// spec §4.13; request_id in the body per §4.0.
RouteHandler contextAssemble(MemoryService *service)
{
    return [service](const HttpCall &call) -> Result<HttpReply> {
        auto request = AssembleRequest::fromJson(call.json, service->config().maxTextLength);
        if (!request)
            return request.error();
        auto outcome = service->assembleContext(request.value(), call.meta);
        if (!outcome)
            return outcome.error();
        return HttpReply{200, Dto::assemble(outcome.value(), call.meta.requestId), {}};
    };
}

// spec §4.15 (named route); DESIGN decision 5 URIs.
RouteHandler resolve(MemoryService *service)
{
    return [service](const HttpCall &call) -> Result<HttpReply> {
        auto request = ResolveRequest::fromJson(call.json);
        if (!request)
            return request.error();
        auto outcome = service->resolveUri(request.value(), call.meta);
        if (!outcome)
            return outcome.error();
        return HttpReply{200, Dto::resolve(outcome.value()), {}};
    };
}

// spec §4.15, reference §2.6: single-rule feedback.
RouteHandler ruleFeedback(MemoryService *service)
{
    return [service](const HttpCall &call) -> Result<HttpReply> {
        auto request = RuleFeedbackRequest::fromJson(call.json, service->config().maxTextLength);
        if (!request)
            return request.error();
        auto outcome = service->ruleFeedback(request.value(), call.meta);
        if (!outcome)
            return outcome.error();
        return HttpReply{200, Dto::ruleFeedback(outcome.value()), {}};
    };
}

} // namespace MemoryGraph::Routes
