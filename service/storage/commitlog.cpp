#include "service/storage/commitlog.h"

#include "service/core/hashing.h"
#include "service/core/ids.h"
#include "service/storage/graphstore.h"

namespace MemoryGraph::CommitLog {

Result<CommitRecord> append(QSqlDatabase &db, const CallScope &cs, const QString &kind,
                            const QString &actor, const QString &inputSha256,
                            const QJsonObject &diff, const QString &requestKey)
{
    auto latest = GraphStore::latestCommit(db, cs.tenantId, cs.scope);
    if (!latest)
        return latest.error();
    CommitRecord c;
    c.tenantId = cs.tenantId;
    c.scope = cs.scope;
    c.sequence = latest.value() ? latest.value()->sequence + 1 : 1;
    c.parentId = latest.value() ? latest.value()->id : QString();
    c.parentHash = latest.value() ? latest.value()->commitHash : QStringLiteral("");
    c.inputSha256 = inputSha256;
    c.diff = diff;
    c.diffSha256 = sha256Hex(stableJson(diff));
    c.actor = actor;
    c.kind = kind;
    c.createdAt = QDateTime::currentDateTimeUtc();
    c.commitHash = sha256Hex(stableJson(QJsonObject{{QStringLiteral("parent_hash"), c.parentHash},
                                                    {QStringLiteral("input_sha256"), inputSha256},
                                                    {QStringLiteral("diff_sha256"), c.diffSha256},
                                                    {QStringLiteral("scope"), cs.key},
                                                    {QStringLiteral("actor"), actor},
                                                    {QStringLiteral("kind"), kind},
                                                    {QStringLiteral("seq"), c.sequence}}));
    c.id = stableUuid(QStringLiteral("commit:") + c.commitHash);
    c.uri = recordUri(cs.tenantId, cs.scope, QStringLiteral("commit"), c.id);
    if (auto saved = GraphStore::insertCommit(db, c, requestKey); !saved)
        return saved.error();
    return c;
}

Result<CommitRecord> append(QSqlDatabase &db, const CallScope &cs, const QString &kind,
                            const CommitActor &actor, const QString &inputSha256,
                            const QJsonObject &diff, const QString &requestKey)
{
    QJsonObject labelled = diff;
    if (!actor.label.isEmpty())
        labelled.insert(QStringLiteral("actor_label"), actor.label);
    return append(db, cs, kind, actor.id, inputSha256, labelled, requestKey);
}

Result<QString> inputDigest(const QString &inputText, const QString &inputSha256)
{
    if (!inputSha256.isEmpty()) {
        if (!isSha256Hex(inputSha256))
            return Error::invalidField(QStringLiteral("input_sha256"),
                                       QStringLiteral("must be 64 hex digits"));
        return inputSha256.toLower();
    }
    if (inputText.isEmpty())
        return Error::invalidField(QStringLiteral("input_text"),
                                   QStringLiteral("input_text or input_sha256 is required"));
    return sha256Hex(inputText.toUtf8());
}

} // namespace MemoryGraph::CommitLog
