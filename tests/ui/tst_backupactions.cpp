// File → Back up… and File → Restore…: the menu entries, a backup with its result message,
// Cancel on the progress dialog, and a restore prepared for the next start.

#include "tests/support/tempservice.h"
#include "tests/ui/laneblocker.h"
#include "ui/backupactions.h"
#include "ui/mainwindow.h"
#include "ui/operationprogress.h"
#include "ui/uiexecutor.h"

#include <QAction>
#include <QDir>
#include <QFileInfo>
#include <QJsonArray>
#include <QMenu>
#include <QMenuBar>
#include <QMessageBox>
#include <QProgressDialog>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

using namespace MemoryGraph;
using MemoryGraph::Ui::BackupActions;
using MemoryGraph::Ui::UiExecutor;

namespace {

constexpr int kWaitMs = 30000;

QProcessEnvironment quietEnv()
{
    QProcessEnvironment env;
    env.insert(QStringLiteral("EMBEDDING_PROVIDER"), QStringLiteral("none"));
    return env;
}

bool writeNodes(MemoryService *svc, int count)
{
    for (int i = 0; i < count; ++i) {
        auto req = WriteRequest::fromJson(Test::writeBody(
            {QJsonObject{{QStringLiteral("client_id"), QStringLiteral("n-%1").arg(i)},
                         {QStringLiteral("type"), QStringLiteral("event")},
                         {QStringLiteral("text_summary"), QStringLiteral("event %1").arg(i)}}}));
        if (!req || !svc->write(req.value(), RequestMeta()))
            return false;
    }
    return true;
}

/// The result box BackupActions opened under `window` (the newest one).
QMessageBox *resultBox(QWidget *window)
{
    const auto boxes = window->findChildren<QMessageBox *>(QStringLiteral("backupResult"));
    return boxes.isEmpty() ? nullptr : boxes.last();
}

bool saveShot(QWidget *widget, const QString &name)
{
    QCoreApplication::processEvents();
    return widget->grab().save(QDir(Test::testOutputDir()).filePath(name));
}

} // namespace

class tst_BackupActions : public QObject
{
    Q_OBJECT

private slots:
    void fileMenuHasBackupAndRestore();
    void backUpWritesTheFileAndSaysWhatItHolds();
    void cancelOnTheProgressDialogLeavesNoFile();
    void restorePreparesTheNextStart();
    void restoreOfANonStoreIsRefused();
};

void tst_BackupActions::fileMenuHasBackupAndRestore()
{
    Test::TempService svc(quietEnv());
    Ui::MainWindow window(svc.service());
    QMenu *file = nullptr;
    for (QAction *a : window.menuBar()->actions()) {
        if (a->menu() && a->text().remove(QLatin1Char('&')) == QLatin1String("File"))
            file = a->menu();
    }
    QVERIFY(file);
    QStringList names;
    for (QAction *a : file->actions())
        names << a->objectName();
    QVERIFY2(names.contains(QStringLiteral("backUpAction")), qPrintable(names.join(',')));
    QVERIFY(names.contains(QStringLiteral("restoreAction")));
    QVERIFY(window.backupActions()->backUpAction()->isEnabled());
    QCOMPARE(window.backupActions()->backUpAction()->text(), QStringLiteral("&Back up\u2026"));
}

void tst_BackupActions::backUpWritesTheFileAndSaysWhatItHolds()
{
    Test::TempService svc(quietEnv());
    QVERIFY(writeNodes(svc.service(), 7));
    QWidget window;
    UiExecutor executor;
    BackupActions actions(svc.service(), &executor, &window);
    QTemporaryDir out;
    const QString file = QDir(out.path()).filePath(QStringLiteral("menu.sqlite"));
    QSignalSpy finished(&actions, &BackupActions::backupFinished);
    actions.backUpTo(file);
    QVERIFY(!actions.backUpAction()->isEnabled()); // one at a time
    QVERIFY(finished.wait(kWaitMs));
    QCOMPARE(finished.first().at(0).toBool(), true);
    QVERIFY(QFileInfo(file).isFile());
    QVERIFY(actions.backUpAction()->isEnabled());
    QMessageBox *box = resultBox(&window);
    QVERIFY(box);
    QVERIFY2(box->text().contains(QStringLiteral("7 nodes")), qPrintable(box->text()));
    QVERIFY(box->text().contains(QDir::toNativeSeparators(file)));
    QVERIFY(saveShot(box, QStringLiteral("backup-result.png")));
}

void tst_BackupActions::cancelOnTheProgressDialogLeavesNoFile()
{
    Test::TempService svc(quietEnv());
    QVERIFY(writeNodes(svc.service(), 20));
    QWidget window;
    window.resize(800, 500);
    window.show();
    UiExecutor executor;
    Test::LaneBlocker blocker(executor, UiExecutor::Lane::Changes, 1);
    BackupActions actions(svc.service(), &executor, &window);
    QTemporaryDir out;
    const QString file = QDir(out.path()).filePath(QStringLiteral("cancelled.sqlite"));
    QSignalSpy finished(&actions, &BackupActions::backupFinished);

    // The backup waits behind the blocked lane; its dialog comes up, Cancel is pressed.
    actions.backUpTo(file);
    QVERIFY(actions.progress());
    QProgressDialog *dialog = actions.progress()->dialog();
    QVERIFY(dialog);
    QTRY_VERIFY_WITH_TIMEOUT(dialog->isVisible(), kWaitMs);
    QVERIFY(saveShot(dialog, QStringLiteral("backup-progress.png")));
    QVERIFY(Test::pressCancel(dialog));
    blocker.release();

    QVERIFY(finished.wait(kWaitMs));
    QCOMPARE(finished.first().at(0).toBool(), false);
    QVERIFY2(finished.first().at(1).toString().contains(QStringLiteral("cancelled")),
             qPrintable(finished.first().at(1).toString()));
    QVERIFY(QDir(out.path()).entryList(QDir::Files | QDir::Hidden).isEmpty());
    QVERIFY(!resultBox(&window)); // a cancel needs no message box
    QVERIFY(actions.backUpAction()->isEnabled());
}

void tst_BackupActions::restorePreparesTheNextStart()
{
    Test::TempService svc(quietEnv());
    QVERIFY(writeNodes(svc.service(), 3));
    QTemporaryDir out;
    const QString file = QDir(out.path()).filePath(QStringLiteral("b.sqlite"));
    QVERIFY(svc->backup(file));
    QVERIFY(writeNodes(svc.service(), 6));

    QWidget window;
    UiExecutor executor;
    BackupActions actions(svc.service(), &executor, &window);
    QSignalSpy prepared(&actions, &BackupActions::restorePrepared);
    actions.restoreFrom(file);
    QVERIFY(prepared.wait(kWaitMs));
    QCOMPARE(prepared.first().at(0).toBool(), true);
    QMessageBox *box = resultBox(&window);
    QVERIFY(box);
    QVERIFY2(box->text().contains(QStringLiteral("3 nodes")), qPrintable(box->text()));
    // Nothing changes until the next start.
    QCOMPARE(svc->health().nodes, qint64(6));
    auto pending = svc->pendingRestore();
    QVERIFY(pending);
    QCOMPARE(pending->store.nodes, qint64(3));
    QVERIFY(saveShot(box, QStringLiteral("restore-prepared.png")));
}

void tst_BackupActions::restoreOfANonStoreIsRefused()
{
    Test::TempService svc(quietEnv());
    QTemporaryDir out;
    const QString file = QDir(out.path()).filePath(QStringLiteral("notes.txt"));
    QFile f(file);
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write("plain words\n");
    f.close();
    QWidget window;
    UiExecutor executor;
    BackupActions actions(svc.service(), &executor, &window);
    QSignalSpy prepared(&actions, &BackupActions::restorePrepared);
    actions.restoreFrom(file);
    QVERIFY(prepared.wait(kWaitMs));
    QCOMPARE(prepared.first().at(0).toBool(), false);
    QMessageBox *box = resultBox(&window);
    QVERIFY(box);
    QVERIFY(box->informativeText().contains(QStringLiteral("not a Memory Graph store")));
    QVERIFY(!svc->pendingRestore());
}

QTEST_MAIN(tst_BackupActions)
#include "tst_backupactions.moc"
