#include "pages/TracePage.h"
#include "CoreText.h"
#include "Format.h"

#include "Palette.h"
#include "document/PlanDocument.h"
#include "charts/ReadOnlyTable.h"
#include "Theme.h"
#include "document/TraceSet.h"
#include "timeline/TraceTimelineView.h"
#include "WidgetExporter.h"
#include "io/PlanJson.h"
#include "trace/LayoutInference.h"
#include "trace/TraceAnalysis.h"
#include "trace/TraceFiles.h"
#include "util/Units.h"

#include <QCheckBox>
#include <QComboBox>
#include <QEvent>
#include <QFileDialog>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QProgressBar>
#include <QPushButton>
#include <QSplitter>
#include <QTabWidget>
#include <QTableWidget>
#include <QVBoxLayout>
#include <cmath>
#include <qcustomplot.h>
#include <map>
#include <set>
#include <algorithm>

namespace planscope {

namespace {

// Ranks as ranges, "0-1699" or "3, 5, 8-11", at most the first six ranges and then "…".
QString rankRanges(std::vector<int> ranks)
{
    std::sort(ranks.begin(), ranks.end());
    QStringList parts;
    for (std::size_t i = 0; i < ranks.size();) {
        std::size_t j = i;
        while (j + 1 < ranks.size() && ranks[j + 1] == ranks[j] + 1) ++j;
        if (parts.size() == 6) {
            parts << QStringLiteral("…");
            break;
        }
        parts << (j == i ? QString::number(ranks[i]) : QStringLiteral("%1–%2").arg(ranks[i]).arg(ranks[j]));
        i = j + 1;
    }
    return parts.join(QStringLiteral(", "));
}

const auto ms = display::seconds;
const auto signedMs = display::signedSeconds;
using display::gib;
const auto gbps = [](double bytesPerSecond) { return display::gbPerSecond(bytesPerSecond); };

void setRows(QTableWidget* t, const QStringList& headers, const std::vector<QStringList>& rows)
{
    t->clear();
    t->setColumnCount(int(headers.size()));
    t->setHorizontalHeaderLabels(headers);
    t->setRowCount(int(rows.size()));
    for (int r = 0; r < int(rows.size()); ++r)
        for (int c = 0; c < int(rows[std::size_t(r)].size()) && c < int(headers.size()); ++c)
            t->setItem(r, c, readOnlyCell(rows[std::size_t(r)][c], c == 0 ? Qt::AlignLeft | Qt::AlignVCenter : Qt::AlignRight | Qt::AlignVCenter));
}

// The first column (a name: kernels' are C++ signatures hundreds of characters long) takes the width the others
// leave and elides its text, its full text in the tooltip; the other columns (the numbers) keep their contents' width,
// so they stay in view however long the names are.
void elideFirstColumn(QTableWidget* t)
{
    QHeaderView* h = t->horizontalHeader();
    h->setStretchLastSection(false);
    for (int c = 0; c < t->columnCount(); ++c)
        h->setSectionResizeMode(c, c == 0 ? QHeaderView::Stretch : QHeaderView::ResizeToContents);
    t->setTextElideMode(Qt::ElideRight);
    for (int r = 0; r < t->rowCount(); ++r)
        if (QTableWidgetItem* item = t->item(r, 0)) item->setToolTip(item->text());
}

QTableWidget* makeTable(QWidget* parent)
{
    auto* t = new QTableWidget(parent);
    setUpReadOnlyTable(t);
    return t;
}

} // namespace

TracePage::TracePage(QWidget* parent)
    : QWidget(parent)
    , m_title(new QLabel(this))
    , m_open(new QPushButton(this))
    , m_cancel(new QPushButton(this))
    , m_progress(new QProgressBar(this))
    , m_jobLabel(new QLabel(this))
    , m_job(new QComboBox(this))
    , m_stepLabel(new QLabel(this))
    , m_step(new QComboBox(this))
    , m_cpu(new QCheckBox(this))
    , m_status(new QLabel(this))
    , m_legend(new QLabel(this))
    , m_summary(new QLabel(this))
    , m_view(new TraceTimelineView(this))
    , m_tabs(new QTabWidget(this))
    , m_phases(makeTable(this))
    , m_ops(makeTable(this))
    , m_collectives(makeTable(this))
    , m_kernels(makeTable(this))
    , m_memoryRank(new QComboBox(this))
    , m_memoryPlot(new QCustomPlot(this))
    , m_memory(makeTable(this))
{
    QFont bold = m_title->font();
    bold.setBold(true);
    m_title->setFont(bold);
    m_summary->setWordWrap(true);
    m_summary->setTextFormat(Qt::RichText);
    m_status->setWordWrap(true);
    m_status->setTextFormat(Qt::PlainText);
    m_progress->setRange(0, 1000);
    m_progress->setVisible(false);
    m_cancel->setVisible(false);
    m_memoryPlot->setMinimumSize(160, 120);
    m_memoryPlot->axisRect()->insetLayout()->setInsetAlignment(0, Qt::AlignBottom | Qt::AlignRight);
    QFont legendFont = font();
    legendFont.setPointSizeF(legendFont.pointSizeF() * 0.85);
    m_memoryPlot->legend->setFont(legendFont);

    auto* bar = new QHBoxLayout;
    bar->addWidget(m_title);
    bar->addSpacing(12);
    bar->addWidget(m_open);
    bar->addWidget(m_cancel);
    bar->addWidget(m_progress, 1);
    bar->addStretch(1);
    bar->addWidget(m_jobLabel);
    bar->addWidget(m_job);
    bar->addWidget(m_stepLabel);
    bar->addWidget(m_step);
    bar->addWidget(m_cpu);

    // Comparison: the phases and the per-kind op ratios beside the matched ops.
    auto* comparison = new QSplitter(Qt::Horizontal, this);
    comparison->addWidget(m_phases);
    comparison->addWidget(m_ops);
    comparison->setStretchFactor(0, 1);
    comparison->setStretchFactor(1, 1);
    auto* memory = new QWidget(this);
    auto* memoryLayout = new QVBoxLayout(memory);
    memoryLayout->setContentsMargins(0, 0, 0, 0);
    auto* memorySplit = new QSplitter(Qt::Horizontal, memory);
    memorySplit->addWidget(m_memoryPlot);
    memorySplit->addWidget(m_memory);
    memorySplit->setStretchFactor(0, 2);
    memorySplit->setStretchFactor(1, 1);
    memoryLayout->addWidget(m_memoryRank, 0, Qt::AlignLeft);
    memoryLayout->addWidget(memorySplit, 1);
    m_tabs->addTab(comparison, QString());
    m_tabs->addTab(m_collectives, QString());
    m_tabs->addTab(m_kernels, QString());
    m_tabs->addTab(memory, QString());

    m_split = new QSplitter(Qt::Vertical, this);
    m_split->addWidget(m_view);
    m_split->addWidget(m_tabs);
    m_split->setStretchFactor(0, 3);
    m_split->setStretchFactor(1, 2);

    auto* layout = new QVBoxLayout(this);
    layout->addLayout(bar);
    layout->addWidget(m_summary);
    // The layout the traces' process groups imply, and the button that makes it the plan's.
    m_layout = new QLabel(this);
    m_layout->setObjectName(QStringLiteral("inferredLayout"));
    m_layout->setWordWrap(true);
    m_layout->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_usePlan = new QPushButton(this);
    m_usePlan->setObjectName(QStringLiteral("useInferredPlan"));
    auto* layoutRow = new QHBoxLayout;
    layoutRow->addWidget(m_layout, 1);
    layoutRow->addWidget(m_usePlan, 0, Qt::AlignTop);
    layout->addLayout(layoutRow);
    connect(m_usePlan, &QPushButton::clicked, this, [this] {
        if (m_inferredPlan) emit usePlanRequested(*m_inferredPlan);
    });
    // The status across the page (it may name several files, one a line), the legend under it on the right.
    layout->addWidget(m_status);
    layout->addWidget(m_legend, 0, Qt::AlignRight);
    layout->addWidget(m_split, 1);

    connect(m_open, &QPushButton::clicked, this, [this] {
        if (!m_traces) return;
        const QStringList files = QFileDialog::getOpenFileNames(this, tr("Open Traces"), QString(),
            tr("PyTorch profiler traces (*.json *.json.gz);;All files (*)"));
        if (!files.isEmpty()) m_traces->importPaths(files);
    });
    connect(m_cancel, &QPushButton::clicked, this, [this] {
        if (m_traces) m_traces->cancel();
    });
    connect(m_job, &QComboBox::activated, this, [this](int index) {
        if (m_traces) m_traces->setJob(m_job->itemData(index).toInt());
    });
    connect(m_step, &QComboBox::activated, this, [this](int index) {
        if (m_traces) m_traces->setStep(m_step->itemData(index).toInt());
    });
    connect(m_cpu, &QCheckBox::toggled, m_view, &TraceTimelineView::setShowCpu);
    connect(m_memoryRank, &QComboBox::activated, this, [this] { rebuildMemory(); });
    connect(Theme::instance(), &Theme::changed, this, &TracePage::rebuildMemory);
    connect(Theme::instance(), &Theme::changed, this, &TracePage::rebuildLegend);
    retranslate();
}

void TracePage::setDocument(PlanDocument* document)
{
    m_document = document;
    rebuild();
}

void TracePage::setViewState(ViewState* state)
{
    m_view->setViewState(state);
}

void TracePage::setTraceSet(TraceSet* traces)
{
    if (m_traces) disconnect(m_traces, nullptr, this, nullptr);
    m_traces = traces;
    if (traces) {
        connect(traces, &TraceSet::importStarted, this, [this] {
            m_progress->setValue(0);
            m_progress->setVisible(true);
            m_cancel->setVisible(true);
            m_status->setText(m_traces->statusText());
        });
        connect(traces, &TraceSet::progress, this, [this](double f) { m_progress->setValue(int(std::clamp(f, 0.0, 1.0) * 1000)); });
        connect(traces, &TraceSet::tracesChanged, this, [this] {
            m_progress->setVisible(false);
            m_cancel->setVisible(false);
            rebuildSteps();
        });
        connect(traces, &TraceSet::overlayChanged, this, &TracePage::rebuild);
    }
    rebuildSteps();
    rebuild();
}

void TracePage::changeEvent(QEvent* event)
{
    if (event->type() == QEvent::LanguageChange) retranslate();
    QWidget::changeEvent(event);
}

void TracePage::retranslate()
{
    m_title->setText(tr("Measured run"));
    m_open->setText(tr("Open Traces…"));
    m_cancel->setText(tr("Cancel"));
    m_jobLabel->setText(tr("Job"));
    m_stepLabel->setText(tr("Align at"));
    m_cpu->setText(tr("CPU threads"));
    m_tabs->setTabText(0, tr("Prediction vs measurement"));
    m_tabs->setTabText(1, tr("Collectives"));
    m_tabs->setTabText(2, tr("Top kernels"));
    m_tabs->setTabText(3, tr("Memory"));
    m_usePlan->setText(tr("Use This Plan"));
    m_usePlan->setToolTip(tr("Make the layout the traces imply the open plan's (one undo step)"));
    rebuildLegend();
    rebuildSteps();
    rebuild();
}

void TracePage::rebuildJobs()
{
    // Files of several jobs: one is shown at a time, the others can be picked here.
    m_job->clear();
    const auto traces = m_traces ? m_traces->traces() : nullptr;
    if (traces)
        for (std::size_t i = 0; i < traces->jobs.size(); ++i) {
            const TraceJob& j = traces->jobs[i];
            const QString world = j.worldSize >= 0 ? tr("world size %1").arg(j.worldSize) : tr("unknown world size");
            const QString ranks = QString::number(j.rankCount());
            m_job->addItem(j.timed ? tr("%1; ranks here: %2; traced %3").arg(world, ranks, QString::fromStdString(traceTimeText(j.startNs)))
                                   : tr("%1; ranks here: %2").arg(world, ranks),
                int(i));
        }
    if (traces && traces->job >= 0) m_job->setCurrentIndex(traces->job);
    const bool several = m_job->count() > 1;
    m_job->setVisible(several);
    m_jobLabel->setVisible(several);
}

QStringList TracePage::leftOutLines() const
{
    // Every file that is not drawn, and why: other jobs' files, repeated ranks, damaged or unreadable files.
    QStringList lines;
    const auto traces = m_traces ? m_traces->traces() : nullptr;
    if (!traces) return lines;
    auto name = [](const std::string& file) { return QFileInfo(QString::fromStdString(file)).fileName(); };
    for (const ExcludedTrace& x : traces->excluded) {
        if (x.reason == ExcludedTrace::DuplicateRank) {
            lines << (x.rank >= 0 ? tr("%1: left out, rank %2 is already shown from %3").arg(name(x.file)).arg(x.rank).arg(name(x.sameAs))
                                  : tr("%1: left out, the same trace as %2").arg(name(x.file), name(x.sameAs)));
            continue;
        }
        const TraceJob& j = traces->jobs[x.job];
        const QString world = j.worldSize >= 0 ? tr("world size %1").arg(j.worldSize) : tr("unknown world size");
        lines << (j.timed ? tr("%1: left out, from another job (%2, traced %3)").arg(name(x.file), world, QString::fromStdString(traceTimeText(j.startNs)))
                          : tr("%1: left out, from another job (%2)").arg(name(x.file), world));
    }
    for (const SkippedRegion& s : traces->skipped)
        lines << (s.offset < 0 ? tr("%1: %2").arg(name(s.file), CoreText::text(s.reason))
                               : tr("%1: %2 (byte %3); what came before was imported where possible")
                                     .arg(name(s.file), CoreText::text(s.reason))
                                     .arg(s.offset));
    return lines;
}

QString TracePage::statusText() const { return m_status->text(); }

void TracePage::rebuildSteps()
{
    rebuildJobs();
    m_step->clear();
    const auto traces = m_traces ? m_traces->traces() : nullptr;
    m_step->addItem(tr("median step"), -1);
    if (traces && !traces->ranks.empty())
        for (std::size_t i = 0; i < traces->ranks.front().stepSpans.size(); ++i) {
            const MeasuredStep& s = traces->ranks.front().stepSpans[i];
            m_step->addItem(tr("%1 (%2)").arg(QString::fromStdString(s.name), ms(double(s.durNs) * 1e-9)), int(i));
        }
    const int current = m_traces ? m_step->findData(m_traces->step()) : 0;
    m_step->setCurrentIndex(std::max(0, current));
    m_step->setEnabled(m_step->count() > 1);
    m_memoryRank->clear();
    if (traces)
        for (const MeasuredRank& r : traces->ranks)
            m_memoryRank->addItem(r.rank >= 0 ? tr("rank %1").arg(r.rank) : QFileInfo(QString::fromStdString(r.file)).fileName());
}

void TracePage::rebuildLegend()
{
    // What the measured colours mean; predicted lanes and phase annotations use the timeline's kind colours.
    auto swatch = [](TraceColor c, const QString& text) {
        TraceItem item;
        item.color = c;
        return QStringLiteral("<span style=\"color:%1\">&#9632;</span>&nbsp;%2").arg(TraceTimelineView::colorOf(item).name(), text.toHtmlEscaped());
    };
    QStringList parts { swatch(TraceColor::Compute, tr("compute kernel")), swatch(TraceColor::Collective, tr("NCCL collective")),
        swatch(TraceColor::SendRecv, tr("NCCL send/recv")), swatch(TraceColor::Memcpy, tr("memcpy/memset")),
        swatch(TraceColor::Annotation, tr("annotation")),
        QStringLiteral("<span style=\"color:%1\">&#9633;</span>&nbsp;%2").arg(Theme::mutedText().name(), tr("predicted (ghost, by kind)").toHtmlEscaped()) };
    m_legend->setText(parts.join(QStringLiteral("&nbsp;&nbsp; ")));
}

QString TracePage::overlaySummary(const Overlay& overlay) const
{
    // The same reading as Overlay::summary (core, English), in the interface's language.
    if (overlay.phases.empty()) return tr("Nothing to compare: no rank has GPU kernels.");
    const PhaseDelta& step = overlay.phases[3];
    const std::map<std::string, QString> gaps { { "compute", tr("compute") }, { "exposedComm", tr("exposed communication") },
        { "idle", tr("idle time (bubbles and waits)") } };
    QString reading;
    if (overlay.verdict == Overlay::Unmeasured) {
        reading = tr("The aligned step has no measured GPU time.");
    } else {
        const QString pct = QString::number(std::abs(overlay.stepError) * 100, 'f', 0);
        reading = overlay.verdict == Overlay::OnTarget
            ? tr("GPU step measured %1, predicted %2: the prediction is on target.").arg(ms(step.measuredSeconds), ms(step.predictedSeconds))
            : (overlay.verdict == Overlay::Optimistic ? tr("GPU step measured %1, predicted %2: the prediction is %3% optimistic.")
                                                      : tr("GPU step measured %1, predicted %2: the prediction is %3% pessimistic."))
                  .arg(ms(step.measuredSeconds), ms(step.predictedSeconds), pct);
        for (const PhaseDelta& p : overlay.phases)
            if (p.phase == overlay.biggestGap && p.deltaSeconds != 0)
                reading += QLatin1Char(' ') + tr("The largest gap is %1 (%2 measured vs predicted).").arg(gaps.at(p.phase), signedMs(p.deltaSeconds));
    }
    QString text = QStringLiteral("<b>%1</b>").arg(reading.toHtmlEscaped());
    if (!overlay.stepName.empty())
        text += QLatin1Char(' ') + tr("Aligned at the start of %1's GPU work on the earliest rank.").arg(QString::fromStdString(overlay.stepName));
    // The per-rank notes of one kind become one line naming the ranks (a folder of thousands of ranks would give a
    // line each).
    std::map<OverlayNote::Kind, std::vector<int>> perRank;
    for (const OverlayNote& n : overlay.notes)
        if (n.kind == OverlayNote::NoKernels || n.kind == OverlayNote::NoSteps) perRank[n.kind].push_back(n.rank);
    std::set<OverlayNote::Kind> said;
    for (const OverlayNote& n : overlay.notes) {
        QString note;
        const std::vector<int>* ranks = perRank.count(n.kind) ? &perRank.at(n.kind) : nullptr;
        if (ranks && ranks->size() > 1) {
            if (!said.insert(n.kind).second) continue;
            note = n.kind == OverlayNote::NoKernels
                ? tr("%n rank(s) (%1) have no GPU kernels in the step and are left out", nullptr, int(ranks->size())).arg(rankRanges(*ranks))
                : tr("%n rank(s) (%1) have no ProfilerStep: the whole trace is taken as one step", nullptr, int(ranks->size())).arg(rankRanges(*ranks));
            text += QStringLiteral("<br/><small>• %1</small>").arg(note.toHtmlEscaped());
            continue;
        }
        switch (n.kind) {
        case OverlayNote::NoKernels: note = tr("rank %1 has no GPU kernels in the step and is left out").arg(n.rank); break;
        case OverlayNote::NoSteps: note = tr("rank %1 has no ProfilerStep: the whole trace is taken as one step").arg(n.rank); break;
        case OverlayNote::WorldSize:
            note = tr("the traces come from a job of %1 ranks and the plan has %2 GPUs: ranks are mapped to pipeline ranks by the plan's order")
                       .arg(n.worldSize)
                       .arg(n.planGpus);
            break;
        case OverlayNote::TensorParallelInCompute:
            note = tr("tensor-parallel collectives are inside the predicted compute spans, but are NCCL kernels (communication) in the trace");
            break;
        case OverlayNote::CpuSideActions: note = tr("the trace has CPU-side PP: annotations only; their times lead the GPU work they launch"); break;
        }
        text += QStringLiteral("<br/><small>• %1</small>").arg(note.toHtmlEscaped());
    }
    return text;
}

QString TracePage::summaryText() const { return m_summary->text(); }

QString TracePage::layoutText() const { return m_layout->isHidden() ? QString() : m_layout->text(); }

void TracePage::rebuildLayout()
{
    const auto traces = m_traces ? m_traces->traces() : nullptr;
    m_inferredPlan.reset();
    if (traces != m_layoutTraces || !m_inferred) {
        m_layoutTraces = traces;
        m_inferred = std::make_shared<const InferredLayout>(
            traces && !traces->ranks.empty() ? inferLayout(traces->ranks, nullptr) : InferredLayout {});
    }
    const InferredLayout& layout = *m_inferred;
    if (layout.fields.empty()) {
        m_layout->hide();
        m_usePlan->hide();
        return;
    }
    // What was read, each with its evidence on hover; what was not, with why.
    QStringList found, missing, tips;
    for (const InferredField& f : layout.fields) {
        const QString value = f.field == "order" ? QString::fromStdString(f.order) : QString::number(f.value);
        found << QStringLiteral("%1 %2").arg(QString::fromStdString(f.field), value);
        tips << QStringLiteral("%1: %2").arg(QString::fromStdString(f.field), CoreText::text(f.from));
    }
    for (const NotInferredField& f : layout.notInferred) {
        missing << QString::fromStdString(f.field);
        tips << QStringLiteral("%1: %2").arg(QString::fromStdString(f.field), CoreText::text(f.reason));
    }
    QString text = tr("The traces' process groups imply: %1.").arg(found.join(QStringLiteral(" · ")));
    if (!missing.isEmpty()) text += QLatin1Char(' ') + tr("Not inferred: %1 (hover for why).").arg(missing.join(QStringLiteral(", ")));
    for (const Text& issue : layout.issues) text += QLatin1Char(' ') + CoreText::text(issue);
    // The plan: the open plan (its model, GPU and links) with the layout written in.
    if (!m_document || !m_document->hasPlan()) {
        text += QLatin1Char(' ') + tr("Open a plan to use this layout with its model and GPU.");
    } else {
        std::vector<Text> notes;
        const nlohmann::json applied = applyInferredLayout(layout, planToJson(m_document->plan()), notes);
        for (const Text& n : notes) tips << CoreText::text(n);
        if (auto parsed = planFromJson(applied); parsed) {
            const bool same = parsed->plan.parallel == m_document->plan().parallel && parsed->plan.cluster.nodes == m_document->plan().cluster.nodes;
            if (same) text += QLatin1Char(' ') + tr("The open plan has this layout.");
            else m_inferredPlan = parsed->plan;
        } else {
            text += QLatin1Char(' ') + tr("It does not make a valid plan: %1").arg(CoreText::line(parsed.errors().front()));
        }
    }
    m_layout->setText(text);
    m_layout->setToolTip(tips.join(QLatin1Char('\n')));
    m_layout->show();
    m_usePlan->setVisible(true);
    m_usePlan->setEnabled(m_inferredPlan.has_value());
}

void TracePage::rebuild()
{
    const auto traces = m_traces ? m_traces->traces() : nullptr;
    const auto overlay = m_traces ? m_traces->overlay() : nullptr;
    const auto timeline = m_document ? m_document->timeline() : nullptr;
    const bool fresh = traces != m_shownTraces;
    m_shownTraces = traces;
    m_view->setData(traces, overlay, timeline);
    if (fresh && traces) {
        // Lanes get what they need (at most three quarters), the tables the rest.
        const int total = m_split->height();
        const int lanes = std::clamp(m_view->preferredHeight(), total / 3, total * 3 / 4);
        m_split->setSizes({ lanes, total - lanes });
    }
    QString status = m_traces ? m_traces->statusText() : QString();
    if (traces && traces->jobs.size() > 1 && traces->job >= 0)
        status += QLatin1Char('\n')
            + tr("The files come from %n different jobs; one job is compared at a time: the one with the most ranks, or the one picked under Job.",
                nullptr, int(traces->jobs.size()));
    // A few files each get a line; a folder of thousands gets the first few and a count (the status above has the
    // totals; planscope-cli import --json lists every file).
    const QStringList leftOut = leftOutLines();
    constexpr int kShownFiles = 8;
    for (int i = 0; i < std::min(int(leftOut.size()), kShownFiles); ++i) status += QLatin1Char('\n') + leftOut[i];
    if (leftOut.size() > kShownFiles)
        status += QLatin1Char('\n') + tr("… and %n more file(s) left out, damaged or refused", nullptr, int(leftOut.size()) - kShownFiles);
    m_status->setText(status);

    rebuildLayout();

    // Summary: how far off and where, with the caveats; without a plan, what the traces hold.
    if (!traces || traces->ranks.empty()) {
        m_summary->setText(tr("Drop PyTorch profiler traces here (one .json or .json.gz per rank, or a folder of them), or use Open Traces…. "
                              "With a plan open, the measured lanes are drawn against the predicted ones and the gap is split into "
                              "compute, exposed communication and idle time."));
    } else if (overlay && timeline) {
        m_summary->setText(overlaySummary(*overlay));
    } else {
        QString text = tr("%n rank(s) measured. Open a plan to compare them with its prediction.", nullptr, int(traces->ranks.size()));
        for (const CollectiveStat& c : collectiveStats(traces->ranks.front()))
            text += QStringLiteral("<br/>")
                + tr("%1 × %2 over %3 ranks: median %4 in %5, busBw %6 (a lower bound)")
                      .arg(QString::fromStdString(c.op))
                      .arg(c.count)
                      .arg(c.groupSize)
                      .arg(QString::fromStdString(units::formatBytes(c.bytes)), ms(c.seconds), gbps(c.busBandwidth));
        m_summary->setText(text);
    }

    // Several ranks: how far apart they start the same collectives, and who is last.
    if (traces && traces->ranks.size() >= 2) {
        const Alignment a = alignRanks(traces->ranks);
        if (a.straggler >= 0) {
            double skew = 0;
            for (const RankSkew& r : a.ranks)
                if (r.rank == a.straggler) skew = r.medianSkewSeconds;
            m_summary->setText(m_summary->text() + QStringLiteral("<br/>")
                + tr("Across ranks: %1 collectives matched; rank %2 starts them last, a median %3 after the earliest rank.")
                      .arg(a.matchedCollectives)
                      .arg(a.straggler)
                      .arg(ms(skew)));
        }
    }

    // Phases and ops.
    std::vector<QStringList> phaseRows, opRows, collectiveRows, kernelRows;
    if (overlay && timeline) {
        const std::map<std::string, QString> names { { "compute", tr("compute") }, { "exposedComm", tr("exposed communication") },
            { "idle", tr("idle (bubbles, waits)") }, { "step", tr("GPU step") }, { "forward", tr("forward") },
            { "backward", tr("backward") }, { "optimizer", tr("optimizer step") } };
        for (const PhaseDelta& p : overlay->phases) {
            const double rel = p.predictedSeconds > 0 ? p.measuredSeconds / p.predictedSeconds : 0;
            phaseRows.push_back({ names.at(p.phase), ms(p.predictedSeconds), ms(p.measuredSeconds), signedMs(p.deltaSeconds),
                rel > 0 ? QStringLiteral("%1×").arg(rel, 0, 'f', 2) : QStringLiteral("—") });
        }
        for (const OpKindRatio& k : overlay->opRatios)
            phaseRows.push_back({ tr("PP:%1 ops (median of %2)").arg(QString::fromStdString(k.kind)).arg(k.count), QString(), QString(),
                QString(), QStringLiteral("%1×").arg(k.medianRatio, 0, 'f', 2) });
        const std::size_t shown = std::min<std::size_t>(overlay->ops.size(), 2000);
        for (std::size_t i = 0; i < shown; ++i) {
            const OpDelta& d = overlay->ops[i];
            const OverlayRank& o = overlay->ranks[d.overlayRank];
            opRows.push_back({ QStringLiteral("PP:") + QString::fromStdString(d.op), QString::number(o.rank),
                ms(double(d.predictedStartNs) * 1e-9), ms(double(d.predictedNs) * 1e-9), ms(double(d.measuredStartNs) * 1e-9),
                ms(double(d.measuredNs) * 1e-9), signedMs(double(d.startDeltaNs()) * 1e-9), signedMs(double(d.durationDeltaNs()) * 1e-9) });
        }
        if (overlay->ops.empty())
            opRows.push_back({ tr("No PP: actions in the trace; phases are compared on GPU kernels only."), QString(), QString(), QString(),
                QString(), QString(), QString(), QString() });
    }
    setRows(m_phases, { tr("Phase"), tr("Predicted"), tr("Measured"), tr("Δ"), tr("Ratio") }, phaseRows);
    setRows(m_ops, { tr("Action"), tr("Rank"), tr("Predicted start"), tr("Predicted"), tr("Measured start"), tr("Measured"), tr("Δ start"), tr("Δ duration") }, opRows);

    if (traces)
        for (const MeasuredRank& r : traces->ranks) {
            for (const CollectiveStat& c : collectiveStats(r))
                collectiveRows.push_back({ QString::fromStdString(c.op), QString::number(r.rank), QString::number(c.groupSize),
                    QString::number(c.count), QString::fromStdString(units::formatBytes(c.bytes)), ms(c.seconds), gbps(c.algBandwidth),
                    gbps(c.busBandwidth) });
            if (collectiveStats(r).empty())
                for (const auto& [name, count] : r.collectives)
                    collectiveRows.push_back({ QString::fromStdString(name), QString::number(r.rank), QStringLiteral("—"),
                        QString::number(count), tr("no metadata"), QString(), QString(), QString() });
            for (const KernelStat& k : topKernels(r, 10))
                kernelRows.push_back({ QString::fromStdString(k.name), QString::number(r.rank), QString::number(k.count),
                    ms(k.totalSeconds), QStringLiteral("%1 %").arg(k.share * 100, 0, 'f', 1) });
        }
    setRows(m_collectives, { tr("Collective"), tr("Rank"), tr("Group"), tr("Kernels"), tr("Bytes (median)"), tr("Time (median)"),
                               tr("algBw"), tr("busBw (lower bound)") }, collectiveRows);
    setRows(m_kernels, { tr("Kernel"), tr("Rank"), tr("Count"), tr("GPU time"), tr("Share") }, kernelRows);
    elideFirstColumn(m_kernels);
    rebuildMemory();
}

void TracePage::rebuildMemory()
{
    m_memoryPlot->clearGraphs();
    m_memoryPlot->setBackground(Theme::background());
    for (QCPAxis* a : { m_memoryPlot->xAxis, m_memoryPlot->yAxis }) {
        a->setBasePen(QPen(Theme::axis()));
        a->setTickPen(QPen(Theme::axis()));
        a->setSubTickPen(QPen(Theme::axis()));
        a->setTickLabelColor(Theme::text());
        a->setLabelColor(Theme::text());
        a->grid()->setPen(QPen(Theme::gridLine()));
    }
    m_memoryPlot->legend->setVisible(true);
    m_memoryPlot->legend->setBrush(Theme::surface());
    m_memoryPlot->legend->setTextColor(Theme::text());
    m_memoryPlot->xAxis->setLabel(tr("time from the aligned step start (ms)"));
    m_memoryPlot->yAxis->setLabel(tr("GiB"));
    std::vector<QStringList> rows;
    const auto traces = m_traces ? m_traces->traces() : nullptr;
    const auto overlay = m_traces ? m_traces->overlay() : nullptr;
    const auto timeline = m_document ? m_document->timeline() : nullptr;
    const int index = m_memoryRank->currentIndex();
    double xMax = 0;
    if (traces && index >= 0 && index < int(traces->ranks.size())) {
        const MeasuredRank& r = traces->ranks[std::size_t(index)];
        const OverlayRank* o = nullptr;
        if (overlay)
            for (const OverlayRank& c : overlay->ranks)
                if (c.source == std::size_t(index)) o = &c;
        const std::int64_t origin = o ? o->originNs : 0;
        if (o) xMax = double(std::max(o->measured.windowNs, o->predicted.windowNs)) * 1e-6;
        for (const DeviceMemorySeries& d : memoryTimeline(r)) {
            if (d.deviceType != 1) continue; // CUDA only: the prediction is GPU memory
            QVector<double> x, alloc, xr, reserved;
            for (const MeasuredMemoryPoint& pt : d.points) {
                const double t = double(r.absoluteNs(pt.tsNs) - origin) * 1e-6;
                if (pt.allocatedBytes >= 0) {
                    x << t;
                    alloc << units::toGiB(double(pt.allocatedBytes));
                }
                if (pt.reservedBytes >= 0) {
                    xr << t;
                    reserved << units::toGiB(double(pt.reservedBytes));
                }
            }
            QCPGraph* g = m_memoryPlot->addGraph();
            g->setName(tr("measured allocated (GPU %1)").arg(d.deviceId));
            g->setPen(QPen(palette::blue(), 1.5));
            g->setLineStyle(QCPGraph::lsStepLeft);
            g->setData(x, alloc, true);
            QCPGraph* rg = m_memoryPlot->addGraph();
            rg->setName(tr("measured reserved"));
            rg->setPen(QPen(palette::skyBlue(), 1.2, Qt::DashLine));
            rg->setLineStyle(QCPGraph::lsStepLeft);
            rg->setData(xr, reserved, true);
            rows.push_back({ tr("measured peak allocated (GPU %1)").arg(d.deviceId), gib(double(d.peakAllocated)) });
            rows.push_back({ tr("measured peak reserved (GPU %1)").arg(d.deviceId), gib(double(d.peakReserved)) });
        }
        if (timeline && o && o->pipelineRank < int(timeline->memory.size())) {
            QVector<double> x, y;
            for (const MemoryPoint& pt : timeline->memory[std::size_t(o->pipelineRank)]) {
                x << pt.time * 1e3;
                y << units::toGiB(double(pt.bytes));
            }
            QCPGraph* g = m_memoryPlot->addGraph();
            g->setName(tr("predicted (PP rank %1)").arg(o->pipelineRank));
            g->setPen(QPen(palette::vermillion(), 1.5));
            g->setLineStyle(QCPGraph::lsStepLeft);
            g->setData(x, y, true);
            const RankMetrics& m = timeline->ranks[std::size_t(o->pipelineRank)];
            rows.push_back({ tr("predicted peak (all terms)"), gib(double(m.peakBytes)) });
            rows.push_back({ tr("predicted static (weights, gradients, optimizer, buffers)"), gib(double(m.staticBytes)) });
        }
        if (rows.empty()) rows.push_back({ tr("This trace has no [memory] events (record with profile_memory=True)."), QString() });
    }
    setRows(m_memory, { tr("Memory"), tr("Value") }, rows);
    m_memoryPlot->rescaleAxes();
    if (xMax > 0) m_memoryPlot->xAxis->setRange(-0.03 * xMax, 1.03 * xMax);
    const QCPRange y = m_memoryPlot->yAxis->range();
    m_memoryPlot->yAxis->setRange(0, std::max(1.0, y.upper * 1.1));
    if (m_memoryPlot->width() > 0 && m_memoryPlot->height() > 0) m_memoryPlot->replot();
}

QStringList TracePage::tableRows(const QString& table) const
{
    const QTableWidget* t = table == QLatin1String("phases") ? m_phases
        : table == QLatin1String("ops")                       ? m_ops
        : table == QLatin1String("collectives")               ? m_collectives
        : table == QLatin1String("kernels")                   ? m_kernels
        : table == QLatin1String("memory")                    ? m_memory
                                                              : nullptr;
    return t ? tableRowTexts(t) : QStringList();
}

bool TracePage::exportTo(const QString& path, QSize size, QString* error)
{
    if (size.isValid() && !size.isEmpty()) resize(size);
    return WidgetExporter::exportWidget(this, path, error);
}

QString TracePage::pageTitle() const
{
    return tr("Measured Run");
}

} // namespace planscope
