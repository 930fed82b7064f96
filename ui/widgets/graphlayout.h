#pragma once

#include <QHash>
#include <QPointF>
#include <QString>
#include <QStringList>
#include <QVector>

namespace MemoryGraph::Ui {

/// What the force-directed layout needs: node ids, weighted edges by node index, and optional
/// start positions (a graph being expanded keeps the operator's mental map).
struct GraphLayoutInput
{
    struct Link
    {
        int from = 0;
        int to = 0;
        double weight = 0.5; ///< 0..1; stronger links pull harder
    };

    QStringList ids;
    QVector<Link> links;
    QHash<QString, QPointF> initial; ///< known positions; other nodes start near `anchorId`
    QString anchorId;                ///< where new nodes are seeded (expansion); may be empty
    int iterations = 300;
    double idealLength = 110.0;     ///< preferred edge length in scene units
    double startTemperature = -1.0; ///< max step at the start; < 0 picks one from the size
    quint32 seed = 0x6d656d67;      ///< fixed: the same input always gives the same picture
};

/// A deterministic Fruchterman-Reingold layout with gentle gravity (so separate components stay
/// together) and a final overlap pass. Pure function of its input: no globals, no Qt objects,
/// safe to run on a worker thread. O(iterations x n^2); 300 nodes take well under a second.
QVector<QPointF> computeForceLayout(const GraphLayoutInput &input);

} // namespace MemoryGraph::Ui
