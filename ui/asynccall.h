#pragma once

#include <QFutureWatcher>
#include <QObject>
#include <QThreadPool>
#include <QtConcurrent/QtConcurrentRun>

#include <type_traits>
#include <utility>

namespace MemoryGraph::Ui {

/// Runs `work` on `pool` and calls `done(result)` on `context`'s thread when it finishes.
/// The watcher is parented to `context`, so a context destroyed first simply never gets the
/// callback. Deliberately avoids QFuture::then(), which crashes intermittently on Qt 6.4.2.
/// The owner of `pool` must wait for it (QThreadPool's destructor does) before the objects
/// that `work` touches go away.
template<typename Work, typename Done>
void runAsync(QObject *context, QThreadPool *pool, Work work, Done done)
{
    using ResultType = std::invoke_result_t<Work>;
    auto *watcher = new QFutureWatcher<ResultType>(context);
    QObject::connect(watcher, &QFutureWatcher<ResultType>::finished, context,
                     [watcher, done = std::move(done)]() {
                         done(watcher->result());
                         watcher->deleteLater();
                     });
    watcher->setFuture(QtConcurrent::run(pool, std::move(work)));
}

} // namespace MemoryGraph::Ui
