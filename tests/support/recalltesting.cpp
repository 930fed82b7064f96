#include "tests/support/recalltesting.h"

#include "service/api/recallrequest.h"
#include "service/api/writerequest.h"
#include "service/memoryservice.h"

#include <QDebug>
#include <QDir>
#include <QJsonObject>
#include <QSqlDatabase>
#include <QSqlQuery>

namespace MemoryGraph::Test {

QJsonArray axis(int i)
{
    QJsonArray a;
    for (int d = 0; d < kVectorDim; ++d)
        a.append(d == i ? 1.0 : 0.0);
    return a;
}

QProcessEnvironment localEmbedder(const QString &channels)
{
    QProcessEnvironment env;
    env.insert(QStringLiteral("EMBEDDING_PROVIDER"), QStringLiteral("local"));
    if (!channels.isEmpty())
        env.insert(QStringLiteral("MEMORY_RECALL_SEED_CHANNELS"), channels);
    return env;
}

bool writeNodes(MemoryService *service, const QJsonArray &nodes, const QString &scope,
                const QString &tenant)
{
    QJsonObject body = writeBody(nodes);
    if (!scope.isEmpty())
        body.insert(QStringLiteral("scope"), scope);
    if (!tenant.isEmpty())
        body.insert(QStringLiteral("tenant_id"), tenant);
    auto request = WriteRequest::fromJson(body);
    if (!request)
        return false;
    auto written = service->write(request.value(), RequestMeta{});
    if (!written)
        qWarning() << written.error().message;
    return written.ok();
}

Result<RecallOutcome> recallText(MemoryService *service, const QString &text, int limit)
{
    auto request = RecallRequest::fromJson(
        QJsonObject{{QStringLiteral("query_text"), text}, {QStringLiteral("limit"), limit}}, true,
        8000);
    if (!request)
        return request.error();
    return service->recallText(request.value(), RequestMeta{});
}

const RecallSeed *seedOf(const RecallOutcome &outcome, const QString &clientId)
{
    for (const RecallSeed &s : outcome.seeds) {
        if (s.node.clientId == clientId)
            return &s;
    }
    return nullptr;
}

QString storeFile(const TempService &svc)
{
    return QDir(svc.dataDir()).filePath(QStringLiteral("memorygraph.sqlite"));
}

qint64 storeScalar(const QString &file, const QString &sql)
{
    const QString name = QStringLiteral("store-scalar");
    qint64 value = -1;
    {
        QSqlDatabase db = QSqlDatabase::addDatabase(QStringLiteral("QSQLITE"), name);
        db.setDatabaseName(file);
        if (db.open()) {
            QSqlQuery q(db);
            if (q.exec(sql) && q.next())
                value = q.value(0).toLongLong();
        }
        db.close();
    }
    QSqlDatabase::removeDatabase(name);
    return value;
}

} // namespace MemoryGraph::Test
