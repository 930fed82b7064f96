#include "service/playbooks/playbooktemplate.h"

#include <QDir>
#include <QFileInfo>
#include <QJsonDocument>
#include <QRegularExpression>
#include <QStandardPaths>

namespace MemoryGraph::PlaybookTemplate {

namespace {

const QRegularExpression &placeholderPattern()
{
    static const QRegularExpression re(QStringLiteral(R"(\{\{\s*([A-Za-z_][A-Za-z0-9_]*)\s*\}\})"));
    return re;
}

QString textOf(const QJsonValue &v)
{
    if (v.isString())
        return v.toString();
    if (v.isBool())
        return v.toBool() ? QStringLiteral("true") : QStringLiteral("false");
    if (v.isDouble())
        return QString::number(v.toDouble(), 'g', 15);
    if (v.isObject())
        return QString::fromUtf8(QJsonDocument(v.toObject()).toJson(QJsonDocument::Compact));
    if (v.isArray())
        return QString::fromUtf8(QJsonDocument(v.toArray()).toJson(QJsonDocument::Compact));
    return QString();
}

QJsonValue bindValue(const QJsonValue &v, const QJsonObject &params, const QJsonObject &defaults,
                     QStringList *missing)
{
    auto lookup = [&](const QString &name, QJsonValue *out) {
        if (params.contains(name) && !params.value(name).isNull()) {
            *out = params.value(name);
            return true;
        }
        if (defaults.contains(name) && !defaults.value(name).isNull()) {
            *out = defaults.value(name);
            return true;
        }
        if (!missing->contains(name))
            missing->append(name);
        return false;
    };
    if (v.isString()) {
        const QString text = v.toString();
        const QRegularExpressionMatch whole = placeholderPattern().match(text);
        if (whole.hasMatch() && whole.capturedStart() == 0
            && whole.capturedLength() == text.size()) {
            QJsonValue bound;
            return lookup(whole.captured(1), &bound) ? bound : v;
        }
        QString out;
        qsizetype at = 0;
        auto it = placeholderPattern().globalMatch(text);
        while (it.hasNext()) {
            const QRegularExpressionMatch m = it.next();
            out += text.mid(at, m.capturedStart() - at);
            QJsonValue bound;
            out += lookup(m.captured(1), &bound) ? textOf(bound) : m.captured(0);
            at = m.capturedEnd();
        }
        return out + text.mid(at);
    }
    if (v.isArray()) {
        QJsonArray out;
        for (const QJsonValue &item : v.toArray())
            out.append(bindValue(item, params, defaults, missing));
        return out;
    }
    if (v.isObject()) {
        QJsonObject out;
        const QJsonObject o = v.toObject();
        for (auto it = o.constBegin(); it != o.constEnd(); ++it)
            out.insert(it.key(), bindValue(it.value(), params, defaults, missing));
        return out;
    }
    return v;
}

QString field(const QJsonObject &c, std::initializer_list<const char *> names)
{
    for (const char *n : names) {
        const QJsonValue v = c.value(QLatin1String(n));
        if (v.isString() && !v.toString().isEmpty())
            return v.toString();
    }
    return QString();
}

Check result(const QString &kind, bool pass, const QString &reason)
{
    return Check{kind, pass ? QStringLiteral("ready") : QStringLiteral("blocked"),
                 pass ? QString() : reason};
}

} // namespace

QString parameterKind(const QString &text)
{
    static const QRegularExpression uuid(QStringLiteral(
        "^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$"));
    static const QRegularExpression url(QStringLiteral(R"(^[A-Za-z][A-Za-z0-9+.-]*://\S+$)"));
    static const QRegularExpression path(QStringLiteral(R"(^(/|\./|\.\./|~/)\S+$)"));
    static const QRegularExpression semver(
        QStringLiteral(R"(^v?\d+\.\d+\.\d+(-[0-9A-Za-z.-]+)?(\+[0-9A-Za-z.-]+)?$)"));
    if (uuid.match(text).hasMatch())
        return QStringLiteral("uuid");
    if (url.match(text).hasMatch())
        return QStringLiteral("url");
    if (path.match(text).hasMatch())
        return QStringLiteral("path");
    if (semver.match(text).hasMatch())
        return QStringLiteral("semver");
    return QString();
}

QJsonValue Parameterizer::lift(const QJsonValue &input, QStringList *used)
{
    return liftValue(input, QString(), -1, used);
}

QJsonValue Parameterizer::liftValue(const QJsonValue &value, const QString &key, int index,
                                    QStringList *used)
{
    if (value.isString()) {
        const QString text = value.toString();
        const bool isCommand
            = key == QLatin1String("command") || (key == QLatin1String("argv") && index == 0);
        const QString kind = isCommand ? QString() : parameterKind(text);
        if (kind.isEmpty())
            return value;
        QString name = m_nameByValue.value(text);
        if (name.isEmpty()) {
            name = QStringLiteral("%1_%2").arg(kind).arg(++m_countByKind[kind]);
            m_nameByValue.insert(text, name);
            m_variables.append(QJsonObject{{QStringLiteral("name"), name},
                                           {QStringLiteral("kind"), kind},
                                           {QStringLiteral("default"), text}});
        }
        if (!used->contains(name))
            used->append(name);
        return QStringLiteral("{{%1}}").arg(name);
    }
    if (value.isArray()) {
        QJsonArray out;
        const QJsonArray in = value.toArray();
        for (int i = 0; i < in.size(); ++i)
            out.append(liftValue(in.at(i), key, i, used));
        return out;
    }
    if (value.isObject()) {
        QJsonObject out;
        const QJsonObject in = value.toObject();
        for (auto it = in.constBegin(); it != in.constEnd(); ++it)
            out.insert(it.key(), liftValue(it.value(), it.key(), -1, used));
        return out;
    }
    return value;
}

QJsonObject Parameterizer::countsByKind() const
{
    QJsonObject out;
    for (auto it = m_countByKind.constBegin(); it != m_countByKind.constEnd(); ++it)
        out.insert(it.key(), it.value());
    return out;
}

Binding bind(const QJsonValue &templ, const QJsonObject &params, const QJsonObject &defaults)
{
    Binding b;
    b.value = bindValue(templ, params, defaults, &b.missing);
    return b;
}

QJsonObject defaultsOf(const QJsonArray &variables)
{
    QJsonObject out;
    for (const QJsonValue &v : variables) {
        const QJsonObject o = v.toObject();
        const QString name = o.value(QStringLiteral("name")).toString();
        if (!name.isEmpty())
            out.insert(name, o.value(QStringLiteral("default")));
    }
    return out;
}

QStringList argvOf(const QJsonValue &toolInput)
{
    const QJsonObject o = toolInput.toObject();
    QStringList argv;
    if (o.value(QStringLiteral("argv")).isArray()) {
        for (const QJsonValue &v : o.value(QStringLiteral("argv")).toArray())
            argv << textOf(v);
        return argv;
    }
    const QString command = o.value(QStringLiteral("command")).toString();
    if (command.isEmpty())
        return argv;
    argv << command;
    for (const QJsonValue &v : o.value(QStringLiteral("args")).toArray())
        argv << textOf(v);
    return argv;
}

QJsonObject Check::toJson(const QJsonObject &condition) const
{
    return {{QStringLiteral("kind"), kind},
            {QStringLiteral("state"), state},
            {QStringLiteral("reason"), reason.isEmpty() ? QJsonValue() : QJsonValue(reason)},
            {QStringLiteral("condition"), condition}};
}

Check evaluate(const QJsonObject &c)
{
    const QString kind = field(c, {"kind", "type"});
    if (kind == QLatin1String("always"))
        return result(kind, true, {});
    const QString name = field(c, {"name", "env", "var"});
    const QString path = field(c, {"path", "file", "entry"});
    if (kind == QLatin1String("env_exists")) {
        if (name.isEmpty())
            return {kind, QStringLiteral("unknown"), QStringLiteral("missing_name")};
        return result(kind, qEnvironmentVariableIsSet(name.toLocal8Bit().constData()),
                      QStringLiteral("env_missing"));
    }
    if (kind == QLatin1String("env_equals")) {
        if (name.isEmpty())
            return {kind, QStringLiteral("unknown"), QStringLiteral("missing_name")};
        const QString expected = textOf(c.value(QStringLiteral("value")));
        return result(kind,
                      qEnvironmentVariableIsSet(name.toLocal8Bit().constData())
                          && qEnvironmentVariable(name.toLocal8Bit().constData()) == expected,
                      QStringLiteral("env_mismatch"));
    }
    if (kind == QLatin1String("file_exists") || kind == QLatin1String("path_not_exists")) {
        if (path.isEmpty())
            return {kind, QStringLiteral("unknown"), QStringLiteral("missing_path")};
        const bool exists = QFileInfo::exists(path);
        return kind == QLatin1String("file_exists")
                   ? result(kind, exists, QStringLiteral("file_missing"))
                   : result(kind, !exists, QStringLiteral("path_exists"));
    }
    if (kind == QLatin1String("cwd_contains")) {
        const QString entry = path.isEmpty() ? name : path;
        if (entry.isEmpty())
            return {kind, QStringLiteral("unknown"), QStringLiteral("missing_path")};
        return result(kind, QDir::current().exists(entry), QStringLiteral("cwd_entry_missing"));
    }
    if (kind == QLatin1String("command_available")) {
        const QString command = field(c, {"command", "name"});
        if (command.isEmpty())
            return {kind, QStringLiteral("unknown"), QStringLiteral("missing_command")};
        return result(kind, !QStandardPaths::findExecutable(command).isEmpty(),
                      QStringLiteral("command_missing"));
    }
    return {kind.isEmpty() ? QStringLiteral("unspecified") : kind, QStringLiteral("unknown"),
            QStringLiteral("unsupported_precondition_kind")};
}

} // namespace MemoryGraph::PlaybookTemplate
