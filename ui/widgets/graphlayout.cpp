#include "ui/widgets/graphlayout.h"

#include <algorithm>
#include <cmath>
#include <vector>

namespace MemoryGraph::Ui {

namespace {

constexpr double Pi = 3.14159265358979323846;
constexpr double GoldenAngle = 2.39996322972865332; // radians
constexpr double Gravity = 0.25;
constexpr int OverlapPasses = 40;

/// xorshift32: tiny, fast and identical on every platform (unlike std distributions).
class Rng
{
public:
    explicit Rng(quint32 seed) : m_state(seed != 0 ? seed : 0x9e3779b9u) { }
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

/// Node coordinates while the layout runs; `known` marks nodes that came with a start point.
struct LayoutState
{
    std::vector<double> x;
    std::vector<double> y;
    std::vector<bool> known;
};

/// Start points: known nodes keep theirs, new ones scatter around the anchor or on a spiral.
LayoutState placeStartPoints(const GraphLayoutInput &input, double k, bool hasAnchor)
{
    const int n = int(input.ids.size());
    const auto count = size_t(n);
    LayoutState state{std::vector<double>(count, 0.0), std::vector<double>(count, 0.0),
                      std::vector<bool>(count, false)};
    const QPointF anchor = hasAnchor ? input.initial.value(input.anchorId) : QPointF();
    int fresh = 0;
    for (int i = 0; i < n; ++i) {
        const QString &id = input.ids.at(i);
        const auto it = input.initial.constFind(id);
        if (it != input.initial.constEnd()) {
            state.x[size_t(i)] = it->x();
            state.y[size_t(i)] = it->y();
            state.known[size_t(i)] = true;
            continue;
        }
        // Seeded per node id, so a node's start point does not depend on who else is present.
        Rng rng(input.seed ^ fnv1a(id));
        if (hasAnchor) {
            const double angle = 2.0 * Pi * rng.unit();
            const double distance = k * (0.45 + 0.55 * rng.unit());
            state.x[size_t(i)] = anchor.x() + distance * std::cos(angle);
            state.y[size_t(i)] = anchor.y() + distance * std::sin(angle);
        } else {
            // A sunflower spiral in input order: the caller lists centres first, so they start in
            // the middle and their neighbours around them.
            const double radius = k * 0.6 * std::sqrt(fresh + 0.5);
            const double angle = fresh * GoldenAngle + 0.3 * (rng.unit() - 0.5);
            state.x[size_t(i)] = radius * std::cos(angle);
            state.y[size_t(i)] = radius * std::sin(angle);
        }
        ++fresh;
    }
    return state;
}

/// Links that point at real, distinct nodes; the force loop then needs no bounds checks.
QVector<GraphLayoutInput::Link> usableLinks(const GraphLayoutInput &input, int n)
{
    QVector<GraphLayoutInput::Link> links;
    links.reserve(input.links.size());
    for (const GraphLayoutInput::Link &link : input.links) {
        if (link.from >= 0 && link.from < n && link.to >= 0 && link.to < n && link.from != link.to)
            links.append(link);
    }
    return links;
}

/// Repulsion between every pair: k^2 / d along the line between them.
void addRepulsion(const LayoutState &state, double k2, std::vector<double> &dx,
                  std::vector<double> &dy)
{
    // Raw pointers keep this inner loop fast in unoptimised (debug) builds too.
    const int n = int(state.x.size());
    const double *px = state.x.data();
    const double *py = state.y.data();
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
}

/// Attraction along edges: d^2 / k, a little stronger for heavier edges.
void addAttraction(const LayoutState &state, const QVector<GraphLayoutInput::Link> &links, double k,
                   std::vector<double> &dx, std::vector<double> &dy)
{
    for (const GraphLayoutInput::Link &link : links) {
        const size_t a = size_t(link.from);
        const size_t b = size_t(link.to);
        const double ddx = state.x[a] - state.x[b];
        const double ddy = state.y[a] - state.y[b];
        const double d = std::sqrt(ddx * ddx + ddy * ddy);
        const double f = d / k * (0.6 + 0.8 * std::clamp(link.weight, 0.0, 1.0));
        dx[a] -= ddx * f;
        dy[a] -= ddy * f;
        dx[b] += ddx * f;
        dy[b] += ddy * f;
    }
}

/// Gravity towards the centroid keeps separate components from drifting apart; then every node
/// moves along its force, by at most the current temperature.
void moveWithGravity(LayoutState &state, double k, double temperature, std::vector<double> &dx,
                     std::vector<double> &dy)
{
    const int n = int(state.x.size());
    double cx = 0.0;
    double cy = 0.0;
    for (int i = 0; i < n; ++i) {
        cx += state.x[size_t(i)];
        cy += state.y[size_t(i)];
    }
    cx /= n;
    cy /= n;

    for (int i = 0; i < n; ++i) {
        const size_t s = size_t(i);
        const double gx = state.x[s] - cx;
        const double gy = state.y[s] - cy;
        const double gd = std::sqrt(gx * gx + gy * gy);
        dx[s] -= gx * Gravity * gd / k;
        dy[s] -= gy * Gravity * gd / k;
        const double length = std::sqrt(dx[s] * dx[s] + dy[s] * dy[s]);
        if (length < 1e-9)
            continue;
        const double step = std::min(length, temperature);
        state.x[s] += dx[s] / length * step;
        state.y[s] += dy[s] / length * step;
    }
}

/// The force simulation proper: repulsion, attraction and gravity under a cooling temperature.
void runForces(LayoutState &state, const QVector<GraphLayoutInput::Link> &links,
               const GraphLayoutInput &input, double k)
{
    const int n = int(state.x.size());
    const int iterations = std::max(1, input.iterations);
    const double startTemperature = input.startTemperature >= 0.0
                                        ? input.startTemperature
                                        : k * std::max(1.0, std::sqrt(double(n))) * 0.4;
    const double k2 = k * k;
    std::vector<double> dx(size_t(n), 0.0);
    std::vector<double> dy(size_t(n), 0.0);

    for (int iter = 0; iter < iterations; ++iter) {
        std::fill(dx.begin(), dx.end(), 0.0);
        std::fill(dy.begin(), dy.end(), 0.0);
        addRepulsion(state, k2, dx, dy);
        addAttraction(state, links, k, dx, dy);
        const double progress = double(iter) / double(iterations);
        const double temperature = startTemperature * std::pow(1.0 - progress, 1.5) + k * 0.01;
        moveWithGravity(state, k, temperature, dx, dy);
    }
}

/// Overlap pass: push apart pairs closer than a minimum distance so circles never touch.
void removeOverlaps(LayoutState &state, double k)
{
    const int n = int(state.x.size());
    std::vector<double> &x = state.x;
    std::vector<double> &y = state.y;
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
}

/// Keep the picture where it was: known nodes move as little as possible on average; a fresh
/// layout is centred on the origin.
QPointF stabilisingShift(const GraphLayoutInput &input, const LayoutState &state)
{
    const int n = int(state.x.size());
    double shiftX = 0.0;
    double shiftY = 0.0;
    int knownCount = 0;
    for (int i = 0; i < n; ++i) {
        if (!state.known[size_t(i)])
            continue;
        const QPointF start = input.initial.value(input.ids.at(i));
        shiftX += start.x() - state.x[size_t(i)];
        shiftY += start.y() - state.y[size_t(i)];
        ++knownCount;
    }
    if (knownCount > 0) {
        shiftX /= knownCount;
        shiftY /= knownCount;
    } else {
        for (int i = 0; i < n; ++i) {
            shiftX -= state.x[size_t(i)];
            shiftY -= state.y[size_t(i)];
        }
        shiftX /= n;
        shiftY /= n;
    }
    return {shiftX, shiftY};
}

} // namespace

QVector<QPointF> computeForceLayout(const GraphLayoutInput &input)
{
    const int n = int(input.ids.size());
    if (n == 0)
        return {};
    const double k = input.idealLength > 1.0 ? input.idealLength : 110.0;
    const bool hasAnchor = !input.anchorId.isEmpty() && input.initial.contains(input.anchorId);

    LayoutState state = placeStartPoints(input, k, hasAnchor);
    if (n == 1) {
        const bool placed = hasAnchor || state.known[0];
        return {QPointF(placed ? state.x[0] : 0.0, placed ? state.y[0] : 0.0)};
    }
    runForces(state, usableLinks(input, n), input, k);
    removeOverlaps(state, k);

    const QPointF shift = stabilisingShift(input, state);
    QVector<QPointF> positions;
    positions.reserve(n);
    for (int i = 0; i < n; ++i)
        positions.append(QPointF(state.x[size_t(i)] + shift.x(), state.y[size_t(i)] + shift.y()));
    return positions;
}

} // namespace MemoryGraph::Ui
