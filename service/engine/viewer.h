#pragma once

#include "service/core/config.h"
#include "service/core/identity.h"
#include "service/core/records.h"
#include "service/core/result.h"

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
/// identity_mismatch naming the field, spec §5.1.4-5); with auth off and no credential the
/// agent defaults to the local agent (DESIGN decision 3).
Result<Viewer> resolveViewer(const QString &consumerAgentId, const QString &consumerTeamId,
                             const RequestMeta &meta, const ServiceConfig &config);

} // namespace MemoryGraph
