#pragma once

// Shared fixtures for the rules and tools HTTP tests (spec §2.6-2.8, §4.7-4.11): a builder for
// rule nodes written through /v1/memory/write, and a small client for the rule and tool routes.

#include "tests/http/httptestserver.h"

#include <QCryptographicHash>
#include <QHash>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QStringList>

namespace MemoryGraph::Test::Rules {

inline QString s(const char *latin1)
{
    return QString::fromLatin1(latin1);
}

/// A JSON object from literal keys: obj({{"a", 1}, {"b", "x"}}).
inline QJsonObject obj(std::initializer_list<QPair<const char *, QJsonValue>> fields)
{
    QJsonObject o;
    for (const auto &[key, value] : fields)
        o.insert(QString::fromLatin1(key), value);
    return o;
}

/// A JSON array of strings.
inline QJsonArray strs(std::initializer_list<const char *> items)
{
    QJsonArray a;
    for (const char *item : items)
        a.append(QString::fromLatin1(item));
    return a;
}

inline QStringList stringList(const QJsonValue &value)
{
    QStringList out;
    for (const QJsonValue &v : value.toArray())
        out << v.toString();
    return out;
}

inline QJsonObject merged(QJsonObject base, const QJsonObject &extra)
{
    for (auto it = extra.begin(); it != extra.end(); ++it)
        base.insert(it.key(), it.value());
    return base;
}

/// The compact text of any JSON value (wrapped in a one-element array), so that numbers that
/// arrived as integers compare equal to expected values built from ints or doubles, and a
/// failing QCOMPARE prints both sides readably.
inline QByteArray jsonText(const QJsonValue &value)
{
    return QJsonDocument(QJsonArray{value}).toJson(QJsonDocument::Compact);
}

inline QString sha256Hex(const QByteArray &bytes)
{
    return QString::fromLatin1(QCryptographicHash::hash(bytes, QCryptographicHash::Sha256).toHex());
}

/// A rule node (type "rule") for /v1/memory/write. The lane defaults to "shared" so that only
/// the tests about lanes have to think about ownership.
class RuleNode
{
public:
    explicit RuleNode(const QString &clientId)
        : m_clientId(clientId), m_summary(QStringLiteral("rule ") + clientId)
    {
    }

    RuleNode &when(const QJsonObject &ifJson)
    {
        m_ruleSlots.insert(s("if"), ifJson);
        return *this;
    }
    RuleNode &then(const QJsonValue &thenJson)
    {
        m_ruleSlots.insert(s("then"), thenJson);
        return *this;
    }
    RuleNode &except(const QJsonArray &exceptions)
    {
        m_ruleSlots.insert(s("exceptions"), exceptions);
        return *this;
    }
    RuleNode &priority(const QJsonValue &value)
    {
        m_meta.insert(s("priority"), value);
        return *this;
    }
    RuleNode &weight(const QJsonValue &value)
    {
        m_meta.insert(s("weight"), value);
        return *this;
    }
    RuleNode &forTeam(const QString &teamId)
    {
        m_ruleSlots.insert(s("rule_scope"), s("team"));
        m_ruleSlots.insert(s("target_team_id"), teamId);
        return *this;
    }
    RuleNode &forAgent(const QString &agentId)
    {
        m_ruleSlots.insert(s("rule_scope"), s("agent"));
        m_ruleSlots.insert(s("target_agent_id"), agentId);
        return *this;
    }
    /// A raw slot (for invalid or unusual definitions).
    RuleNode &slot(const QString &key, const QJsonValue &value)
    {
        m_ruleSlots.insert(key, value);
        return *this;
    }
    RuleNode &summary(const QString &text)
    {
        m_summary = text;
        return *this;
    }
    RuleNode &privateTo(const QString &ownerAgentId, const QString &ownerTeamId = QString())
    {
        m_lane = s("private");
        m_ownerAgent = ownerAgentId;
        m_ownerTeam = ownerTeamId;
        return *this;
    }
    /// No memory_lane and no owner in the node: the request's (or the credential's) defaults apply.
    RuleNode &defaultLane()
    {
        m_lane.clear();
        return *this;
    }

    QString clientId() const { return m_clientId; }
    QString summaryText() const { return m_summary; }

    QJsonObject toJson() const
    {
        QJsonObject node = writeNode(m_clientId, s("rule"), m_summary);
        QJsonObject ruleSlots = m_ruleSlots;
        if (!m_meta.isEmpty())
            ruleSlots.insert(s("rule_meta"), m_meta);
        node.insert(s("slots"), ruleSlots);
        if (!m_lane.isEmpty())
            node.insert(s("memory_lane"), m_lane);
        if (!m_ownerAgent.isEmpty())
            node.insert(s("owner_agent_id"), m_ownerAgent);
        if (!m_ownerTeam.isEmpty())
            node.insert(s("owner_team_id"), m_ownerTeam);
        return node;
    }

private:
    QString m_clientId;
    QString m_summary;
    QJsonObject m_ruleSlots;
    QJsonObject m_meta;
    QString m_lane = QStringLiteral("shared");
    QString m_ownerAgent;
    QString m_ownerTeam;
};

/// A rule match from an active/shadow array by id (empty object when absent).
inline QJsonObject matchById(const QJsonValue &list, const QString &ruleId)
{
    for (const QJsonValue &v : list.toArray()) {
        if (v.toObject().value(s("rule_node_id")).toString() == ruleId)
            return v.toObject();
    }
    return {};
}

/// rule_node_id of every entry of an array, in order.
inline QStringList ruleIdsOf(const QJsonValue &list)
{
    QStringList ids;
    for (const QJsonValue &v : list.toArray())
        ids << v.toObject().value(s("rule_node_id")).toString();
    return ids;
}

inline QStringList sorted(QStringList list)
{
    list.sort();
    return list;
}

/// Talks to the rule and tool routes of one test server, with optional fixed headers.
class RuleApi
{
public:
    explicit RuleApi(HttpTestServer &server, const HttpHeaders &headers = {})
        : m_server(server), m_headers(headers)
    {
    }

    /// The last write or state change made by add()/write(): inspect it when they fail.
    Reply last;

    /// Writes the rule nodes in one request; node ids by client_id, or empty on failure.
    QHash<QString, QString> write(const QList<RuleNode> &rules, const QJsonObject &extra = {})
    {
        QJsonArray nodes;
        for (const RuleNode &r : rules)
            nodes.append(r.toJson());
        last
            = m_server.write(merged(writeBody(nodes, {}, s("rules for a test")), extra), m_headers);
        QHash<QString, QString> ids;
        if (last.status != 200)
            return ids;
        for (const QJsonValue &n : last.json.value(s("nodes")).toArray())
            ids.insert(n.toObject().value(s("client_id")).toString(),
                       n.toObject().value(s("id")).toString());
        return ids;
    }

    /// Writes one rule and, when state is not SHADOW, moves it there. The node id, or an empty
    /// string on failure (see `last`).
    QString add(const RuleNode &rule, const QString &state = QStringLiteral("ACTIVE"))
    {
        const QString id = write({rule}).value(rule.clientId());
        if (id.isEmpty() || state == QLatin1String("SHADOW"))
            return id;
        last = setState(id, state);
        return last.status == 200 ? id : QString();
    }

    Reply setState(const QString &ruleId, const QString &state, const QJsonObject &extra = {})
    {
        return post("/v1/memory/rules/state",
                    merged(obj({{"rule_node_id", ruleId},
                                {"state", state},
                                {"input_text", s("change the rule state")}}),
                           extra));
    }

    Reply evaluate(const QJsonValue &context, const QJsonObject &extra = {})
    {
        return post("/v1/memory/rules/evaluate", merged(obj({{"context", context}}), extra));
    }

    Reply select(const QJsonObject &context, const QJsonArray &candidates,
                 const QJsonObject &extra = {})
    {
        return post("/v1/memory/tools/select",
                    merged(obj({{"context", context}, {"candidates", candidates}}), extra));
    }

    Reply feedback(const QJsonObject &context, const QJsonArray &candidates,
                   const QString &selectedTool, const QString &outcome,
                   const QJsonObject &extra = {})
    {
        return post("/v1/memory/tools/feedback",
                    merged(obj({{"context", context},
                                {"candidates", candidates},
                                {"selected_tool", selectedTool},
                                {"outcome", outcome},
                                {"input_text", s("the tool worked out")}}),
                           extra));
    }

    Reply decision(const QJsonObject &body) { return post("/v1/memory/tools/decision", body); }
    Reply run(const QJsonObject &body) { return post("/v1/memory/tools/run", body); }

    Reply post(const char *path, const QJsonObject &body)
    {
        return m_server.post(QString::fromLatin1(path), body, m_headers);
    }

private:
    HttpTestServer &m_server;
    HttpHeaders m_headers;
};

} // namespace MemoryGraph::Test::Rules
