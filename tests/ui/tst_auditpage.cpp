#include "tests/support/tempservice.h"
#include "tests/ui/laneblocker.h"
#include "ui/models/commitlistmodel.h"
#include "ui/operationprogress.h"
#include "ui/pages/auditpage.h"
#include "ui/uiexecutor.h"
#include "ui/widgets/consolidationdialog.h"
#include "ui/widgets/scopepicker.h"

#include <QApplication>
#include <QDir>
#include <QJsonArray>
#include <QLabel>
#include <QPlainTextEdit>
#include <QProgressDialog>
#include <QPushButton>
#include <QSignalSpy>
#include <QTableView>
#include <QTableWidget>
#include <QTest>
#include <QUuid>
#include <QtSql/QSqlDatabase> // linked through memorygraph_service
#include <QtSql/QSqlQuery>

using namespace MemoryGraph;
using MemoryGraph::Ui::AuditPage;
using MemoryGraph::Ui::CommitListModel;
using MemoryGraph::Ui::ConsolidationDialog;
using Column = CommitListModel::Column;

namespace {

const QString kTenant = QStringLiteral("default");
const QString kScope = QStringLiteral("default");
constexpr int kWaitMs = 15000;

QProcessEnvironment quietEnv()
{
    QProcessEnvironment env;
    env.insert(QStringLiteral("EMBEDDING_PROVIDER"), QStringLiteral("none"));
    return env;
}

bool writeNodes(MemoryService *svc, const QJsonArray &nodes)
{
    auto req = WriteRequest::fromJson(Test::writeBody(nodes));
    return req && svc->write(req.value(), RequestMeta()).ok();
}

bool writeCommits(MemoryService *svc, int count)
{
    for (int i = 0; i < count; ++i) {
        if (!writeNodes(
                svc,
                {QJsonObject{{QStringLiteral("client_id"), QStringLiteral("n-%1").arg(i)},
                             {QStringLiteral("type"), QStringLiteral("event")},
                             {QStringLiteral("text_summary"), QStringLiteral("event %1").arg(i)}}}))
            return false;
    }
    return true;
}

bool tamper(const Test::TempService &svc, const QString &sql)
{
    const QString name = QUuid::createUuid().toString();
    bool ok = false;
    {
        QSqlDatabase db = QSqlDatabase::addDatabase(QStringLiteral("QSQLITE"), name);
        db.setDatabaseName(QDir(svc.dataDir()).filePath(QStringLiteral("memorygraph.sqlite")));
        ok = db.open() && QSqlQuery(db).exec(sql);
        db.close();
    }
    QSqlDatabase::removeDatabase(name);
    return ok;
}

QString commitIdAt(MemoryService *svc, qint64 sequence)
{
    auto commits = svc->listCommits(kTenant, kScope, 0, 100000);
    if (commits) {
        for (const CommitRecord &c : commits.value()) {
            if (c.sequence == sequence)
                return c.id;
        }
    }
    return {};
}

QString cell(const AuditPage &page, int row, Column column, int role = Qt::DisplayRole)
{
    const CommitListModel *m = page.commitModel();
    return m->data(m->index(row, int(column)), role).toString();
}

/// Waits until the page shows `rows` commits (reloads are debounced and asynchronous).
bool waitForRows(const AuditPage &page, int rows)
{
    return QTest::qWaitFor([&page, rows]() { return page.commitModel()->rowCount() == rows; },
                           kWaitMs);
}

bool saveShot(QWidget *widget, const QString &name)
{
    QCoreApplication::processEvents();
    return widget->grab().save(QDir(Test::testOutputDir()).filePath(name));
}

} // namespace

class tst_AuditPage : public QObject
{
    Q_OBJECT

private slots:
    void commitsAppearWithDiff();
    void verifyShowsOk();
    void shortcutVerifies();
    void tamperedStoreShowsBreakAndShowSelectsIt();
    void showJumpsToAnOldCommit();
    void decayButtonRunsTheJob();
    void consolidationPreviewThenApply();
    void cancelledVerificationSaysSo();
    void cancelledConsolidationApplyChangesNothing();
};

void tst_AuditPage::commitsAppearWithDiff()
{
    Test::TempService svc(quietEnv());
    QVERIFY(writeCommits(svc.service(), 3));
    Ui::UiExecutor executor;
    AuditPage page(svc.service(), &executor);
    page.resize(1200, 700);
    QVERIFY(waitForRows(page, 3));
    QCOMPARE(page.currentScope(), kScope);
    QCOMPARE(cell(page, 0, Column::Sequence), QStringLiteral("3"));
    QCOMPARE(cell(page, 2, Column::Sequence), QStringLiteral("1"));
    QCOMPARE(cell(page, 0, Column::Kind), QStringLiteral("write"));
    QCOMPARE(cell(page, 0, Column::CommitId), commitIdAt(svc.service(), 3));
    // The hash column is shortened, the full hash is in the tooltip.
    const QString fullHash = cell(page, 0, Column::Hash, Qt::ToolTipRole);
    QCOMPARE(fullHash.size(), 64);
    QVERIFY(fullHash.startsWith(cell(page, 0, Column::Hash)));

    page.commitView()->selectRow(1);
    QCOMPARE(page.selectedCommitId(), commitIdAt(svc.service(), 2));
    QVERIFY(page.diffView()->toPlainText().contains(QStringLiteral("\"nodes\"")));
    QVERIFY(page.diffView()->toPlainText().contains(QStringLiteral("n-1")));

    // A new commit in the shown scope appears by itself, and the selection stays.
    QVERIFY(writeCommits(svc.service(), 4)); // n-0..n-2 unchanged (same commit), n-3 new
    QVERIFY(waitForRows(page, 4));
    QCOMPARE(page.selectedCommitId(), commitIdAt(svc.service(), 2));
    QVERIFY(saveShot(&page, QStringLiteral("audit-page.png")));
}

void tst_AuditPage::verifyShowsOk()
{
    Test::TempService svc(quietEnv());
    QVERIFY(writeCommits(svc.service(), 3));
    Ui::UiExecutor executor;
    AuditPage page(svc.service(), &executor);
    QVERIFY(waitForRows(page, 3));
    QSignalSpy verified(&page, &AuditPage::chainVerified);
    QTest::mouseClick(page.verifyButton(), Qt::LeftButton);
    QVERIFY(verified.wait(kWaitMs));
    QCOMPARE(verified.first().at(0).toBool(), true);
    QVERIFY(page.verificationText().contains(QStringLiteral("3 commits verified")));
    QVERIFY(!page.isBusy());
}

void tst_AuditPage::shortcutVerifies()
{
    Test::TempService svc(quietEnv());
    QVERIFY(writeCommits(svc.service(), 2));
    Ui::UiExecutor executor;
    AuditPage page(svc.service(), &executor);
    page.show();
    QVERIFY(QTest::qWaitForWindowExposed(&page));
    QVERIFY(waitForRows(page, 2));
    page.commitView()->setFocus();
    QSignalSpy verified(&page, &AuditPage::chainVerified);
    QTest::keyClick(page.commitView(), Qt::Key_V, Qt::ControlModifier | Qt::ShiftModifier);
    QVERIFY(verified.wait(kWaitMs));
    QCOMPARE(verified.first().at(0).toBool(), true);
}

void tst_AuditPage::tamperedStoreShowsBreakAndShowSelectsIt()
{
    Test::TempService svc(quietEnv());
    QVERIFY(writeCommits(svc.service(), 5));
    const QString broken = commitIdAt(svc.service(), 4);
    QVERIFY(tamper(svc, QStringLiteral("DELETE FROM commits WHERE seq = 3")));
    Ui::UiExecutor executor;
    AuditPage page(svc.service(), &executor);
    page.resize(1200, 700);
    QVERIFY(waitForRows(page, 4));

    QSignalSpy verified(&page, &AuditPage::chainVerified);
    page.verifyChain();
    QVERIFY(verified.wait(kWaitMs));
    QCOMPARE(verified.first().at(0).toBool(), false);
    const QString text = page.verificationText();
    QVERIFY2(text.contains(QStringLiteral("#4")) && text.contains(QStringLiteral("sequence_gap")),
             qPrintable(text));
    QVERIFY(page.verificationLabel()->styleSheet().contains(QStringLiteral("#d94f4f")));
    QVERIFY(saveShot(&page, QStringLiteral("audit-page-break.png")));

    // The "Show" link selects the commit where the chain breaks.
    QVERIFY(page.selectedCommitId() != broken);
    Q_EMIT page.verificationLabel()->linkActivated(QStringLiteral("show-break"));
    QTRY_COMPARE_WITH_TIMEOUT(page.selectedCommitId(), broken, kWaitMs);
    QVERIFY(page.diffView()->toPlainText().contains(QStringLiteral("n-3")));
}

void tst_AuditPage::showJumpsToAnOldCommit()
{
    Test::TempService svc(quietEnv());
    const int total = AuditPage::PageSize + 60;
    QVERIFY(writeCommits(svc.service(), total));
    QVERIFY(tamper(svc, QStringLiteral("UPDATE commits SET actor = 'mallory' WHERE seq = 5")));
    Ui::UiExecutor executor;
    AuditPage page(svc.service(), &executor);
    QVERIFY(waitForRows(page, AuditPage::PageSize)); // first page only
    QCOMPARE(page.commitModel()->rowOf(commitIdAt(svc.service(), 5)), -1);
    QVERIFY(page.commitModel()->canFetchMore(QModelIndex()));

    QSignalSpy verified(&page, &AuditPage::chainVerified);
    page.verifyChain();
    QVERIFY(verified.wait(kWaitMs));
    QVERIFY(page.verificationText().contains(QStringLiteral("hash_mismatch")));
    Q_EMIT page.verificationLabel()->linkActivated(QStringLiteral("show-break"));
    QTRY_COMPARE_WITH_TIMEOUT(page.selectedCommitId(), commitIdAt(svc.service(), 5), kWaitMs);
    QVERIFY(page.firstRowOffset() > 0);

    page.showNewest();
    QTRY_COMPARE_WITH_TIMEOUT(page.firstRowOffset(), 0, kWaitMs);
    QTRY_COMPARE_WITH_TIMEOUT(cell(page, 0, Column::Sequence), QString::number(total), kWaitMs);

    // Scrolling to the end asks for the next page (what the view does through fetchMore()).
    QVERIFY(waitForRows(page, AuditPage::PageSize));
    page.commitModel()->fetchMore(QModelIndex());
    QVERIFY(waitForRows(page, total));
    QCOMPARE(cell(page, total - 1, Column::Sequence), QStringLiteral("1"));
    QVERIFY(!page.commitModel()->canFetchMore(QModelIndex()));
}

void tst_AuditPage::decayButtonRunsTheJob()
{
    Test::TempService svc(quietEnv());
    QVERIFY(writeCommits(svc.service(), 2));
    Ui::UiExecutor executor;
    AuditPage page(svc.service(), &executor);
    QVERIFY(waitForRows(page, 2));
    QSignalSpy finished(&page, &AuditPage::decayFinished);
    QTest::mouseClick(page.decayButton(), Qt::LeftButton);
    QVERIFY(finished.wait(kWaitMs));
    QCOMPARE(finished.first().at(0).toBool(), true);
    QCOMPARE(finished.first().at(1).toBool(), true);
    QVERIFY(page.statusText().contains(QStringLiteral("salience lowered on 2")));
    QVERIFY(waitForRows(page, 3));
    QCOMPARE(cell(page, 0, Column::Kind), QStringLiteral("adaptive_decay"));
}

void tst_AuditPage::consolidationPreviewThenApply()
{
    Test::TempService svc(quietEnv());
    QJsonArray vector; // the same embedding for all: only the text tells them apart
    for (int i = 0; i < 1536; ++i)
        vector.append(i == 0 ? 1.0 : 0.0);
    const auto concept_ = [&vector](const QString &id, const QString &summary) {
        return QJsonObject{{QStringLiteral("client_id"), id},
                           {QStringLiteral("type"), QStringLiteral("topic")},
                           {QStringLiteral("title"), QStringLiteral("Friday deploys")},
                           {QStringLiteral("text_summary"), summary},
                           {QStringLiteral("embedding"), vector}};
    };
    QVERIFY(writeNodes(svc.service(), {concept_(QStringLiteral("a"),
                                                QStringLiteral("Deploys happen on Fridays"))}));
    QTest::qWait(3);
    QVERIFY(writeNodes(svc.service(), {concept_(QStringLiteral("b"),
                                                QStringLiteral("deploys happen on fridays!"))}));
    QTest::qWait(3);
    QVERIFY(writeNodes(
        svc.service(),
        {concept_(QStringLiteral("c"), QStringLiteral("Deploys happen on Fridays")),
         concept_(QStringLiteral("d"), QStringLiteral("Deploys never happen on Fridays"))}));
    Ui::UiExecutor executor;
    AuditPage page(svc.service(), &executor);
    QVERIFY(waitForRows(page, 3));

    QTest::mouseClick(page.consolidateButton(), Qt::LeftButton);
    ConsolidationDialog *dialog = page.consolidationDialog();
    QVERIFY(dialog);
    QSignalSpy preview(dialog, &ConsolidationDialog::previewReady);
    QSignalSpy applied(dialog, &ConsolidationDialog::applied);
    QVERIFY(preview.wait(kWaitMs));
    QCOMPARE(preview.first().at(0).toBool(), true);
    QCOMPARE(dialog->mergeTable()->rowCount(), 2);   // b and c into a
    QCOMPARE(dialog->skippedTable()->rowCount(), 1); // d negates a: contradictory_candidate
    QCOMPARE(dialog->skippedTable()->item(0, 3)->text(), QStringLiteral("contradictory_candidate"));
    QVERIFY(dialog->applyButton()->isEnabled());
    QCOMPARE(page.commitModel()->rowCount(), 3); // a dry run writes nothing
    QVERIFY(saveShot(dialog, QStringLiteral("audit-consolidation.png")));

    QTest::mouseClick(dialog->applyButton(), Qt::LeftButton);
    QVERIFY(applied.wait(kWaitMs));
    QCOMPARE(applied.first().at(0).toBool(), true);
    const QString commitId = applied.first().at(1).toString();
    QVERIFY(!commitId.isEmpty());
    QVERIFY(!dialog->applyButton()->isEnabled());
    QVERIFY(waitForRows(page, 4));
    QCOMPARE(cell(page, 0, Column::Kind), QStringLiteral("consolidation"));
    QCOMPARE(cell(page, 0, Column::CommitId), commitId);
}

void tst_AuditPage::cancelledVerificationSaysSo()
{
    Test::TempService svc(quietEnv());
    QVERIFY(writeCommits(svc.service(), 4));
    Ui::UiExecutor executor;
    AuditPage page(svc.service(), &executor);
    QVERIFY(waitForRows(page, 4));
    // Verification waits behind the blocked reads; Cancel is pressed before it starts.
    Test::LaneBlocker blocker(executor, Ui::UiExecutor::Lane::Reads, executor.maxReadThreads());
    QSignalSpy verified(&page, &AuditPage::chainVerified);
    page.verifyChain();
    QVERIFY(page.verifyProgress() && page.verifyProgress()->dialog());
    QVERIFY(Test::pressCancel(page.verifyProgress()->dialog()));
    blocker.release();
    QVERIFY(verified.wait(kWaitMs));
    QCOMPARE(verified.first().at(0).toBool(), false);
    QVERIFY2(page.verificationText().contains(QStringLiteral("cancelled")),
             qPrintable(page.verificationText()));
    QVERIFY(!page.verifyProgress());
    QVERIFY(page.verifyButton()->isEnabled());

    // Not cancelled, it verifies as before.
    page.verifyChain();
    QVERIFY(verified.wait(kWaitMs));
    QCOMPARE(verified.last().at(0).toBool(), true);
}

void tst_AuditPage::cancelledConsolidationApplyChangesNothing()
{
    Test::TempService svc(quietEnv());
    const auto twin = [](const QString &id) {
        return QJsonObject{{QStringLiteral("client_id"), id},
                           {QStringLiteral("type"), QStringLiteral("entity")},
                           {QStringLiteral("title"), QStringLiteral("Paris")},
                           {QStringLiteral("text_summary"), QStringLiteral("Capital of France")}};
    };
    QVERIFY(writeNodes(svc.service(), {twin(QStringLiteral("a"))}));
    QTest::qWait(3);
    QVERIFY(writeNodes(svc.service(), {twin(QStringLiteral("b"))}));
    Ui::UiExecutor executor;
    AuditPage page(svc.service(), &executor);
    QVERIFY(waitForRows(page, 2));
    QTest::mouseClick(page.consolidateButton(), Qt::LeftButton);
    ConsolidationDialog *dialog = page.consolidationDialog();
    QVERIFY(dialog);
    QSignalSpy preview(dialog, &ConsolidationDialog::previewReady);
    QSignalSpy applied(dialog, &ConsolidationDialog::applied);
    QVERIFY(preview.wait(kWaitMs));
    QCOMPARE(dialog->mergeTable()->rowCount(), 1);

    Test::LaneBlocker blocker(executor, Ui::UiExecutor::Lane::Changes, 1);
    QTest::mouseClick(dialog->applyButton(), Qt::LeftButton);
    QVERIFY(dialog->progress() && dialog->progress()->dialog());
    QVERIFY(Test::pressCancel(dialog->progress()->dialog()));
    blocker.release();
    QVERIFY(applied.wait(kWaitMs));
    QCOMPARE(applied.first().at(0).toBool(), false);
    QVERIFY2(dialog->statusText().contains(QStringLiteral("cancelled")),
             qPrintable(dialog->statusText()));
    QVERIFY(dialog->applyButton()->isEnabled()); // it may be applied after all
    auto commits = svc->listCommits(kTenant, kScope, 0, 10);
    QVERIFY(commits);
    QCOMPARE(commits.value().size(), 2);
}

QTEST_MAIN(tst_AuditPage)
#include "tst_auditpage.moc"
