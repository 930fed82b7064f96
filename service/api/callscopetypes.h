#pragma once

// The (tenant, scope) a call is isolated to and the identity its commits are attributed to.

#include <QString>

namespace MemoryGraph {

/// The (tenant, scope) a call is isolated to.
struct CallScope
{
    QString tenantId;
    QString scope;
    QString key; ///< tenant-aware scope key used in hashes and derived ids (spec §5.4)
};

/// Who a commit is attributed to, and the caller-supplied `actor` kept beside it as a label.
struct CommitActor
{
    QString id;    ///< the commit's actor
    QString label; ///< a given `actor` that differs from id; empty = none
};

} // namespace MemoryGraph
