#pragma once

// Playbook step templates: parameters lifted out of recorded tool inputs as template variables,
// bound again from a run's params, and the preconditions a step can be checked against without
// running anything.

#include <QHash>
#include <QJsonArray>
#include <QJsonObject>
#include <QJsonValue>
#include <QStringList>

namespace MemoryGraph::PlaybookTemplate {

/// Lifts parameters out of recorded tool inputs: every string leaf that looks like a UUID, a
/// URL, a file path or a semantic version becomes a `{{<kind>_<n>}}` placeholder, the recorded
/// value kept as the variable's default. The same value gets the same variable across all steps
/// of a playbook. The command itself (argv[0], `command`) is never lifted, so params can change
/// what a step works on but not which program it runs.
class Parameterizer
{
public:
    /// The template of one recorded tool input; names the variables it uses in *used.
    QJsonValue lift(const QJsonValue &input, QStringList *used);
    /// [{name, kind, default}] in order of first use.
    QJsonArray variables() const { return m_variables; }
    /// Variables per kind (compile_summary.parameterization).
    QJsonObject countsByKind() const;

private:
    QJsonValue liftValue(const QJsonValue &value, const QString &key, int index, QStringList *used);

    QHash<QString, QString> m_nameByValue;
    QHash<QString, int> m_countByKind;
    QJsonArray m_variables;
};

/// "uuid" | "url" | "path" | "semver", or empty for a string that is not a parameter.
QString parameterKind(const QString &text);

/// A template bound from params (else each variable's default).
struct Binding
{
    QJsonValue value;
    QStringList missing; ///< placeholders with neither a param nor a default
};

/// Replaces `{{name}}` placeholders: a string that is exactly one placeholder takes the param's
/// JSON value; placeholders inside longer strings are replaced by its text.
Binding bind(const QJsonValue &templ, const QJsonObject &params, const QJsonObject &defaults);

/// Variable defaults by name from a playbook's template_variables.
QJsonObject defaultsOf(const QJsonArray &variables);

/// The argv a command step would run: tool_input.argv, else command + args; empty otherwise.
QStringList argvOf(const QJsonValue &toolInput);

/// One precondition checked on this host without running anything.
struct Check
{
    QString kind;
    QString state; ///< ready | blocked | unknown
    QString reason;
    QJsonObject toJson(const QJsonObject &condition) const;
};

/// always, env_exists, env_equals, file_exists, path_not_exists, cwd_contains and
/// command_available (a PATH lookup, nothing spawned); any other kind is unknown.
Check evaluate(const QJsonObject &condition);

} // namespace MemoryGraph::PlaybookTemplate
