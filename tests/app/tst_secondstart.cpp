// One window per data folder, as real processes: a second start of the window hands over to the
// running one (which comes to the front and says so on stderr) and exits 0; against a headless
// owner, which has no window, it is refused with status 4 as before; a socket left behind by a
// killed owner does not stop the next owner from taking the hand-over.

#include <QDir>
#include <QElapsedTimer>
#include <QProcess>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTest>

namespace {

const QString kBinary = QStringLiteral(MEMORYGRAPH_APP_BINARY);
constexpr int kTimeoutMs = 30000;
const QByteArray kActivatedLine = QByteArrayLiteral("window activated by a second start");

QString s(const char *text)
{
    return QString::fromUtf8(text);
}

/// A child environment: settings and autostart under `config`, and either the offscreen window
/// platform or no display at all (headless).
QProcessEnvironment environment(const QString &config, bool window)
{
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.remove(s("DISPLAY"));
    env.remove(s("WAYLAND_DISPLAY"));
    env.remove(s("QT_QPA_PLATFORM"));
    if (window)
        env.insert(s("QT_QPA_PLATFORM"), s("offscreen"));
    env.insert(s("XDG_CONFIG_HOME"), config);
    env.insert(s("EMBEDDING_PROVIDER"), s("local"));
    return env;
}

/// A running memorygraph on an ephemeral port, its URL read from stdout.
class Instance
{
public:
    Instance(const QString &dataDir, const QProcessEnvironment &env, const QStringList &extra = {})
    {
        m_process.setProcessEnvironment(env);
        m_process.start(kBinary,
                        QStringList{s("--port"), s("0"), s("--data-dir"), dataDir} + extra);
        static const QRegularExpression listening(s("listening on (http://[^ ]+)"));
        QElapsedTimer timer;
        timer.start();
        while (url.isEmpty() && timer.elapsed() < kTimeoutMs
               && m_process.state() != QProcess::NotRunning) {
            m_process.waitForReadyRead(200);
            m_stdout += m_process.readAllStandardOutput();
            const auto match = listening.match(QString::fromUtf8(m_stdout));
            if (match.hasMatch())
                url = match.captured(1);
        }
    }

    ~Instance()
    {
        if (m_process.state() != QProcess::NotRunning) {
            m_process.kill();
            m_process.waitForFinished(kTimeoutMs);
        }
    }

    qint64 pid() const { return m_process.processId(); }

    QByteArray log()
    {
        m_stderr += m_process.readAllStandardError();
        return m_stderr;
    }

    /// Waits until stderr holds `text`.
    bool waitForLog(const QByteArray &text)
    {
        QElapsedTimer timer;
        timer.start();
        while (!log().contains(text) && timer.elapsed() < kTimeoutMs
               && m_process.state() == QProcess::Running)
            m_process.waitForReadyRead(200);
        return log().contains(text);
    }

    /// SIGTERM, as Ctrl+C or a session end would stop it; returns the exit status.
    int stop()
    {
        m_process.terminate();
        if (!m_process.waitForFinished(kTimeoutMs))
            m_process.kill();
        return m_process.exitCode();
    }

    /// Dies without cleaning up (lock and socket left behind).
    void crash()
    {
        m_process.kill();
        m_process.waitForFinished(kTimeoutMs);
    }

    QString url;

private:
    QProcess m_process;
    QByteArray m_stdout;
    QByteArray m_stderr;
};

struct Finished
{
    int exitCode = -1;
    QByteArray out;
    QByteArray err;
};

Finished runToEnd(const QString &dataDir, const QProcessEnvironment &env,
                  const QStringList &extra = {})
{
    QProcess process;
    process.setProcessEnvironment(env);
    process.start(kBinary, QStringList{s("--port"), s("0"), s("--data-dir"), dataDir} + extra);
    Finished result;
    if (!process.waitForFinished(kTimeoutMs)) {
        process.kill();
        process.waitForFinished(kTimeoutMs);
        return result;
    }
    result.exitCode = process.exitCode();
    result.out = process.readAllStandardOutput();
    result.err = process.readAllStandardError();
    return result;
}

} // namespace

class TestSecondStart : public QObject
{
    Q_OBJECT

private slots:
    void init();
    void secondWindowBringsFirstToFront();
    void secondWindowAgainstHeadlessIsRefused();
    void headlessAgainstWindowIsRefused();
    void staleSocketOfKilledOwnerIsReplaced();
    void helpListsMinimized();

private:
    std::unique_ptr<QTemporaryDir> m_config;
};

void TestSecondStart::init()
{
    m_config = std::make_unique<QTemporaryDir>();
    QVERIFY(m_config->isValid());
}

void TestSecondStart::secondWindowBringsFirstToFront()
{
    QTemporaryDir data;
    const QString folder = QDir(data.path()).canonicalPath();
    const QProcessEnvironment env = environment(m_config->path(), true);
    Instance first(data.path(), env);
    QVERIFY2(!first.url.isEmpty(), first.log().constData());
    QVERIFY(!first.log().contains(kActivatedLine));

    const Finished second = runToEnd(data.path(), env);
    QVERIFY2(second.exitCode == 0, second.err.constData());
    const QString expected = s("Memory Graph is already running for %1 (pid %2); brought its "
                               "window to the front")
                                 .arg(QDir::toNativeSeparators(folder))
                                 .arg(first.pid());
    QVERIFY2(QString::fromUtf8(second.out).contains(expected), second.out.constData());
    // The second start opened nothing: no listener of its own.
    QVERIFY(!second.out.contains("listening on"));

    // The owner heard it and brought its window forward.
    QVERIFY2(first.waitForLog(kActivatedLine), first.log().constData());

    // And it hands over every time, not once.
    QCOMPARE(runToEnd(data.path(), env).exitCode, 0);
    QTRY_COMPARE_WITH_TIMEOUT(first.log().count(kActivatedLine), 2, kTimeoutMs);
    QCOMPARE(first.stop(), 0);
}

void TestSecondStart::secondWindowAgainstHeadlessIsRefused()
{
    QTemporaryDir data;
    Instance owner(data.path(), environment(m_config->path(), false), {s("--headless")});
    QVERIFY2(!owner.url.isEmpty(), owner.log().constData());

    const Finished second = runToEnd(data.path(), environment(m_config->path(), true));
    QCOMPARE(second.exitCode, 4);
    QVERIFY2(second.err.contains("in use") && second.err.contains(owner.url.toUtf8())
                 && second.err.contains("pid " + QByteArray::number(owner.pid()))
                 && second.err.contains("no window to bring to the front"),
             second.err.constData());
    QVERIFY(second.out.isEmpty());
    QCOMPARE(owner.stop(), 0);
}

void TestSecondStart::headlessAgainstWindowIsRefused()
{
    QTemporaryDir data;
    Instance owner(data.path(), environment(m_config->path(), true));
    QVERIFY2(!owner.url.isEmpty(), owner.log().constData());

    // A headless start wants to serve, not to show a window: still refused.
    const Finished second
        = runToEnd(data.path(), environment(m_config->path(), false), {s("--headless")});
    QCOMPARE(second.exitCode, 4);
    QVERIFY2(second.err.contains("window") && second.err.contains(owner.url.toUtf8()),
             second.err.constData());
    QVERIFY(!owner.log().contains(kActivatedLine));
    QCOMPARE(owner.stop(), 0);
}

void TestSecondStart::staleSocketOfKilledOwnerIsReplaced()
{
    QTemporaryDir data;
    const QProcessEnvironment env = environment(m_config->path(), true);
    {
        Instance crashed(data.path(), env);
        QVERIFY2(!crashed.url.isEmpty(), crashed.log().constData());
        crashed.crash(); // its socket and lock stay behind
    }
    Instance owner(data.path(), env);
    QVERIFY2(!owner.url.isEmpty(), owner.log().constData());
    QVERIFY2(!owner.log().contains("cannot reach this window"), owner.log().constData());

    const Finished second = runToEnd(data.path(), env);
    QVERIFY2(second.exitCode == 0, second.err.constData());
    QVERIFY2(owner.waitForLog(kActivatedLine), owner.log().constData());
    QCOMPARE(owner.stop(), 0);
}

void TestSecondStart::helpListsMinimized()
{
    QProcess help;
    help.start(kBinary, {s("--help")});
    QVERIFY(help.waitForFinished(kTimeoutMs));
    QCOMPARE(help.exitCode(), 0);
    const QByteArray text = help.readAllStandardOutput();
    QVERIFY2(text.contains("--minimized") && text.contains("tray"), text.constData());
}

QTEST_GUILESS_MAIN(TestSecondStart)
#include "tst_secondstart.moc"
