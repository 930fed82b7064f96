#pragma once

// The context text of a recall with the nodes it cites.

#include "service/core/records.h"

#include <QJsonArray>
#include <QJsonObject>
#include <QString>
#include <QVector>

namespace MemoryGraph {

struct ContextResult
{
    QString text;
    QJsonArray items;
    QJsonArray citations;
    QJsonObject compaction; ///< debug.context_compaction; empty when no node was selected
};

/// Conservative token estimate: ceil(chars / 4).
int estimateTokens(const QString &text);

} // namespace MemoryGraph
