// What closing the main window does: keep serving from the tray or quit, from the preference,
// whether a tray exists, and the notice given on the first close into the tray only.

#include "ui/closepolicy.h"

#include <QSettings>
#include <QTemporaryDir>
#include <QTest>

using MemoryGraph::Ui::ClosePolicy;

class tst_ClosePolicy : public QObject
{
    Q_OBJECT

private slots:
    void init();
    void cleanup();
    void preferenceDefaultsToTrayAvailability();
    void keepsServingOnlyWithPreferenceAndTray();
    void noticeOnFirstCloseIntoTrayOnly();
    void noNoticeWhenClosingQuits();
    void choiceSurvivesRestart();
    void trayAskedAtEachClose();

private:
    std::unique_ptr<QSettings> settings();

    std::unique_ptr<QTemporaryDir> m_dir;
};

void tst_ClosePolicy::init()
{
    m_dir = std::make_unique<QTemporaryDir>();
    QVERIFY(m_dir->isValid());
}

void tst_ClosePolicy::cleanup()
{
    m_dir.reset();
}

std::unique_ptr<QSettings> tst_ClosePolicy::settings()
{
    return std::make_unique<QSettings>(m_dir->filePath(QStringLiteral("settings.ini")),
                                       QSettings::IniFormat);
}

void tst_ClosePolicy::preferenceDefaultsToTrayAvailability()
{
    auto store = settings();
    ClosePolicy withTray(store.get(), [] { return true; });
    QVERIFY(withTray.trayAvailable());
    QVERIFY(withTray.keepServingInTray());
    QVERIFY(withTray.closeKeepsServing());

    ClosePolicy withoutTray(store.get(), [] { return false; });
    QVERIFY(!withoutTray.trayAvailable());
    QVERIFY(!withoutTray.keepServingInTray());
    QVERIFY(!withoutTray.closeKeepsServing());

    ClosePolicy noProbe(store.get(), {});
    QVERIFY(!noProbe.trayAvailable());
    // Nothing was stored by asking.
    QVERIFY(store->allKeys().isEmpty());
}

void tst_ClosePolicy::keepsServingOnlyWithPreferenceAndTray()
{
    auto store = settings();
    bool tray = true;
    ClosePolicy policy(store.get(), [&tray] { return tray; });

    policy.setKeepServingInTray(false);
    QVERIFY(!policy.keepServingInTray());
    QVERIFY(!policy.decideOnClose().keepServing);

    policy.setKeepServingInTray(true);
    QVERIFY(policy.decideOnClose().keepServing);

    tray = false; // the preference stays, but there is nowhere to hide
    QVERIFY(policy.keepServingInTray());
    QVERIFY(!policy.closeKeepsServing());
    QVERIFY(!policy.decideOnClose().keepServing);
}

void tst_ClosePolicy::noticeOnFirstCloseIntoTrayOnly()
{
    auto store = settings();
    ClosePolicy policy(store.get(), [] { return true; });
    const ClosePolicy::Decision first = policy.decideOnClose();
    QVERIFY(first.keepServing);
    QVERIFY(first.showNotice);
    for (int i = 0; i < 3; ++i) {
        const ClosePolicy::Decision next = policy.decideOnClose();
        QVERIFY(next.keepServing);
        QVERIFY(!next.showNotice);
    }

    // Also across restarts: the notice is remembered in the settings.
    auto reopened = settings();
    ClosePolicy later(reopened.get(), [] { return true; });
    QVERIFY(!later.decideOnClose().showNotice);
}

void tst_ClosePolicy::noNoticeWhenClosingQuits()
{
    auto store = settings();
    bool tray = false;
    ClosePolicy policy(store.get(), [&tray] { return tray; });
    const ClosePolicy::Decision quit = policy.decideOnClose();
    QVERIFY(!quit.keepServing);
    QVERIFY(!quit.showNotice);

    // The notice was not used up: the first close that does hide still gives it.
    tray = true;
    QVERIFY(policy.decideOnClose().showNotice);
}

void tst_ClosePolicy::choiceSurvivesRestart()
{
    {
        auto store = settings();
        ClosePolicy policy(store.get(), [] { return true; });
        policy.setKeepServingInTray(false);
    }
    auto store = settings();
    ClosePolicy policy(store.get(), [] { return true; });
    QVERIFY(!policy.keepServingInTray());
    QVERIFY(!policy.decideOnClose().keepServing);
}

void tst_ClosePolicy::trayAskedAtEachClose()
{
    auto store = settings();
    int asked = 0;
    ClosePolicy policy(store.get(), [&asked] {
        ++asked;
        return true;
    });
    policy.decideOnClose();
    const int afterFirst = asked;
    QVERIFY(afterFirst > 0);
    policy.decideOnClose();
    QVERIFY(asked > afterFirst);
}

QTEST_GUILESS_MAIN(tst_ClosePolicy)
#include "tst_closepolicy.moc"
