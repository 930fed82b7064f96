#include "service/http/routes.h"
#include "service/memoryservice.h"

#include <type_traits>

namespace MemoryGraph::Routes {

namespace {

/// Parse, call the facade, answer its body: the same steps for every playbook route
/// (reference §7.4). The engine shapes the bodies: a playbook version is its slots.
template<typename Request, typename Call>
RouteHandler playbookRoute(MemoryService *service, Call call)
{
    return [service, call](const HttpCall &http) -> Result<HttpReply> {
        auto request = [&] {
            if constexpr (
                std::is_same_v<
                    Request,
                    PlaybookGetRequest> || std::is_same_v<Request, PlaybookCandidateRequest>)
                return Request::fromJson(http.json);
            else
                return Request::fromJson(http.json, service->config().maxTextLength);
        }();
        if (!request)
            return request.error();
        auto outcome = (service->*call)(request.value(), http.meta);
        if (!outcome)
            return outcome.error();
        return HttpReply{200, outcome.value().body, {}};
    };
}

} // namespace

RouteHandler playbookCompile(MemoryService *service)
{
    return playbookRoute<PlaybookCompileRequest>(service, &MemoryService::playbookCompile);
}

RouteHandler playbookGet(MemoryService *service)
{
    return playbookRoute<PlaybookGetRequest>(service, &MemoryService::playbookGet);
}

RouteHandler playbookCandidate(MemoryService *service)
{
    return playbookRoute<PlaybookCandidateRequest>(service, &MemoryService::playbookCandidate);
}

RouteHandler playbookPromote(MemoryService *service)
{
    return playbookRoute<PlaybookPromoteRequest>(service, &MemoryService::playbookPromote);
}

RouteHandler playbookRepair(MemoryService *service)
{
    return playbookRoute<PlaybookRepairRequest>(service, &MemoryService::playbookRepair);
}

RouteHandler playbookReview(MemoryService *service)
{
    return playbookRoute<PlaybookReviewRequest>(service, &MemoryService::playbookReview);
}

RouteHandler playbookRun(MemoryService *service)
{
    return playbookRoute<PlaybookRunRequest>(service, &MemoryService::playbookRun);
}

RouteHandler playbookDispatch(MemoryService *service)
{
    return playbookRoute<PlaybookDispatchRequest>(service, &MemoryService::playbookDispatch);
}

} // namespace MemoryGraph::Routes
