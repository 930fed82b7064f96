#include "service/assemble/assembleengine.h"

#include "service/embedding/embeddingprovider.h"
#include "service/rules/ruleevaluator.h"

#include <QElapsedTimer>
#include <QHash>
#include <QJsonArray>
#include <QJsonDocument>

namespace MemoryGraph {

namespace {

constexpr int kContinuityBlockChars = 1200;

QString compactJson(const QJsonValue &v)
{
    const QByteArray text = v.isArray()
                                ? QJsonDocument(v.toArray()).toJson(QJsonDocument::Compact)
                                : QJsonDocument(v.toObject()).toJson(QJsonDocument::Compact);
    QString s = QString::fromUtf8(text);
    if (s.size() > kContinuityBlockChars)
        s = s.left(kContinuityBlockChars - 1) + QChar(0x2026);
    return s;
}

QString firstString(const QJsonObject &o, std::initializer_list<const char *> keys)
{
    for (const char *key : keys) {
        const QString v = o.value(QLatin1String(key)).toString().trimmed();
        if (!v.isEmpty())
            return v;
    }
    return {};
}

/// The packet (or, without one, the state) and every artifact and evidence record become
/// always-included static blocks (reference §7.3).
QVector<LayeredContext::StaticBlock> continuityBlocks(const QJsonObject &continuity)
{
    QVector<LayeredContext::StaticBlock> out;
    const auto block = [](const QString &id, const QString &title, const QString &content) {
        LayeredContext::StaticBlock b;
        b.id = id;
        b.title = title;
        b.content = content;
        b.priority = 100;
        b.alwaysInclude = true;
        return b;
    };
    if (continuity.contains(QStringLiteral("execution_packet_v1")))
        out.append(block(QStringLiteral("continuity:execution_packet_v1"),
                         QStringLiteral("Execution packet"),
                         compactJson(continuity.value(QStringLiteral("execution_packet_v1")))));
    else if (continuity.contains(QStringLiteral("execution_state_v1")))
        out.append(block(QStringLiteral("continuity:execution_state_v1"),
                         QStringLiteral("Execution state"),
                         compactJson(continuity.value(QStringLiteral("execution_state_v1")))));
    const std::pair<const char *, const char *> lists[]
        = {{"execution_artifacts", "Execution artifact"},
           {"execution_evidence", "Execution evidence"}};
    for (const auto &[key, defaultTitle] : lists) {
        const QJsonArray records = continuity.value(QLatin1String(key)).toArray();
        for (int i = 0; i < records.size(); ++i) {
            const QJsonObject r = records.at(i).toObject();
            const QString id = firstString(r, {"id", "ref", "uri"});
            const QString title = firstString(r, {"title", "name", "kind"});
            const QString content = firstString(r, {"summary", "content", "text", "ref", "uri"});
            out.append(block(QStringLiteral("continuity:%1:%2")
                                 .arg(QLatin1String(key), id.isEmpty() ? QString::number(i) : id),
                             title.isEmpty() ? QLatin1String(defaultTitle) : title,
                             content.isEmpty() ? compactJson(r) : content));
        }
    }
    return out;
}

/// Intent, tag, task and stage words of the runtime context, for static block scoring.
QStringList contextSignals(const QJsonObject &context, const QJsonObject &continuity)
{
    QStringList out;
    const auto add = [&out](const QJsonValue &v) {
        if (v.isString() && !v.toString().trimmed().isEmpty())
            out << v.toString().trimmed().toLower();
        for (const QJsonValue &item : v.toArray()) {
            if (item.isString() && !item.toString().trimmed().isEmpty())
                out << item.toString().trimmed().toLower();
        }
    };
    for (const char *key : {"intent", "intents", "tags", "task", "stage"})
        add(context.value(QLatin1String(key)));
    add(continuity.value(QStringLiteral("execution_state_v1"))
            .toObject()
            .value(QStringLiteral("current_stage")));
    return out;
}

/// The context rules see: the caller's, plus continuity evidence it does not carry itself.
QJsonObject rulesContext(const QJsonObject &context, const QJsonObject &continuity)
{
    QJsonObject c = context;
    for (const char *key : {"execution_state_v1", "execution_result_summary", "execution_artifacts",
                            "execution_evidence"}) {
        const QString k = QLatin1String(key);
        if (!c.contains(k) && continuity.contains(k))
            c.insert(k, continuity.value(k));
    }
    return c;
}

LayeredContext::Input layeredInput(const AssembleRequest &req, const AssembleOutcome &out,
                                   const QJsonObject &context)
{
    LayeredContext::Input in;
    in.queryText = req.recall.queryText;
    in.contextSignals = contextSignals(context, out.continuity);
    in.toolCandidates = req.toolCandidates;
    in.includeShadowRules = req.includeShadow;
    in.options = req.layers;
    in.injection = req.staticInjection;
    in.blocks = continuityBlocks(out.continuity) + req.staticBlocks;

    QHash<QString, const NodeRecord *> nodes;
    for (const RecallSeed &s : out.recall.seeds)
        nodes.insert(s.node.id, &s.node);
    for (const NodeRecord &n : out.recall.nodes)
        nodes.insert(n.id, &n);
    for (const QJsonValue &v : out.recall.context.items) {
        const QJsonObject item = v.toObject();
        LayeredContext::MemoryItem m;
        m.nodeId = item.value(QStringLiteral("node_id")).toString();
        m.kind = item.value(QStringLiteral("kind")).toString();
        m.title = item.value(QStringLiteral("title")).toString();
        m.summary = item.value(QStringLiteral("summary")).toString();
        m.ruleState = item.value(QStringLiteral("state")).toString().toLower();
        if (const NodeRecord *n = nodes.value(m.nodeId)) {
            m.tier = n->tier;
            m.salience = n->salience;
        }
        in.items.append(m);
    }
    for (const QJsonValue &v : out.recall.context.citations) {
        const QJsonObject c = v.toObject();
        in.citations.append({c.value(QStringLiteral("node_id")).toString(),
                             c.value(QStringLiteral("uri")).toString()});
    }
    if (out.rules) {
        for (const RuleMatch &m : out.rules->evaluation.active)
            in.rules.append({m.node.id, m.node.textSummary, QStringLiteral("active")});
        for (const RuleMatch &m : out.rules->evaluation.shadow)
            in.rules.append({m.node.id, m.node.textSummary, QStringLiteral("shadow")});
    }
    if (out.tools) {
        in.selectedTool = out.tools->selection.selected;
        in.toolRanking = out.tools->selection.ordered;
        in.decisionId = out.tools->decision.id;
        in.runId = out.tools->decision.runId;
    }
    return in;
}

/// none | packet_input | state_first: which continuity record the static layer is built from.
QString packetSourceMode(const QJsonObject &continuity)
{
    if (continuity.contains(QStringLiteral("execution_packet_v1")))
        return QStringLiteral("packet_input");
    if (continuity.contains(QStringLiteral("execution_state_v1")))
        return QStringLiteral("state_first");
    return QStringLiteral("none");
}

/// The outcome's scope and echoes, and the recall request as it will run: the assembling
/// agent reads memory as itself unless it names a consumer.
AssembleOutcome newOutcome(const AssembleRequest &req, const CallScope &cs,
                           const QJsonObject &context)
{
    AssembleOutcome out;
    out.scope = cs;
    out.includeRules = req.includeRules;
    out.optimizationProfile = req.optimizationProfile;
    out.continuity = req.continuity.fields;
    out.packetSourceMode = packetSourceMode(out.continuity);
    out.recallRequest = req.recall;
    const QJsonObject agent = context.value(QStringLiteral("agent")).toObject();
    if (out.recallRequest.consumerAgentId.isEmpty())
        out.recallRequest.consumerAgentId
            = agent.value(QStringLiteral("id"))
                  .toString(context.value(QStringLiteral("agent_id")).toString())
                  .trimmed();
    if (out.recallRequest.consumerTeamId.isEmpty())
        out.recallRequest.consumerTeamId
            = agent.value(QStringLiteral("team_id"))
                  .toString(context.value(QStringLiteral("team_id")).toString())
                  .trimmed();
    return out;
}

/// The one query vector of query_text; a provider that answers with none is a bad upstream.
Result<Embedding> embedQuery(EmbeddingProvider *provider, const QString &text)
{
    if (!provider)
        return Error::make(400, QStringLiteral("no_embedding_provider"),
                           QStringLiteral("Configure EMBEDDING_PROVIDER to use context/assemble."));
    auto vectors = provider->embed({text});
    if (!vectors)
        return vectors.error();
    if (vectors.value().size() != 1)
        return Error::make(502, QStringLiteral("upstream_embedding_bad_response"),
                           QStringLiteral("the embedding provider returned no vector"));
    return std::move(vectors.value().first());
}

/// include_rules: the rules that apply to the runtime context with continuity evidence added.
Result<void> evaluateRules(ToolEngine &tools, const AssembleRequest &req,
                           const QJsonObject &context, const RequestMeta &meta,
                           AssembleOutcome &out)
{
    RulesEvaluateRequest rules;
    rules.tenantId = out.scope.tenantId;
    rules.scope = out.scope.scope;
    rules.context = rulesContext(context, out.continuity);
    rules.includeShadow = req.includeShadow;
    rules.limit = req.rulesLimit;
    auto evaluated = tools.evaluate(rules, meta);
    if (!evaluated)
        return evaluated.error();
    out.rules = std::move(evaluated).value();
    return {};
}

/// tool_candidates given: select a tool, which persists a decision the caller can give
/// feedback on.
Result<void> selectTool(ToolEngine &tools, const AssembleRequest &req, const QJsonObject &context,
                        const RequestMeta &meta, AssembleOutcome &out)
{
    ToolSelectRequest select;
    select.tenantId = out.scope.tenantId;
    select.scope = out.scope.scope;
    select.runId = req.runId;
    select.context = context;
    select.candidates = req.toolCandidates;
    select.includeShadow = req.includeShadow;
    select.rulesLimit = req.rulesLimit;
    select.strict = req.toolStrict;
    select.continuity = req.continuity;
    auto selected = tools.select(select, meta);
    if (!selected)
        return selected.error();
    out.tools = std::move(selected).value();
    return {};
}

} // namespace

AssembleEngine::AssembleEngine(Database &db, IndexManager &indexes, RecallAudit &audit,
                               QThreadPool &textChannels, EmbeddingProvider *provider,
                               const ServiceConfig &config)
    : m_db(db), m_indexes(indexes), m_audit(audit), m_textChannels(textChannels),
      m_provider(provider), m_config(config)
{
}

Result<AssembleOutcome> AssembleEngine::assemble(const AssembleRequest &req,
                                                 const RequestMeta &meta)
{
    // admit: tenant and identity first; a refused call must not spend an embedding.
    auto cs = resolveCallScope(req.recall.tenantId, req.recall.scope, meta, m_config);
    if (!cs)
        return cs.error();
    auto withIdentity = RuleEvaluator::withCallerIdentity(QJsonValue(req.context), meta);
    if (!withIdentity)
        return withIdentity.error();
    const QJsonObject context = withIdentity.value().toObject();
    AssembleOutcome out = newOutcome(req, cs.value(), context);
    if (auto admitted = RecallEngine::admit(out.recallRequest, meta, m_config); !admitted)
        return admitted.error();

    // embed → recall → rules → tools → layered context
    QElapsedTimer embedTimer;
    embedTimer.start();
    auto query = embedQuery(m_provider, req.recall.queryText);
    if (!query)
        return query.error();
    const double embedMs = double(embedTimer.nsecsElapsed()) / 1e6;
    RecallEngine recall(m_db, m_indexes, m_audit, m_textChannels, m_config);
    auto recalled
        = recall.recall(out.recallRequest, query.value(), meta, QStringLiteral("context_assemble"));
    if (!recalled)
        return recalled.error();
    out.recall = std::move(recalled).value();
    out.recall.queryText = req.recall.queryText;
    out.recall.embeddingProvider = m_provider->name();
    out.recall.timings.embedQuery = embedMs;

    ToolEngine tools(m_db, m_config);
    if (req.includeRules) {
        if (auto evaluated = evaluateRules(tools, req, context, meta, out); !evaluated)
            return evaluated.error();
    }
    if (!req.toolCandidates.isEmpty()) {
        if (auto selected = selectTool(tools, req, context, meta, out); !selected)
            return selected.error();
    }
    if (req.returnLayeredContext)
        out.layered = LayeredContext::build(layeredInput(req, out, context));
    return out;
}

} // namespace MemoryGraph
