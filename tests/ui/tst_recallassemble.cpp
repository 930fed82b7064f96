// The Recall page's "Assemble" action: context/assemble through the facade off the GUI thread,
// the recall part shown like a plain run, and the layered context in its own tab.

#include "tests/support/tempservice.h"
#include "ui/models/seedtablemodel.h"
#include "ui/pages/recallpage.h"
#include "ui/uiexecutor.h"
#include "ui/widgets/layeredcontextview.h"

#include <QJsonArray>
#include <QPushButton>
#include <QSignalSpy>
#include <QTest>

using namespace MemoryGraph;
using MemoryGraph::Test::TempService;
using MemoryGraph::Test::writeBody;

namespace {

QString s(const char *text)
{
    return QString::fromLatin1(text);
}

bool writeShared(MemoryService *svc)
{
    const auto node
        = [](const char *cid, const char *type, const char *title, const char *summary) {
              QJsonObject n{{s("client_id"), s(cid)},
                            {s("type"), s(type)},
                            {s("text_summary"), s(summary)},
                            {s("memory_lane"), s("shared")}};
              if (title)
                  n.insert(s("title"), s(title));
              return n;
          };
    auto req = WriteRequest::fromJson(
        writeBody({node("billing", "entity", "Billing service", "bills customers"),
                   node("deploy", "event", nullptr, "billing deploy failed on staging")}));
    return req && svc->write(req.value(), {}) && svc->waitForEmbeddings(10000);
}

bool assembleOn(Ui::RecallPage &page, bool *ok)
{
    QSignalSpy finished(&page, &Ui::RecallPage::assembleFinished);
    QTest::mouseClick(page.assembleButton(), Qt::LeftButton);
    if (!finished.wait(20000))
        return false;
    *ok = finished.at(0).at(0).toBool();
    return true;
}

} // namespace

class tst_RecallAssemble : public QObject
{
    Q_OBJECT

private slots:
    void assembleShowsRecallAndLayeredContext()
    {
        TempService svc;
        QVERIFY(svc.isValid());
        QVERIFY(writeShared(svc.service()));
        Ui::UiExecutor executor;
        Ui::RecallPage page(svc.service(), &executor);
        page.refresh();
        page.selectScope(s("default"), s("default"));
        page.setQueryText(s("billing deploy"));
        QVERIFY(page.layeredView()->text().isEmpty());

        bool ok = false;
        QVERIFY(assembleOn(page, &ok));
        QVERIFY2(ok, qPrintable(page.statusText()));
        QVERIFY(page.seedModel()->rowCount() > 0);
        const QString text = page.layeredView()->text();
        QVERIFY2(text.contains(s("# Facts\n- Billing service: bills customers")), qPrintable(text));
        QVERIFY(text.contains(s("# Episodes\n- billing deploy failed on staging")));
        QVERIFY(page.layeredView()->summaryText().contains(s("4000")));
        QVERIFY(page.assembleButton()->isEnabled());
    }

    void assembleWithoutProviderShowsTheError()
    {
        QProcessEnvironment env;
        env.insert(s("EMBEDDING_PROVIDER"), s("none"));
        TempService svc(env);
        QVERIFY(svc.isValid());
        Ui::UiExecutor executor;
        Ui::RecallPage page(svc.service(), &executor);
        page.setQueryText(s("anything"));
        bool ok = true;
        QVERIFY(assembleOn(page, &ok));
        QVERIFY(!ok);
        QCOMPARE(page.errorCode(), s("no_embedding_provider"));
        QVERIFY(page.layeredView()->text().isEmpty());
    }
};

QTEST_MAIN(tst_RecallAssemble)
#include "tst_recallassemble.moc"
