#include "service/http/automationdto.h"
#include "service/http/routes.h"
#include "service/memoryservice.h"

namespace MemoryGraph::Routes {

// spec §4.14, reference §8
RouteHandler automation(MemoryService *service, const QString &path)
{
    return [service, path](const HttpCall &call) -> Result<HttpReply> {
        auto outcome = service->automation(path, call.json, call.meta);
        if (!outcome)
            return outcome.error();
        return HttpReply{200, Dto::automation(path, outcome.value()), {}};
    };
}

} // namespace MemoryGraph::Routes
