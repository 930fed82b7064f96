// Edit → Preferences: the tray preference and start at login, shown as they are and applied on
// OK; without a tray the tray option is disabled and says why; an entry that cannot be written
// keeps the dialog open with the reason.

#include "tests/support/tempservice.h"
#include "ui/autostart.h"
#include "ui/closepolicy.h"
#include "ui/settingsdialog.h"

#include <QCheckBox>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QLabel>
#include <QSettings>
#include <QTemporaryDir>
#include <QTest>

using MemoryGraph::Ui::AutoStart;
using MemoryGraph::Ui::ClosePolicy;
using MemoryGraph::Ui::SettingsDialog;

class tst_SettingsDialog : public QObject
{
    Q_OBJECT

private slots:
    void init();
    void cleanup();
    void showsCurrentChoices();
    void okAppliesBoth();
    void cancelChangesNothing();
    void withoutTrayOptionIsDisabled();
    void unwritableEntryKeepsDialogOpen();
    void screenshot();

private:
    std::unique_ptr<QTemporaryDir> m_dir;
    std::unique_ptr<QSettings> m_settings;
    QString m_entryPath;
};

void tst_SettingsDialog::init()
{
    m_dir = std::make_unique<QTemporaryDir>();
    QVERIFY(m_dir->isValid());
    m_settings = std::make_unique<QSettings>(m_dir->filePath(QStringLiteral("settings.ini")),
                                             QSettings::IniFormat);
    QVERIFY(QDir(m_dir->path()).mkdir(QStringLiteral("config")));
    qputenv("XDG_CONFIG_HOME", QFile::encodeName(m_dir->filePath(QStringLiteral("config"))));
    m_entryPath = m_dir->filePath(QStringLiteral("config/autostart/memorygraph.desktop"));
}

void tst_SettingsDialog::cleanup()
{
    qunsetenv("XDG_CONFIG_HOME");
    m_settings.reset();
    m_dir.reset();
}

void tst_SettingsDialog::showsCurrentChoices()
{
#if !defined(Q_OS_LINUX)
    QSKIP("the start-at-login entry checked here is the Linux one");
#endif
    ClosePolicy policy(m_settings.get(), [] { return true; });
    AutoStart autoStart(QStringLiteral("/opt/mg/memorygraph"));
    {
        SettingsDialog dialog(&policy, &autoStart);
        QVERIFY(dialog.keepServingBox()->isEnabled());
        QVERIFY(dialog.keepServingBox()->isChecked()); // the default with a tray
        QVERIFY(!dialog.startAtLoginBox()->isChecked());
    }
    policy.setKeepServingInTray(false);
    QVERIFY(autoStart.setEnabled(true));
    SettingsDialog dialog(&policy, &autoStart);
    QVERIFY(!dialog.keepServingBox()->isChecked());
    QVERIFY(dialog.startAtLoginBox()->isChecked());
}

void tst_SettingsDialog::okAppliesBoth()
{
#if !defined(Q_OS_LINUX)
    QSKIP("the start-at-login entry checked here is the Linux one");
#endif
    ClosePolicy policy(m_settings.get(), [] { return true; });
    AutoStart autoStart(QStringLiteral("/opt/mg/memorygraph"));
    SettingsDialog dialog(&policy, &autoStart);
    dialog.show();
    dialog.activateWindow();
    QVERIFY(QTest::qWaitForWindowActive(&dialog));

    // Both reachable by their mnemonics (a mnemonic clicks after a short animation).
    QTest::keyClick(&dialog, Qt::Key_K, Qt::AltModifier);
    QTRY_VERIFY(!dialog.keepServingBox()->isChecked());
    QTest::keyClick(&dialog, Qt::Key_S, Qt::AltModifier);
    QTRY_VERIFY(dialog.startAtLoginBox()->isChecked());

    dialog.accept();
    QCOMPARE(dialog.result(), int(QDialog::Accepted));
    QVERIFY(!policy.keepServingInTray());
    QVERIFY(QFileInfo::exists(m_entryPath));
    QVERIFY(dialog.errorText().isEmpty());

    // And back.
    SettingsDialog again(&policy, &autoStart);
    again.keepServingBox()->setChecked(true);
    again.startAtLoginBox()->setChecked(false);
    again.accept();
    QVERIFY(policy.keepServingInTray());
    QVERIFY(!QFileInfo::exists(m_entryPath));
}

void tst_SettingsDialog::cancelChangesNothing()
{
    ClosePolicy policy(m_settings.get(), [] { return true; });
    AutoStart autoStart(QStringLiteral("/opt/mg/memorygraph"));
    SettingsDialog dialog(&policy, &autoStart);
    dialog.keepServingBox()->setChecked(false);
    dialog.startAtLoginBox()->setChecked(true);
    dialog.reject();
    QVERIFY(policy.keepServingInTray());
    QVERIFY(!autoStart.isEnabled());
    QVERIFY(m_settings->allKeys().isEmpty());
}

void tst_SettingsDialog::withoutTrayOptionIsDisabled()
{
    ClosePolicy policy(m_settings.get(), [] { return false; });
    AutoStart autoStart(QStringLiteral("/opt/mg/memorygraph"));
    SettingsDialog dialog(&policy, &autoStart);
    QVERIFY(!dialog.keepServingBox()->isEnabled());
    QVERIFY(!dialog.keepServingBox()->isChecked());
    bool explained = false;
    for (const QLabel *label : dialog.findChildren<QLabel *>())
        explained = explained || label->text().contains(QStringLiteral("no system tray"));
    QVERIFY(explained);
    dialog.accept();
    QVERIFY(m_settings->allKeys().isEmpty()); // the default still follows the desktop
}

void tst_SettingsDialog::unwritableEntryKeepsDialogOpen()
{
#if !defined(Q_OS_LINUX)
    QSKIP("the start-at-login entry checked here is the Linux one");
#endif
    QFile blocker(m_dir->filePath(QStringLiteral("config/autostart")));
    QVERIFY(blocker.open(QIODevice::WriteOnly));
    blocker.close();
    ClosePolicy policy(m_settings.get(), [] { return true; });
    AutoStart autoStart(QStringLiteral("/opt/mg/memorygraph"));
    SettingsDialog dialog(&policy, &autoStart);
    dialog.show();
    dialog.startAtLoginBox()->setChecked(true);
    dialog.accept();
    QVERIFY(dialog.isVisible());
    QVERIFY2(dialog.errorText().contains(m_dir->filePath(QStringLiteral("config/autostart"))),
             qPrintable(dialog.errorText()));
}

void tst_SettingsDialog::screenshot()
{
    ClosePolicy policy(m_settings.get(), [] { return true; });
    AutoStart autoStart(QStringLiteral("/opt/mg/memorygraph"));
    SettingsDialog dialog(&policy, &autoStart);
    dialog.show();
    QVERIFY(QTest::qWaitForWindowExposed(&dialog));
    const QString path
        = QDir(MemoryGraph::Test::testOutputDir()).filePath(QStringLiteral("settings-dialog.png"));
    QVERIFY(dialog.grab().save(path));
    qInfo("screenshot: %s", qUtf8Printable(path));
}

QTEST_MAIN(tst_SettingsDialog)
#include "tst_settingsdialog.moc"
