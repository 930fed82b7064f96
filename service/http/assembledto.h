#pragma once

#include "service/memoryservice.h"

#include <QJsonObject>

namespace MemoryGraph::Dto {

// Whitelisted bodies for context/assemble (spec §4.13), resolve and single-rule feedback (§4.15).

QJsonObject assemble(const AssembleOutcome &outcome, const QString &requestId);
QJsonObject resolve(const ResolveOutcome &outcome);
QJsonObject ruleFeedback(const RuleFeedbackOutcome &outcome);

} // namespace MemoryGraph::Dto
