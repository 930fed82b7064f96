#include "ui/embeddingstate.h"

#include "service/core/records.h"

namespace MemoryGraph::Ui {

namespace {

/// The reason the write path records when it leaves a node unembedded by choice.
const QString NotRequestedReason = QStringLiteral("auto_embed_disabled_or_no_provider");

} // namespace

EmbeddingState EmbeddingState::of(const NodeRecord &node)
{
    const QString &status = node.embeddingStatus;
    if (status == QLatin1String("ready")) {
        return {Kind::Ready, status,
                node.embeddingModel.isEmpty() ? QString()
                                              : tr("Model: %1").arg(node.embeddingModel)};
    }
    if (status == QLatin1String("pending"))
        return {Kind::Pending, status, tr("Waiting for the embedding worker.")};
    if (status == QLatin1String("failed") && node.embeddingError == NotRequestedReason) {
        return {Kind::NotRequested, tr("not requested"),
                tr("Not embedded: written with auto_embed off (as replay records are) or with no "
                   "embedding provider configured. Recall finds it through the graph, not by "
                   "similarity.")};
    }
    if (status == QLatin1String("failed")) {
        const QString reason
            = node.embeddingError.isEmpty() ? tr("no reason recorded") : node.embeddingError;
        return {Kind::Failed, status, tr("Error: %1").arg(reason)};
    }
    return {Kind::Unknown, status, QString()};
}

} // namespace MemoryGraph::Ui
