#pragma once

#include "service/access/callscope.h"
#include "service/core/records.h"
#include "service/core/result.h"

#include <QJsonObject>
#include <QSqlDatabase>

namespace MemoryGraph::CommitLog {

/// Appends a commit to the scope's hash chain inside the caller's transaction:
/// commit_hash = sha256(stable{parent_hash, input_sha256, diff_sha256, scope, actor, kind, seq}),
/// diff_sha256 = sha256(stable(diff)); the id is derived from the hash.
Result<CommitRecord> append(QSqlDatabase &db, const CallScope &scope, const QString &kind,
                            const QString &actor, const QString &inputSha256,
                            const QJsonObject &diff, const QString &requestKey = QString());

/// As above, attributed to actor.id; a label (a caller-supplied actor that is not the caller's
/// identity) is kept in the diff as "actor_label", covered by the hash chain like the rest.
Result<CommitRecord> append(QSqlDatabase &db, const CallScope &scope, const QString &kind,
                            const CommitActor &actor, const QString &inputSha256,
                            const QJsonObject &diff, const QString &requestKey = QString());

/// input_sha256 from input_sha256 or input_text (spec §4.0); error naming input_text when neither.
Result<QString> inputDigest(const QString &inputText, const QString &inputSha256);

} // namespace MemoryGraph::CommitLog
