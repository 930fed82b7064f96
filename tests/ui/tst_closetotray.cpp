// Closing the main window with "Keep serving in the tray" on hides it and leaves the real HTTP
// server answering; without a tray (or with the preference off) the close is a quit, and File →
// Quit / Ctrl+Q quit whatever the preference. The app quits (stopping HTTP) on quitRequested;
// the tests wire that the same way.

#include "tests/http/httptestserver.h"
#include "ui/autostart.h"
#include "ui/closepolicy.h"
#include "ui/mainwindow.h"
#include "ui/settingsdialog.h"

#include <QAction>
#include <QSettings>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

using namespace MemoryGraph;
using MemoryGraph::Ui::ClosePolicy;
using MemoryGraph::Ui::MainWindow;

class tst_CloseToTray : public QObject
{
    Q_OBJECT

private slots:
    void init();
    void cleanup();
    void closeKeepsServingWithTray();
    void closeQuitsWithoutTray();
    void closeQuitsWhenPreferenceOff();
    void fileQuitQuitsWithTray();
    void quittingWindowCloses();
    void bringToFrontShowsHiddenWindow();
    void preferencesReachableFromKeyboard();

private:
    /// A window over the test server's service whose quit stops HTTP, as the app's does.
    std::unique_ptr<MainWindow> makeWindow(ClosePolicy *policy);

    std::unique_ptr<Test::HttpTestServer> m_server;
    std::unique_ptr<QTemporaryDir> m_dir;
    std::unique_ptr<QSettings> m_settings;
};

void tst_CloseToTray::init()
{
    m_server = std::make_unique<Test::HttpTestServer>();
    QVERIFY2(m_server->isReady(), qPrintable(m_server->errorText()));
    m_dir = std::make_unique<QTemporaryDir>();
    QVERIFY(m_dir->isValid());
    m_settings = std::make_unique<QSettings>(m_dir->filePath(QStringLiteral("settings.ini")),
                                             QSettings::IniFormat);
}

void tst_CloseToTray::cleanup()
{
    m_settings.reset();
    m_dir.reset();
    m_server.reset();
}

std::unique_ptr<MainWindow> tst_CloseToTray::makeWindow(ClosePolicy *policy)
{
    auto window = std::make_unique<MainWindow>(m_server->service());
    window->setClosePolicy(policy);
    HttpServerHost *host = m_server->host();
    QObject::connect(window.get(), &MainWindow::quitRequested, host, &HttpServerHost::stop);
    window->show();
    return window;
}

void tst_CloseToTray::closeKeepsServingWithTray()
{
    ClosePolicy policy(m_settings.get(), [] { return true; });
    auto window = makeWindow(&policy);
    QVERIFY(QTest::qWaitForWindowExposed(window.get()));
    QCOMPARE(m_server->get(QStringLiteral("/health")).status, 200);

    QSignalSpy quit(window.get(), &MainWindow::quitRequested);
    QSignalSpy kept(window.get(), &MainWindow::keptServingInTray);
    QVERIFY(!window->close()); // refused: the window hides instead
    QVERIFY(!window->isVisible());
    QCOMPARE(quit.count(), 0);
    QCOMPARE(kept.count(), 1);
    QCOMPARE(kept.at(0).at(0).toBool(), true); // first close: the notice

    const Test::Reply health = m_server->get(QStringLiteral("/health"));
    QVERIFY2(health.status == 200, health.describe().constData());

    // Again from the tray and closed again: still serving, no second notice.
    window->bringToFront();
    QVERIFY(window->isVisible());
    QVERIFY(!window->close());
    QCOMPARE(kept.count(), 2);
    QCOMPARE(kept.at(1).at(0).toBool(), false);
    QCOMPARE(quit.count(), 0);
    QCOMPARE(m_server->get(QStringLiteral("/health")).status, 200);
}

void tst_CloseToTray::closeQuitsWithoutTray()
{
    ClosePolicy policy(m_settings.get(), [] { return false; });
    auto window = makeWindow(&policy);
    QVERIFY(QTest::qWaitForWindowExposed(window.get()));

    QSignalSpy quit(window.get(), &MainWindow::quitRequested);
    QSignalSpy kept(window.get(), &MainWindow::keptServingInTray);
    QVERIFY(window->close());
    QCOMPARE(quit.count(), 1);
    QCOMPARE(kept.count(), 0);
    QCOMPARE(m_server->port(), quint16(0)); // the quit stopped HTTP
}

void tst_CloseToTray::closeQuitsWhenPreferenceOff()
{
    ClosePolicy policy(m_settings.get(), [] { return true; });
    policy.setKeepServingInTray(false);
    auto window = makeWindow(&policy);
    QVERIFY(QTest::qWaitForWindowExposed(window.get()));

    QSignalSpy quit(window.get(), &MainWindow::quitRequested);
    QVERIFY(window->close());
    QCOMPARE(quit.count(), 1);
}

void tst_CloseToTray::fileQuitQuitsWithTray()
{
    ClosePolicy policy(m_settings.get(), [] { return true; });
    auto window = makeWindow(&policy);
    QVERIFY(QTest::qWaitForWindowExposed(window.get()));
    window->activateWindow();

    QSignalSpy quit(window.get(), &MainWindow::quitRequested);
    QSignalSpy kept(window.get(), &MainWindow::keptServingInTray);
    QTest::keyClick(window.get(), Qt::Key_Q, Qt::ControlModifier);
    QCOMPARE(quit.count(), 1);
    QCOMPARE(kept.count(), 0);
}

void tst_CloseToTray::quittingWindowCloses()
{
    // The application's quit closes every window; a window in tray mode must not refuse it.
    ClosePolicy policy(m_settings.get(), [] { return true; });
    auto window = makeWindow(&policy);
    QVERIFY(QTest::qWaitForWindowExposed(window.get()));
    QSignalSpy kept(window.get(), &MainWindow::keptServingInTray);
    window->setQuitting();
    QVERIFY(window->close());
    QCOMPARE(kept.count(), 0);
}

void tst_CloseToTray::bringToFrontShowsHiddenWindow()
{
    ClosePolicy policy(m_settings.get(), [] { return true; });
    auto window = makeWindow(&policy);
    window->showMinimized();
    window->bringToFront();
    QVERIFY(window->isVisible());
    QVERIFY(!(window->windowState() & Qt::WindowMinimized));
}

void tst_CloseToTray::preferencesReachableFromKeyboard()
{
    ClosePolicy policy(m_settings.get(), [] { return true; });
    Ui::AutoStart autoStart(QStringLiteral("/opt/mg/memorygraph"));
    auto window = makeWindow(&policy);
    auto *preferences = window->findChild<QAction *>(QStringLiteral("preferencesAction"));
    QVERIFY(preferences);
    QVERIFY(!preferences->isEnabled()); // nothing to edit yet
    window->setAutoStart(&autoStart);
    QVERIFY(preferences->isEnabled());
    QVERIFY(!preferences->shortcut().isEmpty());

    QVERIFY(QTest::qWaitForWindowExposed(window.get()));
    window->activateWindow();
    QTest::keySequence(window.get(), preferences->shortcut());
    auto *dialog = window->findChild<Ui::SettingsDialog *>();
    QVERIFY(dialog);
    QTRY_VERIFY(dialog->isVisible());
    dialog->reject();
}

QTEST_MAIN(tst_CloseToTray)
#include "tst_closetotray.moc"
