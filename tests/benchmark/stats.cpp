#include "tests/benchmark/stats.h"

#include <algorithm>
#include <cmath>

namespace MemoryGraph::Bench {

double percentileSorted(const std::vector<double> &sorted, double q)
{
    if (sorted.empty())
        return 0.0;
    const double rank = std::ceil(std::clamp(q, 0.0, 1.0) * double(sorted.size()));
    const size_t index = size_t(std::max(1.0, rank)) - 1;
    return sorted[std::min(index, sorted.size() - 1)];
}

Summary Summary::of(std::vector<double> samples)
{
    Summary s;
    if (samples.empty())
        return s;
    std::sort(samples.begin(), samples.end());
    s.count = int(samples.size());
    s.min = samples.front();
    s.max = samples.back();
    s.p50 = percentileSorted(samples, 0.50);
    s.p95 = percentileSorted(samples, 0.95);
    s.p99 = percentileSorted(samples, 0.99);
    return s;
}

QJsonObject Summary::toJson() const
{
    return QJsonObject{{QStringLiteral("count"), count}, {QStringLiteral("min_ms"), min},
                       {QStringLiteral("p50_ms"), p50},  {QStringLiteral("p95_ms"), p95},
                       {QStringLiteral("p99_ms"), p99},  {QStringLiteral("p100_ms"), max},
                       {QStringLiteral("max_ms"), max}};
}

QString Summary::toText() const
{
    if (count == 0)
        return QStringLiteral("no samples");
    return QStringLiteral("p50 %1  p95 %2  p99 %3  p100 %4 ms (n=%5)")
        .arg(formatNumber(p50), formatNumber(p95), formatNumber(p99), formatNumber(max))
        .arg(count);
}

QString formatNumber(double value)
{
    const double magnitude = std::fabs(value);
    if (magnitude >= 100.0)
        return QString::number(value, 'f', 0);
    if (magnitude >= 10.0)
        return QString::number(value, 'f', 1);
    if (magnitude >= 1.0)
        return QString::number(value, 'f', 2);
    return QString::number(value, 'f', 3);
}

} // namespace MemoryGraph::Bench
