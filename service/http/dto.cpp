#include "service/http/dto.h"

#include <QJsonArray>

namespace MemoryGraph::Dto {

namespace {
QJsonValue nullable(const QString &s)
{
    return s.isEmpty() ? QJsonValue() : QJsonValue(s);
}
} // namespace

QJsonObject error(const Error &e, const QString &requestId)
{
    QJsonObject body{{QStringLiteral("error"), e.code},
                     {QStringLiteral("message"), e.message},
                     {QStringLiteral("request_id"), requestId}};
    if (!e.details.isEmpty())
        body.insert(QStringLiteral("details"), e.details);
    return body;
}

QJsonObject writeResult(const WriteResult &r, const QString &requestId)
{
    QJsonArray nodes;
    for (const WrittenNode &n : r.nodes)
        nodes.append(QJsonObject{{QStringLiteral("id"), n.id},
                                 {QStringLiteral("uri"), n.uri},
                                 {QStringLiteral("client_id"), nullable(n.clientId)},
                                 {QStringLiteral("type"), n.type}});
    QJsonArray edges;
    for (const WrittenEdge &e : r.edges)
        edges.append(QJsonObject{{QStringLiteral("id"), e.id},
                                 {QStringLiteral("uri"), e.uri},
                                 {QStringLiteral("type"), e.type},
                                 {QStringLiteral("src_id"), e.srcId},
                                 {QStringLiteral("dst_id"), e.dstId}});
    QJsonObject body{{QStringLiteral("request_id"), requestId},
                     {QStringLiteral("tenant_id"), r.tenantId},
                     {QStringLiteral("scope"), r.scope},
                     {QStringLiteral("commit_id"), r.commitId},
                     {QStringLiteral("commit_uri"), r.commitUri},
                     {QStringLiteral("commit_hash"), r.commitHash},
                     {QStringLiteral("nodes"), nodes},
                     {QStringLiteral("edges"), edges}};
    if (!r.warnings.isEmpty()) {
        QJsonArray warnings;
        for (const WarningInfo &w : r.warnings)
            warnings.append(QJsonObject{{QStringLiteral("code"), w.code},
                                        {QStringLiteral("message"), w.message},
                                        {QStringLiteral("details"), w.details}});
        body.insert(QStringLiteral("warnings"), warnings);
    }
    return body;
}

QJsonObject health(const HealthInfo &h, bool includeCounts)
{
    QJsonObject body{{QStringLiteral("ok"), true},
                     {QStringLiteral("version"), h.version},
                     {QStringLiteral("storage"), QJsonObject{{QStringLiteral("backend"), h.storageBackend}}},
                     {QStringLiteral("auth_mode"), h.authMode}};
    if (includeCounts)
        body.insert(QStringLiteral("counts"),
                    QJsonObject{{QStringLiteral("nodes"), h.nodes},
                                {QStringLiteral("edges"), h.edges},
                                {QStringLiteral("commits"), h.commits},
                                {QStringLiteral("scopes"), h.scopes}});
    return body;
}

} // namespace MemoryGraph::Dto
