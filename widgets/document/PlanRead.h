// Reading a plan file on a thread of its own while this thread's event loop runs, so that a slow or stalled file
// system never freezes a window: the read reports its progress (io/ReadControl.h) and can be cancelled at once; a
// read the file system never finishes is left on its thread and its result dropped.
#pragma once

#include "io/ReadControl.h"

#include <QString>
#include <atomic>
#include <functional>
#include <memory>
#include <optional>

class QEventLoop;

namespace planscope {

// Shared by the reading thread and the waiting one: the thread writes `result`, then sets `finished`; the waiting
// thread reads `result` only after seeing `finished`. `loop` is the wait (waiting thread only).
struct PlanRead {
    ReadControl control;
    std::atomic<bool> finished { false };
    std::optional<Result<LoadedPlan>> result;
    QEventLoop* loop = nullptr;

    // Ends the wait at once (from the waiting thread: a button, a newer read).
    void cancel();
    bool cancelled() const { return control.cancel.load(); }
};

// Starts reading `path` on a new thread and runs an event loop until it ends or is cancelled, calling `progress`
// every 15 ms meanwhile. True when the read finished and was not cancelled: `read->result` holds it.
bool readPlanWaiting(const std::shared_ptr<PlanRead>& read, const QString& path, const std::function<void()>& progress = {});

} // namespace planscope
