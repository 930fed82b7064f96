#pragma once

// The result of recomputing a scope's commit hash chain.

#include <QJsonObject>
#include <QString>

#include <optional>

namespace MemoryGraph {

/// Where a scope's commit chain first stops matching what CommitLog::append would have built.
struct ChainBreak
{
    qint64 sequence = 0;
    QString commitId;
    QString
        reason; ///< parent_mismatch | diff_mismatch | hash_mismatch | sequence_gap | id_mismatch
    QString expected;
    QString found;
};

struct ChainReport
{
    QString tenantId;
    QString scope;
    bool ok = true;
    qint64 commitsChecked = 0; ///< rows examined, the breaking one included
    std::optional<ChainBreak> firstBreak;

    /// {ok, commits_checked, first_break: {sequence, commit_id, reason, expected, found} | null}
    QJsonObject toJson() const;
};

} // namespace MemoryGraph
