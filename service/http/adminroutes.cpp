// POST /v1/admin/export and /v1/admin/import: a scope as an export file (docs/export-format.md)
// and back. Operator routes: they read and write every lane of a scope, so they take the admin
// token, not memory credentials.

#include "service/core/jsonreader.h"
#include "service/http/dto.h"
#include "service/http/routes.h"
#include "service/memoryservice.h"

#include <QBuffer>
#include <QRegularExpression>
#include <QTemporaryFile>
#include <QUrlQuery>

namespace MemoryGraph::Routes {

namespace {

const QByteArray kNdjson = QByteArrayLiteral("application/x-ndjson");

/// A caller whose X-Admin-Token equals ADMIN_TOKEN. With ADMIN_TOKEN unset, the local operator
/// of an open service (auth off, a loopback caller, outside production), as for /health counts
/// and debug embeddings; a service with authentication on then has no admin routes.
std::optional<Error> adminRefusal(const HttpCall &call, const ServiceConfig &config)
{
    if (call.meta.adminAuthorized)
        return std::nullopt;
    if (config.adminToken.isEmpty()) {
        if (config.authMode == AuthMode::Off && call.meta.loopback && !config.production)
            return std::nullopt;
        return Error::make(403, QStringLiteral("forbidden"),
                           QStringLiteral("admin routes need ADMIN_TOKEN to be set and sent as "
                                          "X-Admin-Token"),
                           {{QStringLiteral("reason"), QStringLiteral("admin_token_unset")}});
    }
    if (call.header("x-admin-token").isEmpty())
        return Error::make(401, QStringLiteral("unauthorized"),
                           QStringLiteral("send the admin token as X-Admin-Token"),
                           {{QStringLiteral("reason"), QStringLiteral("admin_token_missing")}});
    return Error::make(403, QStringLiteral("forbidden"),
                       QStringLiteral("X-Admin-Token does not match ADMIN_TOKEN"),
                       {{QStringLiteral("reason"), QStringLiteral("admin_token_invalid")}});
}

Result<ExportRequest> exportRequestFrom(const QJsonObject &body)
{
    JsonReader r(body);
    ExportRequest req;
    std::optional<bool> embeddings;
    r.string("tenant_id", &req.tenantId, 64);
    r.string("scope", &req.scope, 256);
    r.boolean("include_embeddings", &embeddings);
    if (!r.ok())
        return r.error();
    req.includeEmbeddings = embeddings.value_or(true);
    return req;
}

Result<IdPolicy> policyFrom(const QString &name, const QString &value)
{
    if (value == QLatin1String("preserve"))
        return IdPolicy::Preserve;
    if (value == QLatin1String("remap"))
        return IdPolicy::Remap;
    return Error::invalidField(name, QStringLiteral("must be preserve or remap"));
}

/// The options ride in the query, the body being the file: dry_run, tenant_id, scope,
/// id_policy, client_id_policy.
Result<ImportRequest> importRequestFrom(const QString &queryText)
{
    ImportRequest req;
    const QUrlQuery query(queryText);
    for (const auto &[key, raw] : query.queryItems(QUrl::FullyDecoded)) {
        const QString value = raw.trimmed();
        if (key == QLatin1String("dry_run")) {
            if (value == QLatin1String("true") || value == QLatin1String("1"))
                req.dryRun = true;
            else if (value == QLatin1String("false") || value == QLatin1String("0"))
                req.dryRun = false;
            else
                return Error::invalidField(key, QStringLiteral("must be true or false"));
        } else if (key == QLatin1String("tenant_id")) {
            req.tenantId = value;
        } else if (key == QLatin1String("scope")) {
            req.scope = value;
        } else if (key == QLatin1String("id_policy")) {
            auto policy = policyFrom(key, value);
            if (!policy)
                return policy.error();
            req.idPolicy = policy.value();
        } else if (key == QLatin1String("client_id_policy")) {
            auto policy = policyFrom(key, value);
            if (!policy)
                return policy.error();
            req.clientIdPolicy = policy.value();
        } else {
            return Error::invalidField(key, QStringLiteral("is not an option of the import; use "
                                                           "dry_run, tenant_id, scope, id_policy "
                                                           "or client_id_policy"));
        }
    }
    return req;
}

/// "memorygraph-<tenant>-<scope>.jsonl" with anything but [A-Za-z0-9._-] replaced.
QByteArray attachmentName(const ExportOutcome &outcome)
{
    static const QRegularExpression unsafe(QStringLiteral("[^A-Za-z0-9._-]"));
    QString name = QStringLiteral("memorygraph-%1-%2.jsonl").arg(outcome.tenantId, outcome.scope);
    name.replace(unsafe, QStringLiteral("_"));
    return QByteArrayLiteral("attachment; filename=\"") + name.toLatin1() + '"';
}

Error exportFileError(const QString &why)
{
    return Error::make(500, QStringLiteral("export_write_failed"),
                       QStringLiteral("cannot stage the export: ") + why);
}

} // namespace

RouteHandler adminExport(MemoryService *service)
{
    return [service](const HttpCall &call) -> Result<HttpReply> {
        if (auto refused = adminRefusal(call, service->config()))
            return *refused;
        auto req = exportRequestFrom(call.json);
        if (!req)
            return req.error();
        // Written to a private temporary file first (removed once sent), then streamed: the
        // response never holds the whole scope in memory.
        auto file = std::make_unique<QTemporaryFile>();
        if (!file->open())
            return exportFileError(file->errorString());
        auto outcome = service->exportScope(req.value(), file.get());
        if (!outcome)
            return outcome.error();
        if (!file->flush() || !file->seek(0))
            return exportFileError(file->errorString());
        HttpReply reply;
        reply.body = outcome.value().toJson(); // for the request log; the file is the body
        reply.file = std::make_shared<ReplyFile>(ReplyFile{std::move(file), kNdjson});
        reply.headers.append(
            {QByteArrayLiteral("Content-Disposition"), attachmentName(outcome.value())});
        return reply;
    };
}

RouteHandler adminImport(MemoryService *service)
{
    return [service](const HttpCall &call) -> Result<HttpReply> {
        if (auto refused = adminRefusal(call, service->config()))
            return *refused;
        auto req = importRequestFrom(call.query);
        if (!req)
            return req.error();
        if (call.body.isEmpty())
            return Error::make(400, QStringLiteral("invalid_import"),
                               QStringLiteral("the body must be an export file"));
        req.value().actor = QStringLiteral("admin");
        QBuffer file;
        file.setData(call.body);
        file.open(QIODevice::ReadOnly);
        auto report = service->importScope(req.value(), &file, call.meta);
        if (!report)
            return report.error();
        QJsonObject body = report.value().toJson();
        body.insert(QStringLiteral("request_id"), call.meta.requestId);
        return HttpReply{200, body, {}};
    };
}

} // namespace MemoryGraph::Routes
