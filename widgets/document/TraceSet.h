// The measured side of the app: Kineto traces (one file per rank, or a folder of them) imported off the GUI
// thread with progress and cancel, published as one immutable set, and the overlay of that set on the open plan's
// analysis (its simulated timeline), rebuilt when either side changes.
#pragma once

#include "trace/KinetoImport.h"
#include "trace/Overlay.h"
#include "trace/TraceFiles.h"

#include <QFutureWatcher>
#include <QObject>
#include <QPointer>
#include <QStringList>
#include <atomic>
#include <memory>
#include <vector>

namespace planscope {

class PlanDocument;

class TraceSet : public QObject {
    Q_OBJECT
public:
    explicit TraceSet(QObject* parent = nullptr);
    ~TraceSet() override;

    void setDocument(PlanDocument* document);

    // Imports the files (folders expand to their *.json and *.json.gz files; core's importTraces, as
    // planscope-cli import) in the background, replacing the current set when done. A running import is
    // cancelled first.
    // Of files from several jobs, the one with the most ranks is kept (core's importTraces); `job` (an index into
    // TraceImport::jobs of the same paths) keeps another.
    void importPaths(const QStringList& paths, int job = -1);
    // Imports the last paths again keeping the job at `index` of TraceImport::jobs.
    void setJob(int index);
    void cancel();
    void clear();
    bool isImporting() const { return m_watcher.isRunning(); }
    // Blocks until the running import (if any) is published; for the command line's --screenshot and tests.
    void waitForImport();

    std::shared_ptr<const TraceImport> traces() const { return m_traces; }
    // Null without traces; without a simulated timeline for the open plan, its predicted side is empty.
    std::shared_ptr<const Overlay> overlay() const { return m_overlay; }
    // Which ProfilerStep the overlay aligns (-1: the median-length one).
    void setStep(int step);
    int step() const { return m_step; }
    QString statusText() const { return m_status; }


Q_SIGNALS:
    void importStarted();
    void progress(double fraction); // 0..1 over all files' bytes
    void tracesChanged();
    void overlayChanged();

private:
    void published();
    void rebuildOverlay();

    QPointer<PlanDocument> m_document;
    QStringList m_paths; // of the last import
    QFutureWatcher<std::shared_ptr<TraceImport>> m_watcher;
    std::shared_ptr<std::atomic<bool>> m_cancel;
    std::shared_ptr<const TraceImport> m_traces;
    std::shared_ptr<const Overlay> m_overlay;
    int m_step = -1;
    QString m_status;
};

} // namespace planscope
