// Work on Qt's global thread pool, its result handed back on the GUI thread to an object that may be gone by then.
// QFuture::then(context, ...) asserts (in Qt 6.4 debug builds) when the context is destroyed before the work ends,
// and a release build then hands the continuation to no thread; a QFutureWatcher that is the context's child dies
// with it, so a late result finds nobody and is dropped.
#pragma once

#include <QFuture>
#include <QFutureWatcher>
#include <QObject>
#include <QtConcurrent/QtConcurrentRun>
#include <type_traits>
#include <utility>

namespace planscope {

// Runs `work()` on the pool; when it has finished, calls `done(QFuture<R>)` on `context`'s thread unless `context`
// was destroyed first. `done` reads the result with future.result(), which rethrows what `work` threw.
template<typename Work, typename Done>
void runThen(QObject* context, Work&& work, Done&& done)
{
    using R = std::invoke_result_t<std::decay_t<Work>>;
    auto* watcher = new QFutureWatcher<R>(context);
    QObject::connect(watcher, &QFutureWatcherBase::finished, context,
        [watcher, done = std::forward<Done>(done)]() mutable {
            QFuture<R> future = watcher->future();
            watcher->deleteLater();
            done(future);
        });
    watcher->setFuture(QtConcurrent::run(std::forward<Work>(work)));
}

} // namespace planscope
