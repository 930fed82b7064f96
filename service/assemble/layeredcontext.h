#pragma once

#include "service/api/layeredcontexttypes.h"

#include <QHash>
#include <QJsonArray>
#include <QJsonObject>
#include <QString>
#include <QStringList>
#include <QVector>

#include <optional>

namespace MemoryGraph::LayeredContext {

// The layered context of POST /v1/memory/context/assemble (spec §4.13, reference §7.3): recall
// items, rules, static blocks, the tool decision and citations sorted into seven layers, each with
// its own character budget and item cap, under one total budget, and merged into a prompt text.
// Pure: no SQL, no clock, so the same input always gives the same output.

/// Layer names in merge order.
const QStringList &layerNames();

BlockScore scoreBlock(const StaticBlock &block, const Input &input);

Output build(const Input &input);

/// Default char budget and item cap of a layer.
int defaultLayerChars(const QString &layer);
int defaultLayerMaxItems(const QString &layer);

} // namespace MemoryGraph::LayeredContext
