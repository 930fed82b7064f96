#include "service/storage/sqltext.h"

namespace MemoryGraph::SqlText {

QString placeholders(qsizetype n)
{
    return n > 0 ? QStringLiteral("?,").repeated(int(n)).chopped(1) : QString();
}

QString seedRules(qsizetype typeCount, const QString &alias)
{
    return QStringLiteral("%1embedding_status = 'ready' AND %1tier IN ('hot', 'warm')"
                          " AND %1type IN (%2) AND (%1memory_lane <> 'private'"
                          " OR (%1owner_agent_id <> '' AND %1owner_agent_id = ?)"
                          " OR (%1owner_team_id <> '' AND %1owner_team_id = ?))")
        .arg(alias, placeholders(typeCount));
}

void appendSeedRuleArgs(QVariantList &args, const QStringList &types, const QString &viewerAgent,
                        const QString &viewerTeam)
{
    for (const QString &t : types)
        args << t;
    args << viewerAgent << viewerTeam;
}

} // namespace MemoryGraph::SqlText
