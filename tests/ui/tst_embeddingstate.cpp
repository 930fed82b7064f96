#include "tests/support/tempservice.h"
#include "ui/embeddingstate.h"

#include <QJsonArray>
#include <QTest>

using namespace MemoryGraph;
using MemoryGraph::Ui::EmbeddingState;
using Kind = EmbeddingState::Kind;

namespace {

const QString kTenant = QStringLiteral("default");
const QString kScope = QStringLiteral("default");

NodeRecord readNode(MemoryService *svc, const QString &nodeId, const QString &tenant = kTenant,
                    const QString &scope = kScope)
{
    auto detail = svc->nodeDetail(tenant, scope, nodeId);
    if (!detail)
        qFatal("node %s not readable: %s", qPrintable(nodeId), qPrintable(detail.error().message));
    return detail.value().node;
}

NodeRecord statusOnly(const QString &status, const QString &error = QString())
{
    NodeRecord n;
    n.embeddingStatus = status;
    n.embeddingError = error;
    return n;
}

} // namespace

/// Nodes left unembedded on purpose read "not requested"; real failures stay errors with their
/// reason.
class tst_EmbeddingState : public QObject
{
    Q_OBJECT

private slots:
    void autoEmbedOffIsNotRequested();
    void replayRecordsAreNotRequested();
    void realFailureKeepsItsReason();
    void readyAndPendingReadAsStored();
};

void tst_EmbeddingState::autoEmbedOffIsNotRequested()
{
    Test::TempService svc;
    QVERIFY2(svc.isValid(), qPrintable(svc.errorText()));
    QJsonObject body = Test::writeBody(
        {QJsonObject{{QStringLiteral("client_id"), QStringLiteral("quiet")},
                     {QStringLiteral("type"), QStringLiteral("event")},
                     {QStringLiteral("text_summary"), QStringLiteral("no vector, by choice")}}});
    body.insert(QStringLiteral("auto_embed"), false);
    auto request = WriteRequest::fromJson(body);
    QVERIFY(request);
    auto written = svc->write(request.value(), RequestMeta());
    QVERIFY2(written, written ? "" : qPrintable(written.error().message));

    const EmbeddingState state
        = EmbeddingState::of(readNode(svc.service(), written.value().nodes.first().id));
    QCOMPARE(state.kind, Kind::NotRequested);
    QCOMPARE(state.text, QStringLiteral("not requested"));
    QVERIFY(!state.isError());
    QVERIFY2(state.detail.contains(QStringLiteral("auto_embed")), qPrintable(state.detail));
}

void tst_EmbeddingState::replayRecordsAreNotRequested()
{
    Test::TempService svc;
    QVERIFY2(svc.isValid(), qPrintable(svc.errorText()));
    auto request = ReplayRunStartRequest::fromJson(
        {{QStringLiteral("goal"), QStringLiteral("answer a lookup")}});
    QVERIFY(request);
    auto run = svc->replayRunStart(request.value(), RequestMeta());
    QVERIFY2(run, run ? "" : qPrintable(run.error().message));

    const ReplayWriteOutcome &written = run.value();
    const EmbeddingState state = EmbeddingState::of(
        readNode(svc.service(), written.nodeId, written.scope.tenantId, written.scope.scope));
    QCOMPARE(state.kind, Kind::NotRequested);
    QVERIFY(!state.isError());
}

void tst_EmbeddingState::realFailureKeepsItsReason()
{
    const EmbeddingState provider = EmbeddingState::of(
        statusOnly(QStringLiteral("failed"), QStringLiteral("provider_timeout")));
    QCOMPARE(provider.kind, Kind::Failed);
    QVERIFY(provider.isError());
    QCOMPARE(provider.text, QStringLiteral("failed"));
    QCOMPARE(provider.detail, QStringLiteral("Error: provider_timeout"));

    const EmbeddingState noText
        = EmbeddingState::of(statusOnly(QStringLiteral("failed"), QStringLiteral("no_embed_text")));
    QVERIFY(noText.isError());
    QCOMPARE(noText.detail, QStringLiteral("Error: no_embed_text"));

    QVERIFY(EmbeddingState::of(statusOnly(QStringLiteral("failed")))
                .detail.contains(QStringLiteral("no reason")));
}

void tst_EmbeddingState::readyAndPendingReadAsStored()
{
    NodeRecord ready = statusOnly(QStringLiteral("ready"));
    ready.embeddingModel = QStringLiteral("local");
    const EmbeddingState r = EmbeddingState::of(ready);
    QCOMPARE(r.kind, Kind::Ready);
    QCOMPARE(r.text, QStringLiteral("ready"));
    QCOMPARE(r.detail, QStringLiteral("Model: local"));

    const EmbeddingState p = EmbeddingState::of(statusOnly(QStringLiteral("pending")));
    QCOMPARE(p.kind, Kind::Pending);
    QVERIFY(!p.isError());
}

QTEST_MAIN(tst_EmbeddingState)
#include "tst_embeddingstate.moc"
