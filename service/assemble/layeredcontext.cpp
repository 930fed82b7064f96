#include "service/assemble/layeredcontext.h"

#include <QRegularExpression>
#include <QSet>

#include <algorithm>

namespace MemoryGraph::LayeredContext {

namespace {

constexpr int kMaxDroppedReasons = 120;
constexpr int kLexicalPointsPerTerm = 5;
constexpr int kLexicalPointsCap = 25;

struct LayerDefaults
{
    const char *name;
    const char *header;
    int chars;
    int maxItems;
};

// reference §7.3: order, headers, default char budgets and item caps.
const LayerDefaults kLayers[]
    = {{"facts", "# Facts", 1200, 16},        {"episodes", "# Episodes", 1600, 20},
       {"rules", "# Rules", 1000, 16},        {"static", "# Static Context", 1200, 6},
       {"decisions", "# Decisions", 700, 10}, {"tools", "# Tools", 700, 10},
       {"citations", "# Citations", 1000, 24}};

const LayerDefaults *defaultsOf(const QString &layer)
{
    for (const LayerDefaults &d : kLayers) {
        if (layer == QLatin1String(d.name))
            return &d;
    }
    return nullptr;
}

/// One candidate line of a layer.
struct Entry
{
    QString id;
    QString kind;
    QString text;
    QString source;
    QString forgetReason; ///< non-empty: forgotten before budgeting
};

QSet<QString> terms(const QString &text)
{
    static const QRegularExpression splitter(QStringLiteral("[^\\p{L}\\p{N}_]+"));
    QSet<QString> out;
    for (const QString &t : text.toLower().split(splitter, Qt::SkipEmptyParts)) {
        if (t.size() >= 3)
            out.insert(t);
    }
    return out;
}

QString layerOf(const MemoryItem &item)
{
    if (item.kind == QLatin1String("event") || item.kind == QLatin1String("evidence"))
        return QStringLiteral("episodes");
    if (item.kind == QLatin1String("rule"))
        return QStringLiteral("rules");
    return QStringLiteral("facts");
}

QString forgetReason(const MemoryItem &item, const ForgettingPolicy &policy)
{
    if (!policy.enabled)
        return {};
    if (policy.excludeArchived && item.tier == QLatin1String("archive"))
        return QStringLiteral("forgotten_archived");
    if (!item.tier.isEmpty() && !policy.allowedTiers.contains(item.tier))
        return QStringLiteral("forgotten_tier");
    if (policy.minSalience && item.salience >= 0 && item.salience < *policy.minSalience)
        return QStringLiteral("forgotten_low_salience");
    return {};
}

QString memoryLine(const MemoryItem &item)
{
    if (item.kind == QLatin1String("rule"))
        return QStringLiteral("[%1] %2 (%3)")
            .arg(item.ruleState.isEmpty() ? QStringLiteral("shadow") : item.ruleState,
                 item.summary.isEmpty() ? item.title : item.summary, item.nodeId);
    if (item.title.isEmpty())
        return item.summary.isEmpty() ? item.nodeId : item.summary;
    return item.summary.isEmpty() ? item.title : item.title + QStringLiteral(": ") + item.summary;
}

struct StaticChoice
{
    QVector<const StaticBlock *> selected;
    QJsonArray trace;
    int rejected = 0;
};

/// Always-include blocks first, then by score (ties in the given order, continuity blocks
/// first); the rest within max_blocks and min_score.
StaticChoice chooseBlocks(const Input &input)
{
    struct Scored
    {
        const StaticBlock *block;
        BlockScore score;
    };
    QVector<Scored> scored;
    for (const StaticBlock &b : input.blocks)
        scored.append({&b, scoreBlock(b, input)});
    std::stable_sort(scored.begin(), scored.end(), [](const Scored &a, const Scored &b) {
        if (a.block->alwaysInclude != b.block->alwaysInclude)
            return a.block->alwaysInclude;
        return a.score.score > b.score.score; // ties keep the given order
    });
    StaticChoice out;
    int chosen = 0;
    for (const Scored &s : std::as_const(scored)) {
        QString reason;
        bool take = false;
        if (s.block->alwaysInclude) {
            take = true;
            reason = QStringLiteral("always_include");
        } else if (!input.injection.enabled) {
            reason = QStringLiteral("injection_disabled");
        } else if (s.score.score < input.injection.minScore) {
            reason = QStringLiteral("below_min_score");
        } else if (chosen >= input.injection.maxBlocks) {
            reason = QStringLiteral("max_blocks");
        } else {
            take = true;
            ++chosen;
            reason = QStringLiteral("score");
        }
        if (take)
            out.selected.append(s.block);
        else
            ++out.rejected;
        out.trace.append(
            QJsonObject{{QStringLiteral("id"), s.block->id},
                        {QStringLiteral("score"), s.score.score},
                        {QStringLiteral("matched"), QJsonArray::fromStringList(s.score.matched)},
                        {QStringLiteral("always_include"), s.block->alwaysInclude},
                        {QStringLiteral("selected"), take},
                        {QStringLiteral("reason"), reason}});
    }
    return out;
}

QHash<QString, QVector<Entry>> collectEntries(const Input &input, const StaticChoice &choice)
{
    QHash<QString, QVector<Entry>> byLayer;
    QSet<QString> ruleIds;
    for (const RuleLine &r : input.rules) {
        if (ruleIds.contains(r.id))
            continue;
        ruleIds.insert(r.id);
        byLayer[QStringLiteral("rules")].append(
            {r.id,
             QStringLiteral("rule"),
             QStringLiteral("[%1] %2 (%3)")
                 .arg(r.state, r.summary.isEmpty() ? r.id : r.summary, r.id),
             QStringLiteral("rules_evaluation"),
             {}});
    }
    for (const MemoryItem &item : input.items) {
        const QString layer = layerOf(item);
        if (layer == QLatin1String("rules") && ruleIds.contains(item.nodeId))
            continue; // the evaluated match already speaks for this rule
        if (item.kind == QLatin1String("rule") && item.ruleState != QLatin1String("active")
            && !input.includeShadowRules)
            continue;
        byLayer[layer].append({item.nodeId, item.kind, memoryLine(item), QStringLiteral("recall"),
                               forgetReason(item, input.options.forgetting)});
    }
    for (const StaticBlock *b : choice.selected)
        byLayer[QStringLiteral("static")].append(
            {b->id,
             QStringLiteral("static_block"),
             b->title.isEmpty() ? b->content : b->title + QStringLiteral(": ") + b->content,
             QStringLiteral("static_block"),
             {}});
    if (!input.decisionId.isEmpty())
        byLayer[QStringLiteral("decisions")].append(
            {QStringLiteral("decision_id"),
             QStringLiteral("decision"),
             QStringLiteral("decision_id: ") + input.decisionId,
             QStringLiteral("tools_select"),
             {}});
    if (!input.runId.isEmpty())
        byLayer[QStringLiteral("decisions")].append({QStringLiteral("run_id"),
                                                     QStringLiteral("decision"),
                                                     QStringLiteral("run_id: ") + input.runId,
                                                     QStringLiteral("tools_select"),
                                                     {}});
    if (!input.toolRanking.isEmpty() || !input.selectedTool.isEmpty()) {
        byLayer[QStringLiteral("tools")].append(
            {QStringLiteral("selected_tool"),
             QStringLiteral("tool"),
             QStringLiteral("selected tool: ")
                 + (input.selectedTool.isEmpty() ? QStringLiteral("none") : input.selectedTool),
             QStringLiteral("tools_select"),
             {}});
        if (!input.toolRanking.isEmpty())
            byLayer[QStringLiteral("tools")].append(
                {QStringLiteral("tool_ranking"),
                 QStringLiteral("tool"),
                 QStringLiteral("tool ranking: ") + input.toolRanking.join(QStringLiteral(", ")),
                 QStringLiteral("tools_select"),
                 {}});
    }
    for (const Citation &c : input.citations)
        byLayer[QStringLiteral("citations")].append(
            {c.nodeId, QStringLiteral("citation"), c.uri, QStringLiteral("recall"), {}});
    return byLayer;
}

} // namespace

const QStringList &layerNames()
{
    static const QStringList names = [] {
        QStringList n;
        for (const LayerDefaults &d : kLayers)
            n << QString::fromLatin1(d.name);
        return n;
    }();
    return names;
}

int defaultLayerChars(const QString &layer)
{
    const LayerDefaults *d = defaultsOf(layer);
    return d ? d->chars : 0;
}

int defaultLayerMaxItems(const QString &layer)
{
    const LayerDefaults *d = defaultsOf(layer);
    return d ? d->maxItems : 0;
}

BlockScore scoreBlock(const StaticBlock &block, const Input &input)
{
    BlockScore s;
    s.score = block.priority + (block.alwaysInclude ? 100 : 0);
    const QSet<QString> query = terms(input.queryText);
    QSet<QString> signalSet(input.contextSignals.cbegin(), input.contextSignals.cend());
    const auto hit = [&query, &signalSet](const QString &word) {
        const QString w = word.toLower();
        return signalSet.contains(w) || query.contains(w);
    };
    for (const QString &intent : block.intents) {
        if (hit(intent)) {
            s.score += 20;
            s.matched << QStringLiteral("intent:") + intent;
        }
    }
    for (const QString &tag : block.tags) {
        if (hit(tag)) {
            s.score += 10;
            s.matched << QStringLiteral("tag:") + tag;
        }
    }
    for (const QString &tool : block.tools) {
        const bool offered = std::any_of(
            input.toolCandidates.cbegin(), input.toolCandidates.cend(),
            [&tool](const QString &c) { return c.compare(tool, Qt::CaseInsensitive) == 0; });
        if (offered) {
            s.score += 15;
            s.matched << QStringLiteral("tool:") + tool;
        }
    }
    const QSet<QString> shared
        = terms(block.title + QLatin1Char(' ') + block.content).intersect(query);
    if (!shared.isEmpty()) {
        s.score += qMin(kLexicalPointsCap, kLexicalPointsPerTerm * int(shared.size()));
        s.matched << QStringLiteral("lexical:%1").arg(shared.size());
    }
    return s;
}

namespace {

/// The enabled layers in merge order (all when none were named).
QStringList enabledLayers(const LayerOptions &opt)
{
    QStringList order;
    for (const QString &name : layerNames()) {
        if (opt.enabled.isEmpty() || opt.enabled.contains(name))
            order << name;
    }
    return order;
}

/// What one layer kept within its char budget and item cap.
struct LayerFill
{
    QJsonArray items;
    QStringList lines;
    QJsonArray keptIds;
    int used = 0;
    int forgotten = 0;
    int dropped = 0;
};

/// The running state of one merge: the layers so far, the shared total budget and the reasons
/// items were left out.
struct Merger
{
    Merger(const LayerOptions &options, Output &output) : opt(options), out(output) { }

    const LayerOptions &opt;
    Output &out;
    QJsonObject layers;
    QJsonArray dropped;
    QJsonArray mergeTrace;
    QStringList blocks;
    int totalUsed = 0;
    int sourceItems = 0;
    int keptItems = 0;

    /// Reasons are capped so a huge input cannot blow up the response.
    void noteReason(const QString &layer, const QString &id, const QString &reason)
    {
        if (dropped.size() < kMaxDroppedReasons)
            dropped.append(QJsonObject{{QStringLiteral("layer"), layer},
                                       {QStringLiteral("id"), id},
                                       {QStringLiteral("reason"), reason}});
    }

    /// Forgotten entries go first; the rest are kept in order while the item cap, the layer
    /// budget and the total budget allow.
    LayerFill fill(const QString &layer, const QVector<Entry> &candidates, int budget, int maxItems)
    {
        LayerFill f;
        for (const Entry &e : candidates) {
            if (!e.forgetReason.isEmpty()) {
                ++f.forgotten;
                ++out.forgottenItems;
                noteReason(layer, e.id, e.forgetReason);
                continue;
            }
            const int cost = int(e.text.size());
            QString reason;
            if (f.items.size() >= maxItems)
                reason = QStringLiteral("max_items");
            else if (f.used + cost > budget)
                reason = QStringLiteral("layer_budget");
            else if (totalUsed + cost > opt.totalChars)
                reason = QStringLiteral("total_budget");
            if (!reason.isEmpty()) {
                ++f.dropped;
                ++out.droppedItems;
                noteReason(layer, e.id, reason);
                continue;
            }
            f.used += cost;
            totalUsed += cost;
            f.items.append(QJsonObject{{QStringLiteral("id"), e.id},
                                       {QStringLiteral("kind"), e.kind},
                                       {QStringLiteral("source"), e.source},
                                       {QStringLiteral("text"), e.text}});
            f.lines << QStringLiteral("- ") + e.text;
            f.keptIds.append(e.id);
        }
        return f;
    }

    /// One layer: fill it, report its figures, and add its block to the merged text when it
    /// kept anything.
    void mergeLayer(const QString &layer, const QVector<Entry> &candidates)
    {
        const int budget = opt.charsByLayer.value(layer, defaultLayerChars(layer));
        const int maxItems = opt.maxItemsByLayer.value(layer, defaultLayerMaxItems(layer));
        const LayerFill f = fill(layer, candidates, budget, maxItems);
        sourceItems += int(candidates.size());
        keptItems += int(f.items.size());
        layers.insert(layer, QJsonObject{{QStringLiteral("items"), f.items},
                                         {QStringLiteral("source_count"), candidates.size()},
                                         {QStringLiteral("forgotten_count"), f.forgotten},
                                         {QStringLiteral("kept_count"), f.items.size()},
                                         {QStringLiteral("dropped_count"), f.dropped},
                                         {QStringLiteral("budget_chars"), budget},
                                         {QStringLiteral("used_chars"), f.used},
                                         {QStringLiteral("max_items"), maxItems}});
        if (f.lines.isEmpty())
            return;
        const QString header = QString::fromLatin1(defaultsOf(layer)->header);
        blocks << header + QLatin1Char('\n') + f.lines.join(QLatin1Char('\n'));
        out.layersWithContent << layer;
        mergeTrace.append(QJsonObject{{QStringLiteral("layer"), layer},
                                      {QStringLiteral("header"), header},
                                      {QStringLiteral("kept_ids"), f.keptIds},
                                      {QStringLiteral("used_chars"), f.used}});
    }
};

/// static_injection of the body: the settings and, when asked for, the selection trace.
QJsonObject staticInjectionReport(const Input &input, const StaticChoice &choice, int selected)
{
    QJsonObject report{{QStringLiteral("enabled"), input.injection.enabled},
                       {QStringLiteral("max_blocks"), input.injection.maxBlocks},
                       {QStringLiteral("min_score"), input.injection.minScore},
                       {QStringLiteral("candidate_count"), input.blocks.size()},
                       {QStringLiteral("selected_count"), selected}};
    if (input.injection.includeSelectionTrace)
        report.insert(QStringLiteral("selection_trace"), choice.trace);
    return report;
}

/// forgetting of the body: the policy applied and how many items it removed.
QJsonObject forgettingReport(const ForgettingPolicy &f, int forgottenItems)
{
    return QJsonObject{
        {QStringLiteral("enabled"), f.enabled},
        {QStringLiteral("allowed_tiers"), QJsonArray::fromStringList(f.allowedTiers)},
        {QStringLiteral("exclude_archived"), f.excludeArchived},
        {QStringLiteral("min_salience"), f.minSalience ? QJsonValue(*f.minSalience) : QJsonValue()},
        {QStringLiteral("forgotten_items"), forgottenItems}};
}

/// The layered_context object (reference §7.3) from a finished merge.
QJsonObject layeredBody(const Input &input, const QStringList &order, const Merger &m,
                        const StaticChoice &choice)
{
    const Output &out = m.out;
    const int totalChars = m.opt.totalChars;
    QJsonObject body{
        {QStringLiteral("version"), 1},
        {QStringLiteral("mode"), QStringLiteral("experimental_context_orchestrator_v0")},
        {QStringLiteral("order"), QJsonArray::fromStringList(order)},
        {QStringLiteral("budget"),
         QJsonObject{{QStringLiteral("total_chars"), totalChars},
                     {QStringLiteral("used_chars"), m.totalUsed},
                     {QStringLiteral("remaining_chars"), totalChars - m.totalUsed}}},
        {QStringLiteral("stats"),
         QJsonObject{{QStringLiteral("source_items"), m.sourceItems},
                     {QStringLiteral("kept_items"), m.keptItems},
                     {QStringLiteral("dropped_items"), out.droppedItems},
                     {QStringLiteral("forgotten_items"), out.forgottenItems},
                     {QStringLiteral("layers_with_content"), out.layersWithContent.size()}}},
        {QStringLiteral("layers"), m.layers},
        {QStringLiteral("merged_text"), out.mergedText},
        {QStringLiteral("dropped_reasons"), m.dropped},
        {QStringLiteral("forgetting"), forgettingReport(m.opt.forgetting, out.forgottenItems)},
        {QStringLiteral("static_injection"),
         staticInjectionReport(input, choice, out.staticBlocksSelected)}};
    if (m.opt.includeMergeTrace)
        body.insert(QStringLiteral("merge_trace"), m.mergeTrace);
    return body;
}

} // namespace

Output build(const Input &input)
{
    // choose static blocks → collect entries by layer → merge layer by layer → body
    const QStringList order = enabledLayers(input.options);
    const StaticChoice choice = chooseBlocks(input);
    const QHash<QString, QVector<Entry>> entries = collectEntries(input, choice);

    Output out;
    Merger merger(input.options, out);
    for (const QString &layer : order)
        merger.mergeLayer(layer, entries.value(layer));
    out.mergedText = merger.blocks.join(QStringLiteral("\n\n"));
    out.staticBlocksSelected = int(choice.selected.size());
    out.staticBlocksRejected = choice.rejected;
    out.body = layeredBody(input, order, merger, choice);
    return out;
}

} // namespace MemoryGraph::LayeredContext
