// "Start at login": the XDG autostart entry written and removed under $XDG_CONFIG_HOME (on
// Linux), and the entry formats of every platform (desktop entry Exec quoting, launchd property
// list, Windows Run command line), which are pure text and checked everywhere.

#include "ui/autostart.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QProcess>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

using MemoryGraph::Ui::AutoStart;

class tst_AutoStart : public QObject
{
    Q_OBJECT

private slots:
    void startArgumentsBeginWithMinimized();
    void desktopEntryNamesProgramAndArguments();
    void desktopExecArgumentQuoting_data();
    void desktopExecArgumentQuoting();
    void launchAgentEscapesArguments();
    void windowsCommandLineQuoting_data();
    void windowsCommandLineQuoting();
    void linuxEntryWrittenAndRemoved();
    void linuxEntryFollowsXdgConfigHome();
};

void tst_AutoStart::startArgumentsBeginWithMinimized()
{
    const AutoStart autoStart(QStringLiteral("/usr/bin/memorygraph"),
                              {QStringLiteral("--data-dir"), QStringLiteral("/srv/mem")});
    QCOMPARE(autoStart.startArguments(),
             QStringList({QStringLiteral("--minimized"), QStringLiteral("--data-dir"),
                          QStringLiteral("/srv/mem")}));
}

void tst_AutoStart::desktopEntryNamesProgramAndArguments()
{
    const QString entry = AutoStart::desktopEntry(QStringLiteral("/opt/Memory Graph/memorygraph"),
                                                  {QStringLiteral("--minimized")});
    const QStringList lines = entry.split(QLatin1Char('\n'), Qt::SkipEmptyParts);
    QCOMPARE(lines.value(0), QStringLiteral("[Desktop Entry]"));
    QVERIFY(lines.contains(QStringLiteral("Type=Application")));
    QVERIFY(lines.contains(QStringLiteral("Name=Memory Graph")));
    QVERIFY(lines.contains(QStringLiteral("Icon=memorygraph")));
    QVERIFY(lines.contains(QStringLiteral("Terminal=false")));
    QVERIFY2(lines.contains(QStringLiteral("Exec=\"/opt/Memory Graph/memorygraph\" --minimized")),
             qPrintable(entry));
}

void tst_AutoStart::desktopExecArgumentQuoting_data()
{
    QTest::addColumn<QString>("argument");
    QTest::addColumn<QString>("written");
    QTest::newRow("plain") << QStringLiteral("/usr/bin/memorygraph")
                           << QStringLiteral("/usr/bin/memorygraph");
    QTest::newRow("space") << QStringLiteral("/home/a b/mg") << QStringLiteral("\"/home/a b/mg\"");
    QTest::newRow("empty") << QString() << QStringLiteral("\"\"");
    // Exec quoting puts a backslash before " ` $ \, then the string escape doubles backslashes.
    QTest::newRow("dollar") << QStringLiteral("/x/$HOME") << QStringLiteral("\"/x/\\\\$HOME\"");
    QTest::newRow("quote") << QStringLiteral("a\"b") << QStringLiteral("\"a\\\\\"b\"");
    QTest::newRow("backslash") << QStringLiteral("C:\\mg") << QStringLiteral("\"C:\\\\\\\\mg\"");
    QTest::newRow("percent") << QStringLiteral("/data/100%") << QStringLiteral("/data/100%%");
}

void tst_AutoStart::desktopExecArgumentQuoting()
{
    QFETCH(QString, argument);
    QFETCH(QString, written);
    QCOMPARE(AutoStart::desktopExecArgument(argument), written);
}

void tst_AutoStart::launchAgentEscapesArguments()
{
    const QString plist
        = AutoStart::launchAgentPlist(QStringLiteral("/Applications/Memory Graph.app/mg"),
                                      {QStringLiteral("--minimized"), QStringLiteral("a<&>b")});
    QVERIFY(plist.startsWith(QStringLiteral("<?xml")));
    QVERIFY(plist.contains(QStringLiteral("<string>org.memorygraph.MemoryGraph</string>")));
    QVERIFY(plist.contains(QStringLiteral("<string>/Applications/Memory Graph.app/mg</string>")));
    QVERIFY(plist.contains(QStringLiteral("<string>--minimized</string>")));
    QVERIFY(plist.contains(QStringLiteral("<string>a&lt;&amp;&gt;b</string>")));
    QVERIFY(plist.contains(QStringLiteral("<key>RunAtLoad</key>\n    <true/>")));
}

void tst_AutoStart::windowsCommandLineQuoting_data()
{
    QTest::addColumn<QStringList>("arguments");
    QTest::addColumn<QString>("written");
    QTest::newRow("plain") << QStringList{QStringLiteral("--minimized")}
                           << QStringLiteral("\"C:/Program Files/mg.exe\" --minimized");
    QTest::newRow("spaces") << QStringList{QStringLiteral("--data-dir"),
                                           QStringLiteral("D:\\my data")}
                            << QStringLiteral(
                                   "\"C:/Program Files/mg.exe\" --data-dir \"D:\\my data\"");
    // A trailing backslash would escape the closing quote: it is doubled.
    QTest::newRow("trailing backslash")
        << QStringList{QStringLiteral("D:\\my data\\")}
        << QStringLiteral("\"C:/Program Files/mg.exe\" \"D:\\my data\\\\\"");
    QTest::newRow("quote") << QStringList{QStringLiteral("a\"b")}
                           << QStringLiteral("\"C:/Program Files/mg.exe\" \"a\\\"b\"");
}

void tst_AutoStart::windowsCommandLineQuoting()
{
    QFETCH(QStringList, arguments);
    QFETCH(QString, written);
    QString expected = written;
    // The program is written with the platform's separators.
    expected.replace(QStringLiteral("C:/Program Files/mg.exe"),
                     QDir::toNativeSeparators(QStringLiteral("C:/Program Files/mg.exe")));
    QCOMPARE(AutoStart::windowsCommandLine(QStringLiteral("C:/Program Files/mg.exe"), arguments),
             expected);
}

void tst_AutoStart::linuxEntryWrittenAndRemoved()
{
#if defined(Q_OS_LINUX)
    QTemporaryDir config;
    QVERIFY(config.isValid());
    qputenv("XDG_CONFIG_HOME", QFile::encodeName(config.path()));
    const QString entryPath = config.filePath(QStringLiteral("autostart/memorygraph.desktop"));

    AutoStart autoStart(QStringLiteral("/opt/mg/memorygraph"),
                        {QStringLiteral("--data-dir"), QStringLiteral("/home/me/my memories")});
    QVERIFY(!autoStart.isEnabled());
    QCOMPARE(autoStart.location(), entryPath);

    QString why;
    QVERIFY2(autoStart.setEnabled(true, &why), qPrintable(why));
    QVERIFY(autoStart.isEnabled());
    QFile file(entryPath);
    QVERIFY(file.open(QIODevice::ReadOnly));
    const QString content = QString::fromUtf8(file.readAll());
    QCOMPARE(content, AutoStart::desktopEntry(QStringLiteral("/opt/mg/memorygraph"),
                                              autoStart.startArguments()));
    QVERIFY2(content.contains(QStringLiteral("\nExec=/opt/mg/memorygraph --minimized --data-dir "
                                             "\"/home/me/my memories\"\n")),
             qPrintable(content));
    // Where the desktop-file tools are installed, the entry must pass their validator.
    const QString validator
        = QStandardPaths::findExecutable(QStringLiteral("desktop-file-validate"));
    if (!validator.isEmpty()) {
        QProcess validate;
        validate.start(validator, {entryPath});
        QVERIFY(validate.waitForFinished(30000));
        QVERIFY2(validate.exitCode() == 0, validate.readAll().constData());
    }
    // It names the data folder: owner-only.
    QCOMPARE(QFileInfo(entryPath).permissions()
                 & (QFile::ReadGroup | QFile::ReadOther | QFile::WriteGroup | QFile::WriteOther),
             QFile::Permissions());

    // Enabling again rewrites; disabling removes; disabling twice is fine.
    QVERIFY(autoStart.setEnabled(true, &why));
    QVERIFY(autoStart.setEnabled(false, &why));
    QVERIFY(!QFileInfo::exists(entryPath));
    QVERIFY(!autoStart.isEnabled());
    QVERIFY(autoStart.setEnabled(false, &why));
    qunsetenv("XDG_CONFIG_HOME");
#else
    QSKIP("the XDG autostart entry is the Linux mechanism");
#endif
}

void tst_AutoStart::linuxEntryFollowsXdgConfigHome()
{
#if defined(Q_OS_LINUX)
    QTemporaryDir home;
    QVERIFY(home.isValid());
    const QByteArray oldHome = qgetenv("HOME");
    qputenv("HOME", QFile::encodeName(home.path()));
    qunsetenv("XDG_CONFIG_HOME");
    AutoStart autoStart(QStringLiteral("/opt/mg/memorygraph"));
    QCOMPARE(autoStart.location(), home.filePath(QStringLiteral(".config/autostart/"
                                                                "memorygraph.desktop")));

    // A file where the autostart folder belongs: the failure says where.
    QTemporaryDir config;
    QVERIFY(config.isValid());
    QFile blocker(config.filePath(QStringLiteral("autostart")));
    QVERIFY(blocker.open(QIODevice::WriteOnly));
    blocker.close();
    qputenv("XDG_CONFIG_HOME", QFile::encodeName(config.path()));
    QString why;
    QVERIFY(!autoStart.setEnabled(true, &why));
    QVERIFY2(why.contains(config.filePath(QStringLiteral("autostart"))), qPrintable(why));
    QVERIFY(!autoStart.isEnabled());
    qputenv("HOME", oldHome);
    qunsetenv("XDG_CONFIG_HOME");
#else
    QSKIP("the XDG autostart entry is the Linux mechanism");
#endif
}

QTEST_GUILESS_MAIN(tst_AutoStart)
#include "tst_autostart.moc"
