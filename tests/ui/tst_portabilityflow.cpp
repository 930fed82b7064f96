// File → Export… and File → Import… in the window: export a scope, check a file with a dry run,
// change the choices, import, and land on the imported scope.

#include "tests/support/samplescope.h"
#include "tests/support/tempservice.h"
#include "ui/mainwindow.h"
#include "ui/models/commitlistmodel.h"
#include "ui/pages/memorypage.h"
#include "ui/portabilityflow.h"
#include "ui/widgets/importdialog.h"
#include "ui/widgets/scopepicker.h"

#include <QAction>
#include <QCheckBox>
#include <QDir>
#include <QFile>
#include <QLineEdit>
#include <QListWidget>
#include <QMenuBar>
#include <QPushButton>
#include <QSignalSpy>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTest>

using namespace MemoryGraph;
using MemoryGraph::Ui::ImportDialog;
using MemoryGraph::Ui::MainWindow;
using MemoryGraph::Ui::PortabilityFlow;

namespace {

constexpr int kWaitMs = 60000;

QString s(const char *text)
{
    return QString::fromUtf8(text);
}

bool saveShot(QWidget *widget, const QString &name)
{
    const QString path = QDir(Test::testOutputDir()).filePath(name);
    const bool saved = widget->grab().save(path);
    if (saved)
        qInfo("screenshot: %s", qUtf8Printable(path));
    return saved;
}

qint64 cell(QTableWidget *table, int row, int column)
{
    return table->item(row, column) ? table->item(row, column)->text().toLongLong() : -1;
}

} // namespace

class tst_PortabilityFlow : public QObject
{
    Q_OBJECT

private slots:
    void init()
    {
        m_svc = std::make_unique<Test::TempService>();
        QVERIFY(m_svc->isValid());
        auto filled = Test::fillSampleScope(m_svc->service(), s("default"), s("alpha"));
        QVERIFY2(filled, Test::why(filled));
        QVERIFY(m_svc->service()->waitForEmbeddings(kWaitMs));
        m_window = std::make_unique<MainWindow>(m_svc->service());
        m_window->show();
    }

    void cleanup()
    {
        m_window.reset();
        m_svc.reset();
    }

    void fileMenuOffersImportAndExport();
    void exportThenImportACopyIntoAnotherScope();

private:
    std::unique_ptr<Test::TempService> m_svc;
    std::unique_ptr<MainWindow> m_window;
};

void tst_PortabilityFlow::fileMenuOffersImportAndExport()
{
    QAction *importAction = m_window->importAction();
    QAction *exportAction = m_window->exportAction();
    QVERIFY(importAction && exportAction);
    const QList<QAction *> file = m_window->menuBar()->actions().first()->menu()->actions();
    QVERIFY(file.contains(importAction));
    QVERIFY(file.contains(exportAction));
    QCOMPARE(importAction->shortcut(), QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_I));
    QCOMPARE(exportAction->shortcut(), QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_E));
}

void tst_PortabilityFlow::exportThenImportACopyIntoAnotherScope()
{
    PortabilityFlow *flow = m_window->portability();
    QTemporaryDir dir;
    const QString path = dir.filePath(s("alpha.jsonl"));

    QSignalSpy exported(flow, &PortabilityFlow::exportFinished);
    ExportRequest request;
    request.tenantId = s("default");
    request.scope = s("alpha");
    flow->exportTo(request, path);
    QVERIFY(exported.wait(kWaitMs));
    QVERIFY2(exported.first().at(0).toBool(), qPrintable(exported.first().at(1).toString()));
    QVERIFY(QFile::exists(path));

    // Into the scope it came from, keeping ids: the dry run shows the conflicts.
    QSignalSpy checked(flow, &PortabilityFlow::importChecked);
    m_window->importMemories(path);
    QVERIFY(checked.wait(kWaitMs));
    QVERIFY2(checked.last().at(0).toBool(), qPrintable(checked.last().at(1).toString()));
    ImportDialog *dialog = flow->importDialog();
    QVERIFY(dialog);
    QVERIFY(dialog->isVisible());
    QCOMPARE(dialog->scopeEdit()->text(), s("alpha"));
    const qint64 nodes = m_svc->service()->health().nodes;
    QCOMPARE(cell(dialog->kindTable(), 0, 0), nodes);
    QVERIFY(cell(dialog->kindTable(), 0, 2) > 0);
    QVERIFY(dialog->conflictList()->count() > 0);
    QVERIFY(!dialog->importButton()->isEnabled());
    QVERIFY(saveShot(dialog, s("import-dialog-conflicts.png")));

    // Another scope, as a copy: checked again, then nothing conflicts.
    dialog->scopeEdit()->setText(s("beta"));
    Q_EMIT dialog->scopeEdit()->textEdited(s("beta"));
    dialog->remapIdsBox()->setChecked(true);
    QVERIFY(!dialog->importButton()->isEnabled()); // stale until the new dry run is in
    QVERIFY(checked.wait(kWaitMs));
    QTRY_VERIFY_WITH_TIMEOUT(dialog->importButton()->isEnabled(), kWaitMs);
    QCOMPARE(cell(dialog->kindTable(), 0, 2), 0);
    QCOMPARE(cell(dialog->kindTable(), 0, 3), nodes); // every node gets a new id
    QCOMPARE(dialog->conflictList()->count(), 0);
    QVERIFY2(dialog->statusText().contains(s("can go ahead")), qPrintable(dialog->statusText()));
    QVERIFY(saveShot(dialog, s("import-dialog-ready.png")));

    QSignalSpy imported(flow, &PortabilityFlow::importFinished);
    dialog->importButton()->click();
    QVERIFY(imported.wait(kWaitMs));
    QVERIFY2(imported.first().at(0).toBool(), qPrintable(imported.first().at(1).toString()));
    QCOMPARE(imported.first().at(3).toString(), s("beta"));
    QTRY_VERIFY(!flow->importDialog());
    QCOMPARE(m_svc->service()->health().nodes, 2 * nodes);
    auto chain = m_svc->service()->verifyChain(s("default"), s("beta"));
    QVERIFY(chain && chain.value().ok);
    // The window shows the imported scope.
    QCOMPARE(m_window->currentPage(), MainWindow::Page::Memory);
    QTRY_COMPARE_WITH_TIMEOUT(m_window->memoryPage()->scopePicker()->currentScope(), s("beta"),
                              kWaitMs);
    // beta's chain: the one import commit.
    QTRY_COMPARE_WITH_TIMEOUT(m_window->memoryPage()->commitModel()->rowCount(), 1, kWaitMs);
    QVERIFY(saveShot(m_window.get(), s("import-done-window.png")));
}

QTEST_MAIN(tst_PortabilityFlow)
#include "tst_portabilityflow.moc"
