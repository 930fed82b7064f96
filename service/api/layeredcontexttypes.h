#pragma once

// The inputs and output of the layered context of context/assemble (reference §7.3).

#include <QHash>
#include <QJsonArray>
#include <QJsonObject>
#include <QString>
#include <QStringList>
#include <QVector>

#include <optional>

namespace MemoryGraph::LayeredContext {

/// Which recall items may be forgotten before budgeting (reference forgetting_policy).
struct ForgettingPolicy
{
    bool enabled = true;
    QStringList allowedTiers{QStringLiteral("hot"), QStringLiteral("warm")};
    bool excludeArchived = true;
    std::optional<double> minSalience;
};

/// context_layers of the request.
struct LayerOptions
{
    QStringList enabled; ///< empty = every layer
    int totalChars = 4000;
    QHash<QString, int> charsByLayer;    ///< overrides of the default per-layer budgets
    QHash<QString, int> maxItemsByLayer; ///< overrides of the default per-layer caps
    bool includeMergeTrace = true;
    ForgettingPolicy forgetting;
};

/// A caller-provided (or continuity-derived) block for the static layer.
struct StaticBlock
{
    QString id;
    QString title;
    QString content;
    QStringList tags;
    QStringList intents;
    QStringList tools;
    int priority = 50;
    bool alwaysInclude = false;
};

/// static_injection of the request.
struct StaticInjection
{
    bool enabled = true;
    int maxBlocks = 4;
    int minScore = 50;
    bool includeSelectionTrace = true;
};

/// One recall context item with the node facts forgetting needs.
struct MemoryItem
{
    QString nodeId;
    QString kind; ///< node type
    QString title;
    QString summary;
    QString tier;         ///< empty when unknown (never forgotten for its tier)
    double salience = -1; ///< negative when unknown
    QString ruleState;    ///< for rules: active | shadow
};

struct RuleLine
{
    QString id;
    QString summary;
    QString state; ///< active | shadow
};

struct Citation
{
    QString nodeId;
    QString uri;
};

struct Input
{
    QString queryText;
    QStringList contextSignals; ///< intents and tags of the runtime context (lower case)
    QStringList toolCandidates;
    QVector<MemoryItem> items; ///< recall context items in rank order
    QVector<RuleLine> rules;   ///< evaluated matches, active first
    /// Recalled rule nodes in shadow only reach the rules layer when shadow rules were asked for:
    /// a shadow rule is reported, never put to work.
    bool includeShadowRules = false;
    QVector<StaticBlock> blocks;
    QString selectedTool;
    QStringList toolRanking;
    QString decisionId;
    QString runId;
    QVector<Citation> citations;
    LayerOptions options;
    StaticInjection injection;
};

/// How a static block scored against the query, context and tools.
struct BlockScore
{
    int score = 0;
    QStringList matched; ///< intent:x, tag:x, tool:x, lexical:n
};

/// The layered_context object, plus the figures the assembly summary needs.
struct Output
{
    QJsonObject body;
    QString mergedText;
    QStringList layersWithContent;
    int forgottenItems = 0;
    int droppedItems = 0;
    int staticBlocksSelected = 0;
    int staticBlocksRejected = 0;
};

} // namespace MemoryGraph::LayeredContext
