#include "ui/widgets/graphlayout.h"

#include <algorithm>
#include <cmath>
#include <vector>

namespace MemoryGraph::Ui {

namespace {

constexpr double Pi = 3.14159265358979323846;
constexpr double GoldenAngle = 2.39996322972865332;   // radians
constexpr double Gravity = 0.25;
constexpr int OverlapPasses = 40;

/// xorshift32: tiny, fast and identical on every platform (unlike std distributions).
class Rng
{
public:
    explicit Rng(quint32 seed) : m_state(seed != 0 ? seed : 0x9e3779b9u) {}
    quint32 next()
    {
        m_state ^= m_state << 13;
        m_state ^= m_state >> 17;
        m_state ^= m_state << 5;
        return m_state;
    }
    /// Uniform in [0, 1).
    double unit() { return double(next() >> 8) * (1.0 / 16777216.0); }

private:
    quint32 m_state;
};

quint32 fnv1a(const QString &text)
{
    quint32 hash = 2166136261u;
    for (const QChar c : text) {
        hash ^= c.unicode();
        hash *= 16777619u;
    }
    return hash;
}

} // namespace

QVector<QPointF> computeForceLayout(const GraphLayoutInput &input)
{
    const int n = int(input.ids.size());
    if (n == 0)
        return {};
    const double k = input.idealLength > 1.0 ? input.idealLength : 110.0;

    const auto count = size_t(n);
    std::vector<double> x(count, 0.0);
    std::vector<double> y(count, 0.0);
    std::vector<bool> known(count, false);

    const bool hasAnchor = !input.anchorId.isEmpty() && input.initial.contains(input.anchorId);
    const QPointF anchor = hasAnchor ? input.initial.value(input.anchorId) : QPointF();
    int fresh = 0;
    for (int i = 0; i < n; ++i) {
        const QString &id = input.ids.at(i);
        const auto it = input.initial.constFind(id);
        if (it != input.initial.constEnd()) {
            x[size_t(i)] = it->x();
            y[size_t(i)] = it->y();
            known[size_t(i)] = true;
            continue;
        }
        // Seeded per node id, so a node's start point does not depend on who else is present.
        Rng rng(input.seed ^ fnv1a(id));
        if (hasAnchor) {
            const double angle = 2.0 * Pi * rng.unit();
            const double distance = k * (0.45 + 0.55 * rng.unit());
            x[size_t(i)] = anchor.x() + distance * std::cos(angle);
            y[size_t(i)] = anchor.y() + distance * std::sin(angle);
        } else {
            // A sunflower spiral in input order: the caller lists centres first, so they start in
            // the middle and their neighbours around them.
            const double radius = k * 0.6 * std::sqrt(fresh + 0.5);
            const double angle = fresh * GoldenAngle + 0.3 * (rng.unit() - 0.5);
            x[size_t(i)] = radius * std::cos(angle);
            y[size_t(i)] = radius * std::sin(angle);
        }
        ++fresh;
    }
    if (n == 1)
        return {QPointF(hasAnchor || known[0] ? x[0] : 0.0, hasAnchor || known[0] ? y[0] : 0.0)};

    QVector<GraphLayoutInput::Link> links;
    links.reserve(input.links.size());
    for (const GraphLayoutInput::Link &link : input.links) {
        if (link.from >= 0 && link.from < n && link.to >= 0 && link.to < n && link.from != link.to)
            links.append(link);
    }

    const int iterations = std::max(1, input.iterations);
    const double startTemperature = input.startTemperature >= 0.0
                                        ? input.startTemperature
                                        : k * std::max(1.0, std::sqrt(double(n))) * 0.4;
    const double k2 = k * k;
    std::vector<double> dx(count, 0.0);
    std::vector<double> dy(count, 0.0);

    for (int iter = 0; iter < iterations; ++iter) {
        std::fill(dx.begin(), dx.end(), 0.0);
        std::fill(dy.begin(), dy.end(), 0.0);

        // Repulsion between every pair: k^2 / d along the line between them. Raw pointers keep
        // this inner loop fast in unoptimised (debug) builds too.
        const double *px = x.data();
        const double *py = y.data();
        double *fx = dx.data();
        double *fy = dy.data();
        for (int i = 0; i < n; ++i) {
            const double xi = px[i];
            const double yi = py[i];
            double fxi = 0.0;
            double fyi = 0.0;
            for (int j = i + 1; j < n; ++j) {
                double ddx = xi - px[j];
                double ddy = yi - py[j];
                double d2 = ddx * ddx + ddy * ddy;
                if (d2 < 1e-6) {
                    // Coincident nodes: separate them along a deterministic direction.
                    ddx = 0.01 * double((i * 7 + j * 13) % 11 - 5);
                    ddy = 0.01 * double((i * 11 + j * 7) % 13 - 6);
                    d2 = ddx * ddx + ddy * ddy + 1e-9;
                }
                const double f = k2 / d2;
                fxi += ddx * f;
                fyi += ddy * f;
                fx[j] -= ddx * f;
                fy[j] -= ddy * f;
            }
            fx[i] += fxi;
            fy[i] += fyi;
        }

        // Attraction along edges: d^2 / k, a little stronger for heavier edges.
        for (const GraphLayoutInput::Link &link : links) {
            const size_t a = size_t(link.from);
            const size_t b = size_t(link.to);
            const double ddx = x[a] - x[b];
            const double ddy = y[a] - y[b];
            const double d = std::sqrt(ddx * ddx + ddy * ddy);
            const double f = d / k * (0.6 + 0.8 * std::clamp(link.weight, 0.0, 1.0));
            dx[a] -= ddx * f;
            dy[a] -= ddy * f;
            dx[b] += ddx * f;
            dy[b] += ddy * f;
        }

        // Gravity towards the centroid keeps separate components from drifting apart.
        double cx = 0.0;
        double cy = 0.0;
        for (int i = 0; i < n; ++i) {
            cx += x[size_t(i)];
            cy += y[size_t(i)];
        }
        cx /= n;
        cy /= n;

        const double progress = double(iter) / double(iterations);
        const double temperature = startTemperature * std::pow(1.0 - progress, 1.5) + k * 0.01;
        for (int i = 0; i < n; ++i) {
            const size_t s = size_t(i);
            const double gx = x[s] - cx;
            const double gy = y[s] - cy;
            const double gd = std::sqrt(gx * gx + gy * gy);
            dx[s] -= gx * Gravity * gd / k;
            dy[s] -= gy * Gravity * gd / k;
            const double length = std::sqrt(dx[s] * dx[s] + dy[s] * dy[s]);
            if (length < 1e-9)
                continue;
            const double step = std::min(length, temperature);
            x[s] += dx[s] / length * step;
            y[s] += dy[s] / length * step;
        }
    }

    // Overlap pass: push apart pairs closer than a minimum distance so circles never touch.
    const double minDistance = k * 0.42;
    const double min2 = minDistance * minDistance;
    for (int pass = 0; pass < OverlapPasses; ++pass) {
        bool moved = false;
        for (int i = 0; i < n; ++i) {
            for (int j = i + 1; j < n; ++j) {
                const double ddx = x[size_t(j)] - x[size_t(i)];
                const double ddy = y[size_t(j)] - y[size_t(i)];
                const double d2 = ddx * ddx + ddy * ddy;
                if (d2 >= min2)
                    continue;
                const double d = std::sqrt(d2);
                const double push = (minDistance - d) / 2.0;
                const double ux = d > 1e-9 ? ddx / d : 1.0;
                const double uy = d > 1e-9 ? ddy / d : 0.0;
                x[size_t(i)] -= ux * push;
                y[size_t(i)] -= uy * push;
                x[size_t(j)] += ux * push;
                y[size_t(j)] += uy * push;
                moved = true;
            }
        }
        if (!moved)
            break;
    }

    // Keep the picture where it was: known nodes move as little as possible on average; a fresh
    // layout is centred on the origin.
    double shiftX = 0.0;
    double shiftY = 0.0;
    int knownCount = 0;
    for (int i = 0; i < n; ++i) {
        if (!known[size_t(i)])
            continue;
        const QPointF start = input.initial.value(input.ids.at(i));
        shiftX += start.x() - x[size_t(i)];
        shiftY += start.y() - y[size_t(i)];
        ++knownCount;
    }
    if (knownCount > 0) {
        shiftX /= knownCount;
        shiftY /= knownCount;
    } else {
        for (int i = 0; i < n; ++i) {
            shiftX -= x[size_t(i)];
            shiftY -= y[size_t(i)];
        }
        shiftX /= n;
        shiftY /= n;
    }

    QVector<QPointF> positions;
    positions.reserve(n);
    for (int i = 0; i < n; ++i)
        positions.append(QPointF(x[size_t(i)] + shiftX, y[size_t(i)] + shiftY));
    return positions;
}

} // namespace MemoryGraph::Ui
