#include "service/http/authenticator.h"
#include "service/http/dto.h"
#include "service/http/routes.h"
#include "service/memoryservice.h"

namespace MemoryGraph::Routes {

RouteHandler health(MemoryService *service, const Authenticator &authenticator)
{
    const bool authOff = authenticator.mode() == AuthMode::Off;
    return [service, authOff](const HttpCall &call) -> Result<HttpReply> {
        // Counts describe every tenant, so only an open local service or an admin sees them.
        const bool counts = authOff || call.meta.adminAuthorized;
        return HttpReply{200, Dto::health(service->health(), counts), {}};
    };
}

} // namespace MemoryGraph::Routes
