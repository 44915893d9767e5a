#include "TraceSet.h"

#include "PlanDocument.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QMetaObject>
#include <QtConcurrent/QtConcurrentRun>
#include <algorithm>

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

bool TraceSet::looksLikeTrace(const QString& path)
{
    const QFileInfo info(path);
    if (info.isDir()) return true;
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly)) return false;
    const QByteArray head = f.read(1 << 16);
    if (head.size() >= 2 && uchar(head[0]) == 0x1f && uchar(head[1]) == 0x8b) return true;
    return head.contains("\"traceEvents\"") && !head.contains("planscope/plan/");
}

QStringList TraceSet::expand(const QString& path)
{
    const QFileInfo info(path);
    if (!info.isDir()) return { path };
    QStringList files;
    const QDir dir(path);
    for (const QString& name : dir.entryList({ QStringLiteral("*.json"), QStringLiteral("*.json.gz") }, QDir::Files, QDir::Name))
        files << dir.filePath(name);
    return files;
}

void TraceSet::importPaths(const QStringList& paths)
{
    cancel();
    m_watcher.waitForFinished();
    QStringList files, emptyFolders;
    for (const QString& p : paths) {
        const QStringList found = expand(p);
        if (found.isEmpty()) emptyFolders << p;
        files << found;
    }
    auto cancelFlag = std::make_shared<std::atomic<bool>>(false);
    m_cancel = cancelFlag;
    m_status = tr("Importing %n trace file(s)…", nullptr, int(files.size()));
    emit importStarted();

    QPointer<TraceSet> self(this);
    auto work = [files, emptyFolders, cancelFlag, self]() {
        auto out = std::make_shared<TraceImport>();
        for (const QString& folder : emptyFolders)
            out->skipped.push_back(SkippedRegion { folder.toStdString(), -1, "the folder holds no .json or .json.gz file" });
        std::vector<std::int64_t> sizes, done(std::size_t(files.size()), 0);
        std::int64_t total = 0;
        for (const QString& f : files) {
            sizes.push_back(QFileInfo(f).size());
            total += sizes.back();
        }
        // Files are read one after another here; each import is itself streaming, and the progress is over bytes.
        for (qsizetype i = 0; i < files.size() && !cancelFlag->load(); ++i) {
            ImportControl control;
            control.cancel = cancelFlag.get();
            control.progress = [&, i](std::int64_t d, std::int64_t) {
                done[std::size_t(i)] = d;
                std::int64_t sum = 0;
                for (std::int64_t v : done) sum += v;
                const double fraction = total > 0 ? double(sum) / double(total) : 1.0;
                QMetaObject::invokeMethod(self.data(), [self, fraction] { if (self) emit self->progress(fraction); }, Qt::QueuedConnection);
            };
            auto r = importKinetoTrace(files[i].toStdString(), control);
            if (cancelFlag->load()) break;
            if (!r) {
                const Issue& e = r.errors().front();
                out->skipped.push_back(SkippedRegion { files[i].toStdString(), e.offset, e.message });
                continue;
            }
            if (r->skipped) out->skipped.push_back(*r->skipped);
            out->ranks.push_back(std::move(r.value()));
        }
        out->cancelled = cancelFlag->load();
        std::stable_sort(out->ranks.begin(), out->ranks.end(), [](const MeasuredRank& a, const MeasuredRank& b) {
            return (a.rank < 0 ? INT32_MAX : a.rank) < (b.rank < 0 ? INT32_MAX : b.rank);
        });
        return out;
    };
    m_watcher.setFuture(QtConcurrent::run(work));
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
    m_status = tr("%n rank(s) imported", nullptr, int(m_traces->ranks.size()));
    if (!m_traces->skipped.empty()) m_status += tr("; %n file(s) damaged or unreadable", nullptr, int(m_traces->skipped.size()));
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
    const auto timeline = m_document ? m_document->timeline() : nullptr;
    if (m_traces && !m_traces->ranks.empty()) {
        OverlayOptions options;
        options.step = m_step;
        // Without a simulated plan the measured lanes are still aligned at the step (against an empty prediction).
        static const Timeline none;
        next = std::make_shared<const Overlay>(
            buildOverlay(m_traces->ranks, timeline ? m_document->predictedPlan() : Plan {}, timeline ? *timeline : none, options));
    }
    m_overlay = std::move(next);
    emit overlayChanged();
}

} // namespace planscope
