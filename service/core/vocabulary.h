#pragma once

#include <QStringList>

namespace MemoryGraph::Vocabulary {

inline const QStringList &nodeTypes()
{
    static const QStringList v{QStringLiteral("event"),     QStringLiteral("entity"),
                               QStringLiteral("topic"),     QStringLiteral("concept"),
                               QStringLiteral("rule"),      QStringLiteral("evidence"),
                               QStringLiteral("procedure"), QStringLiteral("self_model")};
    return v;
}

inline const QStringList &edgeTypes()
{
    static const QStringList v{QStringLiteral("part_of"), QStringLiteral("related_to"),
                               QStringLiteral("derived_from")};
    return v;
}

/// Ordered from lowest rank (spec §3.1).
inline const QStringList &tiers()
{
    static const QStringList v{QStringLiteral("archive"), QStringLiteral("cold"),
                               QStringLiteral("warm"), QStringLiteral("hot")};
    return v;
}

inline const QStringList &lanes()
{
    static const QStringList v{QStringLiteral("private"), QStringLiteral("shared")};
    return v;
}

/// Feedback outcomes (spec §4.6, §4.9).
inline const QStringList &outcomes()
{
    static const QStringList v{QStringLiteral("positive"), QStringLiteral("negative"),
                               QStringLiteral("neutral")};
    return v;
}

/// Rule states (reference §2.6), lower case as stored. Only shadow and active are evaluated.
inline const QStringList &ruleStates()
{
    static const QStringList v{QStringLiteral("draft"), QStringLiteral("shadow"),
                               QStringLiteral("active"), QStringLiteral("disabled")};
    return v;
}

/// The states rules/evaluate, tools/select and context/assemble load.
inline const QStringList &evaluatedRuleStates()
{
    static const QStringList v{QStringLiteral("shadow"), QStringLiteral("active")};
    return v;
}

constexpr int kEmbeddingDimension = 1536;
constexpr int kMaxNodesPerWrite = 1000;
constexpr int kMaxEdgesPerWrite = 2000;

} // namespace MemoryGraph::Vocabulary
