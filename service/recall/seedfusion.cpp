#include "service/recall/seedfusion.h"

#include <QHash>

#include <algorithm>

namespace MemoryGraph::SeedFusion {

namespace {

double rankScore(int rank)
{
    return rank > 0 ? 1.0 / double(kRrfK + rank) : 0.0;
}

} // namespace

double vectorWeightFor(const QString &embeddingProvider)
{
    return embeddingProvider == QLatin1String("local") || embeddingProvider == QLatin1String("fake")
               ? 0.25
               : 1.0;
}

QVector<Fused> fuse(const Orders &orders, const Weights &weights)
{
    QHash<qint64, qsizetype> at;
    QVector<Fused> fused;
    const auto rankAll = [&](const QVector<qint64> &order, int Fused::*rank) {
        for (qsizetype i = 0; i < order.size(); ++i) {
            auto found = at.constFind(order.at(i));
            if (found == at.cend()) {
                found = at.insert(order.at(i), fused.size());
                Fused added;
                added.label = order.at(i);
                fused.append(added);
            }
            Fused &f = fused[*found];
            if (f.*rank == 0)
                f.*rank = int(i + 1);
        }
    };
    rankAll(orders.vector, &Fused::vectorRank);
    rankAll(orders.lexical, &Fused::lexicalRank);
    rankAll(orders.time, &Fused::timeRank);
    rankAll(orders.concepts, &Fused::conceptRank);
    const auto weightIf = [](const QVector<qint64> &order, double weight) {
        return order.isEmpty() ? 0.0 : weight;
    };
    const double best
        = rankScore(1)
          * (weightIf(orders.vector, weights.vector) + weightIf(orders.lexical, weights.lexical)
             + weightIf(orders.time, weights.time) + weightIf(orders.concepts, weights.concepts));
    for (Fused &f : fused) {
        const double sum
            = weights.vector * rankScore(f.vectorRank) + weights.lexical * rankScore(f.lexicalRank)
              + weights.time * rankScore(f.timeRank) + weights.concepts * rankScore(f.conceptRank);
        f.score = best > 0.0 ? sum / best : 0.0;
    }
    std::sort(fused.begin(), fused.end(), [](const Fused &a, const Fused &b) {
        if (a.score != b.score)
            return a.score > b.score;
        if (a.channels() != b.channels())
            return a.channels() > b.channels();
        return a.label < b.label;
    });
    return fused;
}

} // namespace MemoryGraph::SeedFusion
