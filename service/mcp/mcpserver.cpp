#include "service/mcp/mcpserver.h"

#include "service/access/callscope.h"
#include "service/access/viewer.h"
#include "service/core/ids.h"
#include "service/mcp/mcpprotocol.h"
#include "service/mcp/mcptools.h"
#include "service/memoryservice.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonParseError>

namespace MemoryGraph {

using namespace Mcp;

namespace {

constexpr int kResourcePageSize = 50;
constexpr int kScanPage = 200;
constexpr int kDescriptionChars = 200;

const QString kInstructions = QStringLiteral(
    "Memory Graph is the user's long-term memory. Call `recall` with the question or task at "
    "hand before answering anything about the user, their projects or earlier work; call "
    "`remember` with one self-contained statement for each durable fact, preference, decision "
    "or outcome worth keeping; call `forget` when the user asks you to forget something. "
    "Citations are memorygraph:// URIs that `get` and resources/read open.");

QJsonObject serverInfo(const QString &revision)
{
    QJsonObject info{{QStringLiteral("name"), QStringLiteral("memorygraph")},
                     {QStringLiteral("version"), QStringLiteral(MEMORYGRAPH_VERSION)}};
    if (revision != kRevision20250326)
        info.insert(QStringLiteral("title"), QStringLiteral("Memory Graph"));
    return info;
}

QJsonObject capabilities()
{
    return {{QStringLiteral("tools"), QJsonObject{{QStringLiteral("listChanged"), false}}},
            {QStringLiteral("resources"), QJsonObject{{QStringLiteral("listChanged"), false},
                                                      {QStringLiteral("subscribe"), false}}}};
}

/// 2026-07-28 results: resultType, the server's identity, cache hints where the schema asks.
QJsonObject stateless(QJsonObject result, const QString &revision, int ttlMs = -1,
                      const QString &cacheScope = {})
{
    if (!isStatelessRevision(revision))
        return result;
    result.insert(QStringLiteral("resultType"), QStringLiteral("complete"));
    QJsonObject meta = result.value(QStringLiteral("_meta")).toObject();
    meta.insert(kMetaServerInfo, serverInfo(revision));
    result.insert(QStringLiteral("_meta"), meta);
    if (ttlMs >= 0) {
        result.insert(QStringLiteral("ttlMs"), ttlMs);
        result.insert(QStringLiteral("cacheScope"), cacheScope);
    }
    return result;
}

bool isValidId(const QJsonValue &id)
{
    return id.isString() || (id.isDouble() && id.toDouble() == double(qint64(id.toDouble())));
}

QString compactText(const QJsonObject &o)
{
    return QString::fromUtf8(QJsonDocument(o).toJson(QJsonDocument::Compact));
}

/// A service error as a tool result the model can read and act on.
QJsonObject toolError(const Error &e, const QString &revision)
{
    const QJsonObject error{{QStringLiteral("code"), e.code},
                            {QStringLiteral("status"), e.status},
                            {QStringLiteral("message"), e.message},
                            {QStringLiteral("details"), e.details}};
    QString text = e.code + QStringLiteral(": ") + e.message;
    if (!e.details.isEmpty())
        text += QStringLiteral(" ") + compactText(e.details);
    QJsonObject result{{QStringLiteral("content"),
                        QJsonArray{QJsonObject{{QStringLiteral("type"), QStringLiteral("text")},
                                               {QStringLiteral("text"), text}}}},
                       {QStringLiteral("isError"), true}};
    if (revision != kRevision20250326)
        result.insert(QStringLiteral("structuredContent"),
                      QJsonObject{{QStringLiteral("error"), error}});
    return result;
}

/// Concealed like /v1 does: a 5xx other than upstream embedding failures says only its code.
Error publicError(const Error &e, const QString &requestId)
{
    if (e.status < 500 || e.code.startsWith(QLatin1String("upstream_embedding_"))
        || e.code == QLatin1String("server_busy"))
        return e;
    return Error::make(e.status, e.code,
                       QStringLiteral("internal error; see the server log for request ")
                           + requestId);
}

QString encodeCursor(int offset)
{
    return QString::fromLatin1(QByteArray("o:" + QByteArray::number(offset)).toBase64());
}

std::optional<int> decodeCursor(const QString &cursor)
{
    const QByteArray raw = QByteArray::fromBase64(cursor.toLatin1());
    if (!raw.startsWith("o:"))
        return std::nullopt;
    bool ok = false;
    const int offset = raw.mid(2).toInt(&ok);
    if (!ok || offset < 0)
        return std::nullopt;
    return offset;
}

} // namespace

McpServer::McpServer(MemoryService *service) : m_service(service) { }

QString McpServer::metaRevision(const QJsonObject &message)
{
    const QJsonValue v = message.value(QStringLiteral("params"))
                             .toObject()
                             .value(QStringLiteral("_meta"))
                             .toObject()
                             .value(kMetaProtocolVersion);
    return v.isString() ? v.toString() : QString();
}

McpReply McpServer::handle(const QByteArray &payload, McpCall &call) const
{
    QJsonParseError error;
    const QJsonDocument doc = QJsonDocument::fromJson(payload, &error);
    if (error.error != QJsonParseError::NoError || doc.isNull()) {
        McpReply reply;
        reply.body = errorResponse(QJsonValue(), ParseError,
                                   QStringLiteral("Parse error: ") + error.errorString());
        reply.httpStatus = 400;
        reply.labels << QStringLiteral("parse_error");
        return reply;
    }
    return handle(doc.isArray() ? QJsonValue(doc.array()) : QJsonValue(doc.object()), call);
}

McpReply McpServer::handle(const QJsonValue &message, McpCall &call) const
{
    McpReply reply;
    if (!message.isArray()) {
        Outcome o = handleOne(message, call, &reply);
        reply.labels << o.label;
        if (!o.response.isEmpty()) {
            reply.body = o.response;
            reply.httpStatus = o.httpStatus;
        } else {
            reply.httpStatus = o.httpStatus == 200 ? 202 : o.httpStatus;
        }
        return reply;
    }
    // JSON-RPC batches: 2025-03-26 only (2025-06-18 removed them, 2026-07-28 has no sessions).
    const QJsonArray batch = message.toArray();
    const bool allowed = call.session && allowsBatches(call.session->revision);
    if (batch.isEmpty() || !allowed) {
        reply.body = errorResponse(
            QJsonValue(), InvalidRequest,
            batch.isEmpty() ? QStringLiteral("Invalid Request: empty batch")
                            : QStringLiteral("Invalid Request: JSON-RPC batches are only "
                                             "supported in protocol revision 2025-03-26"));
        reply.httpStatus = 400;
        reply.labels << QStringLiteral("batch");
        return reply;
    }
    QJsonArray responses;
    for (const QJsonValue &item : batch) {
        if (item.isObject()
            && item.toObject().value(QStringLiteral("method")) == QLatin1String("initialize")) {
            responses.append(errorResponse(item.toObject().value(QStringLiteral("id")),
                                           InvalidRequest,
                                           QStringLiteral("initialize must not be batched")));
            reply.labels << QStringLiteral("initialize");
            continue;
        }
        Outcome o = handleOne(item, call, &reply);
        reply.labels << o.label;
        if (!o.response.isEmpty())
            responses.append(o.response);
    }
    if (!responses.isEmpty())
        reply.body = responses;
    reply.httpStatus = responses.isEmpty() ? 202 : 200;
    return reply;
}

McpServer::Outcome McpServer::handleOne(const QJsonValue &message, McpCall &call,
                                        McpReply *reply) const
{
    if (!message.isObject())
        return {errorResponse(QJsonValue(), InvalidRequest,
                              QStringLiteral("Invalid Request: a message must be an object")),
                400, QStringLiteral("invalid")};
    const QJsonObject m = message.toObject();
    const bool hasId = m.contains(QStringLiteral("id"));
    const QJsonValue id = m.value(QStringLiteral("id"));
    const QJsonValue method = m.value(QStringLiteral("method"));
    if (m.value(QStringLiteral("jsonrpc")) != QLatin1String("2.0"))
        return {errorResponse(isValidId(id) ? id : QJsonValue(), InvalidRequest,
                              QStringLiteral("Invalid Request: jsonrpc must be \"2.0\"")),
                400, QStringLiteral("invalid")};
    if (!method.isString()) {
        // A client's response (to a request this server never sends): accepted, ignored.
        if (hasId && (m.contains(QStringLiteral("result")) || m.contains(QStringLiteral("error"))))
            return {{}, 200, QStringLiteral("response")};
        return {errorResponse(isValidId(id) ? id : QJsonValue(), InvalidRequest,
                              QStringLiteral("Invalid Request: method must be a string")),
                400, QStringLiteral("invalid")};
    }
    const QString name = method.toString();
    if (hasId && !isValidId(id))
        return {errorResponse(QJsonValue(), InvalidRequest,
                              QStringLiteral("Invalid Request: id must be a string or an integer")),
                400, name};
    const QJsonValue paramsValue = m.value(QStringLiteral("params"));
    if (!paramsValue.isUndefined() && !paramsValue.isObject()) {
        if (!hasId)
            return {{}, 200, name};
        return {errorResponse(id, InvalidParams, QStringLiteral("params must be an object")), 400,
                name};
    }
    const QJsonObject params = paramsValue.toObject();

    if (!hasId) {
        // Notifications never get an answer.
        if (name == QLatin1String("notifications/initialized") && call.session
            && !call.session->revision.isEmpty())
            call.session->initialized = true;
        return {{}, 200, name};
    }
    if (name == QLatin1String("initialize"))
        return initialize(id, params, call, reply);

    const QString requested = metaRevision(m);
    if (!requested.isEmpty() && !isLegacyRevision(requested)) {
        // A stateless (2026-07-28) request: everything it needs is in its _meta.
        if (!isStatelessRevision(requested))
            return {unsupportedVersion(id, requested), 400, name};
        const QJsonValue caps
            = params.value(QStringLiteral("_meta")).toObject().value(kMetaClientCapabilities);
        if (!caps.isObject())
            return {errorResponse(id, InvalidParams,
                                  QStringLiteral("Invalid params: _meta must carry %1")
                                      .arg(kMetaClientCapabilities)),
                    400, name};
        return dispatch(name, id, params, requested, call);
    }
    if (!call.session || call.session->revision.isEmpty())
        return {errorResponse(id, InvalidRequest,
                              QStringLiteral("Invalid Request: send initialize first, or name "
                                             "protocol revision %1 in params._meta[\"%2\"]")
                                  .arg(kRevision20260728, kMetaProtocolVersion),
                              QJsonObject{{QStringLiteral("supported"),
                                           QJsonArray::fromStringList(supportedRevisions())}}),
                400, name};
    return dispatch(name, id, params, call.session->revision, call);
}

McpServer::Outcome McpServer::initialize(const QJsonValue &id, const QJsonObject &params,
                                         McpCall &call, McpReply *reply) const
{
    const QJsonValue requested = params.value(QStringLiteral("protocolVersion"));
    if (!requested.isString())
        return {errorResponse(id, InvalidParams,
                              QStringLiteral("Invalid params: protocolVersion is required")),
                400, QStringLiteral("initialize")};
    if (!call.session)
        return {errorResponse(id, InvalidRequest,
                              QStringLiteral("Invalid Request: this transport has no session")),
                400, QStringLiteral("initialize")};
    // Version negotiation: the requested revision when it is one of ours, else our newest
    // initialize-based one (the client decides whether it can speak that).
    const QString revision
        = isLegacyRevision(requested.toString()) ? requested.toString() : legacyRevisions().first();
    call.session->revision = revision;
    call.session->initialized = false;
    call.session->clientInfo = params.value(QStringLiteral("clientInfo")).toObject();
    reply->negotiated = revision;
    const QJsonObject result{{QStringLiteral("protocolVersion"), revision},
                             {QStringLiteral("capabilities"), capabilities()},
                             {QStringLiteral("serverInfo"), serverInfo(revision)},
                             {QStringLiteral("instructions"), kInstructions}};
    return {resultResponse(id, result), 200, QStringLiteral("initialize")};
}

McpServer::Outcome McpServer::dispatch(const QString &method, const QJsonValue &id,
                                       const QJsonObject &params, const QString &revision,
                                       McpCall &call) const
{
    constexpr int kHourMs = 3600 * 1000;
    if (method == QLatin1String("tools/call"))
        return callTool(id, params, revision, call);
    if (method == QLatin1String("resources/read"))
        return readResource(id, params, revision, call);
    if (method == QLatin1String("resources/list")) {
        Outcome o = listResources(id, params, call);
        QJsonObject response = o.response;
        if (response.contains(QStringLiteral("result")))
            response.insert(QStringLiteral("result"),
                            stateless(response.value(QStringLiteral("result")).toObject(), revision,
                                      0, QStringLiteral("private")));
        return {response, o.httpStatus, o.label};
    }
    QJsonObject result;
    if (method == QLatin1String("tools/list")) {
        QJsonArray tools;
        for (const McpTool &t : McpTools::all()) {
            QJsonObject d = t.definition();
            if (revision == kRevision20250326)
                d.remove(QStringLiteral("title")); // Tool.title came with 2025-06-18
            tools.append(d);
        }
        result = stateless({{QStringLiteral("tools"), tools}}, revision, kHourMs,
                           QStringLiteral("public"));
    } else if (method == QLatin1String("resources/templates/list")) {
        const auto templ = [](const char *uri, const char *name, const char *description) {
            return QJsonObject{{QStringLiteral("uriTemplate"), QLatin1String(uri)},
                               {QStringLiteral("name"), QLatin1String(name)},
                               {QStringLiteral("description"), QLatin1String(description)},
                               {QStringLiteral("mimeType"), QStringLiteral("application/json")}};
        };
        const QJsonArray templates{
            templ("memorygraph://{tenant}/{scope}/{type}/{id}", "memory",
                  "A memory node; {type} is its node type (event, entity, concept, ...)."),
            templ("memorygraph://{tenant}/{scope}/commit/{id}", "commit",
                  "An audited change to the memory."),
            templ("memorygraph://{tenant}/{scope}/decision/{id}", "decision",
                  "A recorded tool decision."),
            templ("memorygraph://{tenant}/{scope}/replay_run/{run_id}", "replay_run",
                  "A replay run with its steps.")};
        result = stateless({{QStringLiteral("resourceTemplates"), templates}}, revision, kHourMs,
                           QStringLiteral("public"));
    } else if (method == QLatin1String("ping") && !isStatelessRevision(revision)) {
        result = QJsonObject(); // ping is gone in 2026-07-28
    } else if (method == QLatin1String("server/discover") && isStatelessRevision(revision)) {
        result = stateless({{QStringLiteral("supportedVersions"),
                             QJsonArray::fromStringList(supportedRevisions())},
                            {QStringLiteral("capabilities"), capabilities()},
                            {QStringLiteral("instructions"), kInstructions}},
                           revision, kHourMs, QStringLiteral("public"));
    } else {
        // Streamable HTTP 2026-07-28 answers an unknown method with 404.
        return {errorResponse(id, MethodNotFound, QStringLiteral("Method not found: ") + method),
                isStatelessRevision(revision) ? 404 : 200, method};
    }
    return {resultResponse(id, result), 200, method};
}

McpServer::Outcome McpServer::callTool(const QJsonValue &id, const QJsonObject &params,
                                       const QString &revision, McpCall &call) const
{
    const QString name = params.value(QStringLiteral("name")).toString();
    const QString label = QStringLiteral("tools/call ") + name;
    const McpTool *tool = McpTools::find(name);
    if (!tool)
        return {errorResponse(id, InvalidParams, QStringLiteral("Unknown tool: ") + name), 200,
                label};
    const QJsonValue arguments = params.value(QStringLiteral("arguments"));
    if (!arguments.isUndefined() && !arguments.isNull() && !arguments.isObject())
        return {errorResponse(id, InvalidParams,
                              QStringLiteral("Invalid params: arguments must be an object")),
                200, label};
    auto output = tool->run(arguments.toObject(), call, m_service);
    QJsonObject result;
    QString logged = label;
    if (!output) {
        result = toolError(publicError(output.error(), call.meta.requestId), revision);
        logged += QStringLiteral(" [") + output.error().code + QLatin1Char(']');
    } else {
        result = {{QStringLiteral("content"),
                   QJsonArray{QJsonObject{{QStringLiteral("type"), QStringLiteral("text")},
                                          {QStringLiteral("text"), output.value().text}}}},
                  {QStringLiteral("isError"), false}};
        if (revision != kRevision20250326) // structuredContent came with 2025-06-18
            result.insert(QStringLiteral("structuredContent"), output.value().structured);
    }
    return {resultResponse(id, stateless(result, revision)), 200, logged};
}

McpServer::Outcome McpServer::listResources(const QJsonValue &id, const QJsonObject &params,
                                            const McpCall &call) const
{
    const QString label = QStringLiteral("resources/list");
    int offset = 0;
    const QJsonValue cursor = params.value(QStringLiteral("cursor"));
    if (!cursor.isUndefined() && !cursor.isNull()) {
        const auto decoded = cursor.isString() ? decodeCursor(cursor.toString()) : std::nullopt;
        if (!decoded)
            return {errorResponse(id, InvalidParams, QStringLiteral("Invalid params: bad cursor")),
                    200, label};
        offset = *decoded;
    }
    auto scope = resolveCallScope(QString(), QString(), call.meta, m_service->config());
    auto viewer = resolveViewer(QString(), QString(), call.meta, m_service->config());
    if (!scope || !viewer) {
        const Error e = !scope ? scope.error() : viewer.error();
        return {errorResponse(id, InvalidParams, e.message,
                              QJsonObject{{QStringLiteral("error"), e.code}}),
                200, label};
    }
    // Newest first; only what the caller's lanes show, as resources/read would.
    QJsonArray resources;
    int next = -1;
    NodeQuery query;
    query.tenantId = scope.value().tenantId;
    query.scope = scope.value().scope;
    query.limit = kScanPage;
    for (query.offset = offset; next < 0; query.offset += kScanPage) {
        auto page = m_service->listNodes(query);
        if (!page)
            return {errorResponse(id, InternalError, QStringLiteral("Internal error")), 500, label};
        const QVector<NodeRecord> &nodes = page.value().nodes;
        for (int i = 0; i < nodes.size(); ++i) {
            const NodeRecord &n = nodes.at(i);
            if (!viewer.value().sees(n))
                continue;
            if (resources.size() == kResourcePageSize) {
                next = query.offset + i;
                break;
            }
            QString name = n.title.isEmpty() ? n.textSummary.left(80) : n.title;
            if (name.isEmpty())
                name = n.type + QLatin1Char(' ') + n.id.left(8);
            QJsonObject r{{QStringLiteral("uri"), recordUri(n.tenantId, n.scope, n.type, n.id)},
                          {QStringLiteral("name"), name},
                          {QStringLiteral("mimeType"), QStringLiteral("application/json")}};
            if (!n.textSummary.isEmpty())
                r.insert(QStringLiteral("description"), n.textSummary.left(kDescriptionChars));
            resources.append(r);
        }
        if (nodes.size() < kScanPage)
            break;
    }
    QJsonObject result{{QStringLiteral("resources"), resources}};
    if (next >= 0)
        result.insert(QStringLiteral("nextCursor"), encodeCursor(next));
    return {resultResponse(id, result), 200, label};
}

McpServer::Outcome McpServer::readResource(const QJsonValue &id, const QJsonObject &params,
                                           const QString &revision, McpCall &call) const
{
    const QString uri = params.value(QStringLiteral("uri")).toString();
    const QString label = QStringLiteral("resources/read");
    const int notFound = isStatelessRevision(revision) ? InvalidParams : ResourceNotFoundLegacy;
    if (!uri.startsWith(QLatin1String("memorygraph://")))
        return {errorResponse(id, InvalidParams,
                              QStringLiteral("Invalid params: uri must be a memorygraph:// URI")),
                200, label};
    auto read = McpTools::read(uri, QJsonObject(), call, m_service);
    if (!read) {
        const Error e = publicError(read.error(), call.meta.requestId);
        const QJsonObject data{{QStringLiteral("uri"), uri},
                               {QStringLiteral("error"), e.code},
                               {QStringLiteral("status"), e.status}};
        const int code = e.status == 404  ? notFound
                         : e.status < 500 ? int(InvalidParams)
                                          : int(InternalError);
        return {errorResponse(id, code,
                              e.status == 404 ? QStringLiteral("Resource not found") : e.message,
                              data),
                200, label};
    }
    const QJsonObject content{{QStringLiteral("uri"), uri},
                              {QStringLiteral("mimeType"), QStringLiteral("application/json")},
                              {QStringLiteral("text"), compactText(read.value())}};
    return {resultResponse(id, stateless({{QStringLiteral("contents"), QJsonArray{content}}},
                                         revision, 0, QStringLiteral("private"))),
            200, label};
}

} // namespace MemoryGraph
