#include "pages/SummaryPage.h"
#include "CoreText.h"
#include "spec/PlanText.h"
#include "Format.h"
#include "WidgetExporter.h"

#include "charts/MemorySegments.h"
#include "charts/OperatorText.h"
#include "charts/ReadOnlyTable.h"
#include "cost/Evaluate.h"
#include "Palette.h"
#include "Theme.h"
#include "document/PlanDocument.h"
#include "util/Units.h"

#include <QEvent>
#include <QFontDatabase>
#include <QHeaderView>
#include <QLabel>
#include <QListWidget>
#include <QScrollBar>
#include <QCoreApplication>
#include <QSplitter>
#include <QStyle>
#include <QTableWidget>
#include <QTextBrowser>
#include <QTreeWidget>
#include <QVBoxLayout>
#include <algorithm>

namespace planscope {

namespace {

QString fromStd(const std::string& s)
{
    return QString::fromStdString(s);
}

using display::gib;
using display::percent;

QString exactNumber(double v)
{
    return QString::number(v, 'g', 12);
}

QString bytesTip(double bytes)
{
    return SummaryPage::tr("%1 bytes\n= %2 GiB (2^30 bytes)\n= %3 GB (10^9 bytes)")
        .arg(QString::number(bytes, 'f', 0), QString::number(units::toGiB(bytes), 'f', 6),
            QString::number(units::toGB(bytes), 'f', 6));
}

QString secondsTip(double s)
{
    return SummaryPage::tr("%1 s").arg(exactNumber(s));
}

QString kindName(GroupKind kind)
{
    switch (kind) {
    case GroupKind::TP: return SummaryPage::tr("Tensor parallel (TP)");
    case GroupKind::PP: return SummaryPage::tr("Pipeline parallel (PP)");
    case GroupKind::DPCP: return SummaryPage::tr("Data parallel (DP)");
    case GroupKind::CP: return SummaryPage::tr("Context parallel (CP)");
    case GroupKind::EP: return SummaryPage::tr("Expert parallel (EP)");
    case GroupKind::ExpertDP: return SummaryPage::tr("Expert data parallel (EDP)");
    }
    return fromStd(std::string(toString(kind)));
}

class RowBuilder {
public:
    explicit RowBuilder(QTreeWidget* tree)
        : m_tree(tree)
    {
    }

    QTreeWidgetItem* group(const QString& title)
    {
        auto* item = new QTreeWidgetItem(m_tree, { title });
        QFont f = item->font(SummaryPage::QuantityColumn);
        f.setBold(true);
        item->setFont(SummaryPage::QuantityColumn, f);
        item->setFirstColumnSpanned(true);
        return item;
    }

    QTreeWidgetItem* row(QTreeWidgetItem* parent, const QString& label, const QString& value,
        const QString& field, double exact, const QString& tip, const QString& note = {})
    {
        auto* item = new QTreeWidgetItem(parent, { label, value, note });
        item->setData(SummaryPage::QuantityColumn, SummaryPage::FieldRole, field);
        item->setData(SummaryPage::QuantityColumn, SummaryPage::ExactValueRole, exact);
        item->setTextAlignment(SummaryPage::ValueColumn, Qt::AlignRight | Qt::AlignVCenter);
        const QString fullTip = field.isEmpty() ? tip : tip + QStringLiteral("\n\n") + field;
        for (int c = 0; c < 3; ++c)
            item->setToolTip(c, fullTip);
        if (!note.isEmpty())
            item->setToolTip(SummaryPage::NoteColumn, note + QStringLiteral("\n\n") + fullTip);
        return item;
    }

    QTreeWidgetItem* bytes(QTreeWidgetItem* parent, const QString& label, double value, const QString& field,
        const QString& note = {})
    {
        return row(parent, label, gib(value), field, value, bytesTip(value), note);
    }
    QTreeWidgetItem* seconds(QTreeWidgetItem* parent, const QString& label, double value,
        const QString& field, const QString& note = {})
    {
        return row(
            parent, label, fromStd(units::formatSeconds(value)), field, value, secondsTip(value), note);
    }
    QTreeWidgetItem* share(QTreeWidgetItem* parent, const QString& label, double value, const QString& field,
        const QString& note = {})
    {
        return row(parent, label, percent(value), field, value, exactNumber(value), note);
    }

private:
    QTreeWidget* m_tree;
};

void paintAlarm(QTreeWidgetItem* item)
{
    for (int c = 0; c < 3; ++c)
        item->setForeground(c, Theme::alarmText());
}

} // namespace

SummaryPage::SummaryPage(QWidget* parent)
    : QWidget(parent)
{
    m_header = new QLabel(this);
    m_header->setWordWrap(true);
    m_header->setTextFormat(Qt::RichText);
    m_header->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_header->setContentsMargins(4, 4, 4, 4);

    m_tree = new QTreeWidget(this);
    m_tree->setColumnCount(3);
    m_tree->setUniformRowHeights(true);
    m_tree->setAlternatingRowColors(true);
    m_tree->header()->setStretchLastSection(true);

    m_explanation = new QTextBrowser(this);
    m_explanation->setReadOnly(true);
    m_explanation->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    m_explanation->setLineWrapMode(QTextEdit::WidgetWidth);

    auto* horizontal = new QSplitter(Qt::Horizontal, this);
    horizontal->addWidget(m_tree);
    horizontal->addWidget(m_explanation);
    horizontal->setStretchFactor(0, 3);
    horizontal->setStretchFactor(1, 2);
    horizontal->setChildrenCollapsible(false);

    auto* issuesBox = new QWidget(this);
    auto* issuesLayout = new QVBoxLayout(issuesBox);
    issuesLayout->setContentsMargins(0, 0, 0, 0);
    m_issuesTitle = new QLabel(issuesBox);
    m_issuesTitle->setWordWrap(true);
    m_issues = new QListWidget(issuesBox);
    m_issues->setWordWrap(true);
    m_issues->setTextElideMode(Qt::ElideNone);
    issuesLayout->addWidget(m_issuesTitle);
    issuesLayout->addWidget(m_issues);

    // One layer's operators (Prediction::layerOps, then outputOps): where the layer's time goes, op by op.
    auto* opsBox = new QWidget(this);
    auto* opsLayout = new QVBoxLayout(opsBox);
    opsLayout->setContentsMargins(0, 0, 0, 0);
    m_opsTitle = new QLabel(opsBox);
    m_opsTitle->setWordWrap(true);
    m_ops = new QTableWidget(0, OpColumnCount, opsBox);
    setUpReadOnlyTable(m_ops);
    m_ops->horizontalHeader()->setStretchLastSection(false); // the numbers stay beside their names
    m_ops->setAlternatingRowColors(true);
    m_ops->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_ops->setSelectionMode(QAbstractItemView::SingleSelection);
    m_ops->verticalHeader()->setMinimumSectionSize(m_ops->fontMetrics().height() + 2);
    m_ops->verticalHeader()->setDefaultSectionSize(m_ops->fontMetrics().height() + 4);
    opsLayout->addWidget(m_opsTitle);
    opsLayout->addWidget(m_ops);

    m_vertical = new QSplitter(Qt::Vertical, this);
    m_vertical->addWidget(horizontal);
    m_vertical->addWidget(opsBox);
    m_vertical->addWidget(issuesBox);
    m_vertical->setStretchFactor(0, 4);
    m_vertical->setStretchFactor(1, 3);
    m_vertical->setStretchFactor(2, 1);
    m_vertical->setChildrenCollapsible(false);

    auto* layout = new QVBoxLayout(this);
    layout->addWidget(m_header);
    layout->addWidget(m_vertical, 1);

    connect(m_vertical, &QSplitter::splitterMoved, this, [this] { m_issueSplitterMoved = true; });
    connect(m_tree, &QTreeWidget::currentItemChanged, this, [this](QTreeWidgetItem* current) {
        if (current) m_selectedField = current->data(QuantityColumn, FieldRole).toString();
        showExplanation();
    });
    connect(m_ops, &QTableWidget::currentCellChanged, this, [this] { showOpDetails(); });
    connect(Theme::instance(), &Theme::changed, this, &SummaryPage::rebuild);
    rebuild();
}

void SummaryPage::setDocument(PlanDocument* document)
{
    m_feed.follow(document, this,
        [this](std::shared_ptr<const Analysis> analysis) { setAnalysis(std::move(analysis)); });
}

void SummaryPage::setAnalysis(std::shared_ptr<const Analysis> analysis)
{
    m_analysis = std::move(analysis);
    rebuild();
}

void SummaryPage::changeEvent(QEvent* event)
{
    if (event->type() == QEvent::LanguageChange) rebuild();
    QWidget::changeEvent(event);
}

void SummaryPage::rebuild()
{
    m_tree->setHeaderLabels({ tr("Quantity"), tr("Value"), tr("Note") });
    // The tables' names where they leave as a spreadsheet (File > Export Tables) and for screen readers.
    m_tree->setAccessibleName(tr("Metrics"));
    m_ops->setAccessibleName(tr("Operators"));
    m_issuesTitle->setText(tr("Warnings and errors"));
    m_opsTitle->setText(tr("Operators of one transformer layer, one microbatch, one GPU, in execution order (then "
                           "the output layer's, on the last stage); the Layer Anatomy page draws them"));
    rebuildHeader();
    rebuildTree();
    rebuildOps();
    rebuildIssues();
    if (QTreeWidgetItem* item = findField(m_selectedField)) m_tree->setCurrentItem(item);
    showExplanation();
    fitIssueList();
}

void SummaryPage::rebuildHeader()
{
    const Prediction* pr = prediction();
    if (!pr) {
        m_header->setText(tr("No plan loaded."));
        return;
    }
    const Plan& p = m_analysis->plan;
    const ParallelSpec& par = p.parallel;
    const QString name = p.name.empty() ? tr("(unnamed plan)") : fromStd(p.name);
    QString text = QStringLiteral("<b>%1</b>").arg(name.toHtmlEscaped());
    if (!pr->valid) {
        text += QStringLiteral(" &nbsp; <span style='color:%1'><b>%2</b></span>")
                    .arg(Theme::alarmText().name(), tr("This plan cannot run; the reasons are listed below."));
    }
    if (p.cluster.gpus() > 0 || !p.model.name.empty()) {
        text += QStringLiteral("<br>")
            + (pr->valid ? tr("Model: %1 (%2 parameters)")
                               .arg(fromStd(p.model.name).toHtmlEscaped(),
                                   fromStd(units::formatCount(pr->paramsTotal)))
                         : tr("Model: %1").arg(fromStd(p.model.name).toHtmlEscaped()))
            + QStringLiteral(" &nbsp;·&nbsp; ")
            + tr("GPUs: %1 × %2 (%3 nodes × %4)")
                  .arg(p.cluster.gpus())
                  .arg(fromStd(p.cluster.gpu.name).toHtmlEscaped())
                  .arg(p.cluster.nodes)
                  .arg(p.cluster.gpusPerNode)
            + QStringLiteral("<br>")
            + tr("Degrees: %1").arg(CoreText::text(degreesText(par)).toHtmlEscaped())
            + QStringLiteral(" &nbsp;·&nbsp; ")
            + tr("Schedule: %1, %2 microbatches of %3, global batch %4, %5, recompute %6")
                  .arg(fromStd(std::string(toString(p.training.schedule))))
                  .arg(p.microbatches())
                  .arg(p.training.microBatch)
                  .arg(p.training.globalBatch)
                  .arg(fromStd(std::string(toString(p.training.precision))),
                      fromStd(std::string(toString(p.training.recompute))));
    }
    m_header->setText(text);
}

void SummaryPage::rebuildTree()
{
    m_tree->clear();
    if (!m_analysis) return;
    const Prediction& pr = m_analysis->prediction;
    RowBuilder b(m_tree);

    if (!pr.valid) {
        QTreeWidgetItem* g = b.group(tr("Why this plan cannot run"));
        for (const Issue& e : pr.errors) {
            QString where = fromStd(e.path);
            if (e.offset >= 0)
                where = where.isEmpty() ? tr("byte %1").arg(e.offset)
                                        : tr("%1 (byte %2)").arg(where).arg(e.offset);
            QTreeWidgetItem* item
                = b.row(g, where, QString(), fromStd(e.path), 0, CoreText::text(e), CoreText::text(e));
            paintAlarm(item);
        }
        g->setExpanded(true);
        m_tree->resizeColumnToContents(QuantityColumn);
        return;
    }

    // ---- parameters
    QTreeWidgetItem* params = b.group(tr("Parameters"));
    b.row(params, tr("Total"), fromStd(units::formatCount(pr.paramsTotal)), QStringLiteral("params.total"),
        pr.paramsTotal, exactNumber(pr.paramsTotal));
    if (pr.paramsActive != pr.paramsTotal)
        b.row(params, tr("Active per token"), fromStd(units::formatCount(pr.paramsActive)), QString(),
            pr.paramsActive, exactNumber(pr.paramsActive));
    QTreeWidgetItem* perStage = b.row(params, tr("Per pipeline stage"), QString(), QString(), 0,
        tr("The model's parameters in each stage, all TP ranks of the stage together"),
        tr("all TP ranks of a stage together"));
    for (std::size_t i = 0; i < pr.paramsPerStage.size(); ++i)
        b.row(perStage, tr("Stage %1").arg(i), fromStd(units::formatCount(pr.paramsPerStage[i])),
            QStringLiteral("params.perStage.%1").arg(i), pr.paramsPerStage[i],
            exactNumber(pr.paramsPerStage[i]));

    // ---- memory
    QTreeWidgetItem* memory = b.group(tr("Memory per GPU, by pipeline stage"));
    b.row(memory, tr("GPU capacity"),
        tr("%1 GB (%2)")
            .arg(units::toGB(double(pr.capacityBytes)), 0, 'f', 1)
            .arg(gib(double(pr.capacityBytes))),
        QStringLiteral("memory.capacityBytes"), double(pr.capacityBytes), bytesTip(double(pr.capacityBytes)));
    const QString peakNote = !pr.fits ? tr("stage %1; over capacity by %2")
                                             .arg(pr.peakStage)
                                             .arg(gib(double(pr.peakBytes - pr.capacityBytes)))
        : pr.fitsWithHeadroom ? tr("stage %1; fits").arg(pr.peakStage)
                              : tr("stage %1; fits, but with %2 free, less than the planner's headroom")
                                    .arg(pr.peakStage)
                                    .arg(gib(double(pr.capacityBytes - pr.peakBytes)));
    QTreeWidgetItem* peak = b.bytes(memory, tr("Peak"), double(pr.peakBytes), QStringLiteral("memory.peakBytes"), peakNote);
    if (!pr.fits) paintAlarm(peak);
    if (pr.usableBytes > 0 && pr.usableBytes < pr.capacityBytes)
        b.bytes(memory, tr("Planner's fit (capacity less the headroom)"), double(pr.usableBytes),
            QStringLiteral("memory.usableBytes"),
            tr("memoryOverheads.headroom: the memory model's largest measured shortfall"));
    if (pr.simulatedPeakBytes > 0) {
        QTreeWidgetItem* simulated = b.bytes(memory, tr("Peak inside the simulated step"), double(pr.simulatedPeakBytes),
            QStringLiteral("memory.simulatedPeakBytes"),
            pr.simulatedPeakBytes > pr.capacityBytes ? tr("over capacity by %1").arg(gib(double(pr.simulatedPeakBytes - pr.capacityBytes)))
                                                     : tr("fits"));
        if (pr.simulatedPeakBytes > pr.capacityBytes) paintAlarm(simulated);
    }
    if (pr.hostBytesPerNode > 0)
        b.bytes(memory, tr("Host memory per node (offload)"), double(pr.hostBytesPerNode),
            QStringLiteral("memory.hostBytesPerNode"), tr("offloaded optimizer state and activations"));
    for (const StageMemory& st : pr.stages) {
        const QString base = QStringLiteral("memory.stages.%1.").arg(st.stage);
        QStringList holds { tr("%n layer(s)", nullptr, st.layers) };
        if (st.denseLayers > 0 && st.denseLayers < st.layers) holds << tr("%n with the dense MLP", nullptr, st.denseLayers);
        if (st.mtpLayers > 0) holds << tr("%n MTP module(s)", nullptr, st.mtpLayers);
        if (st.embedding) holds << tr("embedding");
        if (st.output) holds << tr("output layer");
        const std::int64_t over = st.totalBytes - pr.capacityBytes;
        const QString fit = over > 0 ? tr("over by %1").arg(gib(double(over))) : tr("fits");
        QTreeWidgetItem* stage = b.bytes(memory, tr("Stage %1").arg(st.stage), double(st.totalBytes),
            base + QStringLiteral("totalBytes"),
            holds.join(QStringLiteral(", ")) + QStringLiteral("; ") + fit);
        if (over > 0) paintAlarm(stage);
        for (MemorySegment seg : kMemorySegments) {
            QTreeWidgetItem* item = b.bytes(stage, segmentName(seg), double(segmentBytes(st, seg)),
                base + QLatin1String(segmentField(seg)));
            item->setIcon(QuantityColumn, [&] {
                QPixmap swatch(12, 12);
                swatch.fill(segmentColor(seg));
                return QIcon(swatch);
            }());
        }
        QTreeWidgetItem* total
            = b.bytes(stage, tr("Total"), double(st.totalBytes), base + QStringLiteral("totalBytes"), fit);
        if (over > 0) paintAlarm(total);
        b.row(stage, tr("Microbatches in flight"), QString::number(st.inFlightMicrobatches, 'f', 2),
            base + QStringLiteral("inFlightMicrobatches"), st.inFlightMicrobatches,
            exactNumber(st.inFlightMicrobatches),
            tr("activations held at the peak, in microbatch-equivalents"));
        b.bytes(stage, tr("Activations of one layer, one microbatch"), double(st.activationsPerLayerBytes),
            base + QStringLiteral("activationsPerLayerBytes"));
        if (st.fp8WeightCacheBytes > 0)
            b.bytes(stage, tr("FP8 weight copies (in weights)"), double(st.fp8WeightCacheBytes),
                base + QStringLiteral("fp8WeightCacheBytes"), tr("the forward cast and the transposed copy of each fp8 GEMM weight"));
        if (st.fp8ScalingBytes > 0)
            b.bytes(stage, tr("FP8 scaling state (in weights)"), double(st.fp8ScalingBytes),
                base + QStringLiteral("fp8ScalingBytes"));
        if (st.hostBytes > 0)
            b.bytes(stage, tr("On the host (offload)"), double(st.hostBytes), base + QStringLiteral("hostBytes"),
                tr("not in this GPU's total"));
        if (st.simulatedPeakBytes > 0)
            b.bytes(stage, tr("Peak inside the simulated step"), double(st.simulatedPeakBytes),
                base + QStringLiteral("simulatedPeakBytes"));
        stage->setExpanded(st.stage == pr.peakStage);
    }

    // ---- FLOPs
    QTreeWidgetItem* flops = b.group(tr("FLOPs"));
    b.row(flops, tr("Model FLOPs per token"), fromStd(units::formatFlops(pr.modelFlopsPerToken)),
        QStringLiteral("flops.modelPerToken"), pr.modelFlopsPerToken, exactNumber(pr.modelFlopsPerToken));
    b.row(flops, tr("Model FLOPs per step"), fromStd(units::formatFlops(pr.modelFlopsPerStep)),
        QStringLiteral("flops.modelPerStep"), pr.modelFlopsPerStep, exactNumber(pr.modelFlopsPerStep),
        tr("without recompute (for MFU)"));
    b.row(flops, tr("Hardware FLOPs per step"), fromStd(units::formatFlops(pr.hardwareFlopsPerStep)),
        QStringLiteral("flops.hardwarePerStep"), pr.hardwareFlopsPerStep,
        exactNumber(pr.hardwareFlopsPerStep), tr("with recompute (for HFU)"));

    // ---- time
    QTreeWidgetItem* time = b.group(tr("Time"));
    b.seconds(time, tr("Step time"), pr.stepSeconds, QStringLiteral("time.stepSeconds"),
        pr.timeSource == "simulation"
            ? tr("simulated schedule; the closed form gives %1").arg(display::seconds(pr.analyticStepSeconds))
            : tr("compute + bubble + exposed communication + optimizer"));
    b.seconds(time, tr("Compute"), pr.computeSeconds, QStringLiteral("time.computeSeconds"));
    // The schedule's bubble (its formula and value agree) and, apart, the idle of every cause.
    const Plan& plan = m_analysis->plan;
    const BubbleFormulas bf = bubbleFormulas(plan.training.schedule);
    const QString pmv = plan.parallel.vpp > 1 ? tr("p = %1, m = %2, v = %3").arg(plan.parallel.pp).arg(pr.microbatches).arg(plan.parallel.vpp)
                                              : tr("p = %1, m = %2").arg(plan.parallel.pp).arg(pr.microbatches);
    b.seconds(time, tr("Schedule bubble"), pr.bubbleSeconds, QStringLiteral("time.bubbleSeconds"),
        tr("the schedule's fill and drain at the slowest stage's pace"));
    b.share(time, tr("Bubble fraction"), pr.bubbleFraction, QStringLiteral("time.bubbleFraction"),
        bf.closedInPmv ? tr("schedule bubble over the pipeline: %1 with %2").arg(fromStd(bf.share), pmv)
                       : tr("schedule bubble over the pipeline: %1").arg(fromStd(bf.share)));
    b.share(time, tr("Bubble overhead"), pr.bubbleOverhead, QStringLiteral("time.bubbleOverhead"),
        bf.closedInPmv ? tr("schedule bubble over ideal compute: %1 with %2").arg(fromStd(bf.overhead), pmv)
                       : tr("schedule bubble over ideal compute: %1").arg(fromStd(bf.overhead)));
    b.share(time, tr("Idle, all causes"), pr.idleFraction, QStringLiteral("time.idleFraction"),
        tr("all ranks' idle share: the bubble %1 plus %2 waiting on slower stages and sends")
            .arg(display::percent(pr.bubbleFraction), display::percent(std::max(0.0, pr.imbalanceIdleFraction))));
    b.seconds(
        time, tr("Exposed communication"), pr.exposedCommSeconds, QStringLiteral("time.exposedCommSeconds"));
    b.seconds(time, tr("Optimizer step"), pr.optimizerSeconds, QStringLiteral("time.optimizerSeconds"));
    b.share(time, tr("MFU"), pr.mfu, QStringLiteral("time.mfu"), tr("model FLOPs utilisation"));
    b.share(time, tr("HFU"), pr.hfu, QStringLiteral("time.hfu"), tr("hardware FLOPs utilisation"));
    b.row(time, tr("Throughput"), tr("%1 tokens/s").arg(fromStd(units::formatCount(pr.tokensPerSecond))),
        QStringLiteral("time.tokensPerSecond"), pr.tokensPerSecond,
        tr("%1 tokens/s").arg(exactNumber(pr.tokensPerSecond)));
    b.row(time, tr("Training time"), tr("%1 days").arg(pr.trainingDays, 0, 'f', 1),
        QStringLiteral("time.trainingDays"), pr.trainingDays, tr("%1 days").arg(exactNumber(pr.trainingDays)),
        tr("%1 tokens").arg(fromStd(units::formatCount(plan.training.tokens))));

    // ---- communication
    QTreeWidgetItem* comm = b.group(tr("Communication per step"));
    for (std::size_t i = 0; i < pr.comm.size(); ++i) {
        const CommGroup& g = pr.comm[i];
        const QString base = QStringLiteral("comm.groups.%1.").arg(i);
        const QString where = g.crossesNodes
            ? tr("crosses nodes: %1 nodes, %2 of its GPUs per node").arg(g.nodesSpanned).arg(g.perNode)
            : tr("inside one node");
        const QString note = tr("%1, %2; %3").arg(CoreText::text(g.collective), CoreText::text(g.algorithm), where);
        QTreeWidgetItem* item = b.seconds(comm, tr("%1, group of %2").arg(kindName(g.kind)).arg(g.size),
            g.seconds, base + QStringLiteral("seconds"), note);
        if (g.crossesNodes) paintAlarm(item);
        QTreeWidgetItem* bytes
            = b.row(item, tr("Sent per GPU"), tr("%1 GB").arg(units::toGB(g.bytesPerStep), 0, 'f', 2),
                base + QStringLiteral("bytesPerStep"), g.bytesPerStep, bytesTip(g.bytesPerStep));
        Q_UNUSED(bytes);
        b.row(item, tr("Link bandwidth"), tr("%1 GB/s").arg(units::toGB(g.linkBandwidth), 0, 'f', 1),
            QString(), g.linkBandwidth,
            tr("%1 bytes/s per GPU per direction").arg(exactNumber(g.linkBandwidth)),
            tr("per direction, the slowest link the group uses"));
        b.seconds(item, tr("Time"), g.seconds, base + QStringLiteral("seconds"));
        b.seconds(item, tr("Exposed (on the critical path)"), g.exposedSeconds,
            base + QStringLiteral("exposedSeconds"));
    }

    for (QTreeWidgetItem* g : { params, memory, flops, time, comm })
        g->setExpanded(true);
    for (int c : { QuantityColumn, ValueColumn })
        m_tree->resizeColumnToContents(c);
    m_tree->setColumnWidth(QuantityColumn, m_tree->columnWidth(QuantityColumn) + 16);
}

void SummaryPage::rebuildIssues()
{
    m_issues->clear();
    const Prediction* pr = prediction();
    if (!pr) return;
    const QIcon errorIcon = style()->standardIcon(QStyle::SP_MessageBoxCritical);
    const QIcon warningIcon = style()->standardIcon(QStyle::SP_MessageBoxWarning);
    for (const Issue& e : pr->errors) {
        QString where = fromStd(e.path);
        if (e.offset >= 0)
            where
                = where.isEmpty() ? tr("byte %1").arg(e.offset) : tr("%1 (byte %2)").arg(where).arg(e.offset);
        auto* item
            = new QListWidgetItem(errorIcon, tr("Error: %1: %2").arg(where, CoreText::text(e)), m_issues);
        item->setForeground(Theme::alarmText());
        item->setData(FieldRole, fromStd(e.path));
    }
    // The plan file's warnings (PlanDocument::loadWarnings() as this analysis was made).
    for (const Issue& w : m_analysis->inputWarnings) {
        auto* item = new QListWidgetItem(
            warningIcon, tr("File: %1: %2").arg(fromStd(w.path), CoreText::text(w)), m_issues);
        item->setData(FieldRole, fromStd(w.path));
    }
    for (const Issue& w : pr->warnings) {
        auto* item = new QListWidgetItem(warningIcon, tr("Warning: %1").arg(CoreText::line(w)), m_issues);
        item->setData(FieldRole, fromStd(w.path));
    }
    if (m_issues->count() == 0) new QListWidgetItem(tr("No warnings."), m_issues);
}

void SummaryPage::rebuildOps()
{
    m_ops->clearContents();
    m_ops->setRowCount(0);
    m_ops->setHorizontalHeaderLabels({ tr("Pass"), tr("Op"), tr("Shape (M×N×K) or collective"), tr("GFLOP"),
        tr("MB"), tr("Bound"), tr("Efficiency"), tr("ms"), tr("Exposed ms") });
    const auto headerTip = [this](int column, const QString& tip) {
        if (QTableWidgetItem* h = m_ops->horizontalHeaderItem(column)) h->setToolTip(tip);
    };
    headerTip(OpGflopColumn, tr("Floating-point operations on this GPU, in 10^9"));
    headerTip(OpMegabytesColumn,
        tr("Memory traffic of a kernel, or the buffer of a collective as nccl-tests counts it, in 10^6 bytes"));
    headerTip(OpEfficiencyColumn, tr("Achieved FLOP/s over the GPU's dense peak"));
    headerTip(OpMillisecondsColumn, tr("What the op takes"));
    headerTip(OpExposedColumn,
        tr("The part of it on the critical path: all of it, or what the op it overlaps with does not hide"));
    const Prediction* pr = prediction();
    if (!pr || !pr->valid) return;

    const auto right = Qt::AlignRight | Qt::AlignVCenter;
    const auto left = Qt::AlignLeft | Qt::AlignVCenter;
    QFont bold = m_ops->font();
    bold.setBold(true);
    auto title = [&](const QString& text) {
        const int row = m_ops->rowCount();
        m_ops->insertRow(row);
        QTableWidgetItem* item = readOnlyCell(text, left);
        item->setFont(bold);
        item->setData(OpIndexRole, -1);
        m_ops->setItem(row, OpPassColumn, item);
        m_ops->setSpan(row, 0, 1, OpColumnCount);
    };
    auto list = [&](const std::vector<KernelOp>& ops, int which) {
        for (std::size_t i = 0; i < ops.size(); ++i) {
            const KernelOp& op = ops[i];
            const int row = m_ops->rowCount();
            m_ops->insertRow(row);
            QString shape = OperatorText::shape(op);
            const QString behind = OperatorText::hiddenBehind(ops, op);
            if (!behind.isEmpty()) shape = tr("%1, overlaps with %2").arg(shape, behind);
            QTableWidgetItem* cells[OpColumnCount] = {
                readOnlyCell(OperatorText::passName(op.pass), left),
                readOnlyCell(QString::fromUtf8(op.name), left),
                readOnlyCell(shape, left),
                readOnlyCell(OperatorText::gflop(op.flops), right),
                readOnlyCell(OperatorText::megabytes(op.bytes), right),
                readOnlyCell(OperatorText::boundName(op.bound), left),
                readOnlyCell(op.flops > 0 ? OperatorText::efficiency(op.efficiency) : QString(), right),
                readOnlyCell(OperatorText::milliseconds(op.seconds), right),
                readOnlyCell(OperatorText::milliseconds(op.exposedSeconds), right),
            };
            cells[OpNameColumn]->setData(OpIndexRole, int(i));
            cells[OpNameColumn]->setData(OpListRole, which);
            cells[OpMillisecondsColumn]->setData(OpSecondsRole, op.seconds);
            cells[OpExposedColumn]->setData(OpSecondsRole, op.exposedSeconds);
            QPixmap swatch(10, 10);
            swatch.fill(OperatorText::boundColor(op.bound));
            cells[OpBoundColumn]->setIcon(QIcon(swatch));
            const QString tip = OperatorText::toolTip(ops, i);
            for (int c = 0; c < OpColumnCount; ++c) {
                cells[c]->setToolTip(tip);
                if (!behind.isEmpty() && op.exposedSeconds <= 0) cells[c]->setForeground(Theme::mutedText());
                m_ops->setItem(row, c, cells[c]);
            }
        }
        // A total per pass, as planscope-cli explain --ops prints them: seconds, and the exposed seconds (sumPasses).
        const PassTotals exposed = sumPasses(ops);
        for (KernelPass pass :
            { KernelPass::Forward, KernelPass::Recompute, KernelPass::BackwardInput, KernelPass::BackwardWeight }) {
            double seconds = 0;
            for (const KernelOp& op : ops)
                if (op.pass == pass) seconds += op.seconds;
            if (seconds <= 0) continue;
            const double x = pass == KernelPass::Forward ? exposed.forward
                : pass == KernelPass::Recompute          ? exposed.recompute
                : pass == KernelPass::BackwardInput      ? exposed.backwardInput
                                                         : exposed.backwardWeight;
            const int row = m_ops->rowCount();
            m_ops->insertRow(row);
            QTableWidgetItem* cells[OpColumnCount] = { readOnlyCell(tr("total"), left),
                readOnlyCell(OperatorText::passName(pass), left), readOnlyCell(QString(), left),
                readOnlyCell(QString(), right), readOnlyCell(QString(), right), readOnlyCell(QString(), left),
                readOnlyCell(QString(), right), readOnlyCell(OperatorText::milliseconds(seconds), right),
                readOnlyCell(OperatorText::milliseconds(x), right) };
            cells[OpPassColumn]->setData(OpPassRole, int(pass));
            cells[OpNameColumn]->setData(OpIndexRole, -1);
            cells[OpNameColumn]->setData(OpListRole, which);
            cells[OpMillisecondsColumn]->setData(OpSecondsRole, seconds);
            cells[OpExposedColumn]->setData(OpSecondsRole, x);
            for (int c = 0; c < OpColumnCount; ++c) {
                cells[c]->setFont(bold);
                m_ops->setItem(row, c, cells[c]);
            }
        }
    };
    if (!pr->layerOps.empty()) {
        title(tr("One transformer layer"));
        list(pr->layerOps, 0);
    }
    if (!pr->outputOps.empty()) {
        title(tr("Output layer (last pipeline stage)"));
        list(pr->outputOps, 1);
    }
}

void SummaryPage::showOpDetails()
{
    const Prediction* pr = prediction();
    if (!pr || !pr->valid) return;
    const int row = m_ops->currentRow();
    const QTableWidgetItem* name = row >= 0 ? m_ops->item(row, OpNameColumn) : nullptr;
    const int index = name ? name->data(OpIndexRole).toInt() : -1;
    if (index < 0) return;
    const auto& ops = name->data(OpListRole).toInt() == 1 ? pr->outputOps : pr->layerOps;
    if (std::size_t(index) < ops.size()) m_explanation->setHtml(OperatorText::toolTip(ops, std::size_t(index)));
}

void SummaryPage::resizeEvent(QResizeEvent* event)
{
    QWidget::resizeEvent(event);
    fitIssueList();
}

void SummaryPage::fitIssueList()
{
    // The list takes the height of its lines (wrapped), between two lines and a third of the page, until
    // the user moves the splitter.
    const int total = m_vertical->height();
    if (m_issueSplitterMoved || total <= 0) return;
    const int width = std::max(200, m_vertical->width() - 60);
    const QFontMetrics fm(m_issues->font());
    const int rowHeight
        = std::max(fm.lineSpacing(), m_issues->style()->pixelMetric(QStyle::PM_SmallIconSize)) + 10;
    int listHeight = 2 * m_issues->frameWidth() + 6;
    for (int i = 0; i < m_issues->count(); ++i)
        listHeight
            += rowHeight + fm.lineSpacing() * (fm.horizontalAdvance(m_issues->item(i)->text()) / width);
    listHeight = std::max(listHeight, 2 * rowHeight);
    const int wanted = std::clamp(listHeight + m_issuesTitle->sizeHint().height() + 6, 60, total / 3);
    const int rest = total - wanted;
    m_vertical->setSizes({ rest * 11 / 20, rest - rest * 11 / 20, wanted });
}

QTreeWidgetItem* SummaryPage::findField(const QString& field) const
{
    for (QTreeWidgetItemIterator it(m_tree); *it; ++it)
        if ((*it)->data(QuantityColumn, FieldRole).toString() == field) return *it;
    return nullptr;
}

void SummaryPage::selectField(const QString& field)
{
    if (QTreeWidgetItem* item = findField(field)) {
        m_selectedField = field;
        m_tree->setCurrentItem(item);
        m_tree->scrollToItem(item);
    }
}

void SummaryPage::showExplanation()
{
    QTreeWidgetItem* item = m_tree->currentItem();
    const Prediction* pr = prediction();
    if (!pr || !pr->valid) {
        m_explanation->setPlainText(pr ? tr("This plan cannot run, so nothing was computed.\n\n%1")
                                             .arg(PlanDocument::describe(pr->errors))
                                       : QString());
        return;
    }
    const QString field = item ? item->data(QuantityColumn, FieldRole).toString() : QString();
    const Explainer* explainer = m_analysis->explainer.get();
    if (field.isEmpty() || !explainer || !explainer->find(field.toStdString())) {
        m_explanation->setPlainText(tr("Select a number to see how it was computed: the formula, the values "
                                       "put in, and where it comes from."));
        return;
    }
    const QString title = item->text(QuantityColumn) + QStringLiteral(" = ") + item->text(ValueColumn);
    m_explanation->setPlainText(title + QStringLiteral("\n\n")
        + CoreText::explanation(*explainer, field.toStdString()));
}

QString SummaryPage::pageTitle() const
{
    return tr("Metrics");
}

bool SummaryPage::exportTo(const QString& path, QSize size, QString* error)
{
    // The whole content, never a window onto it: every list and text shown to its end, no scroll bars. The page
    // is laid out at the width asked for (or its own), each pane as tall as its content, rendered, and put back.
    const QSize old = this->size();
    const int width = size.isValid() && !size.isEmpty() ? size.width() : std::max(old.width(), 900);
    const QList<QAbstractScrollArea*> areas { m_tree, m_explanation, m_ops, m_issues };
    QList<std::pair<Qt::ScrollBarPolicy, Qt::ScrollBarPolicy>> policies;
    for (QAbstractScrollArea* area : areas) {
        policies.push_back({ area->horizontalScrollBarPolicy(), area->verticalScrollBarPolicy() });
        area->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
        area->setVerticalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    }
    const QList<int> verticalSizes = m_vertical->sizes();
    const bool moved = m_issueSplitterMoved;
    m_issueSplitterMoved = true; // fitIssueList leaves the sizes set here alone
    const QList<QAbstractItemView*> views { m_tree, m_ops, m_issues };
    QList<QAbstractItemView::ScrollMode> modes;
    for (QAbstractItemView* view : views) {
        modes << view->verticalScrollMode();
        view->setVerticalScrollMode(QAbstractItemView::ScrollPerPixel); // the hidden part in pixels
    }
    resize(width, std::max(old.height(), 600));
    layout()->activate();
    // What each pane hides below its bottom edge now (a scroll bar's range, in pixels), added to its height;
    // twice, since a taller pane may wrap its text differently once it no longer scrolls.
    for (int pass = 0; pass < 2; ++pass) {
        auto hidden = [](QAbstractScrollArea* area) { return area->verticalScrollBar()->maximum(); };
        QList<int> sizes = m_vertical->sizes();
        sizes[0] += std::max(hidden(m_tree), hidden(m_explanation));
        sizes[1] += hidden(m_ops);
        sizes[2] += hidden(m_issues);
        const int grow = sizes[0] + sizes[1] + sizes[2] - m_vertical->sizes().value(0) - m_vertical->sizes().value(1)
            - m_vertical->sizes().value(2);
        if (grow <= 0) break;
        resize(width, height() + grow);
        layout()->activate();
        m_vertical->setSizes(sizes);
        QCoreApplication::sendPostedEvents();
        for (QAbstractScrollArea* area : areas)
            area->verticalScrollBar()->setValue(0);
    }
    const bool ok = WidgetExporter::exportWidget(this, path, error);
    for (int i = 0; i < areas.size(); ++i) {
        areas[i]->setHorizontalScrollBarPolicy(policies[i].first);
        areas[i]->setVerticalScrollBarPolicy(policies[i].second);
    }
    for (int i = 0; i < views.size(); ++i)
        views[i]->setVerticalScrollMode(modes[i]);
    resize(old);
    layout()->activate();
    m_vertical->setSizes(verticalSizes);
    m_issueSplitterMoved = moved;
    return ok;
}

} // namespace planscope
