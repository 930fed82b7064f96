#include "service/http/replaydto.h"
#include "service/http/routes.h"
#include "service/memoryservice.h"

namespace MemoryGraph::Routes {

namespace {

/// Parse, call the facade, shape the body: the same three steps for every replay write.
template<typename Request, typename Call, typename Shape>
RouteHandler replayWrite(MemoryService *service, Call call, Shape shape)
{
    return [service, call, shape](const HttpCall &http) -> Result<HttpReply> {
        auto request = Request::fromJson(http.json, service->config().maxTextLength);
        if (!request)
            return request.error();
        auto outcome = (service->*call)(request.value(), http.meta);
        if (!outcome)
            return outcome.error();
        return HttpReply{200, shape(outcome.value()), {}};
    };
}

} // namespace

// reference §7.1
RouteHandler replayRunStart(MemoryService *service)
{
    return replayWrite<ReplayRunStartRequest>(service, &MemoryService::replayRunStart,
                                              &Dto::replayRunStart);
}

RouteHandler replayStepBefore(MemoryService *service)
{
    return replayWrite<ReplayStepBeforeRequest>(service, &MemoryService::replayStepBefore,
                                                &Dto::replayStepBefore);
}

RouteHandler replayStepAfter(MemoryService *service)
{
    return replayWrite<ReplayStepAfterRequest>(service, &MemoryService::replayStepAfter,
                                               &Dto::replayStepAfter);
}

RouteHandler replayRunEnd(MemoryService *service)
{
    return replayWrite<ReplayRunEndRequest>(service, &MemoryService::replayRunEnd,
                                            &Dto::replayRunEnd);
}

// spec §4.12
RouteHandler replayRunsGet(MemoryService *service)
{
    return [service](const HttpCall &call) -> Result<HttpReply> {
        auto request = ReplayRunGetRequest::fromJson(call.json);
        if (!request)
            return request.error();
        auto view = service->replayRunGet(request.value(), call.meta);
        if (!view)
            return view.error();
        return HttpReply{200, Dto::replayRunGet(view.value(), call.meta.requestId), {}};
    };
}

} // namespace MemoryGraph::Routes
