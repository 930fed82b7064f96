#include "service/rules/policypatch.h"

#include <QJsonArray>
#include <QStringList>

namespace MemoryGraph::Rules {

namespace {

Result<void> rejectUnknownKeys(const QJsonObject &object, const QStringList &known,
                               const QString &prefix)
{
    for (auto it = object.begin(); it != object.end(); ++it) {
        if (!known.contains(it.key()))
            return Error::invalidField(prefix.isEmpty() ? it.key() : prefix + u'.' + it.key(),
                                       QStringLiteral("unknown field"));
    }
    return {};
}

Result<void> validateOutput(const QJsonValue &value)
{
    if (!value.isObject())
        return Error::invalidField(QStringLiteral("output"), QStringLiteral("must be an object"));
    const QJsonObject output = value.toObject();
    if (auto r = rejectUnknownKeys(output, {QStringLiteral("format"), QStringLiteral("strict")},
                                   QStringLiteral("output"));
        !r)
        return r;
    static const QStringList formats{QStringLiteral("json"), QStringLiteral("text"),
                                     QStringLiteral("markdown")};
    if (output.contains(u"format")) {
        const QJsonValue format = output.value(u"format");
        if (!format.isString() || !formats.contains(format.toString()))
            return Error::invalidField(QStringLiteral("output.format"),
                                       QStringLiteral("must be one of json, text, markdown"));
    }
    if (output.contains(u"strict") && !output.value(u"strict").isBool())
        return Error::invalidField(QStringLiteral("output.strict"),
                                   QStringLiteral("must be a boolean"));
    return {};
}

Result<void> validateToolList(const QJsonValue &value, const QString &path)
{
    if (!value.isArray())
        return Error::invalidField(path, QStringLiteral("must be an array of strings"));
    const QJsonArray list = value.toArray();
    if (list.size() > kMaxToolListSize)
        return Error::invalidField(
            path, QStringLiteral("must have at most %1 entries").arg(kMaxToolListSize));
    for (qsizetype i = 0; i < list.size(); ++i) {
        if (!list.at(i).isString() || list.at(i).toString().isEmpty())
            return Error::invalidField(path + u'[' + QString::number(i) + u']',
                                       QStringLiteral("must be a non-empty string"));
    }
    return {};
}

Result<void> validateTool(const QJsonValue &value)
{
    if (!value.isObject())
        return Error::invalidField(QStringLiteral("tool"), QStringLiteral("must be an object"));
    const QJsonObject tool = value.toObject();
    const QStringList lists{QStringLiteral("allow"), QStringLiteral("deny"),
                            QStringLiteral("prefer")};
    if (auto r = rejectUnknownKeys(tool, lists, QStringLiteral("tool")); !r)
        return r;
    for (const QString &key : lists) {
        if (!tool.contains(key))
            continue;
        if (auto r = validateToolList(tool.value(key), QStringLiteral("tool.") + key); !r)
            return r;
    }
    return {};
}

} // namespace

Result<QJsonObject> validatePolicyPatch(const QJsonValue &thenJson)
{
    if (thenJson.isUndefined())
        return QJsonObject();
    if (!thenJson.isObject())
        return Error::invalidField(QString(), QStringLiteral("policy patch must be an object"));
    const QJsonObject patch = thenJson.toObject();
    if (auto r = rejectUnknownKeys(
            patch, {QStringLiteral("output"), QStringLiteral("tool"), QStringLiteral("extensions")},
            QString());
        !r)
        return r.error();
    if (patch.contains(u"output")) {
        if (auto r = validateOutput(patch.value(u"output")); !r)
            return r.error();
    }
    if (patch.contains(u"tool")) {
        if (auto r = validateTool(patch.value(u"tool")); !r)
            return r.error();
    }
    if (patch.contains(u"extensions") && !patch.value(u"extensions").isObject())
        return Error::invalidField(QStringLiteral("extensions"),
                                   QStringLiteral("must be an object"));
    return patch;
}

} // namespace MemoryGraph::Rules
