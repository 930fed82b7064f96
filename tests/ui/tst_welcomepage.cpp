// The Welcome page: the window opens on it while the store is empty; it shows the address
// agents connect to and ready-to-paste snippets, loads the sample memories, notices memories
// that arrive (from the samples, or an agent writing over HTTP) and offers to browse them
// without leaving on its own.

#include "tests/http/httptestserver.h"
#include "tests/support/tempservice.h"
#include "ui/mainwindow.h"
#include "ui/pages/graphpage.h"
#include "ui/pages/serverpage.h"
#include "ui/pages/welcomepage.h"
#include "ui/theme.h"
#include "ui/widgets/graphcanvas.h"

#include <QAction>
#include <QApplication>
#include <QClipboard>
#include <QComboBox>
#include <QDir>
#include <QLabel>
#include <QListWidget>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSignalSpy>
#include <QStatusBar>
#include <QTest>

using namespace MemoryGraph;
using MemoryGraph::Ui::MainWindow;
using MemoryGraph::Ui::WelcomePage;

namespace {

constexpr int kWaitMs = 20000;

QString s(const char *text)
{
    return QString::fromUtf8(text);
}

QProcessEnvironment quietEnv()
{
    QProcessEnvironment env;
    env.insert(s("EMBEDDING_PROVIDER"), s("none"));
    return env;
}

bool writeOneNode(MemoryService *service, const QString &clientId)
{
    const QJsonObject node{{s("client_id"), clientId},
                           {s("type"), s("event")},
                           {s("text_summary"), s("already here")}};
    auto request = WriteRequest::fromJson(Test::writeBody({node}));
    return request && service->write(request.value(), RequestMeta()).ok();
}

QPushButton *button(QWidget *page, const char *name)
{
    return page->findChild<QPushButton *>(QString::fromLatin1(name));
}

bool saveShot(QWidget *widget, const QString &name)
{
    QCoreApplication::processEvents(); // let the labels that just changed lay out first
    const QString path = QDir(Test::testOutputDir()).filePath(name);
    const bool saved = widget->grab().save(path);
    if (saved)
        qInfo("screenshot: %s", qUtf8Printable(path));
    return saved;
}

/// The window on an empty store, shown, once it has settled on the Welcome page.
bool openOnWelcome(MainWindow &window)
{
    window.show();
    if (!QTest::qWaitForWindowExposed(&window))
        return false;
    return QTest::qWaitFor([&]() { return window.currentPage() == MainWindow::Page::Welcome; },
                           kWaitMs);
}

} // namespace

class tst_WelcomePage : public QObject
{
    Q_OBJECT

private slots:
    void opensOnWelcomeWhenTheStoreIsEmpty();
    void opensOnTheUsualPageWhenTheStoreHasData();
    void showsTheAddressAgentsUse();
    void snippetsForEachAgent();
    void keyboardReachesEveryControl();
    void importButtonFollowsTheWindowsImport();
    void loadingSamplesOffersToBrowseThem();
    void httpWriteWhileShownIsNoticed();
    void darkPaletteScreenshots();
};

void tst_WelcomePage::opensOnWelcomeWhenTheStoreIsEmpty()
{
    Test::TempService service(quietEnv());
    QVERIFY2(service.isValid(), qPrintable(service.errorText()));
    MainWindow window(service.service());
    QVERIFY(openOnWelcome(window));
    window.activateWindow();
    QVERIFY(QTest::qWaitForWindowActive(&window));
    QVERIFY(window.welcomePage()->isVisible());
    QVERIFY(!window.serverPage()->isVisible());
    // Not a sidebar entry: none is current, no View entry is checked.
    auto *sidebar = window.findChild<QListWidget *>(s("navigation"));
    QVERIFY(sidebar);
    QCOMPARE(sidebar->currentRow(), -1);
    for (QAction *action : window.findChildren<QAction *>()) {
        if (action->shortcut().toString().startsWith(s("Ctrl+")) && action->isCheckable())
            QVERIFY2(!action->isChecked(), qPrintable(action->text()));
    }
    QVERIFY(!window.welcomePage()->isBannerShown());
    // Its main action has the keyboard.
    QCOMPARE(window.welcomePage()->defaultButton(),
             button(window.welcomePage(), "loadSamplesButton"));
    QVERIFY(window.welcomePage()->defaultButton()->isDefault());

    // The sidebar and the shortcuts leave it as usual; Help > Welcome comes back.
    QTest::keyClick(&window, Qt::Key_1, Qt::ControlModifier);
    QCOMPARE(window.currentPage(), MainWindow::Page::Server);
    QCOMPARE(sidebar->currentRow(), 0);
    auto *welcome = window.findChild<QAction *>(s("welcomeAction"));
    QVERIFY(welcome);
    welcome->trigger();
    QCOMPARE(window.currentPage(), MainWindow::Page::Welcome);
    QCOMPARE(sidebar->currentRow(), -1);
    sidebar->setCurrentRow(3);
    QCOMPARE(window.currentPage(), MainWindow::Page::Graph);
}

void tst_WelcomePage::opensOnTheUsualPageWhenTheStoreHasData()
{
    Test::TempService service(quietEnv());
    QVERIFY2(service.isValid(), qPrintable(service.errorText()));
    QVERIFY(writeOneNode(service.service(), s("first")));

    MainWindow window(service.service());
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    // The counts arrive in the same answer that decides the opening page.
    auto *counts = window.statusBar()->findChild<QLabel *>(s("countsStatus"));
    QVERIFY(counts);
    QTRY_VERIFY_WITH_TIMEOUT(counts->text().startsWith(s("1 nodes")), kWaitMs);
    QCOMPARE(window.currentPage(), MainWindow::Page::Server);
    // Help > Welcome still shows it, with the store's size instead of an arrival.
    window.showPage(MainWindow::Page::Welcome);
    QVERIFY(window.welcomePage()->isBannerShown());
    QCOMPARE(window.welcomePage()->bannerText(), s("1 node is stored."));
    QCOMPARE(window.welcomePage()->defaultButton(), button(window.welcomePage(), "browseButton"));
}

void tst_WelcomePage::showsTheAddressAgentsUse()
{
    Test::TempService service(quietEnv());
    QVERIFY2(service.isValid(), qPrintable(service.errorText()));
    MainWindow window(service.service());
    Ui::ServerPage *server = window.serverPage();
    WelcomePage *welcome = window.welcomePage();
    server->setAuthMode(s("off"));
    server->setBindAddress(s("127.0.0.1"));
    server->setPort(0);
    // Port 0 is chosen at start: nothing to give agents yet.
    QCOMPARE(welcome->addressText(), s("no address yet"));
    QVERIFY(welcome->listenerText().startsWith(s("Not listening")));

    server->onServerStarted(s("127.0.0.1"), 48123);
    QCOMPARE(welcome->addressText(), s("http://127.0.0.1:48123"));
    QCOMPARE(welcome->listenerText(), s("Listening: agents can connect now."));
    button(welcome, "copyAddressButton")->click();
    QCOMPARE(QGuiApplication::clipboard()->text(), s("http://127.0.0.1:48123"));

    // The Server page stops it: the address stays, the state says agents cannot connect.
    server->onServerStopped();
    QCOMPARE(welcome->addressText(), s("http://127.0.0.1:48123"));
    QVERIFY2(welcome->listenerText().startsWith(s("Not listening")),
             qPrintable(welcome->listenerText()));
    server->onServerFailed(s("address in use"));
    QVERIFY2(welcome->listenerText().contains(s("could not start: address in use")),
             qPrintable(welcome->listenerText()));

    // An IPv6 listener is bracketed as in a URL.
    server->onServerStarted(s("::1"), 9000);
    QCOMPARE(welcome->addressText(), s("http://[::1]:9000"));

    QSignalSpy serverRequested(welcome, &WelcomePage::serverPageRequested);
    button(welcome, "serverPageButton")->click();
    QCOMPARE(serverRequested.count(), 1);
    QCOMPARE(window.currentPage(), MainWindow::Page::Server);
}

void tst_WelcomePage::snippetsForEachAgent()
{
    Test::TempService service(quietEnv());
    QVERIFY2(service.isValid(), qPrintable(service.errorText()));
    MainWindow window(service.service());
    Ui::ServerPage *server = window.serverPage();
    WelcomePage *welcome = window.welcomePage();
    server->setAuthMode(s("off"));
    server->setDataDir(s("/data/memories"));
    server->onServerStarted(s("127.0.0.1"), 48123);

    using Agent = WelcomePage::Agent;
    using Transport = Ui::McpClientConfig::Transport;
    welcome->selectAgent(Agent::ClaudeCode, Transport::Http);
    QCOMPARE(welcome->snippetText(),
             s("claude mcp add --transport http memorygraph http://127.0.0.1:48123/mcp"));
    auto *destination = welcome->findChild<QLabel *>(s("snippetDestinationLabel"));
    QCOMPARE(destination->text(), s("Run in a terminal:"));

    welcome->selectAgent(Agent::Cursor, Transport::Http);
    QVERIFY(welcome->snippetText().contains(s("\"url\": \"http://127.0.0.1:48123/mcp\"")));
    QCOMPARE(destination->text(), s("Add to ~/.cursor/mcp.json:"));

    welcome->selectAgent(Agent::VsCode, Transport::Stdio);
    QVERIFY(welcome->snippetText().contains(s("\"type\": \"stdio\"")));
    QVERIFY(welcome->snippetText().contains(s("\"/data/memories\"")));
    QVERIFY(welcome->snippetText().contains(s("\"48123\"")));

    // Plain HTTP: curl against the live address; no transport to choose.
    auto *transport = welcome->findChild<QComboBox *>(s("transportCombo"));
    welcome->selectAgent(Agent::Curl, Transport::Http);
    QVERIFY(!transport->isEnabled());
    QVERIFY(welcome->snippetText().startsWith(s("curl -s http://127.0.0.1:48123/health\n")));
    QVERIFY(welcome->snippetText().contains(s("http://127.0.0.1:48123/v1/memory/write")));
    QVERIFY(welcome->snippetText().contains(s("http://127.0.0.1:48123/v1/memory/recall_text")));
    QVERIFY(!welcome->snippetText().contains(s("X-Api-Key")));

    // Auth on: a place for the key, in curl and in the MCP configuration alike.
    server->setAuthMode(s("api_key"));
    QVERIFY(welcome->snippetText().contains(s("-H 'X-Api-Key: <your API key>'")));
    welcome->selectAgent(Agent::ClaudeDesktop, Transport::Http);
    QVERIFY(transport->isEnabled());
    QVERIFY(welcome->snippetText().contains(s("X-Api-Key:<your API key>")));

    // Copy puts exactly the snippet on the clipboard.
    button(welcome, "copySnippetButton")->click();
    QCOMPARE(QGuiApplication::clipboard()->text(), welcome->snippetText());
    QCOMPARE(welcome->findChild<QLabel *>(s("snippetCopiedLabel"))->text(), s("Copied."));
}

void tst_WelcomePage::keyboardReachesEveryControl()
{
    Test::TempService service(quietEnv());
    QVERIFY2(service.isValid(), qPrintable(service.errorText()));
    MainWindow window(service.service());
    QVERIFY(openOnWelcome(window));
    window.activateWindow();
    QVERIFY(QTest::qWaitForWindowActive(&window));
    WelcomePage *welcome = window.welcomePage();
    QTRY_COMPARE(QApplication::focusWidget(), welcome->defaultButton());

    // Tab walks the page top to bottom (the banner is hidden while the store is empty).
    const QList<QWidget *> chain{button(welcome, "copyAddressButton"),
                                 button(welcome, "serverPageButton"),
                                 welcome->findChild<QComboBox *>(s("agentCombo")),
                                 welcome->findChild<QComboBox *>(s("transportCombo")),
                                 welcome->findChild<QPlainTextEdit *>(s("snippetText")),
                                 button(welcome, "copySnippetButton"),
                                 button(welcome, "loadSamplesButton")};
    chain.first()->setFocus(Qt::TabFocusReason);
    for (int i = 1; i < chain.size(); ++i) {
        QTest::keyClick(QApplication::focusWidget(), Qt::Key_Tab);
        QCOMPARE(QApplication::focusWidget(), chain.at(i));
    }

    // Mnemonics: Alt+A focuses the agent list through its label.
    QTest::keyClick(&window, Qt::Key_A, Qt::AltModifier);
    QCOMPARE(QApplication::focusWidget(), chain.at(2));
    // Enter on the page presses the default button, from anywhere that does not take Enter.
    QSignalSpy load(welcome, &WelcomePage::loadSamplesRequested);
    chain.at(4)->setFocus();
    QTest::keyClick(chain.at(4), Qt::Key_Return);
    QCOMPARE(load.count(), 1);
}

void tst_WelcomePage::importButtonFollowsTheWindowsImport()
{
    Test::TempService service(quietEnv());
    QVERIFY2(service.isValid(), qPrintable(service.errorText()));
    MainWindow window(service.service());
    QVERIFY(openOnWelcome(window));
    QPushButton *import = button(window.welcomePage(), "importButton");
    QVERIFY(import);
    QVERIFY(window.importAction());
    QVERIFY(import->isVisible()); // the window's own File → Import…

    window.setImportAction(nullptr);
    QVERIFY(!import->isVisible()); // nothing to offer
    QAction action(s("Import"));
    QSignalSpy triggered(&action, &QAction::triggered);
    window.setImportAction(&action);
    QVERIFY(import->isVisible());
    QTest::mouseClick(import, Qt::LeftButton);
    QCOMPARE(triggered.count(), 1);
    window.setImportAction(nullptr);
    QVERIFY(!import->isVisible());
}

void tst_WelcomePage::loadingSamplesOffersToBrowseThem()
{
    Test::TempService service(quietEnv());
    QVERIFY2(service.isValid(), qPrintable(service.errorText()));
    MainWindow window(service.service());
    QVERIFY(openOnWelcome(window));
    WelcomePage *welcome = window.welcomePage();
    window.serverPage()->onServerStarted(s("127.0.0.1"), 8787);
    QVERIFY(saveShot(&window, s("welcome-page.png")));

    QSignalSpy loaded(&window, &MainWindow::sampleMemoriesLoaded);
    QPushButton *samples = button(welcome, "loadSamplesButton");
    QTest::mouseClick(samples, Qt::LeftButton);
    QVERIFY(loaded.wait(kWaitMs) || !loaded.isEmpty());
    QVERIFY2(loaded.at(0).at(0).toBool(), qPrintable(loaded.at(0).at(1).toString()));
    QVERIFY(service->health().nodes >= 15);

    // The page stays; the banner says what arrived and offers the pages.
    QTRY_VERIFY_WITH_TIMEOUT(welcome->isBannerShown(), kWaitMs);
    QCOMPARE(window.currentPage(), MainWindow::Page::Welcome);
    QCOMPARE(welcome->bannerText(),
             s("<b>Memories arrived.</b> %1 nodes are stored now.").arg(service->health().nodes));
    QCOMPARE(welcome->defaultButton(), button(welcome, "browseButton"));
    QVERIFY(samples->isEnabled());
    QVERIFY(saveShot(&window, s("welcome-page-arrived.png")));

    button(welcome, "browseButton")->click();
    QCOMPARE(window.currentPage(), MainWindow::Page::Memory);

    // "Open the graph" shows the scope's most salient nodes, nothing picked.
    window.showPage(MainWindow::Page::Welcome);
    button(welcome, "graphButton")->click();
    QCOMPARE(window.currentPage(), MainWindow::Page::Graph);
    Ui::GraphPage *graph = window.graphPage();
    QTRY_COMPARE_WITH_TIMEOUT(graph->canvas()->nodeCount(), int(service->health().nodes), kWaitMs);
    QVERIFY(graph->isShowingOverview());
    QVERIFY(graph->canvas()->edgeCount() > 0);
    QTRY_VERIFY(graph->statusText().startsWith(s("All 17 nodes of the scope")));
    QVERIFY(saveShot(&window, s("graph-page-overview.png")));
}

void tst_WelcomePage::httpWriteWhileShownIsNoticed()
{
    // As an agent would: a POST to the real server while the page is open.
    Test::HttpTestServer server(quietEnv());
    QVERIFY2(server.isReady(), qPrintable(server.errorText()));
    MainWindow window(server.service());
    QVERIFY(openOnWelcome(window));
    WelcomePage *welcome = window.welcomePage();
    window.serverPage()->onServerStarted(s("127.0.0.1"), server.port());
    QCOMPARE(welcome->addressText(), s("http://127.0.0.1:%1").arg(server.port()));
    QVERIFY(!welcome->isBannerShown());

    const QJsonObject node{{s("client_id"), s("pref-alice-short")},
                           {s("type"), s("entity")},
                           {s("title"), s("Alice")},
                           {s("text_summary"), s("Alice prefers short answers.")}};
    const auto written = server.post(s("/v1/memory/write"), Test::writeBody({node}));
    QVERIFY2(written.status == 200, written.describe().constData());

    QTRY_VERIFY_WITH_TIMEOUT(welcome->isBannerShown(), kWaitMs);
    QCOMPARE(welcome->bannerText(), s("<b>Memories arrived.</b> 1 node is stored now."));
    // Not yanked away while reading.
    QCOMPARE(window.currentPage(), MainWindow::Page::Welcome);
}

void tst_WelcomePage::darkPaletteScreenshots()
{
    Ui::applyDarkPalette(*qApp);
    QVERIFY(Ui::isDarkPalette(QApplication::palette()));
    Test::TempService service(quietEnv());
    QVERIFY2(service.isValid(), qPrintable(service.errorText()));
    MainWindow window(service.service());
    QVERIFY(openOnWelcome(window));
    window.serverPage()->onServerStarted(s("127.0.0.1"), 8787);
    QVERIFY(saveShot(&window, s("welcome-page-dark.png")));
    QVERIFY(writeOneNode(service.service(), s("arrived")));
    QTRY_VERIFY_WITH_TIMEOUT(window.welcomePage()->isBannerShown(), kWaitMs);
    QVERIFY(saveShot(&window, s("welcome-page-arrived-dark.png")));
}

QTEST_MAIN(tst_WelcomePage)
#include "tst_welcomepage.moc"
