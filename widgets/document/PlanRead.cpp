#include "document/PlanRead.h"

#include <QEventLoop>
#include <QFile>
#include <QTimer>
#include <thread>

namespace planscope {

void PlanRead::cancel()
{
    control.cancel.store(true);
    if (loop) loop->quit();
}

bool readPlanWaiting(const std::shared_ptr<PlanRead>& read, const QString& path, const std::function<void()>& progress)
{
    std::thread([read, file = std::string(QFile::encodeName(path).toStdString())] {
        Result<LoadedPlan> loaded = loadPlanFile(file, read->control);
        read->result.emplace(std::move(loaded));
        read->finished.store(true, std::memory_order_release);
    }).detach();
    QEventLoop loop;
    QTimer poll;
    poll.setInterval(15);
    QObject::connect(&poll, &QTimer::timeout, &loop, [&loop, &read, &progress] {
        if (read->finished.load(std::memory_order_acquire) || read->cancelled()) {
            loop.quit();
            return;
        }
        if (progress) progress();
    });
    poll.start();
    read->loop = &loop;
    // Entered even when the thread is already done: what was posted before (a Cancel) is seen in one place.
    loop.exec();
    read->loop = nullptr;
    return read->finished.load(std::memory_order_acquire) && !read->cancelled();
}

} // namespace planscope
