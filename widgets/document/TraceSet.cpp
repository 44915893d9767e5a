#include "document/TraceSet.h"

#include "document/PlanDocument.h"

#include <QFile>
#include <QMetaObject>
#include <QtConcurrent/QtConcurrentRun>

namespace planscope {

TraceSet::TraceSet(QObject* parent) : QObject(parent)
{
    connect(&m_watcher, &QFutureWatcher<std::shared_ptr<TraceImport>>::finished, this, &TraceSet::published);
}

TraceSet::~TraceSet()
{
    if (m_cancel) m_cancel->store(true);
    m_watcher.waitForFinished();
}

void TraceSet::setDocument(PlanDocument* document)
{
    if (m_document) disconnect(m_document, nullptr, this, nullptr);
    m_document = document;
    if (m_document) connect(m_document, &PlanDocument::predictionChanged, this, &TraceSet::rebuildOverlay);
    rebuildOverlay();
}

void TraceSet::importPaths(const QStringList& paths, int job)
{
    cancel();
    m_watcher.waitForFinished();
    std::vector<std::string> inputs;
    for (const QString& p : paths) inputs.push_back(QFile::encodeName(p).toStdString());
    auto cancelFlag = std::make_shared<std::atomic<bool>>(false);
    m_cancel = cancelFlag;
    std::vector<SkippedRegion> ignored;
    m_status = tr("Importing %n trace file(s)…", nullptr, int(expandTracePaths(inputs, ignored).size()));
    emit importStarted();

    QPointer<TraceSet> self(this);
    m_paths = paths;
    auto work = [inputs, cancelFlag, self, job]() {
        TraceSetControl control;
        control.job = job;
        control.cancel = cancelFlag.get();
        control.progress = [self](double fraction) {
            QMetaObject::invokeMethod(self.data(), [self, fraction] { if (self) emit self->progress(fraction); }, Qt::QueuedConnection);
        };
        return std::make_shared<TraceImport>(importTraces(inputs, control));
    };
    m_watcher.setFuture(QtConcurrent::run(work));
}

void TraceSet::setJob(int index)
{
    if (m_paths.isEmpty() || (m_traces && m_traces->job == index)) return;
    importPaths(m_paths, index);
}

void TraceSet::cancel()
{
    if (m_cancel) m_cancel->store(true);
}

void TraceSet::clear()
{
    cancel();
    m_watcher.waitForFinished();
    m_traces.reset();
    m_paths.clear();
    m_status.clear();
    emit tracesChanged();
    rebuildOverlay();
}

void TraceSet::waitForImport()
{
    // Also when the import already finished and its finished() signal is still queued.
    m_watcher.waitForFinished();
    published();
}

void TraceSet::published()
{
    if (m_watcher.future().resultCount() == 0) return;
    auto result = m_watcher.result();
    if (!result) return;
    m_watcher.setFuture(QFuture<std::shared_ptr<TraceImport>>()); // published once, even when waited for
    if (result->cancelled) {
        m_status = tr("Import cancelled; the previous traces are kept.");
        emit tracesChanged();
        return;
    }
    m_traces = std::move(result);
    // Every file accounted for (core/trace/TraceFiles.h TraceFileTally): read, damaged with its head kept, refused,
    // left out.
    const TraceFileTally& t = m_traces->tally;
    m_status = tr("%n rank(s) imported", nullptr, int(m_traces->ranks.size()));
    if (t.files > 1) m_status += tr(" from %n file(s)", nullptr, int(t.files));
    if (t.damaged > 0) m_status += tr("; %n file(s) damaged, only their head kept", nullptr, int(t.damaged));
    if (t.refused > 0) m_status += tr("; %n file(s) refused", nullptr, int(t.refused));
    if (!m_traces->excluded.empty()) m_status += tr("; %n file(s) left out", nullptr, int(m_traces->excluded.size()));
    emit tracesChanged();
    rebuildOverlay();
}

void TraceSet::setStep(int step)
{
    if (step == m_step) return;
    m_step = step;
    rebuildOverlay();
}

void TraceSet::rebuildOverlay()
{
    std::shared_ptr<const Overlay> next;
    // Against the document's analysis: the same simulated timeline every view shows.
    const auto analysis = m_document ? m_document->analysis() : nullptr;
    const bool predicted = analysis && analysis->timeline;
    if (m_traces && !m_traces->ranks.empty()) {
        OverlayOptions options;
        options.step = m_step;
        // Without a simulated plan the measured lanes are still aligned at the step (against an empty prediction).
        static const Timeline none;
        next = std::make_shared<const Overlay>(buildOverlay(
            m_traces->ranks, predicted ? analysis->plan : Plan {}, predicted ? *analysis->timeline : none, options));
    }
    m_overlay = std::move(next);
    emit overlayChanged();
}

} // namespace planscope
