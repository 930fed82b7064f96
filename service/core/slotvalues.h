#pragma once

#include <QJsonValue>

#include <optional>

namespace MemoryGraph {

/// A stored slot value read as a finite number: a JSON number or a numeric string; anything
/// else (missing, garbage) is no number.
std::optional<double> slotNumber(const QJsonValue &v);

} // namespace MemoryGraph
