#pragma once

#include "service/access/callscope.h"
#include "service/storage/commitlog.h"

namespace MemoryGraph {

/// Where an audited state change starts: the call's scope, the digest of its input and its actor.
struct CommitContext
{
    CallScope scope;
    QString inputSha256;
    CommitActor actor;
};

/// Resolves the call scope, then the input digest (errors in that order), and the commit actor.
/// Request names tenantId, scope, actor, inputText and inputSha256.
template<typename Request>
Result<CommitContext> beginCommit(const Request &req, const RequestMeta &meta,
                                  const ServiceConfig &config)
{
    auto cs = resolveCallScope(req.tenantId, req.scope, meta, config);
    if (!cs)
        return cs.error();
    auto inputSha = CommitLog::inputDigest(req.inputText, req.inputSha256);
    if (!inputSha)
        return inputSha.error();
    return CommitContext{cs.value(), inputSha.value(), commitActor(req.actor, meta, config)};
}

} // namespace MemoryGraph
