#pragma once

#include <QFutureWatcher>
#include <QObject>
#include <QThreadPool>
#include <QtConcurrent/QtConcurrentRun>

#include <type_traits>
#include <utility>

namespace MemoryGraph::Ui {

/// The one place the console's background calls run. Reads share a small pool (loads may
/// overlap; each page drops outdated answers by generation). Changes the operator asks for
/// (node actions, rule saves, sample loads, maintenance jobs) run one at a time on their own
/// lane, so they land in the order asked and never queue behind a slow read.
///
/// Ownership: the window owns the executor. Its destructor waits for every call, so it must be
/// destroyed before the service the calls use, and the pages should go first (a page destroyed
/// with a call in flight simply never gets the answer: see run()).
class UiExecutor
{
public:
    enum class Lane { Reads, Changes };

    UiExecutor();
    ~UiExecutor();
    UiExecutor(const UiExecutor &) = delete;
    UiExecutor &operator=(const UiExecutor &) = delete;

    /// Runs `work` on the lane's pool and calls `done(result)` on `context`'s thread when it
    /// finishes. The watcher is a child of `context`, so a context destroyed first never gets
    /// the callback. `work` must not touch `context`: capture what it needs by value.
    /// Deliberately avoids QFuture::then(), which crashes intermittently on Qt 6.4.2.
    template<typename Work, typename Done>
    void run(QObject *context, Work work, Done done, Lane lane = Lane::Reads)
    {
        using ResultType = std::invoke_result_t<Work>;
        auto *watcher = new QFutureWatcher<ResultType>(context);
        QObject::connect(watcher, &QFutureWatcher<ResultType>::finished, context,
                         [watcher, done = std::move(done)]() {
                             done(watcher->result());
                             watcher->deleteLater();
                         });
        watcher->setFuture(QtConcurrent::run(pool(lane), std::move(work)));
    }

    /// Blocks until every call started so far has finished (both lanes).
    void waitForDone();
    int maxReadThreads() const;

private:
    QThreadPool *pool(Lane lane) { return lane == Lane::Changes ? &m_changes : &m_reads; }

    QThreadPool m_reads;
    QThreadPool m_changes;
};

} // namespace MemoryGraph::Ui
