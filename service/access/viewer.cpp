#include "service/access/viewer.h"

#include "service/access/callscope.h"

namespace MemoryGraph {

bool Viewer::sees(const NodeRecord &n) const
{
    if (n.memoryLane != QLatin1String("private"))
        return true;
    return (!agentId.isEmpty() && n.ownerAgentId == agentId)
           || (!teamId.isEmpty() && n.ownerTeamId == teamId);
}

Result<Viewer> resolveViewer(const QString &consumerAgentId, const QString &consumerTeamId,
                             const RequestMeta &meta, const ServiceConfig &config)
{
    Viewer v{consumerAgentId, consumerTeamId};
    if (meta.principal) {
        const Principal &p = *meta.principal;
        if (auto refused = checkClaim(p, QStringLiteral("consumer_agent_id"), v.agentId, p.agentId))
            return *refused;
        if (auto refused = checkClaim(p, QStringLiteral("consumer_team_id"), v.teamId, p.teamId))
            return *refused;
        if (v.agentId.isEmpty())
            v.agentId = p.agentId;
        if (v.teamId.isEmpty())
            v.teamId = p.teamId;
    } else if (config.authMode == AuthMode::Off && v.agentId.isEmpty()) {
        v.agentId = config.localAgentId;
    }
    return v;
}

NodeAccess NodeAccess::of(const RequestMeta &meta)
{
    if (!meta.principal || isServiceAccount(*meta.principal))
        return {};
    return {Viewer{meta.principal->agentId, meta.principal->teamId}};
}

} // namespace MemoryGraph
