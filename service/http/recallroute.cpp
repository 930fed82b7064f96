#include "service/http/dto.h"
#include "service/http/routes.h"
#include "service/memoryservice.h"

namespace MemoryGraph::Routes {

// spec §4.3 and §4.4
RouteHandler recall(MemoryService *service, bool textQuery)
{
    return [service, textQuery](const HttpCall &call) -> Result<HttpReply> {
        auto request = RecallRequest::fromJson(call.json, textQuery,
                                               service->config().maxTextLength, &call.vectors);
        if (!request)
            return request.error();
        auto outcome = textQuery ? service->recallText(request.value(), call.meta)
                                 : service->recall(request.value(), call.meta);
        if (!outcome)
            return outcome.error();
        // spec §4.0 lists request_id in the body of recall_text only.
        return HttpReply{200,
                         Dto::recall(outcome.value(), request.value(),
                                     textQuery ? call.meta.requestId : QString()),
                         {}};
    };
}

} // namespace MemoryGraph::Routes
