#include "service/assemble/contextbuilder.h"

#include "service/core/ids.h"
#include "service/rules/ruledefinition.h"

#include <QJsonDocument>
#include <QSet>

#include <algorithm>
#include <numeric>

namespace MemoryGraph {

namespace {

enum Section { Topics = 0, Entities = 1, Events = 2, Rules = 3 };
const char *const kSectionTitles[]
    = {"# Topics / Concepts", "# Entities", "# Supporting Events / Evidence",
       "# Applicable Rules (Shadow/Active)"};
const char *const kSectionKeys[] = {"topics", "entities", "events", "rules"};

enum class LineKind { Topic, Evidence, Entity, Event, RuleSummary, RuleJson };

struct Line
{
    Section section;
    LineKind kind;
    QString text;
    bool active = true;
};

int basePriority(LineKind kind)
{
    switch (kind) {
    case LineKind::Topic: return 10;
    case LineKind::Evidence: return 90;
    case LineKind::Entity: return 40;
    case LineKind::Event: return 70;
    case LineKind::RuleSummary: return 20;
    case LineKind::RuleJson: return 80;
    }
    return 50;
}

int sectionBias(Section s, bool aggressive)
{
    static const int balanced[] = {0, 10, 40, 5};
    static const int harsh[] = {0, 20, 80, 10};
    return aggressive ? harsh[s] : balanced[s];
}

QJsonValue nullable(const QString &s)
{
    return s.isEmpty() ? QJsonValue() : QJsonValue(s);
}

bool isCompression(const NodeRecord &n)
{
    return n.type == QLatin1String("concept")
           && n.slotData.value(QStringLiteral("summary_kind")).toString()
                  == QLatin1String("compression_rollup");
}

bool isDraftTopic(const NodeRecord &n)
{
    return n.type == QLatin1String("topic") && n.topicState() == QLatin1String("draft");
}

QStringList citedNodeIds(const NodeRecord &n)
{
    QStringList ids;
    for (const QJsonValue &c : n.slotData.value(QStringLiteral("citations")).toArray()) {
        const QString id = c.isObject() ? c.toObject().value(QStringLiteral("node_id")).toString()
                                        : c.toString();
        if (!id.isEmpty())
            ids << id;
    }
    return ids;
}

QString compactJson(const QJsonValue &v)
{
    if (v.isObject())
        return QString::fromUtf8(QJsonDocument(v.toObject()).toJson(QJsonDocument::Compact));
    if (v.isArray())
        return QString::fromUtf8(QJsonDocument(v.toArray()).toJson(QJsonDocument::Compact));
    return QStringLiteral("null");
}

QString uriOf(const NodeRecord &n)
{
    return recordUri(n.tenantId, n.scope, n.type, n.id);
}

QString render(const QVector<Line> &lines)
{
    QStringList blocks;
    for (int s = Topics; s <= Rules; ++s) {
        QStringList body;
        for (const Line &l : lines) {
            if (l.active && l.section == s)
                body << l.text;
        }
        if (!body.isEmpty())
            blocks << QString::fromLatin1(kSectionTitles[s]) + QLatin1Char('\n')
                          + body.join(QLatin1Char('\n'));
    }
    return blocks.join(QStringLiteral("\n\n"));
}

/// The ranked nodes each section shows, in rank order.
struct Picks
{
    QVector<const NodeRecord *> topics, entities, events, rules;
};

/// Draft topics stay out; each section takes the best-ranked nodes of its types up to its cap.
Picks pickNodes(const QVector<NodeRecord> &ranked)
{
    Picks p;
    for (const NodeRecord &n : ranked) {
        if (isDraftTopic(n))
            continue;
        if ((n.type == QLatin1String("topic") || n.type == QLatin1String("concept"))
            && p.topics.size() < 4)
            p.topics << &n;
        else if (n.type == QLatin1String("entity") && p.entities.size() < 6)
            p.entities << &n;
        else if ((n.type == QLatin1String("event") || n.type == QLatin1String("evidence"))
                 && p.events.size() < 24)
            p.events << &n;
        else if (n.type == QLatin1String("rule") && p.rules.size() < 6)
            p.rules << &n;
    }
    return p;
}

/// Compression rollups stand in for the raw events they cite (spec §4.3.2.5): with a rollup
/// present its cited events go and fewer events are shown.
void preferRollups(Picks &p)
{
    QSet<QString> cited;
    bool compression = false;
    for (const NodeRecord *t : std::as_const(p.topics)) {
        if (isCompression(*t)) {
            compression = true;
            for (const QString &id : citedNodeIds(*t))
                cited.insert(id);
        }
    }
    if (compression) {
        p.events.erase(
            std::remove_if(p.events.begin(), p.events.end(),
                           [&cited](const NodeRecord *e) { return cited.contains(e->id); }),
            p.events.end());
        p.events.resize(qMin(p.events.size(), qsizetype(5)));
    } else {
        p.events.resize(qMin(p.events.size(), qsizetype(10)));
    }
}

QString label(const NodeRecord &n)
{
    return n.title.isEmpty() ? n.id : n.title;
}

QString withSummary(const QString &head, const NodeRecord &n)
{
    return n.textSummary.isEmpty() ? head : head + QStringLiteral(": ") + n.textSummary;
}

/// The item of a topic, concept or entity.
QJsonObject summaryItem(const NodeRecord &n)
{
    return QJsonObject{{QStringLiteral("kind"), n.type},
                       {QStringLiteral("node_id"), n.id},
                       {QStringLiteral("uri"), uriOf(n)},
                       {QStringLiteral("title"), nullable(n.title)},
                       {QStringLiteral("summary"), nullable(n.textSummary)},
                       {QStringLiteral("commit_id"), nullable(n.commitId)}};
}

/// What a rule line shows: the definition from the node's slots (if/then or their *_json
/// spellings), state and feedback counts from the rule's status row.
struct RuleView
{
    RuleDefinition def;
    QString state;
    QString scope;
    qint64 positive = 0;
    qint64 negative = 0;
    QJsonValue ifJson;
    QJsonValue thenJson;
};

RuleView ruleView(const NodeRecord &n, const QHash<QString, RuleStatus> &statuses)
{
    RuleView v;
    v.def = RuleDefinition::fromNode(n);
    const auto status = statuses.constFind(n.id);
    const bool known = status != statuses.constEnd();
    v.state = known ? status->state : QStringLiteral("unknown");
    v.scope = v.def.ruleScope.isEmpty() ? QStringLiteral("global") : v.def.ruleScope;
    v.positive = known ? status->positive : 0;
    v.negative = known ? status->negative : 0;
    v.ifJson = v.def.ifJson.isUndefined() ? QJsonValue() : v.def.ifJson;
    v.thenJson = v.def.thenJson.isUndefined() ? QJsonValue() : v.def.thenJson;
    return v;
}

/// "- state=... scope=... [target_*=...] pos=.. neg=.. summary=... (node:id)"
QString ruleSummaryLine(const NodeRecord &n, const RuleView &v)
{
    QString head = QStringLiteral("- state=") + v.state + QStringLiteral(" scope=") + v.scope;
    if (v.scope == QLatin1String("agent") && !v.def.targetAgentId.isEmpty())
        head += QStringLiteral(" target_agent=") + v.def.targetAgentId;
    else if (v.scope == QLatin1String("team") && !v.def.targetTeamId.isEmpty())
        head += QStringLiteral(" target_team=") + v.def.targetTeamId;
    head += QStringLiteral(" pos=%1 neg=%2 summary=").arg(v.positive).arg(v.negative)
            + (n.textSummary.isEmpty() ? QStringLiteral("(none)") : n.textSummary)
            + QStringLiteral(" (node:%1)").arg(n.id);
    return head;
}

QJsonObject ruleItem(const NodeRecord &n, const RuleView &v)
{
    return QJsonObject{
        {QStringLiteral("kind"), QStringLiteral("rule")},
        {QStringLiteral("node_id"), n.id},
        {QStringLiteral("uri"), uriOf(n)},
        {QStringLiteral("state"), v.state},
        {QStringLiteral("rule_scope"), v.scope},
        {QStringLiteral("target_agent_id"), nullable(v.def.targetAgentId)},
        {QStringLiteral("target_team_id"), nullable(v.def.targetTeamId)},
        {QStringLiteral("summary"), nullable(n.textSummary)},
        {QStringLiteral("if_json"), v.ifJson},
        {QStringLiteral("then_json"), v.thenJson},
        {QStringLiteral("exceptions_json"),
         v.def.exceptionsJson.isUndefined() ? QJsonValue() : v.def.exceptionsJson},
        {QStringLiteral("stats"), QJsonObject{{QStringLiteral("positive"), double(v.positive)},
                                              {QStringLiteral("negative"), double(v.negative)}}},
        {QStringLiteral("commit_id"), nullable(n.commitId)}};
}

/// Collects the lines, items and citations section by section; each node is cited once.
struct ContextWriter
{
    explicit ContextWriter(const ContextOptions &opts) : options(opts) { }

    const ContextOptions &options;
    ContextResult out;
    QVector<Line> lines;
    QSet<QString> citedOnce;

    void cite(const NodeRecord &n)
    {
        if (citedOnce.contains(n.id))
            return;
        citedOnce.insert(n.id);
        out.citations.append(QJsonObject{
            {QStringLiteral("node_id"), n.id},
            {QStringLiteral("uri"), uriOf(n)},
            {QStringLiteral("commit_id"), nullable(n.commitId)},
            {QStringLiteral("commit_uri"),
             n.commitId.isEmpty() ? QJsonValue()
                                  : QJsonValue(recordUri(n.tenantId, n.scope,
                                                         QStringLiteral("commit"), n.commitId))},
            {QStringLiteral("raw_ref"), nullable(n.rawRef)},
            {QStringLiteral("evidence_ref"), nullable(n.evidenceRef)}});
    }

    /// A rollup shows how many events it covers and up to three of them as evidence lines.
    void addTopic(const NodeRecord &n)
    {
        if (isCompression(n)) {
            const int covers = n.slotData.value(QStringLiteral("source_event_count")).toInt();
            lines.append(
                {Topics, LineKind::Topic,
                 QStringLiteral("- ") + withSummary(label(n), n)
                     + QStringLiteral(" (node:%1, compression, covers=%2)").arg(n.id).arg(covers)});
            const QStringList ids = citedNodeIds(n);
            for (int i = 0; i < qMin(3, int(ids.size())); ++i)
                lines.append(
                    {Topics, LineKind::Evidence, QStringLiteral("  evidence_node=") + ids.at(i)});
        } else {
            lines.append({Topics, LineKind::Topic,
                          QStringLiteral("- ") + withSummary(label(n), n)
                              + QStringLiteral(" (node:%1)").arg(n.id)});
        }
        out.items.append(summaryItem(n));
        cite(n);
    }

    void addEntity(const NodeRecord &n)
    {
        lines.append({Entities, LineKind::Entity,
                      QStringLiteral("- ") + withSummary(label(n), n)
                          + QStringLiteral(" (node:%1)").arg(n.id)});
        out.items.append(summaryItem(n));
        cite(n);
    }

    /// Events name their raw and evidence refs so the caller can fetch the source.
    void addEvent(const NodeRecord &n)
    {
        QString refs = QStringLiteral("node:") + n.id;
        if (!n.rawRef.isEmpty())
            refs += QStringLiteral(", raw_ref=") + n.rawRef;
        if (!n.evidenceRef.isEmpty())
            refs += QStringLiteral(", evidence_ref=") + n.evidenceRef;
        // A dated event says when it happened, so "when" questions are answered by the text.
        const QString when = n.occurredText();
        lines.append(
            {Events, LineKind::Event,
             QStringLiteral("- ") + (when.isEmpty() ? QString() : when + QStringLiteral(": "))
                 + (n.textSummary.isEmpty() ? QStringLiteral("(no summary)") : n.textSummary)
                 + QStringLiteral(" (") + refs + QLatin1Char(')')});
        QJsonObject item{{QStringLiteral("kind"), n.type},
                         {QStringLiteral("node_id"), n.id},
                         {QStringLiteral("uri"), uriOf(n)},
                         {QStringLiteral("summary"), nullable(n.textSummary)},
                         {QStringLiteral("raw_ref"), nullable(n.rawRef)},
                         {QStringLiteral("evidence_ref"), nullable(n.evidenceRef)},
                         {QStringLiteral("commit_id"), nullable(n.commitId)}};
        if (!when.isEmpty())
            item.insert(QStringLiteral("occurred_at"), when);
        out.items.append(item);
        cite(n);
    }

    /// The aggressive profile leaves out the if/then JSON lines.
    void addRule(const NodeRecord &n)
    {
        const RuleView v = ruleView(n, options.ruleStatuses);
        lines.append({Rules, LineKind::RuleSummary, ruleSummaryLine(n, v)});
        if (options.profile != QLatin1String("aggressive")) {
            lines.append(
                {Rules, LineKind::RuleJson, QStringLiteral("  if=") + compactJson(v.ifJson)});
            lines.append(
                {Rules, LineKind::RuleJson, QStringLiteral("  then=") + compactJson(v.thenJson)});
        }
        out.items.append(ruleItem(n, v));
        cite(n);
    }
};

/// The text budget in characters: char_budget wins over token_budget (4 chars a token); never
/// under 160; 0 means none.
int charBudget(const ContextOptions &options)
{
    if (options.charBudget && *options.charBudget > 0)
        return qMax(160, *options.charBudget);
    if (options.tokenBudget && *options.tokenBudget > 0)
        return qMax(160, 4 * *options.tokenBudget);
    return 0;
}

/// The text after compaction and what it dropped.
struct Compacted
{
    QString text;
    int dropped = 0;
    QJsonObject droppedBySection{{QStringLiteral("topics"), 0},
                                 {QStringLiteral("entities"), 0},
                                 {QStringLiteral("events"), 0},
                                 {QStringLiteral("rules"), 0}};
};

/// Drops the lowest-priority line (by kind and section) until the text fits; one line always
/// stays. Only the text shrinks: items and citations stay whole.
Compacted compact(QVector<Line> &lines, const QString &before, int budget, bool aggressive)
{
    Compacted c;
    c.text = before;
    if (budget <= 0 || c.text.size() <= budget)
        return c;
    QVector<int> order(lines.size());
    std::iota(order.begin(), order.end(), 0);
    std::stable_sort(order.begin(), order.end(), [&lines, aggressive](int a, int b) {
        const int pa = basePriority(lines[a].kind) + sectionBias(lines[a].section, aggressive);
        const int pb = basePriority(lines[b].kind) + sectionBias(lines[b].section, aggressive);
        return pa > pb;
    });
    int activeCount = int(lines.size());
    for (int idx : std::as_const(order)) {
        if (c.text.size() <= budget || activeCount <= 1)
            break;
        lines[idx].active = false;
        --activeCount;
        ++c.dropped;
        const QString key = QString::fromLatin1(kSectionKeys[lines[idx].section]);
        c.droppedBySection[key] = c.droppedBySection.value(key).toInt() + 1;
        c.text = render(lines);
    }
    return c;
}

/// debug.context_compaction: the budgets and the sizes before and after.
QJsonObject compactionReport(const ContextOptions &options, int budget, const QString &before,
                             const Compacted &c)
{
    return QJsonObject{
        {QStringLiteral("profile"), options.profile},
        {QStringLiteral("token_budget"), options.tokenBudget && *options.tokenBudget > 0
                                             ? QJsonValue(*options.tokenBudget)
                                             : QJsonValue()},
        {QStringLiteral("char_budget"), budget > 0 ? QJsonValue(budget) : QJsonValue()},
        {QStringLiteral("applied"), c.text.size() < before.size()},
        {QStringLiteral("before_chars"), before.size()},
        {QStringLiteral("after_chars"), c.text.size()},
        {QStringLiteral("before_est_tokens"), estimateTokens(before)},
        {QStringLiteral("after_est_tokens"), estimateTokens(c.text)},
        {QStringLiteral("dropped_lines"), c.dropped},
        {QStringLiteral("dropped_by_section"), c.droppedBySection}};
}

} // namespace

int estimateTokens(const QString &text)
{
    return int((text.size() + 3) / 4);
}

ContextResult buildContext(const QVector<NodeRecord> &ranked, const ContextOptions &options)
{
    // pick → write sections → compact → report
    Picks picks = pickNodes(ranked);
    preferRollups(picks);
    ContextWriter writer(options);
    for (const NodeRecord *n : std::as_const(picks.topics))
        writer.addTopic(*n);
    for (const NodeRecord *n : std::as_const(picks.entities))
        writer.addEntity(*n);
    for (const NodeRecord *n : std::as_const(picks.events))
        writer.addEvent(*n);
    for (const NodeRecord *n : std::as_const(picks.rules))
        writer.addRule(*n);

    const QString before = render(writer.lines);
    const int budget = charBudget(options);
    const bool aggressive = options.profile == QLatin1String("aggressive");
    Compacted compacted = compact(writer.lines, before, budget, aggressive);
    ContextResult out = std::move(writer.out);
    if (!writer.lines.isEmpty())
        out.compaction = compactionReport(options, budget, before, compacted);
    out.text = std::move(compacted.text);
    return out;
}

} // namespace MemoryGraph
