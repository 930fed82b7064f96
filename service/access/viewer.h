#pragma once

#include "service/core/config.h"
#include "service/core/identity.h"
#include "service/core/records.h"
#include "service/core/result.h"

#include <optional>

namespace MemoryGraph {

/// The consumer a read is made for: who private-lane nodes are checked against.
struct Viewer
{
    QString agentId;
    QString teamId;

    /// spec §4.3.2.3: shared, or private and owned by the viewer or the viewer's team.
    bool sees(const NodeRecord &n) const;
};

/// The consumer ids of a read, checked against and defaulted from the credential (403
/// identity_mismatch naming the field, spec §5.1.4-5; see checkClaim); with auth off and no
/// credential the agent defaults to the local agent (DESIGN decision 3).
Result<Viewer> resolveViewer(const QString &consumerAgentId, const QString &consumerTeamId,
                             const RequestMeta &meta, const ServiceConfig &config);

/// Which existing nodes a state change may touch (DESIGN trust model: lanes and owners guard
/// writes as well as reads). A credential carrying an agent or a team acts only on the nodes its
/// identity sees; a service account (tenant-only credential) and a caller without credential
/// (auth off: the local operator) act on every node of the call's scope.
struct NodeAccess
{
    std::optional<Viewer> restrictedTo; ///< none: every node

    static NodeAccess of(const RequestMeta &meta);
    bool allows(const NodeRecord &n) const { return !restrictedTo || restrictedTo->sees(n); }
    bool restricted() const { return restrictedTo.has_value(); }
};

} // namespace MemoryGraph
