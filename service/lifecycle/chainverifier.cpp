#include "service/lifecycle/chainverifier.h"

#include "service/core/hashing.h"
#include "service/core/ids.h"
#include "service/storage/commitstore.h"
#include "service/storage/database.h"

#include <QJsonDocument>

namespace MemoryGraph {

namespace {

using CommitStore::StoredCommit;

/// The first mismatch of `c` against its predecessor's id and hash, if any.
std::optional<ChainBreak> check(const StoredCommit &c, qint64 expectedSequence,
                                const QString &previousId, const QString &previousHash,
                                const QString &scopeKeyText)
{
    const auto broken = [&c](const char *reason, const QString &expected, const QString &found) {
        return ChainBreak{c.sequence, c.id, QString::fromLatin1(reason), expected, found};
    };
    if (c.sequence != expectedSequence)
        return broken("sequence_gap", QString::number(expectedSequence),
                      QString::number(c.sequence));
    if (c.parentHash != previousHash)
        return broken("parent_mismatch", previousHash, c.parentHash);
    if (c.parentId != previousId)
        return broken("parent_mismatch", previousId, c.parentId);
    const QJsonObject diff = QJsonDocument::fromJson(c.diffText).object();
    const QString diffSha = sha256Hex(stableJson(diff));
    if (diffSha != c.diffSha256)
        return broken("diff_mismatch", diffSha, c.diffSha256);
    // Same fields as CommitLog::append.
    const QString hash
        = sha256Hex(stableJson(QJsonObject{{QStringLiteral("parent_hash"), c.parentHash},
                                           {QStringLiteral("input_sha256"), c.inputSha256},
                                           {QStringLiteral("diff_sha256"), c.diffSha256},
                                           {QStringLiteral("scope"), scopeKeyText},
                                           {QStringLiteral("actor"), c.actor},
                                           {QStringLiteral("kind"), c.kind},
                                           {QStringLiteral("seq"), c.sequence}}));
    if (hash != c.commitHash)
        return broken("hash_mismatch", hash, c.commitHash);
    const QString id = stableUuid(QStringLiteral("commit:") + c.commitHash);
    if (id != c.id)
        return broken("id_mismatch", id, c.id);
    return std::nullopt;
}

} // namespace

QJsonObject ChainReport::toJson() const
{
    QJsonValue breakValue;
    if (firstBreak)
        breakValue = QJsonObject{{QStringLiteral("sequence"), firstBreak->sequence},
                                 {QStringLiteral("commit_id"), firstBreak->commitId},
                                 {QStringLiteral("reason"), firstBreak->reason},
                                 {QStringLiteral("expected"), firstBreak->expected},
                                 {QStringLiteral("found"), firstBreak->found}};
    return {{QStringLiteral("tenant_id"), tenantId},
            {QStringLiteral("scope"), scope},
            {QStringLiteral("ok"), ok},
            {QStringLiteral("commits_checked"), commitsChecked},
            {QStringLiteral("first_break"), breakValue}};
}

ChainVerifier::ChainVerifier(Database &db, const ServiceConfig &config) : m_db(db), m_config(config)
{
}

Result<ChainReport> ChainVerifier::verify(const QString &tenantId, const QString &scope,
                                          const ProgressCallback &progress, int pageSize)
{
    auto conn = m_db.connection();
    if (!conn)
        return conn.error();
    QSqlDatabase db = conn.value();
    const QString key = scopeKey(tenantId, scope, m_config.defaultTenant);
    ChainReport report;
    report.tenantId = tenantId;
    report.scope = scope;
    qint64 total = 0;
    if (progress) {
        auto newest = CommitStore::newestSequence(db, tenantId, scope);
        if (!newest)
            return newest.error();
        total = newest.value();
    }
    qint64 expectedSequence = 1;
    QString previousId;
    QString previousHash = QStringLiteral("");
    qint64 after = 0;
    for (;;) {
        // Commits appended while this runs make the chain longer than the total said.
        if (progress
            && !progress(Progress{QStringLiteral("verifying commits"), report.commitsChecked,
                                  qMax(total, report.commitsChecked)}))
            return Error::cancelled(
                QStringLiteral("chain verification cancelled after %1 of %2 commits")
                    .arg(report.commitsChecked)
                    .arg(total));
        auto rows = CommitStore::chainPage(db, tenantId, scope, after, qMax(1, pageSize));
        if (!rows)
            return rows.error();
        for (const StoredCommit &c : rows.value()) {
            ++report.commitsChecked;
            if (auto broken = check(c, expectedSequence, previousId, previousHash, key)) {
                report.ok = false;
                report.firstBreak = *broken;
                return report;
            }
            previousId = c.id;
            previousHash = c.commitHash;
            expectedSequence = c.sequence + 1;
            after = c.sequence;
        }
        if (rows.value().size() < qMax(1, pageSize))
            return report;
    }
}

} // namespace MemoryGraph
