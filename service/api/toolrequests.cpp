#include "service/api/toolrequests.h"

#include "service/api/requestfields.h"
#include "service/core/jsonreader.h"
#include "service/core/vocabulary.h"
#include "service/rules/toolpolicy.h"

namespace MemoryGraph {

namespace {

bool readCandidates(JsonReader &r, const QJsonObject &body, QStringList *out)
{
    QJsonArray raw;
    bool present = false;
    if (!r.array("candidates", &raw, &present))
        return false;
    if (!present)
        return r.fail(QStringLiteral("candidates"), QStringLiteral("is required"));
    if (raw.isEmpty() || raw.size() > 200)
        return r.fail(QStringLiteral("candidates"), QStringLiteral("must have 1..200 entries"));
    for (int i = 0; i < raw.size(); ++i) {
        if (!raw.at(i).isString())
            return r.fail(QStringLiteral("candidates[%1]").arg(i),
                          QStringLiteral("must be a string"));
    }
    *out = Rules::normalizeCandidates(raw);
    if (out->isEmpty())
        return r.fail(QStringLiteral("candidates"), QStringLiteral("must name at least one tool"));
    Q_UNUSED(body);
    return true;
}

/// An ISO 8601 date-time with Z or an offset; absent leaves *out invalid.
bool readInstant(JsonReader &r, const char *key, QDateTime *out)
{
    QString text;
    if (!r.string(key, &text, 64) || text.isEmpty())
        return r.ok();
    const QDateTime when = QDateTime::fromString(text, Qt::ISODateWithMs);
    if (!when.isValid() || (when.timeSpec() != Qt::UTC && when.timeSpec() != Qt::OffsetFromUTC))
        return r.fail(QLatin1String(key),
                      QStringLiteral("must be an ISO 8601 date-time with a zone "
                                     "(2025-03-03T14:30:00Z)"));
    *out = when.toUTC();
    return true;
}

} // namespace

QString ToolRunsListRequest::cursorFor(qint64 latestMs, qint64 seq)
{
    return QString::fromLatin1(QStringLiteral("%1.%2").arg(latestMs).arg(seq).toLatin1().toBase64(
        QByteArray::Base64UrlEncoding | QByteArray::OmitTrailingEquals));
}

bool Continuity::read(const QJsonObject &body, Continuity *out, JsonReader &r)
{
    for (const char *key :
         {"execution_state_v1", "execution_packet_v1", "execution_result_summary"}) {
        QJsonObject o;
        bool present = false;
        if (!r.object(key, &o, &present))
            return false;
        if (present)
            out->fields.insert(QLatin1String(key), o);
    }
    for (const char *key : {"execution_artifacts", "execution_evidence"}) {
        QJsonArray a;
        bool present = false;
        if (!r.array(key, &a, &present))
            return false;
        for (int i = 0; i < a.size(); ++i) {
            if (!a.at(i).isObject())
                return r.fail(QStringLiteral("%1[%2]").arg(QLatin1String(key)).arg(i),
                              QStringLiteral("must be an object"));
        }
        if (present)
            out->fields.insert(QLatin1String(key), a);
    }
    Q_UNUSED(body);
    return true;
}

Result<RulesEvaluateRequest> RulesEvaluateRequest::fromJson(const QJsonObject &body)
{
    RulesEvaluateRequest q;
    JsonReader r(body);
    r.string("tenant_id", &q.tenantId, 64);
    r.string("scope", &q.scope, 256);
    q.context = body.value(QStringLiteral("context"));
    if (r.ok() && (q.context.isUndefined() || q.context.isNull()))
        r.fail(QStringLiteral("context"), QStringLiteral("is required"));
    readFlag(r, "include_shadow", &q.includeShadow);
    readInt(r, "limit", &q.limit, 1, 200);
    if (!r.ok())
        return r.error();
    return q;
}

Result<ToolSelectRequest> ToolSelectRequest::fromJson(const QJsonObject &body)
{
    ToolSelectRequest q;
    JsonReader r(body);
    r.string("tenant_id", &q.tenantId, 64);
    r.string("scope", &q.scope, 256);
    r.string("run_id", &q.runId, 256);
    bool hasContext = false;
    r.object("context", &q.context, &hasContext);
    if (r.ok() && !hasContext)
        r.fail(QStringLiteral("context"), QStringLiteral("is required"));
    if (r.ok())
        readCandidates(r, body, &q.candidates);
    readFlag(r, "include_shadow", &q.includeShadow);
    readInt(r, "rules_limit", &q.rulesLimit, 1, 200);
    readFlag(r, "strict", &q.strict);
    if (r.ok())
        Continuity::read(body, &q.continuity, r);
    if (!r.ok())
        return r.error();
    return q;
}

Result<ToolFeedbackRequest> ToolFeedbackRequest::fromJson(const QJsonObject &body,
                                                          int maxTextLength)
{
    ToolFeedbackRequest q;
    JsonReader r(body);
    r.string("tenant_id", &q.tenantId, 64);
    r.string("scope", &q.scope, 256);
    r.string("actor", &q.actor, 256);
    r.string("run_id", &q.runId, 256);
    readUuid(r, "decision_id", &q.decisionId);
    r.string("decision_uri", &q.decisionUri, 1024);
    q.context = body.value(QStringLiteral("context"));
    if (r.ok() && (q.context.isUndefined() || q.context.isNull()))
        r.fail(QStringLiteral("context"), QStringLiteral("is required"));
    if (r.ok())
        readCandidates(r, body, &q.candidates);
    r.requiredString("selected_tool", &q.selectedTool, 512);
    if (r.ok() && body.value(QStringLiteral("outcome")).isUndefined())
        r.fail(QStringLiteral("outcome"), QStringLiteral("is required"));
    r.enumValue("outcome", &q.outcome, Vocabulary::outcomes());
    r.enumValue("target", &q.target, {QStringLiteral("tool"), QStringLiteral("all")});
    readFlag(r, "include_shadow", &q.includeShadow);
    readInt(r, "rules_limit", &q.rulesLimit, 1, 200);
    r.string("note", &q.note, 1 << 16);
    readCommitInput(r, &q.inputText, &q.inputSha256);
    if (!r.ok())
        return r.error();
    q.note = normalizeText(q.note, maxTextLength);
    q.inputText = normalizeText(q.inputText, maxTextLength);
    return q;
}

Result<ToolDecisionRequest> ToolDecisionRequest::fromJson(const QJsonObject &body)
{
    ToolDecisionRequest q;
    JsonReader r(body);
    r.string("tenant_id", &q.tenantId, 64);
    r.string("scope", &q.scope, 256);
    readUuid(r, "decision_id", &q.decisionId);
    r.string("decision_uri", &q.decisionUri, 1024);
    r.string("run_id", &q.runId, 256);
    if (r.ok() && q.decisionId.isEmpty() && q.decisionUri.isEmpty() && q.runId.isEmpty())
        r.fail(QStringLiteral("decision_id"),
               QStringLiteral("one of decision_id, decision_uri or run_id is required"));
    if (!r.ok())
        return r.error();
    return q;
}

Result<ToolRunRequest> ToolRunRequest::fromJson(const QJsonObject &body)
{
    ToolRunRequest q;
    JsonReader r(body);
    r.string("tenant_id", &q.tenantId, 64);
    r.string("scope", &q.scope, 256);
    r.requiredString("run_id", &q.runId, 256);
    readInt(r, "decision_limit", &q.decisionLimit, 1, 200);
    readFlag(r, "include_feedback", &q.includeFeedback);
    readInt(r, "feedback_limit", &q.feedbackLimit, 1, 200);
    if (!r.ok())
        return r.error();
    return q;
}

Result<ToolRunsListRequest> ToolRunsListRequest::fromJson(const QJsonObject &body)
{
    ToolRunsListRequest q;
    JsonReader r(body);
    r.string("tenant_id", &q.tenantId, 64);
    r.string("scope", &q.scope, 256);
    readInt(r, "limit", &q.limit, 1, 200);
    r.enumValue("status", &q.status,
                {QStringLiteral("decision_recorded"), QStringLiteral("feedback_linked")});
    r.string("selected_tool", &q.selectedTool, 512);
    readInstant(r, "since", &q.since);
    readInstant(r, "until", &q.until);
    QString cursor;
    r.string("cursor", &cursor, 128);
    if (r.ok() && !cursor.isEmpty()) {
        const QList<QByteArray> parts
            = QByteArray::fromBase64(cursor.toLatin1(),
                                     QByteArray::Base64UrlEncoding | QByteArray::OmitTrailingEquals)
                  .split('.');
        bool msOk = false, seqOk = false;
        if (parts.size() == 2) {
            q.afterMs = parts.at(0).toLongLong(&msOk);
            q.afterSeq = parts.at(1).toLongLong(&seqOk);
        }
        if (!msOk || !seqOk || q.afterSeq <= 0)
            r.fail(QStringLiteral("cursor"),
                   QStringLiteral("must be a next_cursor of an earlier page"));
    }
    if (!r.ok())
        return r.error();
    return q;
}

Result<RuleStateRequest> RuleStateRequest::fromJson(const QJsonObject &body)
{
    RuleStateRequest q;
    JsonReader r(body);
    r.string("tenant_id", &q.tenantId, 64);
    r.string("scope", &q.scope, 256);
    readUuid(r, "rule_node_id", &q.ruleNodeId, true);
    QString state;
    r.requiredString("state", &state, 32);
    q.state = state.toLower();
    if (r.ok() && !Vocabulary::ruleStates().contains(q.state))
        r.fail(QStringLiteral("state"),
               QStringLiteral("must be DRAFT, SHADOW, ACTIVE or DISABLED"));
    r.string("actor", &q.actor, 256);
    readCommitInput(r, &q.inputText, &q.inputSha256);
    if (!r.ok())
        return r.error();
    return q;
}

} // namespace MemoryGraph
