#include "service/api/resolverequest.h"

#include "service/api/requestfields.h"
#include "service/core/jsonreader.h"

namespace MemoryGraph {

Result<ResolveRequest> ResolveRequest::fromJson(const QJsonObject &body)
{
    ResolveRequest q;
    JsonReader r(body);
    r.string("tenant_id", &q.tenantId, 64);
    r.string("scope", &q.scope, 256);
    r.requiredString("uri", &q.uri, 2048);
    r.string("consumer_agent_id", &q.consumerAgentId, 256);
    r.string("consumer_team_id", &q.consumerTeamId, 256);
    readFlag(r, "include_slots", &q.includeSlots);
    readFlag(r, "include_meta", &q.includeMeta);
    if (!r.ok())
        return r.error();
    return q;
}

} // namespace MemoryGraph
