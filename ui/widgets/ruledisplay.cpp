#include "ui/widgets/ruledisplay.h"

#include "service/memoryservice.h"

namespace MemoryGraph::Ui {

QString RuleDisplay::deniedReasonText(const QString &reason)
{
    if (reason == QLatin1String("deny_list"))
        return tr("deny_list \u2014 on a matched rule's deny list");
    if (reason == QLatin1String("not_in_allow_list"))
        return tr("not_in_allow_list \u2014 missing from the effective allowlist");
    if (reason == QLatin1String("control_profile"))
        return tr("control_profile \u2014 blocked by the run's control profile");
    return reason;
}

QString RuleDisplay::toolList(const QStringList &tools)
{
    return tools.isEmpty() ? QStringLiteral("\u2014") : tools.join(QStringLiteral(", "));
}

QString RuleDisplay::orderedList(const QStringList &tools)
{
    return tools.isEmpty() ? QStringLiteral("\u2014") : tools.join(QStringLiteral(" \u2192 "));
}

QStringList RuleDisplay::strings(const QJsonArray &array)
{
    QStringList out;
    for (const QJsonValue &v : array)
        out << v.toString();
    return out;
}

QString RuleDisplay::fallbackText(const QJsonObject &fallback)
{
    if (fallback.isEmpty() || !fallback.value(QStringLiteral("applied")).toBool(true))
        return {};
    const QString reason = fallback.value(QStringLiteral("reason")).toString();
    if (reason == QLatin1String("allowlist_filtered_all"))
        return tr("allowlist_filtered_all \u2014 the allowlist removed every candidate, so it was "
                  "ignored (strict=false)");
    if (reason == QLatin1String("deny_filtered_all"))
        return tr("deny_filtered_all \u2014 the deny lists removed every candidate; nothing was "
                  "selected (strict=false)");
    return reason;
}

QHash<QString, QString> RuleDisplay::ruleTitles(MemoryService *service, const QString &tenantId,
                                                const QString &scope)
{
    QHash<QString, QString> titles;
    if (auto rules = service->listRules(tenantId, scope)) {
        for (const RuleSummary &r : rules.value())
            titles.insert(r.node.id, r.node.title.isEmpty() ? r.node.textSummary : r.node.title);
    }
    return titles;
}

QString RuleDisplay::ruleName(const QString &ruleId, const QHash<QString, QString> &titles)
{
    const QString title = titles.value(ruleId);
    return title.isEmpty() ? ruleId.left(8) : title;
}

} // namespace MemoryGraph::Ui
