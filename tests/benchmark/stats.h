#pragma once

#include <QJsonObject>
#include <QString>

#include <vector>

namespace MemoryGraph::Bench {

/// Order statistics of a set of samples (milliseconds). Percentiles use the nearest-rank
/// method on the sorted samples, so every reported value is one that was actually measured.
struct Summary
{
    int count = 0;
    double min = 0.0;
    double p50 = 0.0;
    double p95 = 0.0;
    double p99 = 0.0;
    double max = 0.0; ///< p100: the slowest sample, printed wherever p95 is

    static Summary of(std::vector<double> samples);

    QJsonObject toJson() const;
    /// "p50 1.23  p95 4.56  p99 7.89  p100 9.99 ms (n=500)"
    QString toText() const;
};

/// Nearest-rank percentile (q in [0, 1]) of samples that are already sorted ascending.
double percentileSorted(const std::vector<double> &sorted, double q);

/// "12.3" with a precision that suits the magnitude.
QString formatNumber(double value);

} // namespace MemoryGraph::Bench
