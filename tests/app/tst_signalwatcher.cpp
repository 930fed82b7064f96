// SignalWatcher turns a request to terminate (SIGINT/SIGTERM on Unix, console control events on
// Windows) into a Qt signal on the owning thread, once; the next request gets the default
// handling, so a second Ctrl+C ends a stuck shutdown.

#include "app/signalwatcher.h"

#include <QSignalSpy>
#include <QTest>

#include <memory>

#ifdef Q_OS_UNIX
#include <csignal>
#endif

using namespace MemoryGraph;

namespace {

#ifdef Q_OS_UNIX
bool hasDefaultHandler(int signalNumber)
{
    struct sigaction current = {};
    ::sigaction(signalNumber, nullptr, &current);
    return current.sa_handler == SIG_DFL;
}
#endif

} // namespace

class TestSignalWatcher : public QObject
{
    Q_OBJECT
private slots:
    void oneWatcherAtATime();
    void terminationArrivesOnTheEventLoopOnce();
    void names();
};

void TestSignalWatcher::oneWatcherAtATime()
{
    auto first = std::make_unique<SignalWatcher>();
    QVERIFY(first->watchTermination());
    QVERIFY(!first->watchTermination());

    SignalWatcher second;
    QVERIFY(!second.watchTermination());

    first.reset(); // gives the handlers back
    QVERIFY(second.watchTermination());
}

void TestSignalWatcher::terminationArrivesOnTheEventLoopOnce()
{
#ifdef Q_OS_UNIX
    SignalWatcher watcher;
    QSignalSpy spy(&watcher, &SignalWatcher::terminationRequested);
    QVERIFY(watcher.watchTermination());
    QVERIFY(!hasDefaultHandler(SIGTERM));
    QVERIFY(!hasDefaultHandler(SIGINT));

    QCOMPARE(::raise(SIGTERM), 0);
    QCOMPARE(spy.count(), 0); // the handler only wrote to the self-pipe
    QTRY_COMPARE(spy.count(), 1);
    QCOMPARE(spy.at(0).at(0).toInt(), SIGTERM);

    // After the first request the defaults are back: a second SIGINT/SIGTERM would end the
    // process at once instead of queueing behind a stuck shutdown.
    QVERIFY(hasDefaultHandler(SIGTERM));
    QVERIFY(hasDefaultHandler(SIGINT));
#else
    // A console control event reaches every process on the console (the test runner too).
    QSKIP("console control events cannot be raised for this process alone");
#endif
}

void TestSignalWatcher::names()
{
#ifdef Q_OS_UNIX
    QCOMPARE(signalName(SIGINT), QStringLiteral("SIGINT"));
    QCOMPARE(signalName(SIGTERM), QStringLiteral("SIGTERM"));
#else
    QCOMPARE(signalName(0), QStringLiteral("Ctrl+C"));        // CTRL_C_EVENT
    QCOMPARE(signalName(2), QStringLiteral("console close")); // CTRL_CLOSE_EVENT
    QCOMPARE(signalName(6), QStringLiteral("shutdown"));      // CTRL_SHUTDOWN_EVENT
#endif
    QCOMPARE(signalName(99), QStringLiteral("99"));
}

QTEST_GUILESS_MAIN(TestSignalWatcher)
#include "tst_signalwatcher.moc"
