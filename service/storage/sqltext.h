#pragma once

#include <QString>
#include <QStringList>
#include <QVariantList>

/// Pieces of SQL text that several stores build the same way.
namespace MemoryGraph::SqlText {

/// "?,?,?": n parameters, for an IN list.
QString placeholders(qsizetype n);

/// The rules every seed channel applies to a nodes row, in one place so the channels cannot
/// drift apart: a ready vector, a hot or warm tier, one of typeCount seed types, and a lane the
/// viewer may read (shared, or private and owned by the viewer's agent or team). alias prefixes
/// the columns ("n."). Its parameters, in order, are appended by appendSeedRuleArgs().
QString seedRules(qsizetype typeCount, const QString &alias = QString());

void appendSeedRuleArgs(QVariantList &args, const QStringList &types, const QString &viewerAgent,
                        const QString &viewerTeam);

} // namespace MemoryGraph::SqlText
