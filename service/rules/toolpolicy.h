#pragma once

#include "service/core/result.h"

#include <QJsonArray>
#include <QJsonObject>
#include <QString>
#include <QStringList>

/// Deterministic tool choice from a merged policy (spec §4.8, reference §3.1 step 6).
namespace MemoryGraph::Rules {

struct ToolSelection
{
    QStringList candidates; ///< normalised input order
    QStringList allowed;    ///< candidate order
    QStringList preferred;  ///< prefer order, allowed ones only
    QStringList ordered;    ///< preferred, then the remaining allowed in candidate order
    QJsonArray denied;      ///< {name, reason: deny_list | not_in_allow_list}
    QString selected;       ///< empty = null (nothing allowed under strict=false)
    QJsonObject fallback;   ///< {applied, reason, effective_mode}; empty when none applied

    /// {candidates, allowed, denied, preferred, ordered, selected, fallback?}: the wire form of
    /// "selection", fallback only when one was applied.
    QJsonObject toJson() const;
};

/// Trims, drops empty and non-string entries, keeps the first occurrence of duplicates.
QStringList normalizeCandidates(const QJsonArray &candidates);

/// Applies policy.tool to the candidates. deny is a hard denylist. allow is a hard allowlist
/// whenever the key is present, even empty: an empty intersection of rule allowlists admits no
/// candidate (the spec's reading; the reference ignored an empty list). When nothing remains:
/// strict → 400 no_tools_allowed with details {candidates, allow, deny} counts; otherwise the
/// allowlist is dropped (fallback allowlist_filtered_all) and, if deny still removes everything,
/// fallback deny_filtered_all with no selection.
Result<ToolSelection> applyToolPolicy(const QStringList &candidates, const QJsonObject &policy,
                                      bool strict);

} // namespace MemoryGraph::Rules
