#include "service/api/writerequest.h"

#include "service/core/hashing.h"
#include "service/core/ids.h"
#include "service/core/jsonreader.h"
#include "service/core/vocabulary.h"

#include <QDateTime>

#include <cmath>

namespace MemoryGraph {

namespace {

/// occurred_at: an ISO 8601 date ("2025-03-03", midnight UTC) or date-time with an offset or Z.
bool readOccurredAt(JsonReader &r, QDateTime *out)
{
    QString text;
    if (!r.string("occurred_at", &text, 64) || text.isEmpty())
        return r.ok();
    const QDate day = QDate::fromString(text, Qt::ISODate);
    QDateTime when = text.size() == 10 && day.isValid()
                         ? day.startOfDay(Qt::UTC)
                         : QDateTime::fromString(text, Qt::ISODateWithMs);
    // A date-time without Z or an offset would mean whatever zone the server runs in.
    const bool zoned = when.timeSpec() == Qt::UTC || when.timeSpec() == Qt::OffsetFromUTC;
    if (!when.isValid() || !zoned)
        return r.fail(QStringLiteral("occurred_at"),
                      QStringLiteral("must be an ISO 8601 date (2025-03-03) or a date-time with "
                                     "a zone (2025-03-03T14:30:00Z)"));
    *out = when.toUTC();
    return true;
}

bool readNode(const QJsonValue &value, const QString &path, int maxText, WriteNodeInput *n,
              JsonReader &top)
{
    if (!value.isObject())
        return top.fail(path, QStringLiteral("must be an object"));
    const QJsonObject o = value.toObject();
    JsonReader r(o, top.path(path), top.vectors());
    n->raw = o;
    r.string("id", &n->id, 64);
    r.string("client_id", &n->clientId, 512);
    r.string("scope", &n->scope, 256);
    if (r.ok() && o.value(QStringLiteral("type")).isUndefined())
        r.fail(QStringLiteral("type"), QStringLiteral("is required"));
    r.enumValue("type", &n->type, Vocabulary::nodeTypes());
    r.enumValue("tier", &n->tier, Vocabulary::tiers());
    r.enumValue("memory_lane", &n->memoryLane, Vocabulary::lanes());
    r.string("producer_agent_id", &n->producerAgentId, 256);
    r.string("owner_agent_id", &n->ownerAgentId, 256);
    r.string("owner_team_id", &n->ownerTeamId, 256);
    r.string("title", &n->title, 1 << 20);
    r.string("text_summary", &n->textSummary, 1 << 20);
    r.string("raw_ref", &n->rawRef, 4096);
    r.string("evidence_ref", &n->evidenceRef, 4096);
    r.string("embedding_model", &n->embeddingModel, 256);
    r.object("slots", &n->slotData);
    r.number("salience", &n->salience, 0.0, 1.0);
    r.number("importance", &n->importance, 0.0, 1.0);
    r.number("confidence", &n->confidence, 0.0, 1.0);
    r.floatVector("embedding", &n->embedding, Vocabulary::kEmbeddingDimension);
    readOccurredAt(r, &n->occurredAt);
    if (r.ok() && !n->id.isEmpty() && !isUuid(n->id))
        r.fail(QStringLiteral("id"), QStringLiteral("must be a UUID"));
    if (!r.ok())
        return top.absorb(r);
    n->id = n->id.toLower();
    // Hashed bodies (request keys, content ids) name an embedding by its digest, however it
    // was parsed.
    if (!n->embedding.isEmpty() && !o.value(QStringLiteral("embedding")).isString())
        n->raw.insert(QStringLiteral("embedding"), embeddingDigest(n->embedding));
    n->title = normalizeText(n->title, maxText);
    n->textSummary = normalizeText(n->textSummary, maxText);
    return true;
}

bool readEndpoint(JsonReader &r, const char *key, EdgeEndpoint *out)
{
    QJsonObject endpoint;
    bool present = false;
    if (!r.object(key, &endpoint, &present))
        return false;
    if (!present)
        return r.fail(QLatin1String(key),
                      QStringLiteral("is required ({\"id\"} or {\"client_id\"})"));
    JsonReader er(endpoint, r.path(QLatin1String(key)));
    er.string("id", &out->id, 64);
    er.string("client_id", &out->clientId, 512);
    if (er.ok() && out->id.isEmpty() && out->clientId.isEmpty())
        er.fail(QString(), QStringLiteral("needs id or client_id"));
    if (er.ok() && !out->id.isEmpty() && !isUuid(out->id))
        er.fail(QStringLiteral("id"), QStringLiteral("must be a UUID"));
    if (!er.ok())
        return r.absorb(er);
    out->id = out->id.toLower();
    return true;
}

bool readEdge(const QJsonValue &value, const QString &path, WriteEdgeInput *e, JsonReader &top)
{
    if (!value.isObject())
        return top.fail(path, QStringLiteral("must be an object"));
    const QJsonObject o = value.toObject();
    JsonReader r(o, top.path(path));
    r.string("id", &e->id, 64);
    if (r.ok() && o.value(QStringLiteral("type")).isUndefined())
        r.fail(QStringLiteral("type"), QStringLiteral("is required"));
    r.enumValue("type", &e->type, Vocabulary::edgeTypes());
    readEndpoint(r, "src", &e->src);
    readEndpoint(r, "dst", &e->dst);
    r.number("weight", &e->weight, 0.0, 1.0);
    r.number("confidence", &e->confidence, 0.0, 1.0);
    r.number("decay_rate", &e->decayRate, 0.0, 1.0);
    if (r.ok() && !e->id.isEmpty() && !isUuid(e->id))
        r.fail(QStringLiteral("id"), QStringLiteral("must be a UUID"));
    if (!r.ok())
        return top.absorb(r);
    e->id = e->id.toLower();
    return true;
}

} // namespace

Result<WriteRequest> WriteRequest::fromJson(const QJsonObject &body, int maxTextLength,
                                            const DecodedVectors *vectors)
{
    WriteRequest w;
    w.raw = body;
    w.raw.remove(QStringLiteral("tenant_id"));
    w.raw.remove(QStringLiteral("scope"));
    JsonReader r(body, QString(), vectors);
    r.string("tenant_id", &w.tenantId, 64);
    r.string("scope", &w.scope, 256);
    r.string("actor", &w.actor, 256);
    r.string("input_text", &w.inputText, 1 << 22);
    r.string("input_sha256", &w.inputSha256, 64);
    r.enumValue("memory_lane", &w.memoryLane, Vocabulary::lanes());
    r.string("producer_agent_id", &w.producerAgentId, 256);
    r.string("owner_agent_id", &w.ownerAgentId, 256);
    r.string("owner_team_id", &w.ownerTeamId, 256);
    r.boolean("auto_embed", &w.autoEmbed);
    if (r.ok() && w.inputText.isEmpty() && w.inputSha256.isEmpty())
        r.fail(QStringLiteral("input_text"),
               QStringLiteral("input_text or input_sha256 is required"));
    if (r.ok() && !w.inputSha256.isEmpty() && !isSha256Hex(w.inputSha256))
        r.fail(QStringLiteral("input_sha256"), QStringLiteral("must be 64 hex digits"));

    QJsonArray nodes;
    QJsonArray edges;
    r.array("nodes", &nodes, &w.nodesGiven);
    r.array("edges", &edges);
    if (r.ok() && nodes.size() > Vocabulary::kMaxNodesPerWrite)
        r.fail(QStringLiteral("nodes"),
               QStringLiteral("at most %1 nodes per write").arg(Vocabulary::kMaxNodesPerWrite));
    if (r.ok() && edges.size() > Vocabulary::kMaxEdgesPerWrite)
        r.fail(QStringLiteral("edges"),
               QStringLiteral("at most %1 edges per write").arg(Vocabulary::kMaxEdgesPerWrite));
    if (!r.ok())
        return r.error();

    w.nodes.resize(nodes.size());
    for (int i = 0; i < nodes.size(); ++i) {
        if (!readNode(nodes.at(i), QStringLiteral("nodes[%1]").arg(i), maxTextLength, &w.nodes[i],
                      r))
            return r.error();
    }
    w.edges.resize(edges.size());
    for (int i = 0; i < edges.size(); ++i) {
        if (!readEdge(edges.at(i), QStringLiteral("edges[%1]").arg(i), &w.edges[i], r))
            return r.error();
    }
    w.inputText = normalizeText(w.inputText, maxTextLength);
    w.inputSha256 = w.inputSha256.toLower();
    return w;
}

} // namespace MemoryGraph
