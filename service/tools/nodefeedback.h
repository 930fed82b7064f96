#pragma once

#include <QJsonValue>
#include <QString>

namespace MemoryGraph::NodeFeedback {

/// A stored feedback counter as a non-negative integer; anything else (garbage) counts as 0.
qint64 counter(const QJsonValue &stored);

/// A stored feedback_quality clamped to [-1, 1]; anything non-numeric counts as 0.
double priorQuality(const QJsonValue &stored);

/// Reference §6.2: neutral keeps the prior, otherwise clamp(0.8 * prior + 0.2 * s, -1, 1)
/// with s = +1 (positive) or -1 (negative); rounded to 4 decimals for storage.
double nextQuality(double prior, const QString &outcome);

} // namespace MemoryGraph::NodeFeedback
