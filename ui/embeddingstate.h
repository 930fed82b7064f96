#pragma once

#include <QCoreApplication>
#include <QString>

namespace MemoryGraph {
struct NodeRecord;
}

namespace MemoryGraph::Ui {

/// How a node's embedding reads in the console. The store files a node written without an
/// embedding on purpose (auto_embed off, as replay records are, or no provider configured)
/// under "failed"; the console calls that "not requested" so only real failures show as errors.
struct EmbeddingState
{
    Q_DECLARE_TR_FUNCTIONS(EmbeddingState)

public:
    enum class Kind { Ready, Pending, NotRequested, Failed, Unknown };

    Kind kind = Kind::Unknown;
    QString text;   ///< short, for a table cell
    QString detail; ///< one sentence with the reason or the model, for a tooltip

    bool isError() const { return kind == Kind::Failed; }

    static EmbeddingState of(const NodeRecord &node);
};

} // namespace MemoryGraph::Ui
