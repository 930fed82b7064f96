#include "ui/uiexecutor.h"

#include <QMutex>
#include <QSemaphore>
#include <QTest>
#include <QThread>

#include <atomic>
#include <memory>

using MemoryGraph::Ui::UiExecutor;

namespace {

constexpr int kWaitMs = 5000;

} // namespace

/// The one executor the console's pages share: answers land on the GUI thread, late answers for
/// a destroyed page are dropped, changes keep their order, and shutdown waits for every call.
class tst_UiExecutor : public QObject
{
    Q_OBJECT

private slots:
    void answerArrivesOnTheContextThread();
    void lateAnswerForADestroyedContextIsDropped();
    void readsRunSideBySide();
    void changesRunInTheOrderAsked();
    void destructionWaitsForRunningCalls();
};

void tst_UiExecutor::answerArrivesOnTheContextThread()
{
    UiExecutor executor;
    QObject context;
    QThread *worker = nullptr;
    QThread *callback = nullptr;
    int answer = 0;
    executor.run(
        &context, []() { return std::make_pair(QThread::currentThread(), 42); },
        [&](const std::pair<QThread *, int> &result) {
            worker = result.first;
            answer = result.second;
            callback = QThread::currentThread();
        });
    QTRY_COMPARE_WITH_TIMEOUT(answer, 42, kWaitMs);
    QVERIFY(worker != QThread::currentThread());
    QCOMPARE(callback, QThread::currentThread());
}

void tst_UiExecutor::lateAnswerForADestroyedContextIsDropped()
{
    UiExecutor executor;
    QSemaphore mayFinish;
    std::atomic<bool> workFinished{false};
    bool answered = false;
    auto context = std::make_unique<QObject>();
    executor.run(
        context.get(),
        [&]() {
            mayFinish.acquire();
            workFinished = true;
            return 1;
        },
        [&](int) { answered = true; });

    context.reset(); // the page goes while its call is still running
    mayFinish.release();
    executor.waitForDone();
    QVERIFY(workFinished);
    QTest::qWait(50); // a queued answer would be delivered here
    QVERIFY(!answered);
}

void tst_UiExecutor::readsRunSideBySide()
{
    // Each read waits for the other: with one worker they would both time out.
    UiExecutor executor;
    QVERIFY(executor.maxReadThreads() >= 2);
    QObject context;
    QSemaphore first;
    QSemaphore second;
    int met = 0;
    executor.run(
        &context,
        [&]() {
            first.release();
            return second.tryAcquire(1, kWaitMs);
        },
        [&](bool ok) { met += ok ? 1 : 0; });
    executor.run(
        &context,
        [&]() {
            second.release();
            return first.tryAcquire(1, kWaitMs);
        },
        [&](bool ok) { met += ok ? 1 : 0; });
    QTRY_COMPARE_WITH_TIMEOUT(met, 2, 2 * kWaitMs);
}

void tst_UiExecutor::changesRunInTheOrderAsked()
{
    UiExecutor executor;
    QObject context;
    QMutex mutex;
    QVector<int> applied;
    int answers = 0;
    constexpr int Count = 12;
    for (int i = 0; i < Count; ++i) {
        executor.run(
            &context,
            [&, i]() {
                QThread::msleep((Count - i) % 3); // earlier calls take longer
                const QMutexLocker lock(&mutex);
                applied.append(i);
                return i;
            },
            [&](int) { ++answers; }, UiExecutor::Lane::Changes);
    }
    QTRY_COMPARE_WITH_TIMEOUT(answers, Count, kWaitMs);
    QVector<int> expected;
    for (int i = 0; i < Count; ++i)
        expected.append(i);
    QCOMPARE(applied, expected);
}

void tst_UiExecutor::destructionWaitsForRunningCalls()
{
    std::atomic<bool> finished{false};
    {
        auto executor = std::make_unique<UiExecutor>();
        QObject context;
        executor->run(
            &context,
            [&]() {
                QThread::msleep(100);
                finished = true;
                return 0;
            },
            [](int) {}, UiExecutor::Lane::Changes);
        executor.reset();
        QVERIFY(finished);
    }
}

QTEST_MAIN(tst_UiExecutor)
#include "tst_uiexecutor.moc"
