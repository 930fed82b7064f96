#pragma once

#include "service/replay/replayengine.h"

#include <QJsonObject>

namespace MemoryGraph::Dto {

// Whitelisted bodies for the replay routes (spec §4.12; reference §7.1, §7.2).
QJsonObject replayRunStart(const ReplayWriteOutcome &outcome);
QJsonObject replayStepBefore(const ReplayWriteOutcome &outcome);
QJsonObject replayStepAfter(const ReplayWriteOutcome &outcome);
QJsonObject replayRunEnd(const ReplayWriteOutcome &outcome);
QJsonObject replayRunGet(const ReplayRunView &view, const QString &requestId);

} // namespace MemoryGraph::Dto
