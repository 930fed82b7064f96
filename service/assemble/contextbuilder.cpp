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
const char *const kSectionTitles[] = {"# Topics / Concepts", "# Entities",
                                      "# Supporting Events / Evidence",
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

} // namespace

int estimateTokens(const QString &text)
{
    return int((text.size() + 3) / 4);
}

ContextResult buildContext(const QVector<NodeRecord> &ranked, const ContextOptions &options)
{
    const bool aggressive = options.profile == QLatin1String("aggressive");
    QVector<const NodeRecord *> topics, entities, events, rules;
    for (const NodeRecord &n : ranked) {
        if (isDraftTopic(n))
            continue;
        if ((n.type == QLatin1String("topic") || n.type == QLatin1String("concept")) && topics.size() < 4)
            topics << &n;
        else if (n.type == QLatin1String("entity") && entities.size() < 6)
            entities << &n;
        else if ((n.type == QLatin1String("event") || n.type == QLatin1String("evidence")) && events.size() < 24)
            events << &n;
        else if (n.type == QLatin1String("rule") && rules.size() < 6)
            rules << &n;
    }
    // Compression rollups stand in for the raw events they cite (spec §4.3.2.5).
    QSet<QString> cited;
    bool compression = false;
    for (const NodeRecord *t : topics) {
        if (isCompression(*t)) {
            compression = true;
            for (const QString &id : citedNodeIds(*t))
                cited.insert(id);
        }
    }
    if (compression) {
        events.erase(std::remove_if(events.begin(), events.end(),
                                    [&cited](const NodeRecord *e) { return cited.contains(e->id); }),
                     events.end());
        events.resize(qMin(events.size(), qsizetype(5)));
    } else {
        events.resize(qMin(events.size(), qsizetype(10)));
    }

    ContextResult out;
    QVector<Line> lines;
    QSet<QString> citedOnce;
    const auto cite = [&out, &citedOnce](const NodeRecord &n) {
        if (citedOnce.contains(n.id))
            return;
        citedOnce.insert(n.id);
        out.citations.append(QJsonObject{
            {QStringLiteral("node_id"), n.id},
            {QStringLiteral("uri"), uriOf(n)},
            {QStringLiteral("commit_id"), nullable(n.commitId)},
            {QStringLiteral("commit_uri"),
             n.commitId.isEmpty() ? QJsonValue()
                                  : QJsonValue(recordUri(n.tenantId, n.scope, QStringLiteral("commit"), n.commitId))},
            {QStringLiteral("raw_ref"), nullable(n.rawRef)},
            {QStringLiteral("evidence_ref"), nullable(n.evidenceRef)}});
    };
    const auto label = [](const NodeRecord &n) { return n.title.isEmpty() ? n.id : n.title; };
    const auto withSummary = [](const QString &head, const NodeRecord &n) {
        return n.textSummary.isEmpty() ? head : head + QStringLiteral(": ") + n.textSummary;
    };

    for (const NodeRecord *n : topics) {
        if (isCompression(*n)) {
            const int covers = n->slotData.value(QStringLiteral("source_event_count")).toInt();
            lines.append({Topics, LineKind::Topic,
                          QStringLiteral("- ") + withSummary(label(*n), *n)
                              + QStringLiteral(" (node:%1, compression, covers=%2)").arg(n->id).arg(covers)});
            const QStringList ids = citedNodeIds(*n);
            for (int i = 0; i < qMin(3, int(ids.size())); ++i)
                lines.append({Topics, LineKind::Evidence, QStringLiteral("  evidence_node=") + ids.at(i)});
        } else {
            lines.append({Topics, LineKind::Topic,
                          QStringLiteral("- ") + withSummary(label(*n), *n)
                              + QStringLiteral(" (node:%1)").arg(n->id)});
        }
        out.items.append(QJsonObject{{QStringLiteral("kind"), n->type},
                                     {QStringLiteral("node_id"), n->id},
                                     {QStringLiteral("uri"), uriOf(*n)},
                                     {QStringLiteral("title"), nullable(n->title)},
                                     {QStringLiteral("summary"), nullable(n->textSummary)},
                                     {QStringLiteral("commit_id"), nullable(n->commitId)}});
        cite(*n);
    }
    for (const NodeRecord *n : entities) {
        lines.append({Entities, LineKind::Entity,
                      QStringLiteral("- ") + withSummary(label(*n), *n) + QStringLiteral(" (node:%1)").arg(n->id)});
        out.items.append(QJsonObject{{QStringLiteral("kind"), n->type},
                                     {QStringLiteral("node_id"), n->id},
                                     {QStringLiteral("uri"), uriOf(*n)},
                                     {QStringLiteral("title"), nullable(n->title)},
                                     {QStringLiteral("summary"), nullable(n->textSummary)},
                                     {QStringLiteral("commit_id"), nullable(n->commitId)}});
        cite(*n);
    }
    for (const NodeRecord *n : events) {
        QString refs = QStringLiteral("node:") + n->id;
        if (!n->rawRef.isEmpty())
            refs += QStringLiteral(", raw_ref=") + n->rawRef;
        if (!n->evidenceRef.isEmpty())
            refs += QStringLiteral(", evidence_ref=") + n->evidenceRef;
        lines.append({Events, LineKind::Event,
                      QStringLiteral("- ") + (n->textSummary.isEmpty() ? QStringLiteral("(no summary)") : n->textSummary)
                          + QStringLiteral(" (") + refs + QLatin1Char(')')});
        out.items.append(QJsonObject{{QStringLiteral("kind"), n->type},
                                     {QStringLiteral("node_id"), n->id},
                                     {QStringLiteral("uri"), uriOf(*n)},
                                     {QStringLiteral("summary"), nullable(n->textSummary)},
                                     {QStringLiteral("raw_ref"), nullable(n->rawRef)},
                                     {QStringLiteral("evidence_ref"), nullable(n->evidenceRef)},
                                     {QStringLiteral("commit_id"), nullable(n->commitId)}});
        cite(*n);
    }
    for (const NodeRecord *n : rules) {
        // The definition lives in slots (if/then or their *_json spellings); state and
        // feedback counts live in the rule's status row.
        const RuleDefinition def = RuleDefinition::fromNode(*n);
        const auto status = options.ruleStatuses.constFind(n->id);
        const bool known = status != options.ruleStatuses.constEnd();
        const QString state = known ? status->state : QStringLiteral("unknown");
        const QString scope = def.ruleScope.isEmpty() ? QStringLiteral("global") : def.ruleScope;
        const QString agent = def.targetAgentId;
        const QString team = def.targetTeamId;
        const qint64 pos = known ? status->positive : 0;
        const qint64 neg = known ? status->negative : 0;
        QString head = QStringLiteral("- state=") + state + QStringLiteral(" scope=") + scope;
        if (scope == QLatin1String("agent") && !agent.isEmpty())
            head += QStringLiteral(" target_agent=") + agent;
        else if (scope == QLatin1String("team") && !team.isEmpty())
            head += QStringLiteral(" target_team=") + team;
        head += QStringLiteral(" pos=%1 neg=%2 summary=").arg(pos).arg(neg)
                + (n->textSummary.isEmpty() ? QStringLiteral("(none)") : n->textSummary)
                + QStringLiteral(" (node:%1)").arg(n->id);
        lines.append({Rules, LineKind::RuleSummary, head});
        const QJsonValue ifJson = def.ifJson.isUndefined() ? QJsonValue() : def.ifJson;
        const QJsonValue thenJson = def.thenJson.isUndefined() ? QJsonValue() : def.thenJson;
        if (!aggressive) {
            lines.append({Rules, LineKind::RuleJson, QStringLiteral("  if=") + compactJson(ifJson)});
            lines.append({Rules, LineKind::RuleJson, QStringLiteral("  then=") + compactJson(thenJson)});
        }
        out.items.append(QJsonObject{
            {QStringLiteral("kind"), QStringLiteral("rule")},
            {QStringLiteral("node_id"), n->id},
            {QStringLiteral("uri"), uriOf(*n)},
            {QStringLiteral("state"), state},
            {QStringLiteral("rule_scope"), scope},
            {QStringLiteral("target_agent_id"), nullable(agent)},
            {QStringLiteral("target_team_id"), nullable(team)},
            {QStringLiteral("summary"), nullable(n->textSummary)},
            {QStringLiteral("if_json"), ifJson.isUndefined() ? QJsonValue() : ifJson},
            {QStringLiteral("then_json"), thenJson.isUndefined() ? QJsonValue() : thenJson},
            {QStringLiteral("exceptions_json"),
             def.exceptionsJson.isUndefined() ? QJsonValue() : def.exceptionsJson},
            {QStringLiteral("stats"), QJsonObject{{QStringLiteral("positive"), double(pos)},
                                                  {QStringLiteral("negative"), double(neg)}}},
            {QStringLiteral("commit_id"), nullable(n->commitId)}});
        cite(*n);
    }

    const QString before = render(lines);
    int budget = 0;
    if (options.charBudget && *options.charBudget > 0)
        budget = qMax(160, *options.charBudget);
    else if (options.tokenBudget && *options.tokenBudget > 0)
        budget = qMax(160, 4 * *options.tokenBudget);

    QJsonObject droppedBySection{{QStringLiteral("topics"), 0}, {QStringLiteral("entities"), 0},
                                 {QStringLiteral("events"), 0}, {QStringLiteral("rules"), 0}};
    int dropped = 0;
    QString text = before;
    if (budget > 0 && text.size() > budget) {
        QVector<int> order(lines.size());
        std::iota(order.begin(), order.end(), 0);
        std::stable_sort(order.begin(), order.end(), [&lines, aggressive](int a, int b) {
            const int pa = basePriority(lines[a].kind) + sectionBias(lines[a].section, aggressive);
            const int pb = basePriority(lines[b].kind) + sectionBias(lines[b].section, aggressive);
            return pa > pb;
        });
        int activeCount = int(lines.size());
        for (int idx : order) {
            if (text.size() <= budget || activeCount <= 1)
                break;
            lines[idx].active = false;
            --activeCount;
            ++dropped;
            const QString key = QString::fromLatin1(kSectionKeys[lines[idx].section]);
            droppedBySection[key] = droppedBySection.value(key).toInt() + 1;
            text = render(lines);
        }
    }
    out.text = text;
    if (!lines.isEmpty())
        out.compaction = QJsonObject{
            {QStringLiteral("profile"), options.profile},
            {QStringLiteral("token_budget"), options.tokenBudget && *options.tokenBudget > 0
                                                 ? QJsonValue(*options.tokenBudget) : QJsonValue()},
            {QStringLiteral("char_budget"), budget > 0 ? QJsonValue(budget) : QJsonValue()},
            {QStringLiteral("applied"), text.size() < before.size()},
            {QStringLiteral("before_chars"), before.size()},
            {QStringLiteral("after_chars"), text.size()},
            {QStringLiteral("before_est_tokens"), estimateTokens(before)},
            {QStringLiteral("after_est_tokens"), estimateTokens(text)},
            {QStringLiteral("dropped_lines"), dropped},
            {QStringLiteral("dropped_by_section"), droppedBySection}};
    return out;
}

} // namespace MemoryGraph
