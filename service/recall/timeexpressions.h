#pragma once

#include <QDateTime>
#include <QString>

#include <optional>

/// The period a question names ("on 3 March 2025", "in February 2025", "2024-11-05", "in
/// 2024"), so recall can prefer memories whose occurred_at falls in it. English month names;
/// the narrowest period written wins.
namespace MemoryGraph::TimeExpressions {

struct Period
{
    QDateTime from;  ///< inclusive, UTC
    QDateTime until; ///< exclusive, UTC
};

std::optional<Period> periodIn(const QString &text);

} // namespace MemoryGraph::TimeExpressions
