#include "service/api/portability.h"

#include <QJsonArray>

namespace MemoryGraph {

namespace {

QJsonValue timeValue(const QDateTime &t)
{
    return t.isValid() ? QJsonValue(t.toUTC().toString(Qt::ISODateWithMs)) : QJsonValue();
}

QJsonObject countsJson(const QMap<QString, qint64> &counts)
{
    QJsonObject out;
    for (auto it = counts.cbegin(); it != counts.cend(); ++it)
        out.insert(it.key(), it.value());
    return out;
}

} // namespace

QString idPolicyName(IdPolicy policy)
{
    return policy == IdPolicy::Remap ? QStringLiteral("remap") : QStringLiteral("preserve");
}

QJsonObject ExportOutcome::toJson() const
{
    return {{QStringLiteral("tenant_id"), tenantId},
            {QStringLiteral("scope"), scope},
            {QStringLiteral("exported_at"), timeValue(exportedAt)},
            {QStringLiteral("counts"), countsJson(counts)},
            {QStringLiteral("replay_runs"), replayRuns},
            {QStringLiteral("bytes"), bytes},
            {QStringLiteral("embeddings"), includeEmbeddings}};
}

QJsonObject ImportConflict::toJson() const
{
    return {{QStringLiteral("kind"), kind},
            {QStringLiteral("line"), line},
            {QStringLiteral("id"), id},
            {QStringLiteral("client_id"), clientId.isEmpty() ? QJsonValue() : QJsonValue(clientId)},
            {QStringLiteral("reason"), reason}};
}

QJsonObject ImportReport::toJson() const
{
    QJsonObject kindsJson;
    for (auto it = kinds.cbegin(); it != kinds.cend(); ++it) {
        const ImportKindReport &k = it.value();
        kindsJson.insert(
            it.key(),
            QJsonObject{{QStringLiteral("records"), k.records},
                        {dryRun ? QStringLiteral("would_add") : QStringLiteral("added"), k.added},
                        {QStringLiteral("conflicts"), k.conflicts},
                        {QStringLiteral("remapped_ids"), k.remappedIds},
                        {QStringLiteral("remapped_client_ids"), k.remappedClientIds}});
    }
    QJsonArray listed;
    for (const ImportConflict &c : conflicts)
        listed.append(c.toJson());
    return {
        {QStringLiteral("dry_run"), dryRun},
        {QStringLiteral("can_import"), canImport()},
        {QStringLiteral("format_version"), formatVersion},
        {QStringLiteral("source"),
         QJsonObject{{QStringLiteral("tenant_id"), sourceTenantId},
                     {QStringLiteral("scope"), sourceScope},
                     {QStringLiteral("exported_at"), timeValue(exportedAt)},
                     {QStringLiteral("app_version"), appVersion}}},
        {QStringLiteral("target"),
         QJsonObject{{QStringLiteral("tenant_id"), tenantId}, {QStringLiteral("scope"), scope}}},
        {QStringLiteral("id_policy"), idPolicyName(idPolicy)},
        {QStringLiteral("client_id_policy"), idPolicyName(clientIdPolicy)},
        {QStringLiteral("kinds"), kindsJson},
        {QStringLiteral("conflicts"),
         QJsonObject{{QStringLiteral("total"), conflictCount},
                     {QStringLiteral("listed"), listed},
                     {QStringLiteral("truncated"), conflictCount > conflicts.size()}}},
        {QStringLiteral("embeddings"), QJsonObject{{QStringLiteral("kept"), vectorsKept},
                                                   {QStringLiteral("pending"), vectorsPending}}},
        {QStringLiteral("commit_ids"), QJsonArray::fromStringList(commitIds)}};
}

} // namespace MemoryGraph
