// The tray icon's menu against the real HTTP server: the listening address and the requests
// served, live; Pause / Resume serving stop and start the listener as the Server page does;
// Open brings the window back and Quit asks for a real quit.

#include "tests/http/httptestserver.h"
#include "ui/mainwindow.h"
#include "ui/pages/serverpage.h"
#include "ui/trayicon.h"

#include <QAction>
#include <QMenu>
#include <QSignalSpy>
#include <QSystemTrayIcon>
#include <QTest>

using namespace MemoryGraph;
using MemoryGraph::Ui::MainWindow;
using MemoryGraph::Ui::ServerPage;
using MemoryGraph::Ui::TrayIcon;

class tst_TrayIcon : public QObject
{
    Q_OBJECT

private slots:
    void menuFollowsServerAndRequests();
    void openAndQuit();
    void visibleOnlyWithATray();
};

namespace {

/// The Server page drives the host the way the app wires them.
void wire(ServerPage *page, HttpServerHost *host)
{
    QObject::connect(page, &ServerPage::startRequested, host, &HttpServerHost::start);
    QObject::connect(page, &ServerPage::stopRequested, host, &HttpServerHost::stop);
    QObject::connect(host, &HttpServerHost::started, page, &ServerPage::onServerStarted);
    QObject::connect(host, &HttpServerHost::stopped, page, &ServerPage::onServerStopped);
    QObject::connect(host, &HttpServerHost::startFailed, page, &ServerPage::onServerFailed);
    QObject::connect(host, &HttpServerHost::requestServed, page, &ServerPage::appendRequest);
}

} // namespace

void tst_TrayIcon::menuFollowsServerAndRequests()
{
    Test::HttpTestServer server;
    QVERIFY2(server.isReady(), qPrintable(server.errorText()));
    server.host()->stop(); // start from the page's own state: stopped
    MainWindow window(server.service());
    ServerPage *page = window.serverPage();
    wire(page, server.host());
    page->setBindAddress(QStringLiteral("127.0.0.1"));
    page->setPort(0);

    TrayIcon tray(&window);
    QCOMPARE(tray.addressAction()->text(), QStringLiteral("Paused: not serving"));
    QCOMPARE(tray.requestCountAction()->text(), QStringLiteral("0 requests served"));
    QCOMPARE(tray.pauseAction()->text(), QStringLiteral("&Resume serving"));
    QVERIFY(!tray.addressAction()->isEnabled()); // information, not a command

    tray.pauseAction()->trigger(); // resume
    QTRY_COMPARE(page->state(), ServerPage::State::Running);
    QVERIFY(server.port() != 0);
    const QString url = QStringLiteral("http://127.0.0.1:%1").arg(server.port());
    QCOMPARE(tray.addressAction()->text(), QStringLiteral("Serving on ") + url);
    QVERIFY(tray.toolTip().contains(url));
    QCOMPARE(tray.pauseAction()->text(), QStringLiteral("&Pause serving"));

    QCOMPARE(server.get(QStringLiteral("/health")).status, 200);
    QTRY_COMPARE(tray.requestCountAction()->text(), QStringLiteral("1 request served"));
    QCOMPARE(server.get(QStringLiteral("/health")).status, 200);
    QTRY_COMPARE(tray.requestCountAction()->text(), QStringLiteral("2 requests served"));
    // Clearing the page's log does not unserve requests.
    page->clearRequestLog();
    QCOMPARE(tray.requestCountAction()->text(), QStringLiteral("2 requests served"));

    tray.pauseAction()->trigger(); // pause
    QTRY_COMPARE(page->state(), ServerPage::State::Stopped);
    QCOMPARE(server.port(), quint16(0));
    QCOMPARE(tray.addressAction()->text(), QStringLiteral("Paused: not serving"));
    QCOMPARE(tray.pauseAction()->text(), QStringLiteral("&Resume serving"));

    // The menu holds, in order: address, count, open, pause, quit.
    QList<QAction *> commands;
    for (QAction *action : tray.menu()->actions())
        if (!action->isSeparator())
            commands << action;
    QCOMPARE(commands,
             (QList<QAction *>{tray.addressAction(), tray.requestCountAction(), tray.openAction(),
                               tray.pauseAction(), tray.quitAction()}));
}

void tst_TrayIcon::openAndQuit()
{
    Test::HttpTestServer server;
    QVERIFY2(server.isReady(), qPrintable(server.errorText()));
    MainWindow window(server.service());
    TrayIcon tray(&window);
    QVERIFY(!window.isVisible());

    tray.openAction()->trigger();
    QVERIFY(window.isVisible());

    QSignalSpy quit(&window, &MainWindow::quitRequested);
    tray.quitAction()->trigger();
    QCOMPARE(quit.count(), 1);
}

void tst_TrayIcon::visibleOnlyWithATray()
{
    Test::HttpTestServer server;
    QVERIFY2(server.isReady(), qPrintable(server.errorText()));
    MainWindow window(server.service());
    TrayIcon tray(&window);
    // The offscreen platform has no tray: the icon cannot show and a close must quit.
    QCOMPARE(tray.ensureVisible(), QSystemTrayIcon::isSystemTrayAvailable());
}

QTEST_MAIN(tst_TrayIcon)
#include "tst_trayicon.moc"
