#pragma once

#include <QCoreApplication>
#include <QHash>
#include <QJsonArray>
#include <QJsonObject>
#include <QString>
#include <QStringList>

namespace MemoryGraph {
class MemoryService;
}

namespace MemoryGraph::Ui {

/// Wording shared by the rules and decisions views for tool selections (spec §4.8).
class RuleDisplay
{
    Q_DECLARE_TR_FUNCTIONS(MemoryGraph::Ui::RuleDisplay)
public:
    /// "deny_list — on a matched rule's deny list", ... for selection.denied[].reason.
    static QString deniedReasonText(const QString &reason);

    /// "a, b, c" or a dash for an empty list.
    static QString toolList(const QStringList &tools);

    /// "a → b → c" or a dash for an empty list.
    static QString orderedList(const QStringList &tools);

    /// The strings of a JSON array.
    static QStringList strings(const QJsonArray &array);

    /// A human description of selection.fallback ({applied, reason, effective_mode}); empty when
    /// no fallback applied.
    static QString fallbackText(const QJsonObject &fallback);

    /// The scope's rule titles (else summaries) by node id, for naming rule links. Called on a
    /// worker thread; empty when the rules cannot be listed, which costs only the names.
    static QHash<QString, QString> ruleTitles(MemoryService *service, const QString &tenantId,
                                              const QString &scope);

    /// A rule's title from `titles`, else the first 8 characters of its id.
    static QString ruleName(const QString &ruleId, const QHash<QString, QString> &titles);
};

} // namespace MemoryGraph::Ui
