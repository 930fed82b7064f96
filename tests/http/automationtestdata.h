#pragma once

// Shared fixtures for the automation HTTP tests (spec §4.14, reference-behaviour §8): graph nodes
// and edges, a create body, and what a run answer says.

#include "tests/http/httptestserver.h"

#include <QJsonObject>
#include <QString>

namespace MemoryGraph::Test::Automations {

inline QJsonObject node(const char *id, const char *kind, const QJsonObject &extra = {})
{
    QJsonObject n = extra;
    n.insert(QStringLiteral("node_id"), QString::fromLatin1(id));
    n.insert(QStringLiteral("kind"), QString::fromLatin1(kind));
    return n;
}

inline QJsonObject edge(const char *from, const char *to)
{
    return {{QStringLiteral("from"), QString::fromLatin1(from)},
            {QStringLiteral("to"), QString::fromLatin1(to)},
            {QStringLiteral("type"), QStringLiteral("on_success")}};
}

inline QJsonObject createBody(const char *id, const char *status, const QJsonObject &graph)
{
    return {{QStringLiteral("automation_id"), QString::fromLatin1(id)},
            {QStringLiteral("name"), QString::fromLatin1(id)},
            {QStringLiteral("status"), QString::fromLatin1(status)},
            {QStringLiteral("graph"), graph}};
}

inline QString runState(const Reply &r)
{
    return r.json.value(QStringLiteral("run"))
        .toObject()
        .value(QStringLiteral("status_summary"))
        .toString();
}

inline QString runIdOf(const Reply &r)
{
    return r.json.value(QStringLiteral("run"))
        .toObject()
        .value(QStringLiteral("run_id"))
        .toString();
}

} // namespace MemoryGraph::Test::Automations
