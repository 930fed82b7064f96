// POST /v1/memory/recall and POST /v1/memory/recall_text over real HTTP (spec §1.10, §2.1-2.5,
// §4.3 with 4.3.1-4.3.3, §4.4, §7, §8; DESIGN decisions 1-3 and 6; reference-behaviour §4).
//
// Nodes are written with client embeddings: unit vectors along chosen axes, so the similarity
// of a node to a query is simply the query's weight on that axis divided by the query's norm.

#include "tests/http/httptestserver.h"

#include <QCryptographicHash>
#include <QDateTime>
#include <QSet>
#include <QTest>

#include <cmath>

using namespace MemoryGraph;
using namespace MemoryGraph::Test;
using namespace Qt::StringLiterals;

namespace {

const QString kRecall = u"/v1/memory/recall"_s;
const QString kRecallText = u"/v1/memory/recall_text"_s;
constexpr int kDim = 1536;
constexpr double kTolerance = 1e-5;

// ---- building requests ----------------------------------------------------------------------

QJsonObject obj(std::initializer_list<QPair<const char *, QJsonValue>> fields)
{
    QJsonObject o;
    for (const auto &[key, value] : fields)
        o.insert(QString::fromLatin1(key), value);
    return o;
}

QStringList stringList(const QJsonValue &value)
{
    QStringList out;
    for (const QJsonValue &v : value.toArray())
        out << v.toString();
    return out;
}

QJsonObject merged(QJsonObject base, const QJsonObject &extra)
{
    for (auto it = extra.begin(); it != extra.end(); ++it)
        base.insert(it.key(), it.value());
    return base;
}

/// A 1536-dimensional vector with the given (dimension, value) components, zero elsewhere.
QJsonArray vec(const QList<QPair<int, double>> &components)
{
    QVector<double> values(kDim, 0.0);
    for (const auto &[dimension, value] : components)
        values[dimension] = value;
    QJsonArray out;
    for (double value : values)
        out.append(value);
    return out;
}

QJsonArray axis(int dimension)
{
    return vec({{dimension, 1.0}});
}

/// A shared node with a client embedding; extra fields override the defaults.
QJsonObject memNode(const QString &clientId, const QString &type, const QString &summary,
                    const QJsonArray &embedding, const QJsonObject &extra = {})
{
    QJsonObject n = writeNode(clientId, type, summary);
    n.insert(u"embedding"_s, embedding);
    n.insert(u"memory_lane"_s, u"shared"_s);
    return merged(n, extra);
}

QJsonObject memEdge(const QString &type, const QString &from, const QString &to, double weight,
                    double confidence)
{
    QJsonObject e = writeEdge(type, byClientId(from), byClientId(to));
    e.insert(u"weight"_s, weight);
    e.insert(u"confidence"_s, confidence);
    return e;
}

QJsonObject recallBody(const QJsonArray &query, const QJsonObject &extra = {})
{
    return merged(QJsonObject{{u"query_embedding"_s, query}}, extra);
}

QJsonObject recallTextBody(const QString &text, const QJsonObject &extra = {})
{
    return merged(QJsonObject{{u"query_text"_s, text}}, extra);
}

/// A write and the ids it produced, by client_id.
struct Written
{
    Reply reply;
    QHash<QString, QString> ids; ///< client_id -> node id
    QString commitId;

    bool ok() const { return reply.status == 200; }
    QString id(const QString &clientId) const { return ids.value(clientId); }
    QString clientOf(const QString &id) const { return ids.key(id, u"<unknown:"_s + id + u'>'); }
    QStringList clientsOf(const QStringList &nodeIds) const
    {
        QStringList out;
        for (const QString &nodeId : nodeIds)
            out << clientOf(nodeId);
        return out;
    }
};

Written writeGraph(HttpTestServer &server, const QJsonArray &nodes, const QJsonArray &edges = {},
                   const HttpHeaders &headers = {}, const QJsonObject &extra = {})
{
    Written w;
    w.reply = server.write(merged(writeBody(nodes, edges), extra), headers);
    w.commitId = w.reply.json.value(u"commit_id"_s).toString();
    for (const QJsonValue &n : w.reply.json.value(u"nodes"_s).toArray())
        w.ids.insert(n.toObject().value(u"client_id"_s).toString(),
                     n.toObject().value(u"id"_s).toString());
    return w;
}

// ---- reading responses ----------------------------------------------------------------------

QJsonArray arrayAt(const QJsonObject &o, const QString &path)
{
    QJsonValue v = o;
    for (const QString &part : path.split(u'.'))
        v = v.toObject().value(part);
    return v.toArray();
}

QJsonObject objectAt(const QJsonObject &o, const QString &path)
{
    QJsonValue v = o;
    for (const QString &part : path.split(u'.'))
        v = v.toObject().value(part);
    return v.toObject();
}

QStringList fieldOf(const QJsonArray &items, const QString &key = u"id"_s)
{
    QStringList out;
    for (const QJsonValue &item : items)
        out << item.toObject().value(key).toString();
    return out;
}

QStringList seedIds(const Reply &r)
{
    return fieldOf(arrayAt(r.json, u"seeds"_s));
}

QStringList rankedIds(const Reply &r)
{
    return fieldOf(arrayAt(r.json, u"ranked"_s));
}

QStringList nodeIds(const Reply &r)
{
    return fieldOf(arrayAt(r.json, u"subgraph.nodes"_s));
}

QStringList sorted(QStringList list)
{
    list.sort();
    return list;
}

/// Paths of every member named "embedding" or "embeddings", anywhere in the body.
void collectEmbeddingKeys(const QJsonValue &value, const QString &path, QStringList *out)
{
    if (value.isObject()) {
        const QJsonObject o = value.toObject();
        for (auto it = o.begin(); it != o.end(); ++it) {
            const QString child = path.isEmpty() ? it.key() : path + u'.' + it.key();
            if (it.key() == "embedding"_L1 || it.key() == "embeddings"_L1)
                out->append(child);
            collectEmbeddingKeys(it.value(), child, out);
        }
    } else if (value.isArray()) {
        const QJsonArray a = value.toArray();
        for (qsizetype i = 0; i < a.size(); ++i)
            collectEmbeddingKeys(a.at(i), path + u'[' + QString::number(i) + u']', out);
    }
}

QStringList embeddingKeyPaths(const QJsonObject &body)
{
    QStringList out;
    collectEmbeddingKeys(body, QString(), &out);
    return out;
}

QString sha256Hex(const QByteArray &data)
{
    return QString::fromLatin1(QCryptographicHash::hash(data, QCryptographicHash::Sha256).toHex());
}

/// The "[v1,v2,...]" text of a vector whose components print exactly (dyadic fractions).
QString vectorText(const QJsonArray &v)
{
    QStringList parts;
    for (const QJsonValue &x : v)
        parts << QString::number(x.toDouble(), 'g', 9);
    return u'[' + parts.join(u',') + u']';
}

/// An environment from "NAME=value" entries (a QStringList travels well through test data).
QProcessEnvironment envOf(const QStringList &entries)
{
    QProcessEnvironment env;
    for (const QString &entry : entries)
        env.insert(entry.section(u'=', 0, 0), entry.section(u'=', 1));
    return env;
}

int estTokens(qsizetype chars)
{
    return int((chars + 3) / 4);
}

// ---- expected key sets ----------------------------------------------------------------------

QStringList recallKeys()
{
    return keyList({"tenant_id", "scope", "seeds", "ranked", "subgraph", "context", "trajectory",
                    "observability"});
}

QStringList seedKeys()
{
    return keyList({"id", "type", "title", "text_summary", "tier", "salience", "confidence",
                    "similarity", "found_by"});
}

QStringList metaKeys()
{
    return keyList({"raw_ref", "evidence_ref", "embedding_status", "embedding_model", "memory_lane",
                    "producer_agent_id", "owner_agent_id", "owner_team_id", "created_at",
                    "updated_at", "last_activated", "salience", "importance", "confidence",
                    "commit_id"});
}

QStringList errorKeys()
{
    return keyList({"error", "message", "details", "request_id"});
}

QStringList compactionKeys()
{
    return keyList({"profile", "token_budget", "char_budget", "applied", "before_chars",
                    "after_chars", "before_est_tokens", "after_est_tokens", "dropped_lines",
                    "dropped_by_section"});
}

// ---- the standard graph ---------------------------------------------------------------------
//
//   e0 (event, axis 0) --part_of 0.9--> top (topic, axis 3) <--part_of 0.8-- e1 (event, axis 1)
//   e0 --part_of 0.9--> draft (draft topic, axis 4)      ent (entity, axis 2) --related_to--> e0
//   cold (event, tier cold, axis 5) and arch (event, tier archive, axis 6) stand alone.
//
// kStandardQuery leans hardest on the nodes that must never seed (archive, cold, draft), then
// e0 > e1 > ent > top.

QJsonArray standardQuery()
{
    return vec({{0, 6}, {1, 5}, {2, 4}, {3, 3}, {4, 7}, {5, 8}, {6, 9}});
}

double standardNorm()
{
    return std::sqrt(36.0 + 25 + 16 + 9 + 49 + 64 + 81);
}

Written writeStandardGraph(HttpTestServer &server, const HttpHeaders &headers = {})
{
    const QJsonArray nodes{
        memNode(u"e0"_s, u"event"_s, u"deploy failed on monday"_s, axis(0),
                obj({{"title", u"Deploy failure"_s},
                     {"raw_ref", u"s3://logs/e0"_s},
                     {"evidence_ref", u"ticket-7"_s}})),
        memNode(u"e1"_s, u"event"_s, u"rollback succeeded"_s, axis(1)),
        memNode(u"ent"_s, u"entity"_s, u"owned by team blue"_s, axis(2),
                obj({{"title", u"Payments API"_s}})),
        memNode(u"top"_s, u"topic"_s, u"weekly cadence"_s, axis(3),
                obj({{"title", u"Release train"_s},
                     {"slots", obj({{"topic_state", u"active"_s}, {"member_count", 2}})}})),
        memNode(
            u"draft"_s, u"topic"_s, u"unreviewed grouping"_s, axis(4),
            obj({{"title", u"Draft cluster"_s}, {"slots", obj({{"topic_state", u"draft"_s}})}})),
        memNode(u"cold"_s, u"event"_s, u"cold memory"_s, axis(5), obj({{"tier", u"cold"_s}})),
        memNode(u"arch"_s, u"event"_s, u"archived memory"_s, axis(6),
                obj({{"tier", u"archive"_s}})),
    };
    const QJsonArray edges{
        memEdge(u"part_of"_s, u"e0"_s, u"top"_s, 0.9, 1.0),
        memEdge(u"part_of"_s, u"e1"_s, u"top"_s, 0.8, 1.0),
        memEdge(u"part_of"_s, u"e0"_s, u"draft"_s, 0.9, 1.0),
        memEdge(u"related_to"_s, u"ent"_s, u"e0"_s, 0.7, 0.9),
    };
    return writeGraph(server, nodes, edges, headers);
}

} // namespace

#define REQUIRE_SERVER(server) QVERIFY2((server).isReady(), qPrintable((server).errorText()))
#define REQUIRE_WRITE(written) QVERIFY2((written).ok(), (written).reply.describe().constData())
#define REQUIRE_OK(reply) \
    QVERIFY2((reply).status == 200 && (reply).isJsonObject, (reply).describe().constData())
#define COMPARE_NEAR(actual, expected) \
    do { \
        const double actual_ = (actual); \
        const double expected_ = (expected); \
        QVERIFY2(std::abs(actual_ - expected_) < kTolerance, \
                 qPrintable(u"%1 is %2, expected %3"_s.arg(QString::fromLatin1(#actual)) \
                                .arg(actual_, 0, 'g', 12) \
                                .arg(expected_, 0, 'g', 12))); \
    } while (false)

class tst_HttpRecall : public QObject
{
    Q_OBJECT

private slots:
    // Response contract (spec §1.10, §2.1-2.5, §4.3, §4.4)
    void topLevelKeys_data();
    void topLevelKeys();
    void seedAndRankedKeys();
    void nodeAndEdgeKeys_data();
    void nodeAndEdgeKeys();
    void noEmbeddingKeysAnywhere_data();
    void noEmbeddingKeysAnywhere();
    void emptyScope();
    void rulesContextAccepted();

    // Pipeline (spec §4.3.1-4.3.2, reference §4.3-4.6)
    void seedsOrderedBySimilarity();
    void activationAndScore_data();
    void activationAndScore();
    void knobsBoundTheResult_data();
    void knobsBoundTheResult();
    void edgeQualityFilters_data();
    void edgeQualityFilters();
    void profileDefaultLimit_data();
    void profileDefaultLimit();
    void coldAndArchiveNeverSeed();
    void draftTopicNotSeededButAppended();
    void draftTopicSwappedIn_data();
    void draftTopicSwappedIn();
    void hiddenCandidatesDoNotCrowdOutSeeds_data();
    void hiddenCandidatesDoNotCrowdOutSeeds();
    void nodesWithoutReadyEmbeddingNotReturned();

    // Lanes and tenants (spec §4.3.2.3, §5.4; DESIGN decision 3)
    void laneVisibility_data();
    void laneVisibility();
    void defaultPrivateWritesVisibleToLocalUser();
    void tenantIsolation();

    // Context (spec §2.5, §4.3.2.6; reference §4.7-4.8)
    void contextSectionsItemsCitations();
    void contextEventsCappedAtTen();
    void contextCompressionSummaryFirst();
    void budgetCompactionKeepsItemsAndCitations_data();
    void budgetCompactionKeepsItemsAndCitations();
    void slotsPreview_data();
    void slotsPreview();

    // Validation (spec §4.3, §7, §8)
    void validationBounds_data();
    void validationBounds();
    void acceptedBounds_data();
    void acceptedBounds();

    // Debug embeddings (spec §4.3.3)
    void debugEmbeddingsRefused_data();
    void debugEmbeddingsRefused();
    void debugEmbeddingsPreview_data();
    void debugEmbeddingsPreview();

    // recall_text (spec §4.4; DESIGN decision 6)
    void recallTextLocalProvider();
    void recallTextSaysWhichChannelFoundEachSeed();
    void recallTextNoProvider();
    void trajectoryAndObservability_data();
    void trajectoryAndObservability();
    void observabilityShowsSeedChannels();
    void recallTextContextBudgetDefault();
};

// ---------------------------------------------------------------------------------------------
// Response contract

void tst_HttpRecall::topLevelKeys_data()
{
    QTest::addColumn<bool>("text");
    QTest::addColumn<bool>("debug");
    QTest::addColumn<QStringList>("expected");

    QTest::newRow("recall") << false << false << recallKeys();
    QTest::newRow("recall return_debug")
        << false << true << (recallKeys() + QStringList{u"debug"_s});
    QTest::newRow("recall_text") << true << false
                                 << sorted(recallKeys() + QStringList{u"request_id"_s, u"query"_s});
    QTest::newRow("recall_text return_debug")
        << true << true
        << sorted(recallKeys() + QStringList{u"request_id"_s, u"query"_s, u"debug"_s});
}

void tst_HttpRecall::topLevelKeys()
{
    QFETCH(bool, text);
    QFETCH(bool, debug);
    QFETCH(QStringList, expected);

    HttpTestServer server;
    REQUIRE_SERVER(server);
    const Written w = writeStandardGraph(server);
    REQUIRE_WRITE(w);

    const QJsonObject flags{{u"return_debug"_s, debug}};
    const Reply r = text ? server.post(kRecallText, recallTextBody(u"deploy failed"_s, flags))
                         : server.post(kRecall, recallBody(standardQuery(), flags));
    REQUIRE_OK(r);
    QCOMPARE(r.header("content-type"), QByteArrayLiteral("application/json"));
    QCOMPARE(sorted(keysOf(r.json)), sorted(expected));
    QCOMPARE(r.json.value(u"tenant_id"_s).toString(), u"default"_s);
    QCOMPARE(r.json.value(u"scope"_s).toString(), u"default"_s);
    QCOMPARE(keysOf(objectAt(r.json, u"subgraph"_s)), keyList({"nodes", "edges"}));
    QCOMPARE(keysOf(objectAt(r.json, u"context"_s)), keyList({"text", "items", "citations"}));
    QVERIFY(objectAt(r.json, u"context"_s).value(u"text"_s).isString());
    QVERIFY(!r.json.contains(u"rules"_s));

    if (text) {
        QCOMPARE(r.json.value(u"request_id"_s).toString(),
                 QString::fromLatin1(r.header("x-request-id")));
        const QJsonObject query = objectAt(r.json, u"query"_s);
        QCOMPARE(keysOf(query), keyList({"text", "embedding_provider"}));
        QCOMPARE(query.value(u"text"_s).toString(), u"deploy failed"_s);
        QCOMPARE(query.value(u"embedding_provider"_s).toString(), u"local:hashing-v2"_s);
    }
    if (debug) {
        const QJsonObject d = objectAt(r.json, u"debug"_s);
        QCOMPARE(keysOf(d),
                 keyList({"neighborhood_counts", "profile", "stage1", "context_compaction"}));
        QCOMPARE(keysOf(d.value(u"neighborhood_counts"_s).toObject()), keyList({"nodes", "edges"}));
        QCOMPARE(keysOf(d.value(u"profile"_s).toObject()),
                 keyList({"name", "source", "adaptive_downgrade"}));
        QCOMPARE(d.value(u"profile"_s).toObject().value(u"name"_s).toString(), u"strict_edges"_s);
        QCOMPARE(d.value(u"profile"_s).toObject().value(u"source"_s).toString(), u"global"_s);
        QCOMPARE(d.value(u"profile"_s).toObject().value(u"adaptive_downgrade"_s).toBool(), false);
        QVERIFY(d.value(u"stage1"_s).isObject());
        QCOMPARE(d.value(u"stage1"_s).toObject().value(u"final_seed_count"_s).toInt(),
                 int(arrayAt(r.json, u"seeds"_s).size()));
        QCOMPARE(keysOf(d.value(u"context_compaction"_s).toObject()), compactionKeys());
    }
}

void tst_HttpRecall::seedAndRankedKeys()
{
    HttpTestServer server;
    REQUIRE_SERVER(server);
    const Written w = writeStandardGraph(server);
    REQUIRE_WRITE(w);

    const Reply r = server.post(kRecall, recallBody(standardQuery()));
    REQUIRE_OK(r);
    const QJsonArray seeds = arrayAt(r.json, u"seeds"_s);
    QCOMPARE(seeds.size(), 4);
    for (const QJsonValue &s : seeds)
        QCOMPARE(keysOf(s.toObject()), seedKeys());
    const QJsonArray ranked = arrayAt(r.json, u"ranked"_s);
    QVERIFY(!ranked.isEmpty());
    for (const QJsonValue &e : ranked)
        QCOMPARE(keysOf(e.toObject()), keyList({"id", "activation", "score"}));

    // Values of the first seed: e0 as written, with defaults for what the write left out.
    const QJsonObject first = seeds.at(0).toObject();
    QCOMPARE(first.value(u"id"_s).toString(), w.id(u"e0"_s));
    QCOMPARE(first.value(u"type"_s).toString(), u"event"_s);
    QCOMPARE(first.value(u"title"_s).toString(), u"Deploy failure"_s);
    QCOMPARE(first.value(u"text_summary"_s).toString(), u"deploy failed on monday"_s);
    QCOMPARE(first.value(u"tier"_s).toString(), u"hot"_s);
    QCOMPARE(first.value(u"salience"_s).toDouble(), 0.5);
    QCOMPARE(first.value(u"confidence"_s).toDouble(), 0.5);
    COMPARE_NEAR(first.value(u"similarity"_s).toDouble(), 6.0 / standardNorm());
    // A node written without a title has a null title.
    QVERIFY(seeds.at(1).toObject().value(u"title"_s).isNull());
}

void tst_HttpRecall::nodeAndEdgeKeys_data()
{
    QTest::addColumn<QJsonObject>("flags");
    QTest::addColumn<QStringList>("extraNodeKeys");
    QTest::addColumn<QStringList>("extraEdgeKeys");

    QTest::newRow("defaults") << QJsonObject() << QStringList() << QStringList();
    QTest::newRow("include_meta") << obj({{"include_meta", true}}) << metaKeys()
                                  << QStringList{u"commit_id"_s};
    QTest::newRow("include_slots")
        << obj({{"include_slots", true}}) << QStringList{u"slots"_s} << QStringList();
    QTest::newRow("include_slots_preview") << obj({{"include_slots_preview", true}})
                                           << QStringList{u"slots_preview"_s} << QStringList();
    QTest::newRow("include_meta + include_slots_preview")
        << obj({{"include_meta", true}, {"include_slots_preview", true}})
        << (metaKeys() + QStringList{u"slots_preview"_s}) << QStringList{u"commit_id"_s};
    QTest::newRow("all flags false explicitly") << obj(
        {{"include_meta", false}, {"include_slots", false}, {"include_slots_preview", false}})
                                                << QStringList() << QStringList();
}

void tst_HttpRecall::nodeAndEdgeKeys()
{
    QFETCH(QJsonObject, flags);
    QFETCH(QStringList, extraNodeKeys);
    QFETCH(QStringList, extraEdgeKeys);

    HttpTestServer server;
    REQUIRE_SERVER(server);
    const Written w = writeStandardGraph(server);
    REQUIRE_WRITE(w);

    const Reply r = server.post(kRecall, recallBody(standardQuery(), flags));
    REQUIRE_OK(r);
    const QJsonArray nodes = arrayAt(r.json, u"subgraph.nodes"_s);
    QCOMPARE(nodes.size(), 5);
    const QStringList base = keyList({"id", "type", "title", "text_summary"});
    for (const QJsonValue &v : nodes) {
        const QJsonObject n = v.toObject();
        QStringList expected = base + extraNodeKeys;
        if (n.value(u"type"_s).toString() == "topic"_L1)
            expected << u"topic_state"_s << u"member_count"_s;
        QCOMPARE(sorted(keysOf(n)), sorted(expected));
    }
    const QJsonArray edges = arrayAt(r.json, u"subgraph.edges"_s);
    QCOMPARE(edges.size(), 4);
    for (const QJsonValue &v : edges)
        QCOMPARE(sorted(keysOf(v.toObject())),
                 sorted(keyList({"from_id", "to_id", "type", "weight"}) + extraEdgeKeys));

    // Topic fields come from the slots: state (default active) and member_count (null when absent).
    for (const QJsonValue &v : nodes) {
        const QJsonObject n = v.toObject();
        if (n.value(u"id"_s).toString() == w.id(u"top"_s)) {
            QCOMPARE(n.value(u"topic_state"_s).toString(), u"active"_s);
            QCOMPARE(n.value(u"member_count"_s).toInt(), 2);
        } else if (n.value(u"id"_s).toString() == w.id(u"draft"_s)) {
            QCOMPARE(n.value(u"topic_state"_s).toString(), u"draft"_s);
            QVERIFY(n.value(u"member_count"_s).isNull());
        }
    }

    if (flags.value(u"include_meta"_s).toBool()) {
        const QJsonObject e0 = nodes.at(0).toObject();
        QCOMPARE(e0.value(u"id"_s).toString(), w.id(u"e0"_s));
        QCOMPARE(e0.value(u"raw_ref"_s).toString(), u"s3://logs/e0"_s);
        QCOMPARE(e0.value(u"evidence_ref"_s).toString(), u"ticket-7"_s);
        QCOMPARE(e0.value(u"embedding_status"_s).toString(), u"ready"_s);
        QCOMPARE(e0.value(u"memory_lane"_s).toString(), u"shared"_s);
        QCOMPARE(e0.value(u"producer_agent_id"_s).toString(), u"local-user"_s);
        QCOMPARE(e0.value(u"owner_agent_id"_s).toString(), u"local-user"_s);
        QVERIFY(e0.value(u"owner_team_id"_s).isNull());
        QCOMPARE(e0.value(u"commit_id"_s).toString(), w.commitId);
        QCOMPARE(e0.value(u"salience"_s).toDouble(), 0.5);
        QCOMPARE(e0.value(u"importance"_s).toDouble(), 0.5);
        QCOMPARE(e0.value(u"confidence"_s).toDouble(), 0.5);
        QVERIFY2(QDateTime::fromString(e0.value(u"created_at"_s).toString(), Qt::ISODateWithMs)
                     .isValid(),
                 qPrintable(e0.value(u"created_at"_s).toString()));
        QVERIFY(e0.value(u"updated_at"_s).isString());
        for (const QJsonValue &v : edges)
            QCOMPARE(v.toObject().value(u"commit_id"_s).toString(), w.commitId);
    }
    if (flags.value(u"include_slots"_s).toBool()) {
        for (const QJsonValue &v : nodes) {
            const QJsonObject n = v.toObject();
            if (n.value(u"id"_s).toString() == w.id(u"top"_s))
                QCOMPARE(n.value(u"slots"_s).toObject(),
                         obj({{"topic_state", u"active"_s}, {"member_count", 2}}));
            else if (n.value(u"id"_s).toString() == w.id(u"e1"_s))
                QCOMPARE(n.value(u"slots"_s).toObject(), QJsonObject());
        }
    }
}

void tst_HttpRecall::noEmbeddingKeysAnywhere_data()
{
    QTest::addColumn<bool>("text");
    QTest::addColumn<QJsonObject>("flags");
    QTest::addColumn<int>("status");
    QTest::addColumn<QStringList>("expectedPaths");

    const QJsonObject everything
        = obj({{"include_meta", true}, {"include_slots", true}, {"return_debug", true}});
    QTest::newRow("recall defaults") << false << QJsonObject() << 200 << QStringList();
    QTest::newRow("recall include_meta include_slots return_debug")
        << false << everything << 200 << QStringList();
    QTest::newRow("recall include_slots_preview include_meta")
        << false << obj({{"include_slots_preview", true}, {"include_meta", true}}) << 200
        << QStringList();
    QTest::newRow("recall_text include_meta include_slots return_debug")
        << true << everything << 200 << QStringList();
    QTest::newRow("recall return_debug with include_embeddings false")
        << false << obj({{"return_debug", true}, {"include_embeddings", false}, {"limit", 5}})
        << 200 << QStringList();
    QTest::newRow("recall debug embeddings allowed (loopback, no ADMIN_TOKEN)")
        << false << merged(everything, obj({{"include_embeddings", true}, {"limit", 20}})) << 200
        << QStringList{u"debug.embeddings"_s};
    QTest::newRow("recall_text debug embeddings allowed")
        << true << merged(everything, obj({{"include_embeddings", true}, {"limit", 20}})) << 200
        << QStringList{u"debug.embeddings"_s};
    QTest::newRow("include_embeddings without return_debug")
        << false << obj({{"include_embeddings", true}, {"limit", 5}, {"include_meta", true}}) << 400
        << QStringList();
    QTest::newRow("include_embeddings with limit 21")
        << false << obj({{"include_embeddings", true}, {"return_debug", true}, {"limit", 21}})
        << 400 << QStringList();
}

void tst_HttpRecall::noEmbeddingKeysAnywhere()
{
    QFETCH(bool, text);
    QFETCH(QJsonObject, flags);
    QFETCH(int, status);
    QFETCH(QStringList, expectedPaths);

    HttpTestServer server;
    REQUIRE_SERVER(server);
    const Written w = writeStandardGraph(server);
    REQUIRE_WRITE(w);

    const Reply r = text
                        ? server.post(kRecallText, recallTextBody(u"deploy failed monday"_s, flags))
                        : server.post(kRecall, recallBody(standardQuery(), flags));
    QVERIFY2(r.status == status && r.isJsonObject, r.describe().constData());
    QCOMPARE(embeddingKeyPaths(r.json), expectedPaths);
    if (status == 200) {
        // The nodes themselves never carry a vector, whatever the flags (spec §2.1).
        QVERIFY(!arrayAt(r.json, u"subgraph.nodes"_s).isEmpty());
        QVERIFY(!containsKeyDeep(r.json.value(u"subgraph"_s), u"embedding"_s));
        QVERIFY(!containsKeyDeep(r.json.value(u"seeds"_s), u"embedding"_s));
        QVERIFY(!containsKeyDeep(r.json.value(u"context"_s), u"embedding"_s));
    }
}

void tst_HttpRecall::emptyScope()
{
    HttpTestServer server;
    REQUIRE_SERVER(server);

    const Reply r = server.post(kRecall, recallBody(axis(0), obj({{"return_debug", true}})));
    REQUIRE_OK(r);
    QCOMPARE(sorted(keysOf(r.json)), sorted(recallKeys() + QStringList{u"debug"_s}));
    QCOMPARE(arrayAt(r.json, u"seeds"_s), QJsonArray());
    QCOMPARE(arrayAt(r.json, u"ranked"_s), QJsonArray());
    QCOMPARE(objectAt(r.json, u"subgraph"_s),
             obj({{"nodes", QJsonArray()}, {"edges", QJsonArray()}}));
    QCOMPARE(objectAt(r.json, u"context"_s),
             obj({{"text", u""_s}, {"items", QJsonArray()}, {"citations", QJsonArray()}}));
    const QJsonObject d = objectAt(r.json, u"debug"_s);
    QCOMPARE(d.value(u"neighborhood_counts"_s).toObject(), obj({{"nodes", 0}, {"edges", 0}}));
    // Nothing was selected, so nothing was compacted (reference §4.3).
    QVERIFY(!d.contains(u"context_compaction"_s));
}

void tst_HttpRecall::rulesContextAccepted()
{
    HttpTestServer server;
    REQUIRE_SERVER(server);
    const Written w = writeStandardGraph(server);
    REQUIRE_WRITE(w);

    const Reply r = server.post(
        kRecall, recallBody(standardQuery(), obj({{"rules_context", obj({{"intent", u"deploy"_s}})},
                                                  {"rules_include_shadow", true},
                                                  {"rules_limit", 10}})));
    REQUIRE_OK(r);
    QCOMPARE(w.clientsOf(seedIds(r)), (QStringList{u"e0"_s, u"e1"_s, u"ent"_s, u"top"_s}));
    // rules is the only key rules_context may add (spec §4.3 response table).
    QStringList keys = keysOf(r.json);
    keys.removeAll(u"rules"_s);
    QCOMPARE(keys, recallKeys());
}

// ---------------------------------------------------------------------------------------------
// Pipeline

void tst_HttpRecall::seedsOrderedBySimilarity()
{
    HttpTestServer server;
    REQUIRE_SERVER(server);
    const QStringList types{u"event"_s, u"entity"_s, u"topic"_s, u"concept"_s, u"event"_s};
    QJsonArray nodes;
    for (int i = 0; i < 5; ++i)
        nodes.append(memNode(u"n%1"_s.arg(i), types.at(i), u"node %1"_s.arg(i), axis(i)));
    const Written w = writeGraph(server, nodes);
    REQUIRE_WRITE(w);

    // Weights 1..5 on axes 0..4: the order is n4, n3, n2, n1, n0.
    const QJsonArray query = vec({{0, 1}, {1, 2}, {2, 3}, {3, 4}, {4, 5}});
    const double norm = std::sqrt(55.0);
    Reply r = server.post(kRecall, recallBody(query));
    REQUIRE_OK(r);
    QCOMPARE(w.clientsOf(seedIds(r)), (QStringList{u"n4"_s, u"n3"_s, u"n2"_s, u"n1"_s, u"n0"_s}));
    const QJsonArray seeds = arrayAt(r.json, u"seeds"_s);
    for (int i = 0; i < 5; ++i)
        COMPARE_NEAR(seeds.at(i).toObject().value(u"similarity"_s).toDouble(), (5 - i) / norm);
    QCOMPARE(fieldOf(seeds, u"type"_s),
             (QStringList{u"event"_s, u"concept"_s, u"topic"_s, u"entity"_s, u"event"_s}));

    // limit keeps the most similar ones.
    r = server.post(kRecall, recallBody(query, obj({{"limit", 2}})));
    REQUIRE_OK(r);
    QCOMPARE(w.clientsOf(seedIds(r)), (QStringList{u"n4"_s, u"n3"_s}));

    // A query pointing the other way: similarity is negative and the order reverses.
    r = server.post(kRecall, recallBody(vec({{0, -5}, {1, -4}, {2, -3}, {3, -2}, {4, -1}})));
    REQUIRE_OK(r);
    QCOMPARE(w.clientsOf(seedIds(r)), (QStringList{u"n4"_s, u"n3"_s, u"n2"_s, u"n1"_s, u"n0"_s}));
    COMPARE_NEAR(arrayAt(r.json, u"seeds"_s).at(0).toObject().value(u"similarity"_s).toDouble(),
                 -1.0 / norm);
}

void tst_HttpRecall::activationAndScore_data()
{
    QTest::addColumn<QString>("edgeType");
    QTest::addColumn<bool>("reversed");
    QTest::addColumn<double>("typeWeight");

    QTest::newRow("derived_from weighs 1.0") << u"derived_from"_s << false << 1.0;
    QTest::newRow("part_of weighs 0.9") << u"part_of"_s << false << 0.9;
    QTest::newRow("related_to weighs 0.6") << u"related_to"_s << false << 0.6;
    QTest::newRow("part_of traversed against its direction") << u"part_of"_s << true << 0.9;
}

void tst_HttpRecall::activationAndScore()
{
    QFETCH(QString, edgeType);
    QFETCH(bool, reversed);
    QFETCH(double, typeWeight);

    HttpTestServer server;
    REQUIRE_SERVER(server);
    const QJsonArray nodes{
        memNode(u"s"_s, u"event"_s, u"seed"_s, axis(0),
                obj({{"salience", 0.8}, {"confidence", 0.6}})),
        memNode(u"n"_s, u"event"_s, u"neighbour"_s, axis(1),
                obj({{"salience", 0.2}, {"confidence", 0.4}})),
    };
    const QJsonArray edges{reversed ? memEdge(edgeType, u"n"_s, u"s"_s, 0.8, 0.5)
                                    : memEdge(edgeType, u"s"_s, u"n"_s, 0.8, 0.5)};
    const Written w = writeGraph(server, nodes, edges);
    REQUIRE_WRITE(w);

    const Reply r = server.post(kRecall, recallBody(axis(0), obj({{"limit", 1}})));
    REQUIRE_OK(r);
    QCOMPARE(w.clientsOf(seedIds(r)), QStringList{u"s"_s});
    const QJsonArray ranked = arrayAt(r.json, u"ranked"_s);
    QCOMPARE(w.clientsOf(fieldOf(ranked)), (QStringList{u"s"_s, u"n"_s}));

    // a(seed) = clamp01(0.75 sim + 0.25 salience); score = 0.7 a + 0.15 confidence + 0.15 salience.
    const double seedActivation = 0.75 * 1.0 + 0.25 * 0.8;
    COMPARE_NEAR(ranked.at(0).toObject().value(u"activation"_s).toDouble(), seedActivation);
    COMPARE_NEAR(ranked.at(0).toObject().value(u"score"_s).toDouble(),
                 0.7 * seedActivation + 0.15 * 0.6 + 0.15 * 0.8);
    // Neighbour: a(seed) x typeWeight x weight x confidence x 0.5 (max-propagation).
    const double neighbourActivation = seedActivation * typeWeight * 0.8 * 0.5 * 0.5;
    COMPARE_NEAR(ranked.at(1).toObject().value(u"activation"_s).toDouble(), neighbourActivation);
    COMPARE_NEAR(ranked.at(1).toObject().value(u"score"_s).toDouble(),
                 0.7 * neighbourActivation + 0.15 * 0.4 + 0.15 * 0.2);
    QCOMPARE(w.clientsOf(nodeIds(r)), (QStringList{u"s"_s, u"n"_s}));
    const QJsonArray edgesOut = arrayAt(r.json, u"subgraph.edges"_s);
    QCOMPARE(edgesOut.size(), 1);
    const QJsonObject e = edgesOut.at(0).toObject();
    QCOMPARE(e.value(u"type"_s).toString(), edgeType);
    QCOMPARE(e.value(u"weight"_s).toDouble(), 0.8);
    QCOMPARE(w.clientOf(e.value(u"from_id"_s).toString()), reversed ? u"n"_s : u"s"_s);
    QCOMPARE(w.clientOf(e.value(u"to_id"_s).toString()), reversed ? u"s"_s : u"n"_s);
}

void tst_HttpRecall::knobsBoundTheResult_data()
{
    // A chain c0 - c1 - ... - c7 (related_to, weight 0.9, confidence 1) on axes 0..7, queried
    // with weights 8..1 so that seeds are taken from the front of the chain.
    QTest::addColumn<QJsonObject>("knobs");
    QTest::addColumn<int>("seeds");
    QTest::addColumn<int>("ranked");
    QTest::addColumn<int>("nodes");
    QTest::addColumn<int>("edges");
    QTest::addColumn<int>("neighbourhoodNodes");
    QTest::addColumn<int>("neighbourhoodEdges");

    QTest::newRow("limit 2, neighborhood_hops 1")
        << obj({{"limit", 2}, {"neighborhood_hops", 1}}) << 2 << 3 << 3 << 2 << 3 << 2;
    QTest::newRow("limit 2, neighborhood_hops 2")
        << obj({{"limit", 2}, {"neighborhood_hops", 2}}) << 2 << 4 << 4 << 3 << 4 << 3;
    QTest::newRow("ranked_limit 2 cuts ranked only")
        << obj({{"limit", 2}, {"ranked_limit", 2}}) << 2 << 2 << 4 << 3 << 4 << 3;
    QTest::newRow("ranked_limit 1")
        << obj({{"limit", 2}, {"ranked_limit", 1}}) << 2 << 1 << 4 << 3 << 4 << 3;
    QTest::newRow("max_nodes 3") << obj({{"limit", 2}, {"max_nodes", 3}}) << 2 << 4 << 3 << 2 << 4
                                 << 3;
    QTest::newRow("max_nodes 1 cuts even seeds from the subgraph")
        << obj({{"limit", 2}, {"max_nodes", 1}}) << 2 << 4 << 1 << 0 << 4 << 3;
    QTest::newRow("max_edges 1") << obj({{"limit", 2}, {"max_edges", 1}}) << 2 << 4 << 4 << 1 << 4
                                 << 3;
    QTest::newRow("max_edges 0") << obj({{"limit", 2}, {"max_edges", 0}}) << 2 << 2 << 2 << 0 << 2
                                 << 0;
    QTest::newRow("limit 8 takes the whole chain")
        << obj({{"limit", 8}}) << 8 << 8 << 8 << 7 << 8 << 7;
    QTest::newRow("limit 8, max_nodes 5, max_edges 2, ranked_limit 3")
        << obj({{"limit", 8}, {"max_nodes", 5}, {"max_edges", 2}, {"ranked_limit", 3}}) << 8 << 3
        << 5 << 2 << 8 << 7;
}

void tst_HttpRecall::knobsBoundTheResult()
{
    QFETCH(QJsonObject, knobs);
    QFETCH(int, seeds);
    QFETCH(int, ranked);
    QFETCH(int, nodes);
    QFETCH(int, edges);
    QFETCH(int, neighbourhoodNodes);
    QFETCH(int, neighbourhoodEdges);

    HttpTestServer server;
    REQUIRE_SERVER(server);
    QJsonArray chainNodes;
    QJsonArray chainEdges;
    QList<QPair<int, double>> weights;
    for (int i = 0; i < 8; ++i) {
        chainNodes.append(memNode(u"c%1"_s.arg(i), u"event"_s, u"chain %1"_s.arg(i), axis(i)));
        weights.append({i, double(8 - i)});
        if (i > 0)
            chainEdges.append(
                memEdge(u"related_to"_s, u"c%1"_s.arg(i - 1), u"c%1"_s.arg(i), 0.9, 1.0));
    }
    const Written w = writeGraph(server, chainNodes, chainEdges);
    REQUIRE_WRITE(w);

    const Reply r = server.post(
        kRecall, recallBody(vec(weights), merged(knobs, obj({{"return_debug", true}}))));
    REQUIRE_OK(r);
    const QStringList seedList = w.clientsOf(seedIds(r));
    QCOMPARE(seedList.size(), seeds);
    for (int i = 0; i < seeds; ++i)
        QCOMPARE(seedList.at(i), u"c%1"_s.arg(i));
    QCOMPARE(arrayAt(r.json, u"ranked"_s).size(), ranked);
    QCOMPARE(arrayAt(r.json, u"subgraph.nodes"_s).size(), nodes);
    QCOMPARE(arrayAt(r.json, u"subgraph.edges"_s).size(), edges);
    QCOMPARE(objectAt(r.json, u"debug.neighborhood_counts"_s),
             obj({{"nodes", neighbourhoodNodes}, {"edges", neighbourhoodEdges}}));

    // ranked is ordered by score; the subgraph starts with the seeds in seed order and its
    // edges only join nodes it contains.
    const QJsonArray rankedList = arrayAt(r.json, u"ranked"_s);
    for (qsizetype i = 1; i < rankedList.size(); ++i)
        QVERIFY(rankedList.at(i - 1).toObject().value(u"score"_s).toDouble()
                >= rankedList.at(i).toObject().value(u"score"_s).toDouble());
    QCOMPARE(nodeIds(r).mid(0, qMin(seeds, nodes)), seedIds(r).mid(0, qMin(seeds, nodes)));
    const QStringList graphIds = nodeIds(r);
    const QSet<QString> inGraph(graphIds.begin(), graphIds.end());
    for (const QJsonValue &v : arrayAt(r.json, u"subgraph.edges"_s)) {
        QVERIFY(inGraph.contains(v.toObject().value(u"from_id"_s).toString()));
        QVERIFY(inGraph.contains(v.toObject().value(u"to_id"_s).toString()));
    }
}

void tst_HttpRecall::edgeQualityFilters_data()
{
    // Seed s with neighbours: a (weight 0.15, confidence 1), b (0.5, 0.1), c (0.5, 1), d (1, 0.15).
    QTest::addColumn<QJsonObject>("knobs");
    QTest::addColumn<QStringList>("expectedNodes");

    QTest::newRow("profile defaults 0.2 / 0.2") << QJsonObject() << QStringList{u"c"_s, u"s"_s};
    QTest::newRow("min_edge_weight 0.1")
        << obj({{"min_edge_weight", 0.1}}) << QStringList{u"a"_s, u"c"_s, u"s"_s};
    QTest::newRow("min_edge_confidence 0.05")
        << obj({{"min_edge_confidence", 0.05}}) << QStringList{u"b"_s, u"c"_s, u"d"_s, u"s"_s};
    QTest::newRow("both 0") << obj({{"min_edge_weight", 0}, {"min_edge_confidence", 0}})
                            << QStringList{u"a"_s, u"b"_s, u"c"_s, u"d"_s, u"s"_s};
    QTest::newRow("min_edge_weight 0.6") << obj({{"min_edge_weight", 0.6}}) << QStringList{u"s"_s};
    QTest::newRow("min_edge_weight 1 keeps weight 1 only")
        << obj({{"min_edge_weight", 1}, {"min_edge_confidence", 0}}) << QStringList{u"d"_s, u"s"_s};
}

void tst_HttpRecall::edgeQualityFilters()
{
    QFETCH(QJsonObject, knobs);
    QFETCH(QStringList, expectedNodes);

    HttpTestServer server;
    REQUIRE_SERVER(server);
    const QJsonArray nodes{
        memNode(u"s"_s, u"event"_s, u"seed"_s, axis(0)),
        memNode(u"a"_s, u"event"_s, u"a"_s, axis(1)),
        memNode(u"b"_s, u"event"_s, u"b"_s, axis(2)),
        memNode(u"c"_s, u"event"_s, u"c"_s, axis(3)),
        memNode(u"d"_s, u"event"_s, u"d"_s, axis(4)),
    };
    const QJsonArray edges{
        memEdge(u"related_to"_s, u"s"_s, u"a"_s, 0.15, 1.0),
        memEdge(u"related_to"_s, u"s"_s, u"b"_s, 0.5, 0.1),
        memEdge(u"related_to"_s, u"s"_s, u"c"_s, 0.5, 1.0),
        memEdge(u"related_to"_s, u"s"_s, u"d"_s, 1.0, 0.15),
    };
    const Written w = writeGraph(server, nodes, edges);
    REQUIRE_WRITE(w);

    const Reply r = server.post(
        kRecall, recallBody(axis(0), merged(knobs, obj({{"limit", 1}, {"return_debug", true}}))));
    REQUIRE_OK(r);
    QCOMPARE(sorted(w.clientsOf(nodeIds(r))), expectedNodes);
    QCOMPARE(sorted(w.clientsOf(rankedIds(r))), expectedNodes);
    QCOMPARE(objectAt(r.json, u"debug.neighborhood_counts"_s),
             obj({{"nodes", int(expectedNodes.size())}, {"edges", int(expectedNodes.size()) - 1}}));
}

void tst_HttpRecall::profileDefaultLimit_data()
{
    QTest::addColumn<QString>("profile");
    QTest::addColumn<int>("limit");

    QTest::newRow("strict_edges (default profile) limit 24") << QString() << 24;
    QTest::newRow("strict_edges limit 24") << u"strict_edges"_s << 24;
    QTest::newRow("quality_first limit 30") << u"quality_first"_s << 30;
    QTest::newRow("legacy limit 30") << u"legacy"_s << 30;
}

void tst_HttpRecall::profileDefaultLimit()
{
    QFETCH(QString, profile);
    QFETCH(int, limit);

    QProcessEnvironment env;
    if (!profile.isEmpty())
        env.insert(u"MEMORY_RECALL_PROFILE"_s, profile);
    HttpTestServer server(env);
    REQUIRE_SERVER(server);
    QJsonArray nodes;
    QList<QPair<int, double>> weights;
    for (int i = 0; i < 32; ++i) {
        nodes.append(memNode(u"p%1"_s.arg(i), u"event"_s, u"profile node %1"_s.arg(i), axis(i)));
        weights.append({i, double(32 - i)});
    }
    const Written w = writeGraph(server, nodes);
    REQUIRE_WRITE(w);

    const Reply r = server.post(kRecall, recallBody(vec(weights), obj({{"return_debug", true}})));
    REQUIRE_OK(r);
    QCOMPARE(seedIds(r).size(), limit);
    QCOMPARE(w.clientsOf(seedIds(r)).constLast(), u"p%1"_s.arg(limit - 1));
    QCOMPARE(objectAt(r.json, u"debug.profile"_s).value(u"name"_s).toString(),
             profile.isEmpty() ? u"strict_edges"_s : profile);
}

void tst_HttpRecall::coldAndArchiveNeverSeed()
{
    HttpTestServer server;
    REQUIRE_SERVER(server);
    const QJsonArray nodes{
        memNode(u"hot"_s, u"event"_s, u"hot"_s, axis(0), obj({{"tier", u"hot"_s}})),
        memNode(u"warm"_s, u"event"_s, u"warm"_s, axis(1), obj({{"tier", u"warm"_s}})),
        memNode(u"cold"_s, u"event"_s, u"cold"_s, axis(2), obj({{"tier", u"cold"_s}})),
        memNode(u"archive"_s, u"event"_s, u"archive"_s, axis(3), obj({{"tier", u"archive"_s}})),
    };
    const Written w = writeGraph(server, nodes);
    REQUIRE_WRITE(w);

    // cold and archive are the most similar, yet only hot and warm are searched (spec §4.3.2.2).
    const Reply r = server.post(
        kRecall, recallBody(vec({{0, 1}, {1, 2}, {2, 3}, {3, 4}}), obj({{"return_debug", true}})));
    REQUIRE_OK(r);
    QCOMPARE(w.clientsOf(seedIds(r)), (QStringList{u"warm"_s, u"hot"_s}));
    QCOMPARE(fieldOf(arrayAt(r.json, u"seeds"_s), u"tier"_s), (QStringList{u"warm"_s, u"hot"_s}));
    QCOMPARE(sorted(w.clientsOf(rankedIds(r))), (QStringList{u"hot"_s, u"warm"_s}));
    QCOMPARE(sorted(w.clientsOf(nodeIds(r))), (QStringList{u"hot"_s, u"warm"_s}));
    QVERIFY(!r.body.contains(w.id(u"cold"_s).toLatin1()));
    QVERIFY(!r.body.contains(w.id(u"archive"_s).toLatin1()));
}

void tst_HttpRecall::draftTopicNotSeededButAppended()
{
    HttpTestServer server;
    REQUIRE_SERVER(server);
    const Written w = writeStandardGraph(server);
    REQUIRE_WRITE(w);

    const Reply r
        = server.post(kRecall, recallBody(standardQuery(), obj({{"return_debug", true}})));
    REQUIRE_OK(r);
    // The draft topic is closer to the query than any seed, but never seeds or scores.
    QCOMPARE(w.clientsOf(seedIds(r)), (QStringList{u"e0"_s, u"e1"_s, u"ent"_s, u"top"_s}));
    QCOMPARE(sorted(w.clientsOf(rankedIds(r))),
             (QStringList{u"e0"_s, u"e1"_s, u"ent"_s, u"top"_s}));
    // It is appended to the subgraph because e0 is part_of it.
    QCOMPARE(w.clientsOf(nodeIds(r)),
             (QStringList{u"e0"_s, u"e1"_s, u"ent"_s, u"top"_s, u"draft"_s}));
    QCOMPARE(
        arrayAt(r.json, u"subgraph.nodes"_s).at(4).toObject().value(u"topic_state"_s).toString(),
        u"draft"_s);
    // ... but it is not context material.
    QVERIFY(!fieldOf(arrayAt(r.json, u"context.items"_s), u"node_id"_s).contains(w.id(u"draft"_s)));
    QVERIFY(!objectAt(r.json, u"context"_s).value(u"text"_s).toString().contains(w.id(u"draft"_s)));
    QCOMPARE(objectAt(r.json, u"debug.neighborhood_counts"_s), obj({{"nodes", 5}, {"edges", 4}}));

    // Edges of the subgraph, strongest (weight x confidence) first.
    QStringList edgePairs;
    for (const QJsonValue &v : arrayAt(r.json, u"subgraph.edges"_s)) {
        const QJsonObject e = v.toObject();
        edgePairs << w.clientOf(e.value(u"from_id"_s).toString()) + u'>'
                         + w.clientOf(e.value(u"to_id"_s).toString());
    }
    QCOMPARE(edgePairs.size(), 4);
    QCOMPARE(sorted(edgePairs.mid(0, 2)), (QStringList{u"e0>draft"_s, u"e0>top"_s}));
    QCOMPARE(edgePairs.mid(2), (QStringList{u"e1>top"_s, u"ent>e0"_s}));
}

void tst_HttpRecall::draftTopicSwappedIn_data()
{
    QTest::addColumn<int>("maxNodes");
    QTest::addColumn<QStringList>("expected");

    // DRAFT_BUDGET = min(10, floor(max_nodes / 5)); seeds are s0, s1; ranked n2 > n3 > n4.
    QTest::newRow("max_nodes 4: no draft budget")
        << 4 << QStringList{u"s0"_s, u"s1"_s, u"n2"_s, u"n3"_s};
    QTest::newRow("max_nodes 5: full, the lowest non-seed is swapped out")
        << 5 << QStringList{u"s0"_s, u"s1"_s, u"n2"_s, u"n3"_s, u"D"_s};
    QTest::newRow("max_nodes 6: appended into free room")
        << 6 << QStringList{u"s0"_s, u"s1"_s, u"n2"_s, u"n3"_s, u"n4"_s, u"D"_s};
    QTest::newRow("max_nodes 60 (default)")
        << 60 << QStringList{u"s0"_s, u"s1"_s, u"n2"_s, u"n3"_s, u"n4"_s, u"D"_s};
}

void tst_HttpRecall::draftTopicSwappedIn()
{
    QFETCH(int, maxNodes);
    QFETCH(QStringList, expected);

    HttpTestServer server;
    REQUIRE_SERVER(server);
    const QJsonArray nodes{
        memNode(u"s0"_s, u"event"_s, u"s0"_s, axis(0)),
        memNode(u"s1"_s, u"event"_s, u"s1"_s, axis(1)),
        memNode(u"n2"_s, u"event"_s, u"n2"_s, axis(2)),
        memNode(u"n3"_s, u"event"_s, u"n3"_s, axis(3)),
        memNode(u"n4"_s, u"event"_s, u"n4"_s, axis(4)),
        memNode(u"D"_s, u"topic"_s, u"draft topic"_s, axis(9),
                obj({{"slots", obj({{"topic_state", u"draft"_s}})}})),
    };
    const QJsonArray edges{
        memEdge(u"related_to"_s, u"s0"_s, u"n2"_s, 0.9, 1.0),
        memEdge(u"related_to"_s, u"s0"_s, u"n3"_s, 0.8, 1.0),
        memEdge(u"related_to"_s, u"s0"_s, u"n4"_s, 0.7, 1.0),
        memEdge(u"part_of"_s, u"s0"_s, u"D"_s, 0.6, 1.0),
    };
    const Written w = writeGraph(server, nodes, edges);
    REQUIRE_WRITE(w);

    const QJsonObject knobs = obj({{"limit", 2}, {"max_nodes", maxNodes}});
    const Reply r = server.post(kRecall, recallBody(vec({{0, 2}, {1, 1}, {9, 5}}), knobs));
    REQUIRE_OK(r);
    QCOMPARE(w.clientsOf(seedIds(r)), (QStringList{u"s0"_s, u"s1"_s}));
    QCOMPARE(w.clientsOf(rankedIds(r)), (QStringList{u"s0"_s, u"s1"_s, u"n2"_s, u"n3"_s, u"n4"_s}));
    QCOMPARE(w.clientsOf(nodeIds(r)), expected);
}

void tst_HttpRecall::hiddenCandidatesDoNotCrowdOutSeeds_data()
{
    // 400 nodes that may not seed sit closer to the query than the one node that may. With
    // limit 1 the visible node must still be the seed: the candidate pool is the visible, ready,
    // hot/warm nodes (spec §4.3.2.1-4; reference §4.3), not whatever is nearest.
    QTest::addColumn<QJsonObject>("hiddenFields");
    QTest::addColumn<QString>("hiddenType");

    QTest::newRow("private nodes of another agent")
        << obj({{"memory_lane", u"private"_s}, {"owner_agent_id", u"agent-b"_s}}) << u"event"_s;
    QTest::newRow("cold tier nodes") << obj({{"tier", u"cold"_s}}) << u"event"_s;
    QTest::newRow("archive tier nodes") << obj({{"tier", u"archive"_s}}) << u"event"_s;
    QTest::newRow("draft topics") << obj({{"slots", obj({{"topic_state", u"draft"_s}})}})
                                  << u"topic"_s;
}

void tst_HttpRecall::hiddenCandidatesDoNotCrowdOutSeeds()
{
    QFETCH(QJsonObject, hiddenFields);
    QFETCH(QString, hiddenType);

    HttpTestServer server;
    REQUIRE_SERVER(server);
    QJsonArray nodes;
    for (int i = 0; i < 400; ++i)
        nodes.append(memNode(u"h%1"_s.arg(i), hiddenType, u"hidden %1"_s.arg(i),
                             vec({{0, 1.0}, {1 + i, 0.05}}), hiddenFields));
    nodes.append(
        memNode(u"visible"_s, u"event"_s, u"the visible one"_s, vec({{0, 1.0}, {1000, 1.0}})));
    const Written w = writeGraph(server, nodes);
    REQUIRE_WRITE(w);

    const Reply r = server.post(
        kRecall, recallBody(axis(0), obj({{"limit", 1}, {"consumer_agent_id", u"agent-a"_s}})));
    REQUIRE_OK(r);
    QCOMPARE(w.clientsOf(seedIds(r)), QStringList{u"visible"_s});
    COMPARE_NEAR(arrayAt(r.json, u"seeds"_s).at(0).toObject().value(u"similarity"_s).toDouble(),
                 std::sqrt(0.5));
}

void tst_HttpRecall::nodesWithoutReadyEmbeddingNotReturned()
{
    // Without a provider, a node written without a vector never becomes ready (spec §3.2):
    // it must not be returned by default even when an edge leads to it (spec §4.3.2.1).
    HttpTestServer server(environment({{"EMBEDDING_PROVIDER", u"none"_s}}));
    REQUIRE_SERVER(server);
    QJsonObject bare = writeNode(u"bare"_s, u"event"_s, u"no vector for this one"_s);
    bare.insert(u"memory_lane"_s, u"shared"_s);
    const QJsonArray nodes{memNode(u"s"_s, u"event"_s, u"seed"_s, axis(0)), bare};
    const Written w = writeGraph(
        server, nodes, QJsonArray{memEdge(u"derived_from"_s, u"s"_s, u"bare"_s, 1.0, 1.0)});
    REQUIRE_WRITE(w);
    for (const NodeRecord &n : server.nodes()) {
        if (n.clientId == "bare"_L1)
            QVERIFY2(n.embeddingStatus != "ready"_L1, qPrintable(n.embeddingStatus));
    }

    const Reply r = server.post(kRecall, recallBody(axis(0), obj({{"include_meta", true}})));
    REQUIRE_OK(r);
    QCOMPARE(w.clientsOf(seedIds(r)), QStringList{u"s"_s});
    QCOMPARE(w.clientsOf(rankedIds(r)), QStringList{u"s"_s});
    QCOMPARE(w.clientsOf(nodeIds(r)), QStringList{u"s"_s});
    QCOMPARE(arrayAt(r.json, u"subgraph.edges"_s).size(), 0);
    QVERIFY(!r.body.contains(w.id(u"bare"_s).toLatin1()));
    QVERIFY(!r.body.contains("no vector for this one"));
}

// ---------------------------------------------------------------------------------------------
// Lanes and tenants

void tst_HttpRecall::laneVisibility_data()
{
    QTest::addColumn<QString>("agent");
    QTest::addColumn<QString>("team");
    QTest::addColumn<QStringList>("visible");

    QTest::newRow("no consumer: acts as local-user")
        << QString() << QString() << QStringList{u"local"_s, u"shared"_s};
    QTest::newRow("owner agent-a sees its private node")
        << u"agent-a"_s << QString() << QStringList{u"mine"_s, u"shared"_s};
    QTest::newRow("agent-b sees only its own private node")
        << u"agent-b"_s << QString() << QStringList{u"other"_s, u"shared"_s};
    QTest::newRow("agent-c in team-x sees the team node")
        << u"agent-c"_s << u"team-x"_s << QStringList{u"shared"_s, u"team"_s};
    QTest::newRow("agent-a in team-x sees own and team nodes")
        << u"agent-a"_s << u"team-x"_s << QStringList{u"mine"_s, u"shared"_s, u"team"_s};
    QTest::newRow("team-x without agent: local-user in team-x")
        << QString() << u"team-x"_s << QStringList{u"local"_s, u"shared"_s, u"team"_s};
    QTest::newRow("agent-c in team-y sees shared only")
        << u"agent-c"_s << u"team-y"_s << QStringList{u"shared"_s};
}

void tst_HttpRecall::laneVisibility()
{
    QFETCH(QString, agent);
    QFETCH(QString, team);
    QFETCH(QStringList, visible);

    HttpTestServer server;
    REQUIRE_SERVER(server);
    const QJsonObject priv{{u"memory_lane"_s, u"private"_s}};
    const QJsonArray nodes{
        memNode(u"shared"_s, u"event"_s, u"shared note"_s, axis(0)),
        memNode(u"local"_s, u"event"_s, u"local user note"_s, axis(1), priv),
        memNode(u"mine"_s, u"event"_s, u"agent a note"_s, axis(2),
                merged(priv, obj({{"owner_agent_id", u"agent-a"_s}}))),
        memNode(u"team"_s, u"event"_s, u"team x note"_s, axis(3),
                merged(priv, obj({{"owner_team_id", u"team-x"_s}}))),
        memNode(u"other"_s, u"event"_s, u"agent b note"_s, axis(4),
                merged(priv, obj({{"owner_agent_id", u"agent-b"_s}}))),
    };
    // Every private node hangs off the shared one, so it could also arrive as a neighbour.
    const QJsonArray edges{
        memEdge(u"part_of"_s, u"local"_s, u"shared"_s, 0.9, 1.0),
        memEdge(u"part_of"_s, u"mine"_s, u"shared"_s, 0.9, 1.0),
        memEdge(u"part_of"_s, u"team"_s, u"shared"_s, 0.9, 1.0),
        memEdge(u"part_of"_s, u"other"_s, u"shared"_s, 0.9, 1.0),
    };
    const Written w = writeGraph(server, nodes, edges);
    REQUIRE_WRITE(w);

    QJsonObject extra{{u"include_meta"_s, true}};
    if (!agent.isEmpty())
        extra.insert(u"consumer_agent_id"_s, agent);
    if (!team.isEmpty())
        extra.insert(u"consumer_team_id"_s, team);
    const Reply r
        = server.post(kRecall, recallBody(vec({{0, 1}, {1, 1}, {2, 1}, {3, 1}, {4, 1}}), extra));
    REQUIRE_OK(r);
    QCOMPARE(sorted(w.clientsOf(seedIds(r))), visible);
    QCOMPARE(sorted(w.clientsOf(rankedIds(r))), visible);
    QCOMPARE(sorted(w.clientsOf(nodeIds(r))), visible);
    QCOMPARE(sorted(w.clientsOf(fieldOf(arrayAt(r.json, u"context.items"_s), u"node_id"_s))),
             visible);
    // An invisible node leaves no trace: not its id, not its text.
    for (auto it = w.ids.constBegin(); it != w.ids.constEnd(); ++it) {
        if (visible.contains(it.key()))
            continue;
        QVERIFY2(!r.body.contains(it.value().toLatin1()), qPrintable(it.key()));
    }
    QVERIFY(!r.body.contains("agent b note") || visible.contains(u"other"_s));
}

void tst_HttpRecall::defaultPrivateWritesVisibleToLocalUser()
{
    // DESIGN decision 3, with a custom MEMORY_LOCAL_AGENT_ID.
    HttpTestServer server(environment({{"MEMORY_LOCAL_AGENT_ID", u"alice"_s}}));
    REQUIRE_SERVER(server);
    QJsonObject n = memNode(u"p"_s, u"event"_s, u"private by default"_s, axis(0));
    n.remove(u"memory_lane"_s);
    const Written w = writeGraph(server, QJsonArray{n});
    REQUIRE_WRITE(w);

    Reply r = server.post(kRecall, recallBody(axis(0), obj({{"include_meta", true}})));
    REQUIRE_OK(r);
    QCOMPARE(w.clientsOf(seedIds(r)), QStringList{u"p"_s});
    const QJsonObject node0 = arrayAt(r.json, u"subgraph.nodes"_s).at(0).toObject();
    QCOMPARE(node0.value(u"memory_lane"_s).toString(), u"private"_s);
    QCOMPARE(node0.value(u"owner_agent_id"_s).toString(), u"alice"_s);

    r = server.post(kRecall, recallBody(axis(0), obj({{"consumer_agent_id", u"alice"_s}})));
    REQUIRE_OK(r);
    QCOMPARE(w.clientsOf(seedIds(r)), QStringList{u"p"_s});

    r = server.post(kRecall, recallBody(axis(0), obj({{"consumer_agent_id", u"bob"_s}})));
    REQUIRE_OK(r);
    QCOMPARE(seedIds(r), QStringList());
    QCOMPARE(objectAt(r.json, u"context"_s).value(u"text"_s).toString(), QString());
}

void tst_HttpRecall::tenantIsolation()
{
    HttpTestServer server;
    REQUIRE_SERVER(server);
    const HttpHeaders acme{{QByteArrayLiteral("X-Tenant-Id"), QByteArrayLiteral("acme")}};
    const HttpHeaders globex{{QByteArrayLiteral("X-Tenant-Id"), QByteArrayLiteral("globex")}};
    // The same client_id in two tenants: two different nodes.
    const Written a = writeGraph(
        server, QJsonArray{memNode(u"n"_s, u"event"_s, u"acme note"_s, axis(0))}, {}, acme);
    const Written g = writeGraph(
        server, QJsonArray{memNode(u"n"_s, u"event"_s, u"globex note"_s, axis(0))}, {}, globex);
    REQUIRE_WRITE(a);
    REQUIRE_WRITE(g);
    QVERIFY(a.id(u"n"_s) != g.id(u"n"_s));

    Reply r = server.post(kRecall, recallBody(axis(0)), acme);
    REQUIRE_OK(r);
    QCOMPARE(r.json.value(u"tenant_id"_s).toString(), u"acme"_s);
    QCOMPARE(seedIds(r), QStringList{a.id(u"n"_s)});
    QVERIFY(!r.body.contains("globex"));

    r = server.post(kRecall, recallBody(axis(0)), globex);
    REQUIRE_OK(r);
    QCOMPARE(r.json.value(u"tenant_id"_s).toString(), u"globex"_s);
    QCOMPARE(seedIds(r), QStringList{g.id(u"n"_s)});

    // No header: the default tenant, which holds nothing.
    r = server.post(kRecall, recallBody(axis(0)));
    REQUIRE_OK(r);
    QCOMPARE(r.json.value(u"tenant_id"_s).toString(), u"default"_s);
    QCOMPARE(seedIds(r), QStringList());

    // The body's tenant_id wins over the header (spec §4.0).
    r = server.post(kRecall, recallBody(axis(0), obj({{"tenant_id", u"acme"_s}})), globex);
    REQUIRE_OK(r);
    QCOMPARE(r.json.value(u"tenant_id"_s).toString(), u"acme"_s);
    QCOMPARE(seedIds(r), QStringList{a.id(u"n"_s)});

    // recall_text goes through the same isolation.
    r = server.post(kRecallText, recallTextBody(u"note"_s), globex);
    REQUIRE_OK(r);
    QCOMPARE(r.json.value(u"tenant_id"_s).toString(), u"globex"_s);
    QCOMPARE(seedIds(r), QStringList{g.id(u"n"_s)});

    // Another scope of the same tenant is another space.
    r = server.post(kRecall, recallBody(axis(0), obj({{"scope", u"elsewhere"_s}})), acme);
    REQUIRE_OK(r);
    QCOMPARE(r.json.value(u"scope"_s).toString(), u"elsewhere"_s);
    QCOMPARE(seedIds(r), QStringList());

    // A malformed tenant header is a validation error naming the header.
    r = server.post(kRecall, recallBody(axis(0)),
                    {{QByteArrayLiteral("X-Tenant-Id"), QByteArrayLiteral("bad tenant!")}});
    QVERIFY2(r.status == 400, r.describe().constData());
    QCOMPARE(r.errorCode(), u"invalid_request"_s);
    QCOMPARE(r.issuePath(), u"X-Tenant-Id"_s);
}

// ---------------------------------------------------------------------------------------------
// Context

void tst_HttpRecall::contextSectionsItemsCitations()
{
    HttpTestServer server;
    REQUIRE_SERVER(server);
    const Written w = writeStandardGraph(server);
    REQUIRE_WRITE(w);

    const Reply r = server.post(kRecall, recallBody(standardQuery()));
    REQUIRE_OK(r);
    const QJsonObject context = objectAt(r.json, u"context"_s);
    const QString expectedText
        = u"# Topics / Concepts\n"_s
          + u"- Release train: weekly cadence (node:%1)\n"_s.arg(w.id(u"top"_s))
          + u"\n# Entities\n"_s
          + u"- Payments API: owned by team blue (node:%1)\n"_s.arg(w.id(u"ent"_s))
          + u"\n# Supporting Events / Evidence\n"_s
          + u"- deploy failed on monday (node:%1, raw_ref=s3://logs/e0, evidence_ref=ticket-7)\n"_s
                .arg(w.id(u"e0"_s))
          + u"- rollback succeeded (node:%1)"_s.arg(w.id(u"e1"_s));
    QCOMPARE(context.value(u"text"_s).toString(), expectedText);

    // Items: topics, entities, events, each section in rank order; one citation per item node.
    const QJsonArray items = context.value(u"items"_s).toArray();
    QCOMPARE(fieldOf(items, u"kind"_s),
             (QStringList{u"topic"_s, u"entity"_s, u"event"_s, u"event"_s}));
    QCOMPARE(w.clientsOf(fieldOf(items, u"node_id"_s)),
             (QStringList{u"top"_s, u"ent"_s, u"e0"_s, u"e1"_s}));
    QCOMPARE(keysOf(items.at(0).toObject()),
             keyList({"kind", "node_id", "uri", "title", "summary", "commit_id"}));
    QCOMPARE(keysOf(items.at(1).toObject()),
             keyList({"kind", "node_id", "uri", "title", "summary", "commit_id"}));
    QCOMPARE(keysOf(items.at(2).toObject()), keyList({"kind", "node_id", "uri", "summary",
                                                      "raw_ref", "evidence_ref", "commit_id"}));
    const QJsonObject e0Item = items.at(2).toObject();
    QCOMPARE(e0Item.value(u"summary"_s).toString(), u"deploy failed on monday"_s);
    QCOMPARE(e0Item.value(u"raw_ref"_s).toString(), u"s3://logs/e0"_s);
    QCOMPARE(e0Item.value(u"evidence_ref"_s).toString(), u"ticket-7"_s);
    QCOMPARE(e0Item.value(u"commit_id"_s).toString(), w.commitId);
    QCOMPARE(e0Item.value(u"uri"_s).toString(),
             u"memorygraph://default/default/event/"_s + w.id(u"e0"_s));
    QCOMPARE(items.at(0).toObject().value(u"title"_s).toString(), u"Release train"_s);

    const QJsonArray citations = context.value(u"citations"_s).toArray();
    QCOMPARE(fieldOf(citations, u"node_id"_s), fieldOf(items, u"node_id"_s));
    for (const QJsonValue &c : citations) {
        const QJsonObject citation = c.toObject();
        QCOMPARE(keysOf(citation),
                 keyList({"node_id", "uri", "commit_id", "commit_uri", "raw_ref", "evidence_ref"}));
        QCOMPARE(citation.value(u"commit_id"_s).toString(), w.commitId);
        QCOMPARE(citation.value(u"commit_uri"_s).toString(),
                 u"memorygraph://default/default/commit/"_s + w.commitId);
    }
}

void tst_HttpRecall::contextEventsCappedAtTen()
{
    HttpTestServer server;
    REQUIRE_SERVER(server);
    QJsonArray nodes;
    QList<QPair<int, double>> weights;
    for (int i = 0; i < 12; ++i) {
        nodes.append(memNode(u"ev%1"_s.arg(i), u"event"_s, u"event number %1"_s.arg(i), axis(i)));
        weights.append({i, double(12 - i)});
    }
    const Written w = writeGraph(server, nodes);
    REQUIRE_WRITE(w);

    const Reply r = server.post(kRecall, recallBody(vec(weights)));
    REQUIRE_OK(r);
    QCOMPARE(seedIds(r).size(), 12);
    const QJsonArray items = arrayAt(r.json, u"context.items"_s);
    QStringList expected;
    for (int i = 0; i < 10; ++i)
        expected << u"ev%1"_s.arg(i);
    QCOMPARE(w.clientsOf(fieldOf(items, u"node_id"_s)), expected);
    QCOMPARE(arrayAt(r.json, u"context.citations"_s).size(), 10);
    const QString text = objectAt(r.json, u"context"_s).value(u"text"_s).toString();
    QCOMPARE(text.count(u'\n'), 10); // header + 10 lines
    QVERIFY(text.startsWith(u"# Supporting Events / Evidence\n- event number 0 (node:"_s));
}

void tst_HttpRecall::contextCompressionSummaryFirst()
{
    // spec §4.3.2.5, reference §4.7: a compression rollup renders in the topics section with its
    // evidence lines, and the events it cites leave the event listing.
    HttpTestServer server;
    REQUIRE_SERVER(server);
    const Written events
        = writeGraph(server, QJsonArray{
                                 memNode(u"ev1"_s, u"event"_s, u"event one"_s, axis(1)),
                                 memNode(u"ev2"_s, u"event"_s, u"event two"_s, axis(2)),
                                 memNode(u"ev3"_s, u"event"_s, u"event three"_s, axis(3)),
                             });
    REQUIRE_WRITE(events);
    const QJsonObject rollupSlots
        = obj({{"summary_kind", u"compression_rollup"_s},
               {"source_event_count", 2},
               {"citations", QJsonArray{obj({{"node_id", events.id(u"ev1"_s)}}),
                                        obj({{"node_id", events.id(u"ev2"_s)}})}}});
    const Written rollup = writeGraph(
        server, QJsonArray{memNode(u"roll"_s, u"concept"_s, u"events one and two"_s, axis(0),
                                   obj({{"title", u"Weekly rollup"_s}, {"slots", rollupSlots}}))});
    REQUIRE_WRITE(rollup);

    const Reply r = server.post(kRecall, recallBody(vec({{0, 4}, {1, 3}, {2, 2}, {3, 1}})));
    REQUIRE_OK(r);
    const QString rollupId = rollup.id(u"roll"_s);
    const QString expectedText
        = u"# Topics / Concepts\n"_s
          + u"- Weekly rollup: events one and two (node:%1, compression, covers=2)\n"_s.arg(
              rollupId)
          + u"  evidence_node=%1\n"_s.arg(events.id(u"ev1"_s))
          + u"  evidence_node=%1\n"_s.arg(events.id(u"ev2"_s))
          + u"\n# Supporting Events / Evidence\n"_s
          + u"- event three (node:%1)"_s.arg(events.id(u"ev3"_s));
    QCOMPARE(objectAt(r.json, u"context"_s).value(u"text"_s).toString(), expectedText);
    const QStringList itemIds = fieldOf(arrayAt(r.json, u"context.items"_s), u"node_id"_s);
    QCOMPARE(itemIds, (QStringList{rollupId, events.id(u"ev3"_s)}));
    QCOMPARE(fieldOf(arrayAt(r.json, u"context.citations"_s), u"node_id"_s), itemIds);
    // The rollup is an ordinary concept node in the subgraph; its marker is only in its slots.
    const QJsonObject rollupNode = arrayAt(r.json, u"subgraph.nodes"_s).at(0).toObject();
    QCOMPARE(rollupNode.value(u"id"_s).toString(), rollupId);
    QCOMPARE(keysOf(rollupNode), keyList({"id", "type", "title", "text_summary"}));
}

void tst_HttpRecall::budgetCompactionKeepsItemsAndCitations_data()
{
    QTest::addColumn<QJsonObject>("budget");
    QTest::addColumn<QString>("profile");
    QTest::addColumn<QJsonValue>("tokenBudget");
    QTest::addColumn<int>("charBudget");

    QTest::newRow("context_char_budget 200")
        << obj({{"context_char_budget", 200}}) << u"balanced"_s << QJsonValue() << 200;
    QTest::newRow("context_token_budget 50 = 200 chars")
        << obj({{"context_token_budget", 50}}) << u"balanced"_s << QJsonValue(50) << 200;
    QTest::newRow("char budget floor 160")
        << obj({{"context_char_budget", 10}}) << u"balanced"_s << QJsonValue() << 160;
    QTest::newRow("char budget wins over token budget")
        << obj({{"context_char_budget", 300}, {"context_token_budget", 10}}) << u"balanced"_s
        << QJsonValue(10) << 300;
    QTest::newRow("aggressive, char budget 200")
        << obj({{"context_char_budget", 200}, {"context_compaction_profile", u"aggressive"_s}})
        << u"aggressive"_s << QJsonValue() << 200;
}

void tst_HttpRecall::budgetCompactionKeepsItemsAndCitations()
{
    QFETCH(QJsonObject, budget);
    QFETCH(QString, profile);
    QFETCH(QJsonValue, tokenBudget);
    QFETCH(int, charBudget);

    HttpTestServer server;
    REQUIRE_SERVER(server);
    QJsonArray nodes{memNode(u"topic"_s, u"topic"_s, u"weekly cadence"_s, axis(0),
                             obj({{"title", u"Release train"_s}}))};
    QList<QPair<int, double>> weights{{0, 20}};
    for (int i = 1; i <= 8; ++i) {
        nodes.append(memNode(
            u"ev%1"_s.arg(i), u"event"_s,
            u"event %1: a deliberately long line of supporting evidence text"_s.arg(i), axis(i)));
        weights.append({i, double(10 - i)});
    }
    const Written w = writeGraph(server, nodes);
    REQUIRE_WRITE(w);

    const Reply full
        = server.post(kRecall, recallBody(vec(weights), obj({{"return_debug", true}})));
    REQUIRE_OK(full);
    const QJsonObject fullContext = objectAt(full.json, u"context"_s);
    const QString fullText = fullContext.value(u"text"_s).toString();
    QCOMPARE(fullContext.value(u"items"_s).toArray().size(), 9);
    QCOMPARE(fullContext.value(u"citations"_s).toArray().size(), 9);
    QVERIFY2(fullText.size() > 600, qPrintable(fullText));
    const QJsonObject fullCompaction = objectAt(full.json, u"debug.context_compaction"_s);
    QCOMPARE(fullCompaction.value(u"applied"_s).toBool(), false);
    QVERIFY(fullCompaction.value(u"char_budget"_s).isNull());
    QVERIFY(fullCompaction.value(u"token_budget"_s).isNull());
    QCOMPARE(fullCompaction.value(u"dropped_lines"_s).toInt(), 0);
    QCOMPARE(fullCompaction.value(u"before_chars"_s).toInt(), int(fullText.size()));

    const Reply r = server.post(
        kRecall, recallBody(vec(weights), merged(budget, obj({{"return_debug", true}}))));
    REQUIRE_OK(r);
    const QJsonObject context = objectAt(r.json, u"context"_s);
    const QString text = context.value(u"text"_s).toString();
    // Budgets trim the text only (spec §4.3 context_token_budget, §4.3.2.6; DESIGN decision 2).
    QCOMPARE(context.value(u"items"_s).toArray(), fullContext.value(u"items"_s).toArray());
    QCOMPARE(context.value(u"citations"_s).toArray(), fullContext.value(u"citations"_s).toArray());
    QVERIFY2(text.size() <= charBudget, qPrintable(u"%1 chars:\n"_s.arg(text.size()) + text));
    // Event lines go first; the topic line stays.
    QVERIFY2(
        text.startsWith(u"# Topics / Concepts\n- Release train: weekly cadence (node:%1)"_s.arg(
            w.id(u"topic"_s))),
        qPrintable(text));
    const int eventLinesLeft = int(text.count(u"deliberately long line"_s));

    const QJsonObject c = objectAt(r.json, u"debug.context_compaction"_s);
    QCOMPARE(keysOf(c), compactionKeys());
    QCOMPARE(c.value(u"profile"_s).toString(), profile);
    QCOMPARE(c.value(u"token_budget"_s), tokenBudget);
    QCOMPARE(c.value(u"char_budget"_s).toInt(), charBudget);
    QCOMPARE(c.value(u"applied"_s).toBool(), true);
    QCOMPARE(c.value(u"before_chars"_s).toInt(), int(fullText.size()));
    QCOMPARE(c.value(u"after_chars"_s).toInt(), int(text.size()));
    QCOMPARE(c.value(u"before_est_tokens"_s).toInt(), estTokens(fullText.size()));
    QCOMPARE(c.value(u"after_est_tokens"_s).toInt(), estTokens(text.size()));
    QCOMPARE(c.value(u"dropped_lines"_s).toInt(), 8 - eventLinesLeft);
    QCOMPARE(c.value(u"dropped_by_section"_s).toObject(),
             obj({{"topics", 0}, {"entities", 0}, {"events", 8 - eventLinesLeft}, {"rules", 0}}));
}

void tst_HttpRecall::slotsPreview_data()
{
    QTest::addColumn<QJsonObject>("flags");
    QTest::addColumn<QStringList>("expectedKeys");

    // Slots written in a scrambled order; the preview takes the first N keys in key order.
    const QStringList all{u"alpha"_s, u"beta"_s,  u"delta"_s,  u"epsilon"_s, u"eta"_s,   u"gamma"_s,
                          u"iota"_s,  u"kappa"_s, u"lambda"_s, u"mu"_s,      u"theta"_s, u"zeta"_s};
    QTest::newRow("default slots_preview_keys 10")
        << obj({{"include_slots_preview", true}}) << all.mid(0, 10);
    QTest::newRow("slots_preview_keys 3")
        << obj({{"include_slots_preview", true}, {"slots_preview_keys", 3}}) << all.mid(0, 3);
    QTest::newRow("slots_preview_keys 1")
        << obj({{"include_slots_preview", true}, {"slots_preview_keys", 1}}) << all.mid(0, 1);
    QTest::newRow("slots_preview_keys 50 (more than there are)")
        << obj({{"include_slots_preview", true}, {"slots_preview_keys", 50}}) << all;
}

void tst_HttpRecall::slotsPreview()
{
    QFETCH(QJsonObject, flags);
    QFETCH(QStringList, expectedKeys);

    HttpTestServer server;
    REQUIRE_SERVER(server);
    const QStringList scrambled{u"zeta"_s,  u"mu"_s,    u"alpha"_s, u"theta"_s,
                                u"delta"_s, u"kappa"_s, u"beta"_s,  u"lambda"_s,
                                u"eta"_s,   u"iota"_s,  u"gamma"_s, u"epsilon"_s};
    QJsonObject slotData;
    for (const QString &key : scrambled)
        slotData.insert(key, key.toUpper());
    const Written w = writeGraph(server, QJsonArray{memNode(u"n"_s, u"entity"_s, u"slotted"_s,
                                                            axis(0), obj({{"slots", slotData}}))});
    REQUIRE_WRITE(w);

    const Reply r = server.post(kRecall, recallBody(axis(0), flags));
    REQUIRE_OK(r);
    const QJsonObject n = arrayAt(r.json, u"subgraph.nodes"_s).at(0).toObject();
    QVERIFY(!n.contains(u"slots"_s));
    const QJsonObject preview = n.value(u"slots_preview"_s).toObject();
    QCOMPARE(preview.keys(), expectedKeys);
    for (const QString &key : expectedKeys)
        QCOMPARE(preview.value(key).toString(), key.toUpper());
    // On the wire the keys appear in ascending order.
    qsizetype last = -1;
    for (const QString &key : expectedKeys) {
        const qsizetype at
            = r.body.indexOf('"' + key.toLatin1() + "\":\"" + key.toUpper().toLatin1());
        QVERIFY2(at > last, qPrintable(key));
        last = at;
    }
    // Seeds never carry slots of any kind.
    QCOMPARE(keysOf(arrayAt(r.json, u"seeds"_s).at(0).toObject()), seedKeys());
}

// ---------------------------------------------------------------------------------------------
// Validation

void tst_HttpRecall::validationBounds_data()
{
    QTest::addColumn<bool>("text");
    QTest::addColumn<QJsonObject>("fields"); // merged over a valid body
    QTest::addColumn<QString>("remove");     // a key taken out of the valid body
    QTest::addColumn<QString>("path");

    QJsonArray nonNumber = axis(0);
    nonNumber[7] = u"x"_s;
    QJsonArray nullElement = axis(0);
    nullElement[0] = QJsonValue();
    QJsonArray nested = axis(0);
    nested[3] = QJsonArray{1};

    const auto row
        = [](const char *name, bool text, const QJsonObject &fields, const QString &path) {
              QTest::newRow(name) << text << fields << QString() << path;
          };
    QTest::newRow("query_embedding required")
        << false << QJsonObject() << u"query_embedding"_s << u"query_embedding"_s;
    QJsonArray shorter = axis(0);
    shorter.removeLast();
    row("query_embedding wrong length 1535", false, obj({{"query_embedding", shorter}}),
        u"query_embedding"_s);
    QJsonArray longer = axis(0);
    longer.append(0.0);
    row("query_embedding wrong length 1537", false, obj({{"query_embedding", longer}}),
        u"query_embedding"_s);
    row("query_embedding empty", false, obj({{"query_embedding", QJsonArray()}}),
        u"query_embedding"_s);
    row("query_embedding not an array", false, obj({{"query_embedding", u"[1,2,3]"_s}}),
        u"query_embedding"_s);
    row("query_embedding non-number element", false, obj({{"query_embedding", nonNumber}}),
        u"query_embedding[7]"_s);
    row("query_embedding null element", false, obj({{"query_embedding", nullElement}}),
        u"query_embedding[0]"_s);
    row("query_embedding nested array element", false, obj({{"query_embedding", nested}}),
        u"query_embedding[3]"_s);
    row("query_embedding all zeros", false, obj({{"query_embedding", vec({})}}),
        u"query_embedding"_s);
    row("limit 0", false, obj({{"limit", 0}}), u"limit"_s);
    row("limit 201", false, obj({{"limit", 201}}), u"limit"_s);
    row("limit 2.5", false, obj({{"limit", 2.5}}), u"limit"_s);
    row("limit string", false, obj({{"limit", u"10"_s}}), u"limit"_s);
    row("neighborhood_hops 0", false, obj({{"neighborhood_hops", 0}}), u"neighborhood_hops"_s);
    row("neighborhood_hops 3", false, obj({{"neighborhood_hops", 3}}), u"neighborhood_hops"_s);
    row("max_nodes 0", false, obj({{"max_nodes", 0}}), u"max_nodes"_s);
    row("max_nodes 201", false, obj({{"max_nodes", 201}}), u"max_nodes"_s);
    row("max_edges -1", false, obj({{"max_edges", -1}}), u"max_edges"_s);
    row("max_edges 101", false, obj({{"max_edges", 101}}), u"max_edges"_s);
    row("ranked_limit 0", false, obj({{"ranked_limit", 0}}), u"ranked_limit"_s);
    row("ranked_limit 501", false, obj({{"ranked_limit", 501}}), u"ranked_limit"_s);
    row("min_edge_weight -0.1", false, obj({{"min_edge_weight", -0.1}}), u"min_edge_weight"_s);
    row("min_edge_weight 1.5", false, obj({{"min_edge_weight", 1.5}}), u"min_edge_weight"_s);
    row("min_edge_confidence 1.01", false, obj({{"min_edge_confidence", 1.01}}),
        u"min_edge_confidence"_s);
    row("min_edge_confidence string", false, obj({{"min_edge_confidence", u"high"_s}}),
        u"min_edge_confidence"_s);
    row("slots_preview_keys 0", false, obj({{"slots_preview_keys", 0}}), u"slots_preview_keys"_s);
    row("slots_preview_keys 51", false, obj({{"slots_preview_keys", 51}}), u"slots_preview_keys"_s);
    row("rules_limit 0", false, obj({{"rules_limit", 0}}), u"rules_limit"_s);
    row("rules_limit 201", false, obj({{"rules_limit", 201}}), u"rules_limit"_s);
    row("context_compaction_profile extreme", false,
        obj({{"context_compaction_profile", u"extreme"_s}}), u"context_compaction_profile"_s);
    row("context_token_budget -1", false, obj({{"context_token_budget", -1}}),
        u"context_token_budget"_s);
    row("context_char_budget string", false, obj({{"context_char_budget", u"200"_s}}),
        u"context_char_budget"_s);
    row("include_meta yes", false, obj({{"include_meta", u"yes"_s}}), u"include_meta"_s);
    row("include_slots 1", false, obj({{"include_slots", 1}}), u"include_slots"_s);
    row("include_slots_preview string", false, obj({{"include_slots_preview", u"true"_s}}),
        u"include_slots_preview"_s);
    row("return_debug string", false, obj({{"return_debug", u"true"_s}}), u"return_debug"_s);
    row("include_embeddings number", false, obj({{"include_embeddings", 1}}),
        u"include_embeddings"_s);
    row("rules_include_shadow string", false, obj({{"rules_include_shadow", u"no"_s}}),
        u"rules_include_shadow"_s);
    row("consumer_agent_id number", false, obj({{"consumer_agent_id", 5}}), u"consumer_agent_id"_s);
    row("consumer_team_id empty", false, obj({{"consumer_team_id", u"  "_s}}),
        u"consumer_team_id"_s);
    row("tenant_id malformed", false, obj({{"tenant_id", u"no spaces allowed"_s}}), u"tenant_id"_s);
    row("scope number", false, obj({{"scope", 3}}), u"scope"_s);

    QTest::newRow("recall_text: query_text required")
        << true << QJsonObject() << u"query_text"_s << u"query_text"_s;
    row("recall_text: query_text empty", true, obj({{"query_text", u""_s}}), u"query_text"_s);
    row("recall_text: query_text whitespace", true, obj({{"query_text", u" \n\t "_s}}),
        u"query_text"_s);
    row("recall_text: query_text number", true, obj({{"query_text", 42}}), u"query_text"_s);
    row("recall_text: query_text null", true, obj({{"query_text", QJsonValue()}}), u"query_text"_s);
    row("recall_text: limit 201", true, obj({{"limit", 201}}), u"limit"_s);
    row("recall_text: neighborhood_hops 3", true, obj({{"neighborhood_hops", 3}}),
        u"neighborhood_hops"_s);
    row("recall_text: max_edges 101", true, obj({{"max_edges", 101}}), u"max_edges"_s);
    row("recall_text: ranked_limit 501", true, obj({{"ranked_limit", 501}}), u"ranked_limit"_s);
    row("recall_text: slots_preview_keys 51", true, obj({{"slots_preview_keys", 51}}),
        u"slots_preview_keys"_s);
    row("recall_text: include_meta yes", true, obj({{"include_meta", u"yes"_s}}),
        u"include_meta"_s);
}

void tst_HttpRecall::validationBounds()
{
    QFETCH(bool, text);
    QFETCH(QJsonObject, fields);
    QFETCH(QString, remove);
    QFETCH(QString, path);

    HttpTestServer server;
    REQUIRE_SERVER(server);

    QJsonObject body
        = text ? recallTextBody(u"deploy"_s, fields) : recallBody(standardQuery(), fields);
    if (!remove.isEmpty())
        body.remove(remove);
    const Reply r = server.post(text ? kRecallText : kRecall, body);
    QVERIFY2(r.status == 400 && r.isJsonObject, r.describe().constData());
    QCOMPARE(r.errorCode(), u"invalid_request"_s);
    QCOMPARE(keysOf(r.json), errorKeys());
    QCOMPARE(r.issuePath(), path);
    QCOMPARE(r.json.value(u"request_id"_s).toString(),
             QString::fromLatin1(r.header("x-request-id")));
}

void tst_HttpRecall::acceptedBounds_data()
{
    QTest::addColumn<QJsonObject>("fields");

    QTest::newRow("limit 1") << obj({{"limit", 1}});
    QTest::newRow("limit 200") << obj({{"limit", 200}});
    QTest::newRow("neighborhood_hops 1") << obj({{"neighborhood_hops", 1}});
    QTest::newRow("neighborhood_hops 2") << obj({{"neighborhood_hops", 2}});
    QTest::newRow("max_nodes 1") << obj({{"max_nodes", 1}});
    QTest::newRow("max_nodes 200") << obj({{"max_nodes", 200}});
    QTest::newRow("max_edges 0") << obj({{"max_edges", 0}});
    QTest::newRow("max_edges 100") << obj({{"max_edges", 100}});
    QTest::newRow("ranked_limit 1") << obj({{"ranked_limit", 1}});
    QTest::newRow("ranked_limit 500") << obj({{"ranked_limit", 500}});
    QTest::newRow("min_edge_weight 0 and 1")
        << obj({{"min_edge_weight", 0}, {"min_edge_confidence", 1}});
    QTest::newRow("min_edge_weight 1 and 0")
        << obj({{"min_edge_weight", 1}, {"min_edge_confidence", 0}});
    QTest::newRow("slots_preview_keys 1")
        << obj({{"slots_preview_keys", 1}, {"include_slots_preview", true}});
    QTest::newRow("slots_preview_keys 50")
        << obj({{"slots_preview_keys", 50}, {"include_slots_preview", true}});
    QTest::newRow("rules_limit 1") << obj({{"rules_limit", 1}});
    QTest::newRow("rules_limit 200") << obj({{"rules_limit", 200}});
    QTest::newRow("context_compaction_profile balanced")
        << obj({{"context_compaction_profile", u"balanced"_s}});
    QTest::newRow("context_compaction_profile aggressive")
        << obj({{"context_compaction_profile", u"aggressive"_s}});
    QTest::newRow("null fields count as absent") << obj(
        {{"limit", QJsonValue()}, {"include_meta", QJsonValue()}, {"rules_context", QJsonValue()}});
    QTest::newRow("integral limit written as 5.0") << obj({{"limit", 5.0}});
}

void tst_HttpRecall::acceptedBounds()
{
    QFETCH(QJsonObject, fields);

    HttpTestServer server;
    REQUIRE_SERVER(server);
    const Written w = writeStandardGraph(server);
    REQUIRE_WRITE(w);

    Reply r = server.post(kRecall, recallBody(standardQuery(), fields));
    REQUIRE_OK(r);
    QVERIFY(!seedIds(r).isEmpty());
    QCOMPARE(seedIds(r).constFirst(), w.id(u"e0"_s));
    r = server.post(kRecallText, recallTextBody(u"deploy failed"_s, fields));
    REQUIRE_OK(r);
}

// ---------------------------------------------------------------------------------------------
// Debug embeddings

void tst_HttpRecall::debugEmbeddingsRefused_data()
{
    QTest::addColumn<QStringList>("env");
    QTest::addColumn<bool>("text");
    QTest::addColumn<QJsonObject>("fields");
    QTest::addColumn<QByteArray>("adminToken");
    QTest::addColumn<QString>("code");

    const QJsonObject debug
        = obj({{"return_debug", true}, {"include_embeddings", true}, {"limit", 5}});
    const QStringList none;
    const QStringList withToken{u"ADMIN_TOKEN=s3cret-admin"_s};

    QTest::newRow("include_embeddings without return_debug")
        << none << false << obj({{"include_embeddings", true}, {"limit", 5}}) << QByteArray()
        << u"debug_embeddings_requires_return_debug"_s;
    QTest::newRow("include_embeddings with return_debug false")
        << none << false
        << obj({{"include_embeddings", true}, {"return_debug", false}, {"limit", 5}})
        << QByteArray() << u"debug_embeddings_requires_return_debug"_s;
    QTest::newRow("recall_text: include_embeddings without return_debug")
        << none << true << obj({{"include_embeddings", true}, {"limit", 5}}) << QByteArray()
        << u"debug_embeddings_requires_return_debug"_s;
    QTest::newRow("ADMIN_TOKEN set, no X-Admin-Token")
        << withToken << false << debug << QByteArray() << u"debug_embeddings_not_allowed"_s;
    QTest::newRow("ADMIN_TOKEN set, wrong X-Admin-Token")
        << withToken << false << debug << QByteArrayLiteral("s3cret-admin2")
        << u"debug_embeddings_not_allowed"_s;
    QTest::newRow("ADMIN_TOKEN unset, X-Admin-Token sent anyway, NODE_ENV production")
        << QStringList{u"NODE_ENV=production"_s} << false << debug << QByteArrayLiteral("anything")
        << u"debug_embeddings_not_allowed"_s;
    QTest::newRow("ADMIN_TOKEN unset, NODE_ENV production, loopback")
        << QStringList{u"NODE_ENV=production"_s} << false << debug << QByteArray()
        << u"debug_embeddings_not_allowed"_s;
    QTest::newRow("ADMIN_TOKEN unset, APP_ENV prod, loopback")
        << QStringList{u"APP_ENV=prod"_s} << false << debug << QByteArray()
        << u"debug_embeddings_not_allowed"_s;
    QTest::newRow("recall_text: ADMIN_TOKEN set, no X-Admin-Token")
        << withToken << true << debug << QByteArray() << u"debug_embeddings_not_allowed"_s;
    QTest::newRow("limit 21") << none << false << merged(debug, obj({{"limit", 21}}))
                              << QByteArray() << u"debug_embeddings_limit_too_high"_s;
    QTest::newRow("limit 200 with a valid admin token")
        << withToken << false << merged(debug, obj({{"limit", 200}}))
        << QByteArrayLiteral("s3cret-admin") << u"debug_embeddings_limit_too_high"_s;
    QTest::newRow("limit omitted: the profile default 24 is over 20")
        << none << false << obj({{"return_debug", true}, {"include_embeddings", true}})
        << QByteArray() << u"debug_embeddings_limit_too_high"_s;
    QTest::newRow("recall_text: limit 21") << none << true << merged(debug, obj({{"limit", 21}}))
                                           << QByteArray() << u"debug_embeddings_limit_too_high"_s;
    QTest::newRow("not allowed is reported before the limit")
        << withToken << false << merged(debug, obj({{"limit", 50}})) << QByteArray()
        << u"debug_embeddings_not_allowed"_s;
}

void tst_HttpRecall::debugEmbeddingsRefused()
{
    QFETCH(QStringList, env);
    QFETCH(bool, text);
    QFETCH(QJsonObject, fields);
    QFETCH(QByteArray, adminToken);
    QFETCH(QString, code);

    HttpTestServer server(envOf(env));
    REQUIRE_SERVER(server);
    const Written w = writeStandardGraph(server);
    REQUIRE_WRITE(w);

    HttpHeaders headers;
    if (!adminToken.isEmpty())
        headers.append({QByteArrayLiteral("X-Admin-Token"), adminToken});
    const Reply r = text ? server.post(kRecallText, recallTextBody(u"deploy"_s, fields), headers)
                         : server.post(kRecall, recallBody(standardQuery(), fields), headers);
    QVERIFY2(r.status == 400 && r.isJsonObject, r.describe().constData());
    QCOMPARE(r.errorCode(), code);
    QVERIFY(!r.json.contains(u"debug"_s));
    QCOMPARE(embeddingKeyPaths(r.json), QStringList());
    QVERIFY(!r.body.contains("s3cret-admin"));
}

void tst_HttpRecall::debugEmbeddingsPreview_data()
{
    QTest::addColumn<QStringList>("env");
    QTest::addColumn<bool>("text");
    QTest::addColumn<int>("limit");
    QTest::addColumn<QByteArray>("adminToken");
    QTest::addColumn<int>("entries");

    QTest::newRow("loopback, ADMIN_TOKEN unset, limit 20")
        << QStringList() << false << 20 << QByteArray() << 5;
    QTest::newRow("X-Admin-Token matches") << QStringList{u"ADMIN_TOKEN=s3cret-admin"_s} << false
                                           << 10 << QByteArrayLiteral("s3cret-admin") << 5;
    QTest::newRow("X-Admin-Token matches in production")
        << QStringList{u"ADMIN_TOKEN=s3cret-admin"_s, u"NODE_ENV=production"_s} << false << 20
        << QByteArrayLiteral("s3cret-admin") << 5;
    QTest::newRow("fewer seeds than 5: limit 3")
        << QStringList() << false << 3 << QByteArray() << 3;
    QTest::newRow("recall_text, limit 7") << QStringList() << true << 7 << QByteArray() << 5;
}

void tst_HttpRecall::debugEmbeddingsPreview()
{
    QFETCH(QStringList, env);
    QFETCH(bool, text);
    QFETCH(int, limit);
    QFETCH(QByteArray, adminToken);
    QFETCH(int, entries);

    HttpTestServer server(envOf(env));
    REQUIRE_SERVER(server);
    // Seven nodes: dimensions 0..15 hold a rotation of k/64 (same norm for every node), and
    // dimension 100+k marks node k. The query weighs 100+k by 7-k, so the order is p0..p6.
    QJsonArray nodes;
    QList<QJsonArray> vectors;
    QList<QPair<int, double>> weights;
    for (int k = 0; k < 7; ++k) {
        QList<QPair<int, double>> components{{100 + k, 1.0}};
        for (int j = 0; j < 16; ++j)
            components.append({j, ((j + k) % 16) / 64.0});
        vectors.append(vec(components));
        nodes.append(
            memNode(u"p%1"_s.arg(k), u"event"_s, u"preview node %1"_s.arg(k), vectors.constLast()));
        weights.append({100 + k, double(7 - k)});
    }
    const Written w = writeGraph(server, nodes);
    REQUIRE_WRITE(w);

    HttpHeaders headers;
    if (!adminToken.isEmpty())
        headers.append({QByteArrayLiteral("X-Admin-Token"), adminToken});
    const QJsonObject fields = obj({{"return_debug", true},
                                    {"include_embeddings", true},
                                    {"limit", limit},
                                    {"include_meta", true},
                                    {"include_slots", true}});
    const Reply r
        = text ? server.post(kRecallText, recallTextBody(u"preview node"_s, fields), headers)
               : server.post(kRecall, recallBody(vec(weights), fields), headers);
    REQUIRE_OK(r);
    QCOMPARE(embeddingKeyPaths(r.json), QStringList{u"debug.embeddings"_s});

    const QJsonArray embeddings = objectAt(r.json, u"debug"_s).value(u"embeddings"_s).toArray();
    QCOMPARE(embeddings.size(), entries);
    const QStringList seeds = seedIds(r);
    QCOMPARE(fieldOf(embeddings, u"node_id"_s), seeds.mid(0, entries));
    if (!text)
        QCOMPARE(w.clientsOf(seeds.mid(0, 3)), (QStringList{u"p0"_s, u"p1"_s, u"p2"_s}));
    for (const QJsonValue &v : embeddings) {
        const QJsonObject e = v.toObject();
        QCOMPARE(keysOf(e), keyList({"node_id", "dims", "sha256", "preview"}));
        QCOMPARE(e.value(u"dims"_s).toInt(), kDim);
        const int k = w.clientOf(e.value(u"node_id"_s).toString()).mid(1).toInt();
        const QJsonArray written = vectors.at(k);
        const QJsonArray preview = e.value(u"preview"_s).toArray();
        QCOMPARE(preview.size(), 16);
        for (int j = 0; j < 16; ++j)
            QCOMPARE(preview.at(j).toDouble(), written.at(j).toDouble());
        QCOMPARE(e.value(u"sha256"_s).toString(), sha256Hex(vectorText(written).toUtf8()));
    }
}

// ---------------------------------------------------------------------------------------------
// recall_text

void tst_HttpRecall::recallTextSaysWhichChannelFoundEachSeed()
{
    HttpTestServer server;
    REQUIRE_SERVER(server);
    const QJsonObject shared{{u"memory_lane"_s, u"shared"_s}};
    const QJsonArray nodes{
        merged(writeNode(u"outage"_s, u"event"_s, u"Checkout outage on the booking page"_s),
               merged(shared, obj({{"occurred_at", u"2025-03-03"_s}}))),
        merged(writeNode(u"ticket"_s, u"event"_s, u"Ticket KX-7719 closed by the vendor"_s),
               shared),
        merged(writeNode(u"lunch"_s, u"event"_s, u"Team lunch at the noodle bar"_s), shared),
    };
    const Written w = writeGraph(server, nodes);
    REQUIRE_WRITE(w);
    QVERIFY(server.service()->waitForEmbeddings(10000));

    Reply r = server.post(
        kRecallText, recallTextBody(u"What broke in March 2025?"_s, obj({{"return_debug", true}})));
    REQUIRE_OK(r);
    const QJsonObject stage1 = objectAt(objectAt(r.json, u"debug"_s), u"stage1"_s);
    QCOMPARE(stage1.value(u"channels"_s).toString(), u"hybrid"_s);
    QCOMPARE(stage1.value(u"period"_s).toString(), u"2025-03-01T00:00:00Z/2025-04-01T00:00:00Z"_s);
    QCOMPARE(objectAt(stage1, u"fusion"_s).value(u"method"_s).toString(), u"reciprocal_rank"_s);
    const QJsonObject first = arrayAt(r.json, u"seeds"_s).first().toObject();
    QCOMPARE(w.clientOf(first.value(u"id"_s).toString()), u"outage"_s);
    QVERIFY(first.value(u"found_by"_s).toArray().contains(u"time"_s));
    QVERIFY(r.json.value(u"context"_s)
                .toObject()
                .value(u"text"_s)
                .toString()
                .contains(u"- 2025-03-03: Checkout outage on the booking page"_s));

    r = server.post(kRecallText, recallTextBody(u"kx-7719"_s, obj({{"return_debug", true}})));
    REQUIRE_OK(r);
    const QJsonObject ticket = arrayAt(r.json, u"seeds"_s).first().toObject();
    QCOMPARE(w.clientOf(ticket.value(u"id"_s).toString()), u"ticket"_s);
    QVERIFY(ticket.value(u"found_by"_s).toArray().contains(u"lexical"_s));
    const QJsonObject ranks
        = arrayAt(objectAt(objectAt(r.json, u"debug"_s), u"stage1"_s), u"seeds"_s)
              .first()
              .toObject();
    QCOMPARE(ranks.value(u"lexical_rank"_s).toInt(), 1);

    // No word of the question is in the lunch's text, but a lunch is a meal.
    r = server.post(kRecallText, recallTextBody(u"a shared meal"_s, obj({{"return_debug", true}})));
    REQUIRE_OK(r);
    const QJsonObject meal = arrayAt(r.json, u"seeds"_s).first().toObject();
    QCOMPARE(w.clientOf(meal.value(u"id"_s).toString()), u"lunch"_s);
    QVERIFY(meal.value(u"found_by"_s).toArray().contains(u"concept"_s));
    const QJsonObject mealStage1 = objectAt(objectAt(r.json, u"debug"_s), u"stage1"_s);
    QVERIFY(mealStage1.value(u"concept_seed_count"_s).toInt() >= 1);
    QCOMPARE(arrayAt(mealStage1, u"seeds"_s).first().toObject().value(u"concept_rank"_s).toInt(),
             1);

    // A date the service cannot place is refused, naming the field; nothing is written.
    const qsizetype before = server.nodes().size();
    Written bad = writeGraph(server, {merged(writeNode(u"bad"_s, u"event"_s, u"x"_s),
                                             obj({{"occurred_at", u"next tuesday"_s}}))});
    QCOMPARE(bad.reply.status, 400);
    QVERIFY2(bad.reply.describe().contains("occurred_at"), bad.reply.describe().constData());
    QCOMPARE(server.nodes().size(), before);
}

void tst_HttpRecall::trajectoryAndObservability_data()
{
    QTest::addColumn<bool>("text");
    QTest::newRow("recall") << false;
    QTest::newRow("recall_text") << true;
}

void tst_HttpRecall::trajectoryAndObservability()
{
    QFETCH(bool, text);
    HttpTestServer server;
    REQUIRE_SERVER(server);
    const Written w = writeStandardGraph(server);
    REQUIRE_WRITE(w);
    QVERIFY(server.service()->waitForEmbeddings(10000));

    const QJsonObject flags{{u"return_debug"_s, true}, {u"max_nodes"_s, 2}};
    const Reply r = text ? server.post(kRecallText, recallTextBody(u"deploy failed"_s, flags))
                         : server.post(kRecall, recallBody(standardQuery(), flags));
    REQUIRE_OK(r);
    const int seeds = int(arrayAt(r.json, u"seeds"_s).size());
    QVERIFY(seeds > 0);
    const QJsonObject debug = objectAt(r.json, u"debug"_s);

    // trajectory: three layers with counts, durations and the reasons something was cut.
    const QJsonObject trajectory = objectAt(r.json, u"trajectory"_s);
    QCOMPARE(keysOf(trajectory), keyList({"strategy", "layers", "budgets", "pruned_reasons"}));
    QCOMPARE(trajectory.value(u"strategy"_s).toString(), u"balanced"_s);
    const QJsonArray layers = arrayAt(trajectory, u"layers"_s);
    QCOMPARE(layers.size(), 3);
    QStringList names;
    for (const QJsonValue &l : layers) {
        names << l.toObject().value(u"name"_s).toString();
        QVERIFY(l.toObject().value(u"duration_ms"_s).toDouble(-1) >= 0);
    }
    QCOMPARE(names,
             (QStringList{u"seed_candidates"_s, u"graph_expansion"_s, u"context_assembly"_s}));
    QCOMPARE(layers.at(0).toObject().value(u"hits"_s).toInt(), seeds);
    const QJsonObject expansion = layers.at(1).toObject();
    QCOMPARE(expansion.value(u"hits"_s).toInt(), 2);
    QCOMPARE(expansion.value(u"candidate_nodes"_s).toInt(),
             debug.value(u"neighborhood_counts"_s).toObject().value(u"nodes"_s).toInt());
    QVERIFY(stringList(expansion.value(u"pruned_reasons"_s)).contains(u"max_nodes_cap"_s));
    QVERIFY(stringList(trajectory.value(u"pruned_reasons"_s)).contains(u"max_nodes_cap"_s));
    QCOMPARE(layers.at(2).toObject().value(u"context_chars"_s).toInt(),
             objectAt(r.json, u"context"_s).value(u"text"_s).toString().size());
    QCOMPARE(objectAt(trajectory, u"budgets"_s).value(u"max_nodes"_s).toInt(), 2);

    // observability: stage timings and the counts of every stage.
    const QJsonObject o = objectAt(r.json, u"observability"_s);
    QCOMPARE(keysOf(o), keyList({"endpoint", "profile", "inflight_wait_ms", "stage_timings_ms",
                                 "stage1", "neighborhood_counts", "ranking", "context"}));
    QCOMPARE(o.value(u"endpoint"_s).toString(), text ? u"recall_text"_s : u"recall"_s);
    QCOMPARE(objectAt(o, u"profile"_s).value(u"profile"_s).toString(), u"strict_edges"_s);
    const QJsonObject timings = objectAt(o, u"stage_timings_ms"_s);
    QCOMPARE(keysOf(timings),
             keyList({"embed_query_ms", "stage1_seeds_ms", "stage1_vector_ms", "stage1_lexical_ms",
                      "stage1_time_ms", "stage1_concept_ms", "stage2_expand_ms", "stage2_spread_ms",
                      "stage2_subgraph_ms", "stage3_context_ms", "rules_ms", "debug_embeddings_ms",
                      "total_ms"}));
    double stages = 0;
    for (auto it = timings.begin(); it != timings.end(); ++it) {
        QVERIFY2(it.value().isDouble() && it.value().toDouble() >= 0, qPrintable(it.key()));
        if (it.key() != u"total_ms"_s && !it.key().startsWith(u"stage1_"_s)
            && it.key() != u"embed_query_ms"_s)
            stages += it.value().toDouble();
    }
    QVERIFY(timings.value(u"total_ms"_s).toDouble() > 0);
    QVERIFY(timings.value(u"total_ms"_s).toDouble() + 0.01
            >= stages + timings.value(u"stage1_seeds_ms"_s).toDouble());
    if (!text)
        QCOMPARE(timings.value(u"embed_query_ms"_s).toDouble(), 0.0);
    const QJsonObject stage1 = objectAt(o, u"stage1"_s);
    QCOMPARE(stage1.value(u"final_seed_count"_s).toInt(), seeds);
    QCOMPARE(stage1.value(u"mode"_s).toString(),
             debug.value(u"stage1"_s).toObject().value(u"mode"_s).toString());
    QCOMPARE(stage1.value(u"channels"_s).toString(),
             debug.value(u"stage1"_s).toObject().value(u"channels"_s).toString());
    const QJsonObject byChannel = objectAt(stage1, u"seeds_by_channel"_s);
    QCOMPARE(keysOf(byChannel), keyList({"vector", "lexical", "time", "concept"}));
    if (!text)
        QCOMPARE(byChannel.value(u"vector"_s).toInt(), seeds);
    QCOMPARE(objectAt(o, u"neighborhood_counts"_s),
             debug.value(u"neighborhood_counts"_s).toObject());
    const QJsonObject ranking = objectAt(o, u"ranking"_s);
    QCOMPARE(ranking.value(u"ranked_returned"_s).toInt(), arrayAt(r.json, u"ranked"_s).size());
    QVERIFY(ranking.value(u"scored_nodes"_s).toInt()
            >= ranking.value(u"ranked_returned"_s).toInt());
    QCOMPARE(ranking.value(u"top_score"_s).toDouble(),
             arrayAt(r.json, u"ranked"_s).first().toObject().value(u"score"_s).toDouble());
    QCOMPARE(ranking.value(u"subgraph_nodes"_s).toInt(), 2);
    const QJsonObject context = objectAt(o, u"context"_s);
    QCOMPARE(context.value(u"items"_s).toInt(),
             objectAt(r.json, u"context"_s).value(u"items"_s).toArray().size());
    QCOMPARE(context.value(u"chars"_s).toInt(),
             objectAt(r.json, u"context"_s).value(u"text"_s).toString().size());
}

void tst_HttpRecall::observabilityShowsSeedChannels()
{
    HttpTestServer server;
    REQUIRE_SERVER(server);
    const QJsonObject shared{{u"memory_lane"_s, u"shared"_s}};
    const Written w = writeGraph(
        server,
        {merged(writeNode(u"ticket"_s, u"event"_s, u"Ticket KX-7719 closed by the vendor"_s),
                shared),
         merged(writeNode(u"lunch"_s, u"event"_s, u"Team lunch at the noodle bar"_s), shared)});
    REQUIRE_WRITE(w);
    QVERIFY(server.service()->waitForEmbeddings(10000));

    const Reply r = server.post(kRecallText, recallTextBody(u"kx-7719"_s));
    REQUIRE_OK(r);
    const QJsonObject o = objectAt(r.json, u"observability"_s);
    const QJsonObject stage1 = objectAt(o, u"stage1"_s);
    QCOMPARE(stage1.value(u"channels"_s).toString(), u"hybrid"_s);
    QVERIFY(stage1.value(u"lexical_seed_count"_s).toInt() >= 1);
    QVERIFY(objectAt(stage1, u"seeds_by_channel"_s).value(u"lexical"_s).toInt() >= 1);
    QVERIFY(objectAt(o, u"stage_timings_ms"_s).value(u"embed_query_ms"_s).toDouble() > 0);
    QCOMPARE(arrayAt(objectAt(r.json, u"trajectory"_s), u"layers"_s)
                 .at(0)
                 .toObject()
                 .value(u"channels"_s)
                 .toString(),
             u"hybrid"_s);
}

void tst_HttpRecall::recallTextLocalProvider()
{
    HttpTestServer server;
    REQUIRE_SERVER(server);
    const QJsonObject shared{{u"memory_lane"_s, u"shared"_s}};
    const QJsonArray nodes{
        merged(
            writeNode(u"deploy"_s, u"event"_s, u"The deploy pipeline uses blue green releases"_s),
            shared),
        merged(writeNode(u"dark"_s, u"event"_s, u"Customer prefers dark mode in the editor"_s),
               shared),
        merged(writeNode(u"revenue"_s, u"event"_s, u"Quarterly revenue grew eleven percent"_s),
               shared),
    };
    const Written w = writeGraph(server, nodes);
    REQUIRE_WRITE(w);
    QVERIFY(server.service()->waitForEmbeddings(10000));
    for (const NodeRecord &n : server.nodes())
        QCOMPARE(n.embeddingStatus, u"ready"_s);

    const HttpHeaders requestId{
        {QByteArrayLiteral("X-Request-Id"), QByteArrayLiteral("recall-text-req-1")}};
    Reply r = server.post(kRecallText, recallTextBody(u"  dark \n\t mode   editor  "_s), requestId);
    REQUIRE_OK(r);
    QCOMPARE(sorted(keysOf(r.json)),
             sorted(recallKeys() + QStringList{u"request_id"_s, u"query"_s}));
    QCOMPARE(r.json.value(u"request_id"_s).toString(), u"recall-text-req-1"_s);
    QCOMPARE(r.header("x-request-id"), QByteArrayLiteral("recall-text-req-1"));
    QCOMPARE(objectAt(r.json, u"query"_s),
             obj({{"text", u"dark mode editor"_s}, {"embedding_provider", u"local:hashing-v2"_s}}));
    QVERIFY(!seedIds(r).isEmpty());
    QCOMPARE(w.clientOf(seedIds(r).constFirst()), u"dark"_s);
    const QJsonArray seeds = arrayAt(r.json, u"seeds"_s);
    QVERIFY(seeds.at(0).toObject().value(u"similarity"_s).toDouble()
            > seeds.at(1).toObject().value(u"similarity"_s).toDouble());
    for (qsizetype i = 1; i < seeds.size(); ++i)
        QVERIFY(seeds.at(i - 1).toObject().value(u"similarity"_s).toDouble()
                >= seeds.at(i).toObject().value(u"similarity"_s).toDouble());

    r = server.post(kRecallText, recallTextBody(u"revenue grew"_s));
    REQUIRE_OK(r);
    QVERIFY(!seedIds(r).isEmpty());
    QCOMPARE(w.clientOf(seedIds(r).constFirst()), u"revenue"_s);
    QVERIFY(isLowerUuid(r.json.value(u"request_id"_s).toString()));
    QCOMPARE(r.json.value(u"request_id"_s).toString(),
             QString::fromLatin1(r.header("x-request-id")));

    // /recall never puts request_id or query in the body.
    r = server.post(kRecall, recallBody(axis(0)), requestId);
    REQUIRE_OK(r);
    QCOMPARE(keysOf(r.json), recallKeys());
}

void tst_HttpRecall::recallTextNoProvider()
{
    HttpTestServer server(environment({{"EMBEDDING_PROVIDER", u"none"_s}}));
    REQUIRE_SERVER(server);
    const Written w = writeGraph(
        server, QJsonArray{memNode(u"n"_s, u"event"_s, u"client vectors still work"_s, axis(0))});
    REQUIRE_WRITE(w);

    Reply r = server.post(kRecallText, recallTextBody(u"client vectors"_s));
    QVERIFY2(r.status == 400 && r.isJsonObject, r.describe().constData());
    QCOMPARE(r.errorCode(), u"no_embedding_provider"_s);
    QCOMPARE(r.json.value(u"request_id"_s).toString(),
             QString::fromLatin1(r.header("x-request-id")));
    QVERIFY(r.header("retry-after").isEmpty());

    // /recall with a client vector does not need a provider.
    r = server.post(kRecall, recallBody(axis(0)));
    REQUIRE_OK(r);
    QCOMPARE(seedIds(r), QStringList{w.id(u"n"_s)});
}

void tst_HttpRecall::recallTextContextBudgetDefault()
{
    HttpTestServer server(
        environment({{"MEMORY_RECALL_TEXT_CONTEXT_TOKEN_BUDGET_DEFAULT", u"40"_s}}));
    REQUIRE_SERVER(server);
    const Written w = writeStandardGraph(server);
    REQUIRE_WRITE(w);

    // recall_text applies the default budget when the request sets none (spec §4.4) ...
    Reply r = server.post(kRecallText,
                          recallTextBody(u"deploy failed"_s, obj({{"return_debug", true}})));
    REQUIRE_OK(r);
    QJsonObject c = objectAt(r.json, u"debug.context_compaction"_s);
    QCOMPARE(c.value(u"token_budget"_s).toInt(), 40);
    QCOMPARE(c.value(u"char_budget"_s).toInt(), 160);
    QVERIFY(objectAt(r.json, u"context"_s).value(u"text"_s).toString().size() <= 160);
    QCOMPARE(arrayAt(r.json, u"context.items"_s).size(), 4);

    // ... an explicit budget replaces it ...
    r = server.post(kRecallText,
                    recallTextBody(u"deploy failed"_s,
                                   obj({{"return_debug", true}, {"context_char_budget", 1000}})));
    REQUIRE_OK(r);
    c = objectAt(r.json, u"debug.context_compaction"_s);
    QVERIFY(c.value(u"token_budget"_s).isNull());
    QCOMPARE(c.value(u"char_budget"_s).toInt(), 1000);
    QCOMPARE(c.value(u"applied"_s).toBool(), false);

    // ... and plain /recall never uses it.
    r = server.post(kRecall, recallBody(standardQuery(), obj({{"return_debug", true}})));
    REQUIRE_OK(r);
    c = objectAt(r.json, u"debug.context_compaction"_s);
    QVERIFY(c.value(u"token_budget"_s).isNull());
    QVERIFY(c.value(u"char_budget"_s).isNull());
    QCOMPARE(c.value(u"applied"_s).toBool(), false);
}

QTEST_GUILESS_MAIN(tst_HttpRecall)
#include "tst_httprecall.moc"
