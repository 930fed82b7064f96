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

QVector<Fused> fuse(const QVector<qint64> &vectorOrder, const QVector<qint64> &lexicalOrder,
                    const QVector<qint64> &timeOrder, const Weights &weights)
{
    QHash<qint64, qsizetype> at;
    QVector<Fused> fused;
    const auto rankAll = [&](const QVector<qint64> &order, int Fused::*rank) {
        for (qsizetype i = 0; i < order.size(); ++i) {
            auto found = at.constFind(order.at(i));
            if (found == at.cend()) {
                found = at.insert(order.at(i), fused.size());
                fused.append({order.at(i), 0, 0, 0, 0.0});
            }
            Fused &f = fused[*found];
            if (f.*rank == 0)
                f.*rank = int(i + 1);
        }
    };
    rankAll(vectorOrder, &Fused::vectorRank);
    rankAll(lexicalOrder, &Fused::lexicalRank);
    rankAll(timeOrder, &Fused::timeRank);
    const double best = rankScore(1)
                        * ((vectorOrder.isEmpty() ? 0.0 : weights.vector)
                           + (lexicalOrder.isEmpty() ? 0.0 : weights.lexical)
                           + (timeOrder.isEmpty() ? 0.0 : weights.time));
    for (Fused &f : fused) {
        const double sum = weights.vector * rankScore(f.vectorRank)
                           + weights.lexical * rankScore(f.lexicalRank)
                           + weights.time * rankScore(f.timeRank);
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
