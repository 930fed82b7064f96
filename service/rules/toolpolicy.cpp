#include "service/rules/toolpolicy.h"

#include "service/rules/jsonsemantics.h"

#include <QSet>

namespace MemoryGraph::Rules {

namespace {

struct Filtered
{
    QStringList allowed;
    QJsonArray denied;
};

Filtered filter(const QStringList &candidates, const QSet<QString> &deny,
                const QSet<QString> *allow)
{
    Filtered f;
    for (const QString &name : candidates) {
        QString reason;
        if (deny.contains(name))
            reason = QStringLiteral("deny_list");
        else if (allow && !allow->contains(name))
            reason = QStringLiteral("not_in_allow_list");
        if (reason.isEmpty())
            f.allowed.append(name);
        else
            f.denied.append(
                QJsonObject{{QStringLiteral("name"), name}, {QStringLiteral("reason"), reason}});
    }
    return f;
}

QJsonObject fallback(const QString &reason)
{
    return {{QStringLiteral("applied"), true},
            {QStringLiteral("reason"), reason},
            {QStringLiteral("effective_mode"), QStringLiteral("deny_only")}};
}

} // namespace

QJsonObject ToolSelection::toJson() const
{
    QJsonObject json{{QStringLiteral("candidates"), QJsonArray::fromStringList(candidates)},
                     {QStringLiteral("allowed"), QJsonArray::fromStringList(allowed)},
                     {QStringLiteral("denied"), denied},
                     {QStringLiteral("preferred"), QJsonArray::fromStringList(preferred)},
                     {QStringLiteral("ordered"), QJsonArray::fromStringList(ordered)},
                     {QStringLiteral("selected"),
                      selected.isEmpty() ? QJsonValue(QJsonValue::Null) : QJsonValue(selected)}};
    if (!fallback.isEmpty())
        json.insert(QStringLiteral("fallback"), fallback);
    return json;
}

QStringList normalizeCandidates(const QJsonArray &candidates)
{
    return normalizedNames(candidates);
}

Result<ToolSelection> applyToolPolicy(const QStringList &candidates, const QJsonObject &policy,
                                      bool strict)
{
    const QJsonObject tool = policy.value(u"tool").toObject();
    const bool allowActive = tool.value(u"allow").isArray();
    const QStringList allowList = normalizedNames(tool.value(u"allow").toArray());
    const QStringList denyList = normalizedNames(tool.value(u"deny").toArray());
    const QSet<QString> allow(allowList.begin(), allowList.end());
    const QSet<QString> deny(denyList.begin(), denyList.end());

    ToolSelection s;
    s.candidates = normalizedNames(candidates);
    Filtered f = filter(s.candidates, deny, allowActive ? &allow : nullptr);

    if (f.allowed.isEmpty() && strict) {
        const QString message
            = allowActive ? QStringLiteral("no candidates remain after allow/deny filters")
                          : QStringLiteral("no candidates remain after deny filters");
        return Error::make(400, QStringLiteral("no_tools_allowed"), message,
                           {{QStringLiteral("candidates"), s.candidates.size()},
                            {QStringLiteral("allow"), allowList.size()},
                            {QStringLiteral("deny"), denyList.size()}});
    }
    if (f.allowed.isEmpty() && allowActive) {
        f = filter(s.candidates, deny, nullptr);
        s.fallback = fallback(QStringLiteral("allowlist_filtered_all"));
    }
    if (f.allowed.isEmpty())
        s.fallback = fallback(QStringLiteral("deny_filtered_all"));

    s.allowed = f.allowed;
    s.denied = f.denied;
    const QSet<QString> allowedSet(s.allowed.begin(), s.allowed.end());
    for (const QString &name : normalizedNames(tool.value(u"prefer").toArray())) {
        if (allowedSet.contains(name))
            s.preferred.append(name);
    }
    s.ordered = s.preferred;
    for (const QString &name : s.allowed) {
        if (!s.preferred.contains(name))
            s.ordered.append(name);
    }
    s.selected = s.ordered.value(0);
    return s;
}

} // namespace MemoryGraph::Rules
