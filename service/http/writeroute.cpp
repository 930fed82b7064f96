#include "service/http/dto.h"
#include "service/http/routes.h"
#include "service/memoryservice.h"

namespace MemoryGraph::Routes {

// spec §4.2
RouteHandler write(MemoryService *service)
{
    return [service](const HttpCall &call) -> Result<HttpReply> {
        auto request
            = WriteRequest::fromJson(call.json, service->config().maxTextLength, &call.vectors);
        if (!request)
            return request.error();
        auto result = service->write(request.value(), call.meta);
        if (!result)
            return result.error();
        return HttpReply{200, Dto::writeResult(result.value(), call.meta.requestId), {}};
    };
}

} // namespace MemoryGraph::Routes
