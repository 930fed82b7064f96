#include "service/portability/exportformat.h"

#include "service/core/vocabulary.h"
#include "service/rules/ruledefinition.h"

#include <QJsonArray>

#include <cmath>
#include <cstring>

namespace MemoryGraph::ExportFormat {

namespace {

constexpr int kMaxIdLength = 256;
constexpr int kMaxText = 1 << 22;
constexpr int kEmbeddingBytes = Vocabulary::kEmbeddingDimension * int(sizeof(float));

const QStringList &embeddingStatuses()
{
    static const QStringList v{QStringLiteral("ready"), QStringLiteral("pending"),
                               QStringLiteral("failed")};
    return v;
}

QJsonValue orNull(const QString &text)
{
    return text.isEmpty() ? QJsonValue() : QJsonValue(text);
}

/// Typed reads of one record's fields; the first problem is kept and names the field. Strings
/// are taken as they are (not trimmed): the file carries what the store held.
class FieldReader
{
public:
    explicit FieldReader(const QJsonObject &object) : m_object(object) { }

    bool ok() const { return !m_error.has_value(); }
    const Error &error() const { return *m_error; }

    bool fail(const QString &field, const QString &message)
    {
        if (!m_error)
            m_error = Error::invalidField(field, message);
        return false;
    }

    bool text(const char *key, QString *out, bool required = false, int maxLength = kMaxText)
    {
        const QJsonValue v = m_object.value(QLatin1String(key));
        if (!ok())
            return false;
        if (v.isUndefined() || v.isNull())
            return !required || fail(QLatin1String(key), QStringLiteral("is required"));
        if (!v.isString())
            return fail(QLatin1String(key), QStringLiteral("must be a string"));
        const QString s = v.toString();
        if (required && s.isEmpty())
            return fail(QLatin1String(key), QStringLiteral("must not be empty"));
        if (s.size() > maxLength)
            return fail(QLatin1String(key),
                        QStringLiteral("must be at most %1 characters").arg(maxLength));
        *out = s;
        return true;
    }

    bool id(const char *key, QString *out, bool required = true)
    {
        return text(key, out, required, kMaxIdLength);
    }

    bool choice(const char *key, QString *out, const QStringList &allowed, bool required = true)
    {
        QString s;
        if (!text(key, &s, required, 64))
            return false;
        if (s.isEmpty())
            return true;
        if (!allowed.contains(s))
            return fail(QLatin1String(key),
                        QStringLiteral("must be one of: ") + allowed.join(QStringLiteral(", ")));
        *out = s;
        return true;
    }

    bool real(const char *key, double *out, double min, double max)
    {
        const QJsonValue v = m_object.value(QLatin1String(key));
        if (!ok())
            return false;
        if (v.isUndefined() || v.isNull())
            return true; // keeps the default
        if (!v.isDouble() || !std::isfinite(v.toDouble()) || v.toDouble() < min
            || v.toDouble() > max)
            return fail(QLatin1String(key),
                        QStringLiteral("must be a number in %1..%2").arg(min).arg(max));
        *out = v.toDouble();
        return true;
    }

    bool integer(const char *key, qint64 *out, qint64 min, bool required = true)
    {
        const QJsonValue v = m_object.value(QLatin1String(key));
        if (!ok())
            return false;
        if (v.isUndefined() || v.isNull())
            return !required || fail(QLatin1String(key), QStringLiteral("is required"));
        const double d = v.toDouble();
        if (!v.isDouble() || std::floor(d) != d || d < double(min) || d > 9007199254740992.0)
            return fail(QLatin1String(key),
                        QStringLiteral("must be a whole number of at least %1").arg(min));
        *out = qint64(d);
        return true;
    }

    bool time(const char *key, QDateTime *out, bool required = false)
    {
        QString s;
        if (!text(key, &s, required, 64))
            return false;
        if (s.isEmpty())
            return true;
        const QDateTime t = QDateTime::fromString(s, Qt::ISODateWithMs);
        if (!t.isValid())
            return fail(QLatin1String(key), QStringLiteral("must be an ISO 8601 time such as "
                                                           "2025-03-03T10:00:00.000Z"));
        *out = t.toUTC();
        return true;
    }

    bool object(const char *key, QJsonObject *out, bool required = false)
    {
        const QJsonValue v = m_object.value(QLatin1String(key));
        if (!ok())
            return false;
        if (v.isUndefined() || v.isNull())
            return !required || fail(QLatin1String(key), QStringLiteral("is required"));
        if (!v.isObject())
            return fail(QLatin1String(key), QStringLiteral("must be an object"));
        *out = v.toObject();
        return true;
    }

    bool textList(const char *key, QStringList *out)
    {
        const QJsonValue v = m_object.value(QLatin1String(key));
        if (!ok())
            return false;
        if (v.isUndefined() || v.isNull())
            return true;
        if (!v.isArray())
            return fail(QLatin1String(key), QStringLiteral("must be an array of strings"));
        const QJsonArray items = v.toArray();
        for (int i = 0; i < items.size(); ++i) {
            if (!items.at(i).isString())
                return fail(QStringLiteral("%1[%2]").arg(QLatin1String(key)).arg(i),
                            QStringLiteral("must be a string"));
            out->append(items.at(i).toString());
        }
        return true;
    }

    /// base64 of kEmbeddingDimension little-endian float32, each finite.
    bool embedding(const char *key, QByteArray *out)
    {
        QString s;
        if (!text(key, &s))
            return false;
        if (s.isEmpty())
            return true;
        const auto decoded
            = QByteArray::fromBase64Encoding(s.toLatin1(), QByteArray::AbortOnBase64DecodingErrors);
        if (!decoded)
            return fail(QLatin1String(key), QStringLiteral("must be base64"));
        if (decoded.decoded.size() != kEmbeddingBytes)
            return fail(QLatin1String(key),
                        QStringLiteral("must hold %1 float32 values (%2 bytes), not %3 bytes")
                            .arg(Vocabulary::kEmbeddingDimension)
                            .arg(kEmbeddingBytes)
                            .arg(decoded.decoded.size()));
        for (int i = 0; i < Vocabulary::kEmbeddingDimension; ++i) {
            float f = 0;
            std::memcpy(&f, decoded.decoded.constData() + i * int(sizeof(float)), sizeof(float));
            if (!std::isfinite(f))
                return fail(QStringLiteral("%1[%2]").arg(QLatin1String(key)).arg(i),
                            QStringLiteral("must be a finite number"));
        }
        *out = decoded.decoded;
        return true;
    }

private:
    QJsonObject m_object;
    std::optional<Error> m_error;
};

Result<NodeEntry> parseNode(const QJsonObject &o)
{
    FieldReader r(o);
    NodeEntry e;
    NodeRecord &n = e.record;
    r.id("id", &n.id);
    r.text("client_id", &n.clientId, false, 512);
    r.choice("type", &n.type, Vocabulary::nodeTypes());
    r.choice("tier", &n.tier, Vocabulary::tiers());
    r.choice("memory_lane", &n.memoryLane, Vocabulary::lanes());
    r.text("producer_agent_id", &n.producerAgentId, false, kMaxIdLength);
    r.text("owner_agent_id", &n.ownerAgentId, false, kMaxIdLength);
    r.text("owner_team_id", &n.ownerTeamId, false, kMaxIdLength);
    r.text("title", &n.title);
    r.text("text_summary", &n.textSummary);
    r.object("slots", &n.slotData);
    r.text("raw_ref", &n.rawRef, false, 4096);
    r.text("evidence_ref", &n.evidenceRef, false, 4096);
    r.real("salience", &n.salience, 0.0, 1.0);
    r.real("importance", &n.importance, 0.0, 1.0);
    r.real("confidence", &n.confidence, 0.0, 1.0);
    r.time("occurred_at", &n.occurredAt);
    r.time("created_at", &n.createdAt, true);
    r.time("updated_at", &n.updatedAt);
    r.time("last_activated", &n.lastActivated);
    r.choice("embedding_status", &n.embeddingStatus, embeddingStatuses(), false);
    r.text("embedding_model", &n.embeddingModel, false, kMaxIdLength);
    r.text("embedding_error", &n.embeddingError, false, 4096);
    r.embedding("embedding", &e.embedding);
    r.id("commit_id", &n.commitId, false);
    if (r.ok() && !e.embedding.isEmpty() && n.embeddingModel.isEmpty())
        r.fail(QStringLiteral("embedding_model"), QStringLiteral("is required with embedding"));
    if (!r.ok())
        return r.error();
    if (!n.updatedAt.isValid())
        n.updatedAt = n.createdAt;
    if (n.type == QLatin1String("rule")) {
        if (auto valid = RuleDefinition::validateSlots(n.slotData, QString()); !valid) {
            // validateSlots names "<prefix>.slots.<field>"; a record has no prefix.
            const QJsonObject issue
                = valid.error().details.value(QStringLiteral("issues")).toArray().at(0).toObject();
            return Error::invalidField(issue.value(QStringLiteral("path")).toString().mid(1),
                                       issue.value(QStringLiteral("message")).toString());
        }
        if (n.memoryLane == QLatin1String("private") && n.ownerAgentId.isEmpty()
            && n.ownerTeamId.isEmpty())
            return Error::invalidField(QStringLiteral("owner_agent_id"),
                                       QStringLiteral("a private rule needs owner_agent_id or "
                                                      "owner_team_id"));
    }
    return e;
}

Result<EdgeEntry> parseEdge(const QJsonObject &o)
{
    FieldReader r(o);
    EdgeEntry e;
    EdgeRecord &edge = e.record;
    r.id("id", &edge.id);
    r.choice("type", &edge.type, Vocabulary::edgeTypes());
    r.id("src_id", &edge.fromId);
    r.id("dst_id", &edge.toId);
    r.real("weight", &edge.weight, 0.0, 1.0);
    r.real("confidence", &edge.confidence, 0.0, 1.0);
    r.real("decay_rate", &edge.decayRate, 0.0, 1.0);
    r.time("created_at", &edge.createdAt, true);
    r.time("updated_at", &e.updatedAt);
    r.id("commit_id", &edge.commitId, false);
    if (r.ok() && edge.fromId == edge.toId)
        r.fail(QStringLiteral("dst_id"), QStringLiteral("must differ from src_id"));
    if (!r.ok())
        return r.error();
    if (!e.updatedAt.isValid())
        e.updatedAt = edge.createdAt;
    return e;
}

Result<RuleEntry> parseRule(const QJsonObject &o)
{
    FieldReader r(o);
    RuleEntry e;
    r.id("rule_node_id", &e.ruleNodeId);
    r.choice("state", &e.status.state, Vocabulary::ruleStates());
    r.integer("positive_count", &e.status.positive, 0, false);
    r.integer("negative_count", &e.status.negative, 0, false);
    r.time("last_matched_at", &e.status.lastMatchedAt);
    r.id("state_commit_id", &e.status.stateCommitId, false);
    r.time("created_at", &e.createdAt, true);
    r.time("updated_at", &e.status.updatedAt);
    if (!r.ok())
        return r.error();
    if (!e.status.updatedAt.isValid())
        e.status.updatedAt = e.createdAt;
    return e;
}

Result<DecisionRecord> parseDecision(const QJsonObject &o)
{
    FieldReader r(o);
    DecisionRecord d;
    r.id("id", &d.id);
    r.text("decision_kind", &d.kind, true, 64);
    r.id("run_id", &d.runId, false);
    r.text("selected_tool", &d.selectedTool, false, 4096);
    r.textList("candidates", &d.candidates);
    r.text("context_sha256", &d.contextSha256, true, 128);
    r.text("policy_sha256", &d.policySha256, true, 128);
    r.textList("source_rule_ids", &d.sourceRuleIds);
    r.object("metadata", &d.metadata);
    r.id("commit_id", &d.commitId, false);
    r.time("created_at", &d.createdAt, true);
    if (!r.ok())
        return r.error();
    return d;
}

Result<FeedbackRecord> parseFeedback(const QJsonObject &o)
{
    FieldReader r(o);
    FeedbackRecord f;
    r.id("id", &f.id);
    r.id("rule_node_id", &f.ruleNodeId, false);
    r.id("run_id", &f.runId, false);
    r.choice("outcome", &f.outcome, Vocabulary::outcomes());
    r.text("note", &f.note);
    r.text("source", &f.source, true, 64);
    r.id("decision_id", &f.decisionId, false);
    r.id("commit_id", &f.commitId, false);
    r.time("created_at", &f.createdAt, true);
    if (!r.ok())
        return r.error();
    return f;
}

Result<CommitRecord> parseCommit(const QJsonObject &o)
{
    FieldReader r(o);
    CommitRecord c;
    r.id("id", &c.id);
    r.integer("seq", &c.sequence, 1);
    r.id("parent_id", &c.parentId, false);
    r.text("parent_hash", &c.parentHash, false, 128);
    r.text("input_sha256", &c.inputSha256, true, 128);
    r.text("diff_sha256", &c.diffSha256, true, 128);
    r.object("diff", &c.diff, true);
    r.text("actor", &c.actor, true, 4096);
    r.text("commit_kind", &c.kind, true, 64);
    r.text("commit_hash", &c.commitHash, true, 128);
    r.time("created_at", &c.createdAt, true);
    if (!r.ok())
        return r.error();
    return c;
}

} // namespace

QString formatName()
{
    return QStringLiteral("memorygraph-export");
}

QString kindName(Kind kind)
{
    switch (kind) {
    case Kind::Node: return QStringLiteral("node");
    case Kind::Edge: return QStringLiteral("edge");
    case Kind::Rule: return QStringLiteral("rule");
    case Kind::Decision: return QStringLiteral("decision");
    case Kind::RuleFeedback: return QStringLiteral("rule_feedback");
    case Kind::Commit: return QStringLiteral("commit");
    }
    return QString();
}

std::optional<Kind> kindFromName(const QString &name)
{
    for (Kind k : kindOrder()) {
        if (kindName(k) == name)
            return k;
    }
    return std::nullopt;
}

const QVector<Kind> &kindOrder()
{
    static const QVector<Kind> order{Kind::Node,     Kind::Edge,         Kind::Rule,
                                     Kind::Decision, Kind::RuleFeedback, Kind::Commit};
    return order;
}

QJsonValue timeJson(const QDateTime &time)
{
    return time.isValid() ? QJsonValue(time.toUTC().toString(Qt::ISODateWithMs)) : QJsonValue();
}

QJsonObject headerJson(const Header &h)
{
    QJsonObject counts;
    for (Kind k : kindOrder())
        counts.insert(kindName(k), h.counts.value(kindName(k)));
    return {{QStringLiteral("format"), formatName()},
            {QStringLiteral("version"), h.version},
            {QStringLiteral("tenant_id"), h.tenantId},
            {QStringLiteral("scope"), h.scope},
            {QStringLiteral("exported_at"), timeJson(h.exportedAt)},
            {QStringLiteral("app_version"), h.appVersion},
            {QStringLiteral("embeddings"), h.embeddings},
            {QStringLiteral("counts"), counts},
            {QStringLiteral("replay_runs"), h.replayRuns}};
}

QJsonObject nodeJson(const NodeRecord &n, const QByteArray &embedding)
{
    return {{QStringLiteral("kind"), kindName(Kind::Node)},
            {QStringLiteral("id"), n.id},
            {QStringLiteral("client_id"), orNull(n.clientId)},
            {QStringLiteral("type"), n.type},
            {QStringLiteral("tier"), n.tier},
            {QStringLiteral("memory_lane"), n.memoryLane},
            {QStringLiteral("producer_agent_id"), orNull(n.producerAgentId)},
            {QStringLiteral("owner_agent_id"), orNull(n.ownerAgentId)},
            {QStringLiteral("owner_team_id"), orNull(n.ownerTeamId)},
            {QStringLiteral("title"), orNull(n.title)},
            {QStringLiteral("text_summary"), orNull(n.textSummary)},
            {QStringLiteral("slots"), n.slotData},
            {QStringLiteral("raw_ref"), orNull(n.rawRef)},
            {QStringLiteral("evidence_ref"), orNull(n.evidenceRef)},
            {QStringLiteral("salience"), n.salience},
            {QStringLiteral("importance"), n.importance},
            {QStringLiteral("confidence"), n.confidence},
            {QStringLiteral("occurred_at"), timeJson(n.occurredAt)},
            {QStringLiteral("created_at"), timeJson(n.createdAt)},
            {QStringLiteral("updated_at"), timeJson(n.updatedAt)},
            {QStringLiteral("last_activated"), timeJson(n.lastActivated)},
            {QStringLiteral("embedding_status"), n.embeddingStatus},
            {QStringLiteral("embedding_model"), orNull(n.embeddingModel)},
            {QStringLiteral("embedding_error"), orNull(n.embeddingError)},
            {QStringLiteral("embedding"),
             embedding.isEmpty() ? QJsonValue()
                                 : QJsonValue(QString::fromLatin1(embedding.toBase64()))},
            {QStringLiteral("commit_id"), orNull(n.commitId)}};
}

QJsonObject edgeJson(const EdgeRecord &e, const QDateTime &updatedAt)
{
    return {{QStringLiteral("kind"), kindName(Kind::Edge)},
            {QStringLiteral("id"), e.id},
            {QStringLiteral("type"), e.type},
            {QStringLiteral("src_id"), e.fromId},
            {QStringLiteral("dst_id"), e.toId},
            {QStringLiteral("weight"), e.weight},
            {QStringLiteral("confidence"), e.confidence},
            {QStringLiteral("decay_rate"), e.decayRate},
            {QStringLiteral("created_at"), timeJson(e.createdAt)},
            {QStringLiteral("updated_at"), timeJson(updatedAt)},
            {QStringLiteral("commit_id"), orNull(e.commitId)}};
}

QJsonObject ruleJson(const RuleEntry &r)
{
    return {{QStringLiteral("kind"), kindName(Kind::Rule)},
            {QStringLiteral("rule_node_id"), r.ruleNodeId},
            {QStringLiteral("state"), r.status.state},
            {QStringLiteral("positive_count"), r.status.positive},
            {QStringLiteral("negative_count"), r.status.negative},
            {QStringLiteral("last_matched_at"), timeJson(r.status.lastMatchedAt)},
            {QStringLiteral("state_commit_id"), orNull(r.status.stateCommitId)},
            {QStringLiteral("created_at"), timeJson(r.createdAt)},
            {QStringLiteral("updated_at"), timeJson(r.status.updatedAt)}};
}

QJsonObject decisionJson(const DecisionRecord &d)
{
    return {{QStringLiteral("kind"), kindName(Kind::Decision)},
            {QStringLiteral("id"), d.id},
            {QStringLiteral("decision_kind"), d.kind},
            {QStringLiteral("run_id"), orNull(d.runId)},
            {QStringLiteral("selected_tool"), orNull(d.selectedTool)},
            {QStringLiteral("candidates"), QJsonArray::fromStringList(d.candidates)},
            {QStringLiteral("context_sha256"), d.contextSha256},
            {QStringLiteral("policy_sha256"), d.policySha256},
            {QStringLiteral("source_rule_ids"), QJsonArray::fromStringList(d.sourceRuleIds)},
            {QStringLiteral("metadata"), d.metadata},
            {QStringLiteral("commit_id"), orNull(d.commitId)},
            {QStringLiteral("created_at"), timeJson(d.createdAt)}};
}

QJsonObject feedbackJson(const FeedbackRecord &f)
{
    return {{QStringLiteral("kind"), kindName(Kind::RuleFeedback)},
            {QStringLiteral("id"), f.id},
            {QStringLiteral("rule_node_id"), orNull(f.ruleNodeId)},
            {QStringLiteral("run_id"), orNull(f.runId)},
            {QStringLiteral("outcome"), f.outcome},
            {QStringLiteral("note"), orNull(f.note)},
            {QStringLiteral("source"), f.source},
            {QStringLiteral("decision_id"), orNull(f.decisionId)},
            {QStringLiteral("commit_id"), orNull(f.commitId)},
            {QStringLiteral("created_at"), timeJson(f.createdAt)}};
}

QJsonObject commitJson(const CommitRecord &c)
{
    return {{QStringLiteral("kind"), kindName(Kind::Commit)},
            {QStringLiteral("id"), c.id},
            {QStringLiteral("seq"), c.sequence},
            {QStringLiteral("parent_id"), orNull(c.parentId)},
            {QStringLiteral("parent_hash"), c.parentHash},
            {QStringLiteral("input_sha256"), c.inputSha256},
            {QStringLiteral("diff_sha256"), c.diffSha256},
            {QStringLiteral("diff"), c.diff},
            {QStringLiteral("actor"), c.actor},
            {QStringLiteral("commit_kind"), c.kind},
            {QStringLiteral("commit_hash"), c.commitHash},
            {QStringLiteral("created_at"), timeJson(c.createdAt)}};
}

Result<Header> parseHeader(const QJsonObject &o)
{
    FieldReader r(o);
    Header h;
    QString format;
    r.text("format", &format, true, 64);
    if (r.ok() && format != formatName())
        r.fail(
            QStringLiteral("format"),
            QStringLiteral("must be \"%1\" (this is not a Memory Graph export)").arg(formatName()));
    qint64 version = 0;
    r.integer("version", &version, 1);
    if (r.ok() && version != kVersion)
        r.fail(QStringLiteral("version"),
               QStringLiteral("version %1 is not supported; this build reads version %2")
                   .arg(version)
                   .arg(kVersion));
    r.text("tenant_id", &h.tenantId, true, 64);
    r.text("scope", &h.scope, true, 256);
    r.time("exported_at", &h.exportedAt);
    r.text("app_version", &h.appVersion, false, 64);
    QJsonObject counts;
    r.object("counts", &counts, true);
    if (!r.ok())
        return r.error();
    FieldReader countReader(counts);
    for (Kind k : kindOrder()) {
        qint64 n = 0;
        const QByteArray key = kindName(k).toLatin1();
        if (!countReader.integer(key.constData(), &n, 0, false))
            return Error::invalidField(QStringLiteral("counts.") + kindName(k),
                                       QStringLiteral("must be a whole number of at least 0"));
        h.counts.insert(kindName(k), n);
    }
    h.version = int(version);
    h.embeddings = o.value(QStringLiteral("embeddings")).toBool(true);
    h.replayRuns = qint64(o.value(QStringLiteral("replay_runs")).toDouble());
    return h;
}

Result<Record> parseRecord(const QJsonObject &o)
{
    const QJsonValue kindValue = o.value(QStringLiteral("kind"));
    const auto kind = kindFromName(kindValue.toString());
    if (!kindValue.isString() || !kind)
        return Error::invalidField(QStringLiteral("kind"),
                                   QStringLiteral("must be one of: node, edge, rule, decision, "
                                                  "rule_feedback, commit"));
    Record rec;
    rec.kind = *kind;
    switch (*kind) {
    case Kind::Node: {
        auto n = parseNode(o);
        if (!n)
            return n.error();
        rec.node = std::move(n).value();
        break;
    }
    case Kind::Edge: {
        auto e = parseEdge(o);
        if (!e)
            return e.error();
        rec.edge = std::move(e).value();
        break;
    }
    case Kind::Rule: {
        auto r = parseRule(o);
        if (!r)
            return r.error();
        rec.rule = std::move(r).value();
        break;
    }
    case Kind::Decision: {
        auto d = parseDecision(o);
        if (!d)
            return d.error();
        rec.decision = std::move(d).value();
        break;
    }
    case Kind::RuleFeedback: {
        auto f = parseFeedback(o);
        if (!f)
            return f.error();
        rec.feedback = std::move(f).value();
        break;
    }
    case Kind::Commit: {
        auto c = parseCommit(o);
        if (!c)
            return c.error();
        rec.commit = std::move(c).value();
        break;
    }
    }
    return rec;
}

} // namespace MemoryGraph::ExportFormat
