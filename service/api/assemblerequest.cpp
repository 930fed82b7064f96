#include "service/api/assemblerequest.h"

#include "service/api/requestfields.h"
#include "service/core/jsonreader.h"
#include "service/core/vocabulary.h"
#include "service/rules/toolpolicy.h"

#include <QSet>

namespace MemoryGraph {

namespace {

constexpr int kMaxStaticBlocks = 100;
constexpr int kMaxBlockContent = 20000;
constexpr int kMaxTotalChars = 200000;

/// {layer: integer} with known layer names only.
bool readPerLayer(JsonReader &parent, const char *key, QHash<QString, int> *out, int max)
{
    QJsonObject map;
    if (!parent.object(key, &map))
        return false;
    JsonReader r(map, parent.path(QLatin1String(key)));
    for (auto it = map.constBegin(); it != map.constEnd() && r.ok(); ++it) {
        if (!LayeredContext::layerNames().contains(it.key())) {
            r.fail(it.key(), QStringLiteral("is not a layer (")
                                 + LayeredContext::layerNames().join(QStringLiteral(", "))
                                 + QLatin1Char(')'));
            break;
        }
        const QByteArray name = it.key().toUtf8();
        std::optional<int> v;
        if (r.integer(name.constData(), &v, 0, max) && v)
            out->insert(it.key(), *v);
    }
    return parent.absorb(r);
}

bool readForgetting(JsonReader &parent, LayeredContext::ForgettingPolicy *out)
{
    QJsonObject policy;
    bool present = false;
    if (!parent.object("forgetting_policy", &policy, &present) || !present)
        return parent.ok();
    JsonReader r(policy, parent.path(QStringLiteral("forgetting_policy")));
    readFlag(r, "enabled", &out->enabled);
    readFlag(r, "exclude_archived", &out->excludeArchived);
    QStringList tiers;
    bool tiersGiven = false;
    if (r.stringList("allowed_tiers", &tiers, 0, 4, &tiersGiven) && tiersGiven) {
        for (int i = 0; i < tiers.size(); ++i) {
            if (!Vocabulary::tiers().contains(tiers.at(i))) {
                r.fail(QStringLiteral("allowed_tiers[%1]").arg(i),
                       QStringLiteral("must be one of: ")
                           + Vocabulary::tiers().join(QStringLiteral(", ")));
                break;
            }
        }
        out->allowedTiers = tiers;
    }
    r.number("min_salience", &out->minSalience, 0.0, 1.0);
    return parent.absorb(r);
}

bool readLayers(JsonReader &r, LayeredContext::LayerOptions *out)
{
    QJsonObject layers;
    bool present = false;
    if (!r.object("context_layers", &layers, &present) || !present)
        return r.ok();
    JsonReader lr(layers, QStringLiteral("context_layers"));
    QStringList enabled;
    bool enabledGiven = false;
    if (lr.stringList("enabled", &enabled, 0, 7, &enabledGiven) && enabledGiven) {
        for (int i = 0; i < enabled.size(); ++i) {
            if (!LayeredContext::layerNames().contains(enabled.at(i))) {
                lr.fail(QStringLiteral("enabled[%1]").arg(i),
                        QStringLiteral("must be one of: ")
                            + LayeredContext::layerNames().join(QStringLiteral(", ")));
                break;
            }
        }
        out->enabled = enabled;
    }
    readInt(lr, "char_budget_total", &out->totalChars, 0, kMaxTotalChars);
    readPerLayer(lr, "char_budget_by_layer", &out->charsByLayer, kMaxTotalChars);
    readPerLayer(lr, "max_items_by_layer", &out->maxItemsByLayer, 500);
    readFlag(lr, "include_merge_trace", &out->includeMergeTrace);
    readForgetting(lr, &out->forgetting);
    return r.absorb(lr);
}

bool readStaticBlocks(JsonReader &r, QVector<LayeredContext::StaticBlock> *out)
{
    QJsonArray blocks;
    bool present = false;
    if (!r.array("static_context_blocks", &blocks, &present) || !present)
        return r.ok();
    if (blocks.size() > kMaxStaticBlocks)
        return r.fail(QStringLiteral("static_context_blocks"),
                      QStringLiteral("must have at most %1 entries").arg(kMaxStaticBlocks));
    QSet<QString> ids;
    for (int i = 0; i < blocks.size(); ++i) {
        const QString path = QStringLiteral("static_context_blocks[%1]").arg(i);
        if (!blocks.at(i).isObject())
            return r.fail(path, QStringLiteral("must be an object"));
        JsonReader br(blocks.at(i).toObject(), path);
        LayeredContext::StaticBlock b;
        br.requiredString("id", &b.id, 256);
        br.string("title", &b.title, 512);
        br.requiredString("content", &b.content, kMaxBlockContent);
        br.stringList("tags", &b.tags, 0, 50);
        br.stringList("intents", &b.intents, 0, 50);
        br.stringList("tools", &b.tools, 0, 200);
        readInt(br, "priority", &b.priority, 0, 100);
        readFlag(br, "always_include", &b.alwaysInclude);
        if (br.ok() && ids.contains(b.id))
            br.fail(QStringLiteral("id"), QStringLiteral("is used by another block"));
        if (!r.absorb(br))
            return false;
        ids.insert(b.id);
        out->append(b);
    }
    return true;
}

bool readInjection(JsonReader &r, LayeredContext::StaticInjection *out)
{
    QJsonObject injection;
    bool present = false;
    if (!r.object("static_injection", &injection, &present) || !present)
        return r.ok();
    JsonReader ir(injection, QStringLiteral("static_injection"));
    readFlag(ir, "enabled", &out->enabled);
    readInt(ir, "max_blocks", &out->maxBlocks, 0, kMaxStaticBlocks);
    readInt(ir, "min_score", &out->minScore, 0, 1000);
    readFlag(ir, "include_selection_trace", &out->includeSelectionTrace);
    return r.absorb(ir);
}

bool readToolCandidates(JsonReader &r, QStringList *out)
{
    QJsonArray raw;
    bool present = false;
    if (!r.array("tool_candidates", &raw, &present) || !present)
        return r.ok();
    if (raw.size() > 200)
        return r.fail(QStringLiteral("tool_candidates"),
                      QStringLiteral("must have at most 200 entries"));
    for (int i = 0; i < raw.size(); ++i) {
        if (!raw.at(i).isString())
            return r.fail(QStringLiteral("tool_candidates[%1]").arg(i),
                          QStringLiteral("must be a string"));
    }
    *out = Rules::normalizeCandidates(raw);
    return true;
}

} // namespace

Result<AssembleRequest> AssembleRequest::fromJson(const QJsonObject &body, int maxTextLength)
{
    // The recall part reads the same body as /recall_text does; rules run here, not in recall.
    QJsonObject recallBody = body;
    recallBody.remove(QStringLiteral("rules_context"));
    recallBody.remove(QStringLiteral("rules_limit"));
    auto recall = RecallRequest::fromJson(recallBody, true, maxTextLength);
    if (!recall)
        return recall.error();
    AssembleRequest q;
    q.recall = recall.value();

    JsonReader r(body);
    r.object("context", &q.context);
    Continuity::read(body, &q.continuity, r);
    r.string("run_id", &q.runId, 256);
    readFlag(r, "include_rules", &q.includeRules);
    readFlag(r, "include_shadow", &q.includeShadow);
    readInt(r, "rules_limit", &q.rulesLimit, 1, 200);
    readToolCandidates(r, &q.toolCandidates);
    readFlag(r, "tool_strict", &q.toolStrict);
    readFlag(r, "return_layered_context", &q.returnLayeredContext);
    r.enumValue("context_optimization_profile", &q.optimizationProfile,
                {QStringLiteral("off"), QStringLiteral("balanced"), QStringLiteral("aggressive")});
    readLayers(r, &q.layers);
    readStaticBlocks(r, &q.staticBlocks);
    readInjection(r, &q.staticInjection);
    if (!r.ok())
        return r.error();

    // An optimization profile compacts recall's context unless the caller chose the knobs.
    if (q.optimizationProfile != QLatin1String("off")) {
        const bool aggressive = q.optimizationProfile == QLatin1String("aggressive");
        if (!body.contains(QStringLiteral("context_compaction_profile")))
            q.recall.compactionProfile
                = aggressive ? QStringLiteral("aggressive") : QStringLiteral("balanced");
        if (!q.recall.contextTokenBudget && !q.recall.contextCharBudget)
            q.recall.contextTokenBudget = aggressive ? 600 : 1000;
    }
    return q;
}

} // namespace MemoryGraph
