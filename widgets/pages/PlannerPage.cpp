#include "pages/PlannerPage.h"

#include "CoreText.h"
#include "Format.h"
#include "Theme.h"
#include "WidgetExporter.h"
#include "charts/FieldScientificSpinBox.h"
#include "charts/PlannerScatter.h"
#include "charts/ReadOnlyTable.h"
#include "cost/Evaluate.h"
#include "document/PlanDocument.h"

#include <QCheckBox>
#include <QComboBox>
#include <QCoreApplication>
#include <QDoubleSpinBox>
#include <QEvent>
#include <QGridLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QLocale>
#include <QMetaMethod>
#include <QProgressBar>
#include <QPushButton>
#include <QRegularExpression>
#include <QRegularExpressionValidator>
#include <QSpinBox>
#include <QSplitter>
#include <QTableWidget>
#include <QTimer>
#include <QVBoxLayout>
#include <algorithm>
#include <cmath>

namespace planscope {

namespace {

// The knobs offered, in the order of the command line's --vary list (core's knob table; Gpus is the GPU counts'
// line).
const std::vector<Knob>& offeredKnobs()
{
    static const std::vector<Knob> knobs = [] {
        std::vector<Knob> out;
        for (const KnobInfo& i : knobTable())
            if (i.knob != Knob::Gpus) out.push_back(i.knob);
        return out;
    }();
    return knobs;
}

const char* const kKnobTips[kKnobCount] = {
    QT_TRANSLATE_NOOP("planscope::PlannerPage", "GPU counts: set them in the line beside"),
    QT_TRANSLATE_NOOP("planscope::PlannerPage", "Tensor parallelism: the divisors of the GPU count up to the attention heads"),
    QT_TRANSLATE_NOOP("planscope::PlannerPage", "Context parallelism: the divisors of the GPU count that divide the sequence"),
    QT_TRANSLATE_NOOP("planscope::PlannerPage", "Expert parallelism (MoE models): the divisors of the GPU count up to the experts"),
    QT_TRANSLATE_NOOP("planscope::PlannerPage", "Sequence parallelism: off and on"),
    QT_TRANSLATE_NOOP("planscope::PlannerPage", "Microbatch size: the divisors of the global batch up to 64"),
    QT_TRANSLATE_NOOP("planscope::PlannerPage", "Activation recomputation: none, selective (two module sets) and full"),
    QT_TRANSLATE_NOOP("planscope::PlannerPage", "Communication overlap: every combination of gradient-reduce, TP-comm and P2P overlap"),
    QT_TRANSLATE_NOOP("planscope::PlannerPage", "Pipeline schedule: gpipe, 1f1b, interleaved-1f1b, zb-h1, zb-h2, zb-v, dualpipe, dualpipe-v"),
    QT_TRANSLATE_NOOP("planscope::PlannerPage", "Pipeline parallelism: the divisors of the GPU count up to the layers"),
    QT_TRANSLATE_NOOP("planscope::PlannerPage", "Data parallelism: what is left of the GPUs (GPUs / (tp × pp × cp))"),
    QT_TRANSLATE_NOOP("planscope::PlannerPage", "Virtual pipeline stages per rank: the divisors of the layers"),
    QT_TRANSLATE_NOOP("planscope::PlannerPage", "ZeRO stage: 0, 1, 2 and 3"),
    QT_TRANSLATE_NOOP("planscope::PlannerPage", "Optimizer offload to the host: 0, 50 % and 100 % of the optimizer state"),
};

// The best plans' columns.
enum BestColumn { cRank, cGpus, cDp, cTp, cPp, cCp, cEp, cVpp, cSp, cZero, cMicroBatch, cRecompute, cSchedule, cOverlap,
    cOffload, cStep, cTokens, cMfu, cPeak, cEvidence, cBestColumns };

// A cell that sorts by the number it stands for (Qt::UserRole) rather than by its text.
class NumberCell : public QTableWidgetItem {
public:
    NumberCell(const QString& text, double key)
        : QTableWidgetItem(text)
    {
        setData(Qt::UserRole, key);
        setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
        setFlags(Qt::ItemIsEnabled | Qt::ItemIsSelectable);
    }
    bool operator<(const QTableWidgetItem& other) const override
    {
        return data(Qt::UserRole).toDouble() < other.data(Qt::UserRole).toDouble();
    }
};

// A plan against published runs (search/Evidence.h): "beyond: MFU, memory" in the alarm colour, "within", or
// "MFU not checked" where no published run covers the GPU and precision; sorted by the flags; the reasons and the
// ceiling on hover.
QTableWidgetItem* evidenceCell(const PublishedEvidence& ev, const SearchEntry& e)
{
    QStringList beyond;
    if (e.beyond & kBeyondMfu) beyond << PlannerPage::tr("MFU");
    if (e.beyond & kBeyondMemory) beyond << PlannerPage::tr("memory");
    const QString text = !beyond.isEmpty() ? PlannerPage::tr("beyond: %1").arg(beyond.join(PlannerPage::tr(", ")))
        : ev.hasCeiling                   ? PlannerPage::tr("within")
                                          : PlannerPage::tr("MFU not checked");
    auto* cell = new NumberCell(text, double(e.beyond));
    QString tip = CoreText::text(beyondEvidenceText(ev, e.beyond, e.mfu, e.peakBytes, e.capacityBytes));
    tip += (tip.isEmpty() ? QString() : QStringLiteral("\n")) + PlannerPage::tr("Held to %1.").arg(CoreText::text(evidenceText(ev)));
    cell->setToolTip(tip);
    if (e.beyond) {
        cell->setForeground(Theme::alarmText());
        QFont f = cell->font();
        f.setBold(true);
        cell->setFont(f);
    }
    return cell;
}

QTableWidgetItem* textCell(const QString& text)
{
    return readOnlyCell(text, Qt::AlignLeft | Qt::AlignVCenter);
}

// A difference of bytes with its sign, as display::signedSeconds writes one of seconds (U+2212 minus).
QString signedBytes(double bytes)
{
    if (bytes == 0) return display::bytes(0);
    return (bytes > 0 ? QStringLiteral("+") : QString(QChar(0x2212))) + display::bytes(std::abs(bytes));
}

QString termValue(double value, const std::string& unit)
{
    return unit == "B" ? display::bytes(value) : display::seconds(value);
}

QString termDifference(double value, const std::string& unit)
{
    return unit == "B" ? signedBytes(value) : display::signedSeconds(value);
}

// A term's label in the UI language; a part of the line above (the groups under the exposed communication) indented.
QString termLabel(const TermDifference& t)
{
    return (t.part ? QStringLiteral("    ") : QString()) + CoreText::text(t.label);
}

// A plan's knobs in one line, as the command line lists them.
QString describe(const Candidate& c)
{
    return QStringLiteral("dp %1 · tp %2 · pp %3 · cp %4 · vpp %5 · mb %6 · %7 · %8")
        .arg(c.dp)
        .arg(c.tp)
        .arg(c.pp)
        .arg(c.cp)
        .arg(c.vpp)
        .arg(c.microBatch)
        .arg(knobValueText(Knob::Recompute, c), knobValueText(Knob::Schedule, c));
}

// A plan's knobs in a few words, the command line's way ("dp64 tp4 pp1 mb3 selective 1f1b"): cp, ep, vpp, sp and
// ZeRO only where they differ from the default, so that the cluster-size table's column stays narrow.
QString shortKnobs(const Candidate& c)
{
    return QString::fromStdString(candidateText(c, true));
}

// Days with one decimal (a deadline of whole days without one).
QString days(double d)
{
    return d == std::floor(d) ? QLocale().toString(qlonglong(d)) : QLocale().toString(d, 'f', 1);
}

// Marks the cluster-size table's answer row (sizeCluster's answer), for sizingAnswerRow().
constexpr int kAnswerRole = Qt::UserRole + 1;

void setTextColour(QWidget* w, const QColor& colour)
{
    QPalette p = w->palette();
    p.setColor(QPalette::WindowText, colour);
    w->setPalette(p);
}

QString count(double n)
{
    return QLocale().toString(qlonglong(std::llround(n)));
}

} // namespace

PlannerPage::PlannerPage(QWidget* parent)
    : QWidget(parent)
    , m_poll(new QTimer(this))
{
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->setSpacing(4);
    layout->addWidget(buildControls());
    layout->addWidget(buildResults(), 1);
    // Progress every 50 ms: the worker writes two atomics, the GUI thread reads them here and never waits.
    m_poll->setInterval(50);
    connect(m_poll, &QTimer::timeout, this, &PlannerPage::poll);
    connect(Theme::instance(), &Theme::changed, this, [this] {
        showOpenPlanNote();
        showSummary();
        fillSizingTable();
    });
    retranslate();
    setRunning(false);
}

PlannerPage::~PlannerPage()
{
    stopWorker();
}

QWidget* PlannerPage::buildControls()
{
    auto* controls = new QWidget(this);
    auto* column = new QVBoxLayout(controls);
    column->setContentsMargins(0, 0, 0, 0);
    column->setSpacing(4);

    // The knobs: the command line's default set ticked, overlap and offload not (docs/SEARCH.md).
    m_knobBox = new QGroupBox(controls);
    auto* grid = new QGridLayout(m_knobBox);
    grid->setContentsMargins(6, 2, 6, 2);
    grid->setHorizontalSpacing(12);
    grid->setVerticalSpacing(2);
    const std::vector<Knob> defaults = defaultKnobs();
    int i = 0;
    for (Knob k : offeredKnobs()) {
        auto* box = new QCheckBox(QString::fromLatin1(knobName(k)), m_knobBox);
        box->setChecked(std::find(defaults.begin(), defaults.end(), k) != defaults.end());
        m_knobs[std::size_t(k)] = box;
        // Two rows: the page stays narrow enough to sit beside the plan editor.
        grid->addWidget(box, i / 7, i % 7);
        ++i;
    }
    grid->setColumnStretch(7, 1);
    column->addWidget(m_knobBox);

    // The cluster question on a line of its own (GPU counts, tokens, deadline): beside the search's options the row
    // would not fit next to the plan editor.
    auto* sizingRow = new QHBoxLayout;
    sizingRow->setSpacing(6);
    auto* row = new QHBoxLayout;
    row->setSpacing(6);
    m_gpusLabel = new QLabel(controls);
    m_gpus = new QLineEdit(controls);
    m_gpus->setValidator(new QRegularExpressionValidator(QRegularExpression(QStringLiteral("[0-9, ]*")), m_gpus));
    m_gpus->setMinimumWidth(110);
    m_gpus->setMaximumWidth(220);
    m_gpusLabel->setBuddy(m_gpus);
    m_tokensLabel = new QLabel(controls);
    m_tokens = new FieldScientificSpinBox(controls);
    m_tokens->setMinimumWidth(90);
    m_tokensLabel->setBuddy(m_tokens);
    m_deadlineLabel = new QLabel(controls);
    m_deadline = new QDoubleSpinBox(controls);
    m_deadline->setRange(0, 3650);
    m_deadline->setDecimals(1);
    m_deadline->setMinimumWidth(80);
    m_deadlineLabel->setBuddy(m_deadline);
    for (QWidget* w : std::initializer_list<QWidget*> { m_gpusLabel, m_gpus, m_tokensLabel, m_tokens, m_deadlineLabel, m_deadline })
        sizingRow->addWidget(w);
    sizingRow->addStretch(1);
    m_objectiveLabel = new QLabel(controls);
    m_objective = new QComboBox(controls);
    for (Objective o : { Objective::Time, Objective::Cost, Objective::Memory }) m_objective->addItem(QString(), int(o));
    m_objectiveLabel->setBuddy(m_objective);
    m_topLabel = new QLabel(controls);
    m_top = new QSpinBox(controls);
    m_top->setRange(1, 200);
    m_top->setValue(10);
    m_topLabel->setBuddy(m_top);
    m_search = new QPushButton(controls);
    m_search->setDefault(true);
    m_cancel = new QPushButton(controls);
    m_progress = new QProgressBar(controls);
    m_progress->setRange(0, 1000);
    m_progress->setMinimumWidth(120);
    // Hidden between searches without the row moving.
    QSizePolicy keep = m_progress->sizePolicy();
    keep.setRetainSizeWhenHidden(true);
    m_progress->setSizePolicy(keep);
    for (QWidget* w : std::initializer_list<QWidget*> { m_objectiveLabel, m_objective, m_topLabel, m_top, m_search, m_cancel })
        row->addWidget(w);
    row->addWidget(m_progress, 1);
    column->addLayout(sizingRow);
    column->addLayout(row);

    m_summary = new QLabel(controls);
    m_summary->setWordWrap(true);
    m_summary->setTextInteractionFlags(Qt::TextSelectableByMouse);
    column->addWidget(m_summary);

    connect(m_search, &QPushButton::clicked, this, &PlannerPage::startSearch);
    connect(m_gpus, &QLineEdit::returnPressed, this, &PlannerPage::startSearch);
    connect(m_cancel, &QPushButton::clicked, this, &PlannerPage::cancelSearch);
    // The answer follows the question at once: sizeCluster() of the finished search, no new search.
    connect(m_tokens, &QDoubleSpinBox::valueChanged, this, &PlannerPage::showSizing);
    connect(m_deadline, &QDoubleSpinBox::valueChanged, this, [this] {
        showGpuCountsHint();
        showSizing();
    });
    return controls;
}

QWidget* PlannerPage::buildResults()
{
    // Left: the colour choice over the scatter and what the chart cannot mark. Right: why not mine, and why the
    // other plans were turned away. Under both: the best plans.
    auto* chart = new QWidget(this);
    auto* chartColumn = new QVBoxLayout(chart);
    chartColumn->setContentsMargins(0, 0, 0, 0);
    chartColumn->setSpacing(2);
    auto* colourRow = new QHBoxLayout;
    m_colourLabel = new QLabel(chart);
    m_colour = new QComboBox(chart);
    m_colourLabel->setBuddy(m_colour);
    colourRow->addWidget(m_colourLabel);
    colourRow->addWidget(m_colour);
    colourRow->addStretch(1);
    m_scatter = new PlannerScatter(chart);
    m_scatter->setMinimumHeight(260);
    m_givenNote = new QLabel(chart);
    m_givenNote->setWordWrap(true);
    chartColumn->addLayout(colourRow);
    chartColumn->addWidget(m_scatter, 1);
    chartColumn->addWidget(m_givenNote);
    fillColourChoice();
    connect(m_colour, &QComboBox::currentIndexChanged, this,
        [this](int) { m_scatter->setColourKnob(Knob(m_colour->currentData().toInt())); });
    connect(m_scatter, &PlannerScatter::pointClicked, this, &PlannerPage::selectIndex);
    connect(m_scatter, &PlannerScatter::pointActivated, this, [this](qint64 index) {
        selectIndex(index);
        openSelected();
    });

    auto* side = new QSplitter(Qt::Vertical, this);
    auto addTitled = [side](QLabel*& title, QTableWidget*& table) -> QWidget* {
        auto* box = new QWidget(side);
        auto* v = new QVBoxLayout(box);
        v->setContentsMargins(0, 0, 0, 0);
        v->setSpacing(2);
        title = new QLabel(box);
        QFont bold = title->font();
        bold.setBold(true);
        title->setFont(bold);
        table = new QTableWidget(box);
        setUpReadOnlyTable(table);
        table->setSelectionMode(QAbstractItemView::NoSelection);
        table->verticalHeader()->setDefaultSectionSize(table->fontMetrics().height() + 6);
        // The words take the room; the numbers their width.
        table->horizontalHeader()->setStretchLastSection(false);
        v->addWidget(title);
        v->addWidget(table, 1);
        side->addWidget(box);
        return box;
    };
    // The cluster size first: where it shows, it is the question the search was run for.
    m_sizingBox = addTitled(m_sizingTitle, m_sizingTable);
    m_sizingAnswer = new QLabel(m_sizingBox);
    m_sizingAnswer->setWordWrap(true);
    m_sizingAnswer->setTextInteractionFlags(Qt::TextSelectableByMouse);
    static_cast<QVBoxLayout*>(m_sizingBox->layout())->insertWidget(1, m_sizingAnswer);
    m_sizingTable->setColumnCount(6);
    m_sizingTable->setSelectionMode(QAbstractItemView::SingleSelection);
    m_sizingTable->setSelectionBehavior(QAbstractItemView::SelectRows);
    // The plan's knobs take what the numbers leave, cut where narrow (whole in the tooltip).
    m_sizingTable->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_sizingTable->horizontalHeader()->setSectionResizeMode(2, QHeaderView::Stretch);
    m_sizingTable->setTextElideMode(Qt::ElideRight);
    m_sizingBox->hide();
    connect(m_sizingTable, &QTableWidget::itemSelectionChanged, this, [this] {
        if (m_filling) return;
        const QList<QTableWidgetItem*> items = m_sizingTable->selectedItems();
        if (!items.isEmpty()) selectSizingRow(items.front()->row());
    });
    connect(m_sizingTable, &QTableWidget::cellDoubleClicked, this, [this](int row, int) {
        selectSizingRow(row);
        openSelected();
    });
    addTitled(m_whyNotTitle, m_whyNot);
    addTitled(m_rejectedTitle, m_rejected);
    m_whyNot->setColumnCount(4);
    m_rejected->setColumnCount(2);
    m_whyNot->horizontalHeader()->setSectionResizeMode(0, QHeaderView::Stretch);
    m_rejected->horizontalHeader()->setSectionResizeMode(0, QHeaderView::Stretch);
    side->setStretchFactor(0, 4);
    side->setStretchFactor(1, 3);
    side->setStretchFactor(2, 2);
    side->setChildrenCollapsible(false);

    auto* top = new QSplitter(Qt::Horizontal, this);
    top->addWidget(chart);
    top->addWidget(side);
    top->setStretchFactor(0, 3);
    top->setStretchFactor(1, 2);
    top->setChildrenCollapsible(false);

    auto* bestBox = new QWidget(this);
    auto* bestColumn = new QVBoxLayout(bestBox);
    bestColumn->setContentsMargins(0, 0, 0, 0);
    bestColumn->setSpacing(2);
    auto* bestRow = new QHBoxLayout;
    m_bestTitle = new QLabel(bestBox);
    QFont bold = m_bestTitle->font();
    bold.setBold(true);
    m_bestTitle->setFont(bold);
    m_open = new QPushButton(bestBox);
    m_selectionLabel = new QLabel(bestBox);
    m_selectionLabel->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
    bestRow->addWidget(m_bestTitle);
    bestRow->addSpacing(12);
    bestRow->addWidget(m_open);
    m_compare = new QPushButton(bestBox);
    m_compare->setEnabled(false);
    bestRow->addWidget(m_compare);
    bestRow->addWidget(m_selectionLabel, 1);
    m_best = new QTableWidget(0, cBestColumns, bestBox);
    setUpReadOnlyTable(m_best);
    m_best->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_best->setSelectionMode(QAbstractItemView::SingleSelection);
    m_best->setSortingEnabled(true);
    m_best->verticalHeader()->setDefaultSectionSize(m_best->fontMetrics().height() + 6);
    m_best->setMinimumHeight(140);
    bestColumn->addLayout(bestRow);
    bestColumn->addWidget(m_best, 1);
    connect(m_best, &QTableWidget::itemSelectionChanged, this, [this] {
        if (m_filling) return;
        const QList<QTableWidgetItem*> items = m_best->selectedItems();
        if (!items.isEmpty()) selectRow(items.front()->row());
    });
    connect(m_best, &QTableWidget::cellDoubleClicked, this, [this](int row, int) {
        selectRow(row);
        openSelected();
    });
    connect(m_open, &QPushButton::clicked, this, &PlannerPage::openSelected);
    connect(m_compare, &QPushButton::clicked, this, &PlannerPage::compareSelected);

    auto* split = new QSplitter(Qt::Vertical, this);
    split->addWidget(top);
    split->addWidget(bestBox);
    split->setStretchFactor(0, 3);
    split->setStretchFactor(1, 2);
    split->setChildrenCollapsible(false);
    return split;
}

void PlannerPage::fillColourChoice()
{
    // Every knob a plan of the space can differ in, and the GPU count (for a search of several).
    const int was = m_colour->currentIndex() >= 0 ? m_colour->currentData().toInt() : int(Knob::TP);
    const QSignalBlocker block(m_colour);
    m_colour->clear();
    for (Knob k : offeredKnobs()) m_colour->addItem(QString::fromLatin1(knobName(k)), int(k));
    m_colour->addItem(QString::fromLatin1(knobName(Knob::Gpus)), int(Knob::Gpus));
    m_colour->setCurrentIndex(std::max(0, m_colour->findData(was)));
    m_scatter->setColourKnob(Knob(m_colour->currentData().toInt()));
}

// --- the search ------------------------------------------------------------------------------------------

std::vector<Knob> PlannerPage::chosenKnobs() const
{
    std::vector<Knob> knobs;
    for (Knob k : offeredKnobs())
        if (m_knobs[std::size_t(k)]->isChecked()) knobs.push_back(k);
    return knobs;
}

QCheckBox* PlannerPage::knobCheck(Knob knob) const
{
    return m_knobs[std::size_t(knob)];
}

bool PlannerPage::chosenGpus(std::vector<int>* gpus, QString* error) const
{
    gpus->clear();
    const QStringList parts = m_gpus->text().split(QRegularExpression(QStringLiteral("[,\\s]+")), Qt::SkipEmptyParts);
    for (const QString& part : parts) {
        bool ok = false;
        const int n = part.toInt(&ok);
        if (!ok || n < 1) {
            if (error) *error = tr("GPU counts: \"%1\" is not a number of GPUs").arg(part);
            return false;
        }
        gpus->push_back(n);
    }
    return true;
}

std::vector<int> PlannerPage::searchedGpus(const Plan& plan, const std::vector<int>& typed) const
{
    // A deadline without counts asks how big the cluster must be: the command line's default range (search --days).
    if (typed.empty() && sizingDays() > 0) return sizingGpuCounts(plan);
    return typed;
}

double PlannerPage::sizingTokens() const
{
    return m_tokens->value();
}

double PlannerPage::sizingDays() const
{
    return m_deadline->value();
}

SearchOptions PlannerPage::searchOptions() const
{
    SearchOptions o;
    o.objective = Objective(m_objective->currentData().toInt());
    o.top = m_top->value();
    // One core stays with the GUI thread, so that the page keeps drawing while the search runs.
    o.threads = std::max(1, int(std::thread::hardware_concurrency()) - 1);
    // The scatter's sample: 8,000 points show the shape of the space and keep drawing the finished search within one
    // 16 ms frame (bench/bench_planner_gui.cpp); 20,000 took 16-26 ms.
    o.samplePoints = 8000;
    return o;
}

bool PlannerPage::startSearch()
{
    stopWorker();
    auto refuse = [this](const QString& why) {
        m_summary->setText(why);
        setTextColour(m_summary, Theme::alarmText());
        return false;
    };
    if (!m_document || !m_document->hasPlan()) return refuse(tr("Open a plan to search its space."));
    std::vector<int> gpus;
    QString error;
    if (!chosenGpus(&gpus, &error)) return refuse(error);
    Result<SearchSpace> space = buildSpace(m_document->plan(), chosenKnobs(), searchedGpus(m_document->plan(), gpus));
    if (!space) return refuse(tr("Cannot search: %1").arg(CoreText::text(space.errors().front())));

    m_searchedPlan = m_document->plan();
    m_job = std::make_unique<Job>();
    Job* job = m_job.get();
    SearchOptions options = searchOptions();
    job->objective = options.objective;
    options.cancel = &job->cancel;
    // Called from the workers: two relaxed stores, read by poll().
    options.progress = [job](double done, double total) {
        job->done.store(done, std::memory_order_relaxed);
        job->total.store(total, std::memory_order_relaxed);
    };
    job->total = space->size();
    m_thread = std::thread([job, s = std::move(space).value(), options] {
        auto result = std::make_shared<const SearchResult>(search(s, options));
        job->points = prepareScatter(result);
        job->result = std::move(result);
        job->finished.store(true, std::memory_order_release);
    });
    setRunning(true);
    m_poll->start();
    showSummary();
    return true;
}

void PlannerPage::cancelSearch()
{
    if (m_job) m_job->cancel.store(true);
}

void PlannerPage::stopWorker()
{
    // A search that is no longer wanted: cancelled, joined (it checks the flag every 64 plans), dropped.
    m_poll->stop();
    if (m_job) m_job->cancel.store(true);
    if (m_thread.joinable()) m_thread.join();
    m_job.reset();
}

void PlannerPage::waitForSearch()
{
    if (m_thread.joinable()) {
        m_thread.join();
        finish(false);
    } else if (m_chartPending) {
        showChart();
        Q_EMIT searchFinished();
    }
}

void PlannerPage::poll()
{
    if (!m_job) return;
    if (m_job->finished.load(std::memory_order_acquire)) {
        finish(true);
        return;
    }
    const double total = m_job->total.load(std::memory_order_relaxed);
    const double done = m_job->done.load(std::memory_order_relaxed);
    m_progress->setValue(total > 0 ? int(1000.0 * done / total) : 0);
}

void PlannerPage::finish(bool deferChart)
{
    m_poll->stop();
    if (m_thread.joinable()) m_thread.join();
    if (!m_job) return;
    m_result = std::move(m_job->result);
    m_resultObjective = m_job->objective;
    m_points = std::move(m_job->points);
    m_job.reset();
    setRunning(false);
    showTables();
    if (!deferChart) {
        showChart();
        Q_EMIT searchFinished();
        return;
    }
    // The chart in the next turn of the event loop: the tables and the chart are two short frames rather than one
    // long one (bench/bench_planner_gui.cpp).
    m_chartPending = true;
    QTimer::singleShot(0, this, [this, shown = m_result] {
        if (!m_chartPending || m_result != shown) return;
        showChart();
        Q_EMIT searchFinished();
    });
}

void PlannerPage::setRunning(bool running)
{
    m_search->setEnabled(!running && m_document && m_document->hasPlan());
    m_cancel->setEnabled(running);
    m_progress->setVisible(running);
    if (running) m_progress->setValue(0);
}

// --- showing the result -----------------------------------------------------------------------------------

void PlannerPage::showResult()
{
    showTables();
    showChart();
}

void PlannerPage::showTables()
{
    m_selected.reset();
    showBestTitle();
    fillBestTable();
    fillRejected();
    showSummary();
    showOpenPlanNote();
    showWhyNot();
    showSizing();
}

void PlannerPage::showChart()
{
    m_chartPending = false;
    if (!m_points || m_points->result != m_result) m_points = prepareScatter(m_result);
    m_scatter->setPoints(m_points);
}

void PlannerPage::showSummary()
{
    QString text, tip;
    bool alarm = false;
    if (m_job) {
        const int threads = searchOptions().threads;
        text = (threads == 1 ? tr("Searching %1 plans on one thread…") : tr("Searching %1 plans on %2 threads…"))
                   .arg(count(m_job->total.load()));
        if (threads != 1) text = text.arg(threads);
    } else if (!m_result) {
        text = m_document && m_document->hasPlan() ? tr("Tick the knobs to vary and press Search: every plan of the open "
                                                        "plan's space is evaluated, and the best are listed.")
                                                   : tr("Open a plan to search its space.");
    } else {
        const SearchResult& r = *m_result;
        text = (r.threads == 1 ? tr("%1 plans, %2 valid, %3 fit with the memory headroom; %4 s on one thread.")
                               : tr("%1 plans, %2 valid, %3 fit with the memory headroom; %4 s on %5 threads."))
                   .arg(count(r.plans), count(r.valid), count(r.fit))
                   .arg(r.seconds, 0, 'f', 2);
        if (r.threads != 1) text = text.arg(r.threads);
        if (r.cancelled) {
            text = tr("Cancelled: the figures count the plans searched before the cancel.") + QLatin1Char(' ') + text;
            alarm = true;
        }
        if (r.given.fits)
            text += QLatin1Char(' ') + tr("Your plan ranks %1 of %2 fitting plans.").arg(count(r.given.rankAmongFit), count(r.fit));
        const auto beyond = std::count_if(r.best.begin(), r.best.end(), [](const SearchEntry& e) { return e.beyond != 0; });
        if (beyond > 0) {
            text += QLatin1Char(' ') + tr("%n of the listed plans lie beyond published evidence (marked): predictions no run confirms.", "", int(beyond));
            alarm = true;
        }
        const PublishedEvidence& ev = r.evidence;
        if (ev.hasCeiling)
            text += QLatin1Char(' ')
                + (ev.largeModel ? tr("MFU is held to %1, the best published on this GPU and precision at 100B parameters or more.")
                                 : tr("MFU is held to %1, the best published on this GPU and precision."))
                      .arg(display::percent(ev.best.mfu));
        else
            text += QLatin1Char(' ') + tr("No published run on this GPU and precision to hold the MFU to.");
        tip = CoreText::text(evidenceText(ev));
        for (const Text& note : r.notes) text += QLatin1Char(' ') + CoreText::text(note);
        if (m_document && m_document->hasPlan() && m_document->plan() != m_searchedPlan)
            text += QLatin1Char(' ') + tr("The plan has changed since this search: search again to rank it.");
    }
    // Sentences joined by a blank, except after a full-width full stop (the Chinese interface).
    m_summary->setText(text.replace(QStringLiteral("。 "), QStringLiteral("。")));
    m_summary->setToolTip(tip);
    setTextColour(m_summary, alarm ? Theme::alarmText() : Theme::text());
}

void PlannerPage::showOpenPlanNote()
{
    // What the chart cannot mark: a plan that is invalid or does not fit has no place among the fitting plans.
    QString text;
    if (m_result && !m_result->given.fits)
        text = m_result->given.valid ? tr("Your plan is not on the chart: it does not fit (%1).").arg(CoreText::text(m_result->given.reason))
                                     : tr("Your plan is not on the chart: it is invalid (%1).").arg(CoreText::text(m_result->given.reason));
    m_givenNote->setText(text);
    m_givenNote->setVisible(!text.isEmpty());
    setTextColour(m_givenNote, Theme::alarmText());
}

void PlannerPage::fillBestTable()
{
    m_filling = true;
    m_best->setSortingEnabled(false);
    // Columns sized once at the end, not after every cell (each resize measures the whole column).
    m_best->horizontalHeader()->setSectionResizeMode(QHeaderView::Fixed);
    m_best->clearContents();
    const std::vector<SearchEntry> best = m_result ? m_result->best : std::vector<SearchEntry> {};
    m_best->setRowCount(int(best.size()));
    for (int row = 0; row < int(best.size()); ++row) {
        const SearchEntry& e = best[std::size_t(row)];
        const Candidate& c = e.candidate;
        auto number = [](double v) { return new NumberCell(QString::number(v), v); };
        auto knob = [&c](Knob k) { return new NumberCell(knobValueText(k, c), knobValueKey(k, c)); };
        m_best->setItem(row, cRank, number(row + 1));
        m_best->setItem(row, cGpus, number(c.gpus));
        m_best->setItem(row, cDp, number(c.dp));
        m_best->setItem(row, cTp, number(c.tp));
        m_best->setItem(row, cPp, number(c.pp));
        m_best->setItem(row, cCp, number(c.cp));
        m_best->setItem(row, cEp, number(c.ep));
        m_best->setItem(row, cVpp, number(c.vpp));
        m_best->setItem(row, cSp, knob(Knob::SP));
        m_best->setItem(row, cZero, number(c.zero));
        m_best->setItem(row, cMicroBatch, number(c.microBatch));
        m_best->setItem(row, cRecompute, knob(Knob::Recompute));
        m_best->setItem(row, cSchedule, knob(Knob::Schedule));
        m_best->setItem(row, cOverlap, knob(Knob::Overlap));
        m_best->setItem(row, cOffload, knob(Knob::Offload));
        m_best->setItem(row, cStep, new NumberCell(display::seconds(e.stepSeconds), e.stepSeconds));
        m_best->setItem(row, cTokens, new NumberCell(QLocale().toString(e.tokensPerSecond, 'f', 0), e.tokensPerSecond));
        m_best->setItem(row, cMfu, new NumberCell(display::percent(e.mfu), e.mfu));
        m_best->setItem(row, cPeak, new NumberCell(display::gib(double(e.peakBytes)), double(e.peakBytes)));
        m_best->setItem(row, cEvidence, evidenceCell(m_result->evidence, e));
        for (int col : { cSp, cRecompute, cSchedule, cOverlap, cOffload, cEvidence })
            m_best->item(row, col)->setTextAlignment(Qt::AlignLeft | Qt::AlignVCenter);
        // The figures beyond the evidence in the alarm colour, with the reason on hover.
        const QString why = CoreText::text(beyondEvidenceText(m_result->evidence, e.beyond, e.mfu, e.peakBytes, e.capacityBytes));
        for (const auto& [bit, col] : { std::pair { unsigned(kBeyondMfu), int(cMfu) }, std::pair { unsigned(kBeyondMemory), int(cPeak) } })
            if (e.beyond & bit) {
                m_best->item(row, col)->setForeground(Theme::alarmText());
                m_best->item(row, col)->setToolTip(why);
            }
    }
    // Overlap and offload only where they were searched; the GPU count only with several.
    const SearchSpace* s = m_result ? &m_result->space : nullptr;
    m_best->setColumnHidden(cOverlap, !s || s->overlap.size() < 2);
    m_best->setColumnHidden(cOffload, !s || s->offload.size() < 2);
    m_best->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_best->setSortingEnabled(true);
    m_best->sortByColumn(cRank, Qt::AscendingOrder);
    m_best->clearSelection();
    m_filling = false;
    m_open->setEnabled(!best.empty());
    m_compare->setEnabled(!best.empty());
}

void PlannerPage::fillRejected()
{
    std::vector<std::pair<std::string, double>> reasons;
    if (m_result) reasons.assign(m_result->rejected.begin(), m_result->rejected.end());
    // Most plans first; equal counts by the reason, so the order does not depend on the map.
    std::stable_sort(reasons.begin(), reasons.end(), [](const auto& a, const auto& b) { return a.second > b.second; });
    m_rejected->setRowCount(int(reasons.size()));
    for (int row = 0; row < int(reasons.size()); ++row) {
        m_rejected->setItem(row, 0, textCell(CoreText::text(rejectionText(reasons[std::size_t(row)].first))));
        m_rejected->setItem(row, 1, readOnlyCell(count(reasons[std::size_t(row)].second)));
    }
}

// --- the cluster size --------------------------------------------------------------------------------------

void PlannerPage::showSizing()
{
    // A question about several clusters: the table shows for a search of several GPU counts, or when a deadline asks.
    const bool show = m_result && (m_result->byGpus.size() > 1 || sizingDays() > 0);
    if (show)
        m_sizing = sizeCluster(*m_result, sizingTokens(), sizingDays());
    else
        m_sizing.reset();
    m_sizingBox->setVisible(show);
    m_sizingAnswer->setText(sizingSentence());
    fillSizingTable();
}

QString PlannerPage::sizingSentence() const
{
    if (!m_sizing) return {};
    const Sizing& s = *m_sizing;
    auto gpus = [&s](int row) { return count(s.rows[std::size_t(row)].gpus); };
    const QString tokens = display::count(s.tokens);
    QString text;
    if (s.days <= 0)
        text = tr("%1 tokens: set a deadline to find the fewest GPUs that finish in time.").arg(tokens);
    else if (s.answer >= 0)
        text = tr("%1 tokens in %2 days: %3 GPUs (%4 days).").arg(tokens, days(s.days), gpus(s.answer), days(s.rows[std::size_t(s.answer)].days));
    else
        text = tr("%1 tokens: no searched GPU count finishes in %2 days.").arg(tokens, days(s.days));
    if (s.smallest < 0) {
        text += QLatin1Char(' ') + tr("No searched GPU count has a plan that fits.");
    } else {
        text += QLatin1Char(' ') + tr("Smallest cluster that fits: %1 GPUs.").arg(gpus(s.smallest));
        text += QLatin1Char(' ') + tr("Fewest GPU-hours: %1 GPUs.").arg(gpus(s.cheapest));
    }
    // A deadline typed after a search of the plan's one count: the range it would search is a click away.
    if (s.days > 0 && s.rows.size() < 2 && m_gpus->text().trimmed().isEmpty())
        text += QLatin1Char(' ') + tr("Press Search to try the plan's GPU count from a quarter to sixteen times.");
    return text.replace(QStringLiteral("。 "), QStringLiteral("。"));
}

void PlannerPage::fillSizingTable()
{
    m_filling = true;
    m_sizingTable->clearContents();
    const std::vector<SizingRow> rows = m_sizing ? m_sizing->rows : std::vector<SizingRow> {};
    m_sizingTable->setRowCount(int(rows.size()));
    const QColor answerFill = Theme::pick(QColor(0xd8, 0xf0, 0xd4), QColor(0x24, 0x4a, 0x2c));
    QFont bold = m_sizingTable->font();
    bold.setBold(true);
    for (int row = 0; row < int(rows.size()); ++row) {
        const SizingRow& r = rows[std::size_t(row)];
        const QString none = QStringLiteral("—");
        QTableWidgetItem* cells[] = { readOnlyCell(count(r.gpus)), readOnlyCell(count(r.fit)),
            textCell(r.best ? shortKnobs(r.best->candidate) : tr("nothing fits")),
            readOnlyCell(r.best ? display::seconds(r.best->stepSeconds) : none), readOnlyCell(r.best ? days(r.days) : none),
            readOnlyCell(r.best ? count(r.gpuHours) : none) };
        if (r.best) cells[2]->setToolTip(describe(r.best->candidate));
        const bool answer = row == m_sizing->answer;
        for (int col = 0; col < 6; ++col) {
            // A count with no plan that fits has nothing to select.
            if (!r.best) cells[col]->setFlags(Qt::ItemIsEnabled);
            if (answer) {
                cells[col]->setFont(bold);
                cells[col]->setBackground(answerFill);
                cells[col]->setForeground(Theme::textOn(answerFill));
                cells[col]->setToolTip(tr("The fewest GPUs that finish within the deadline"));
            }
            m_sizingTable->setItem(row, col, cells[col]);
        }
        cells[0]->setData(kAnswerRole, answer);
    }
    m_filling = false;
    // The answer in sight where the section is short (the page beside the plan editor).
    if (m_sizing && m_sizing->answer >= 0) m_sizingTable->scrollToItem(m_sizingTable->item(m_sizing->answer, 0));
    if (m_selected) followSelectionInSizingTable(*m_selected);
}

int PlannerPage::sizingAnswerRow() const
{
    for (int row = 0; row < m_sizingTable->rowCount(); ++row)
        if (m_sizingTable->item(row, 0)->data(kAnswerRole).toBool()) return row;
    return -1;
}

void PlannerPage::selectSizingRow(int row)
{
    // The row's plan is the fastest of its GPU count: selected like a row of the best plans.
    if (!m_sizing || row < 0 || row >= int(m_sizing->rows.size())) return;
    const SizingRow& r = m_sizing->rows[std::size_t(row)];
    if (r.best) selectIndex(r.best->index);
}

void PlannerPage::followSelectionInSizingTable(std::int64_t index)
{
    const bool filling = m_filling;
    m_filling = true;
    m_sizingTable->clearSelection();
    if (m_sizing)
        for (int row = 0; row < int(m_sizing->rows.size()); ++row) {
            const SizingRow& r = m_sizing->rows[std::size_t(row)];
            if (r.best && r.best->index == index) m_sizingTable->selectRow(row);
        }
    m_filling = filling;
}

void PlannerPage::showGpuCountsHint()
{
    // An empty line means the plan's count, or under a deadline the sizing range: the field says which.
    const bool sizing = sizingDays() > 0;
    m_gpus->setPlaceholderText(sizing ? tr("the plan's ×¼ … ×16") : tr("the plan's"));
    // Wide enough for the placeholder: it is the only sign of what an empty line searches.
    m_gpus->setMinimumWidth(std::max(110, m_gpus->fontMetrics().horizontalAdvance(m_gpus->placeholderText()) + 24));
    QString range;
    if (m_document && m_document->hasPlan()) {
        QStringList counts;
        for (int n : sizingGpuCounts(m_document->plan())) counts << QString::number(n);
        range = counts.join(QStringLiteral(", "));
    }
    m_gpus->setToolTip(sizing ? tr("GPU counts to search, e.g. 64, 128, 256; empty: with a deadline, the plan's count from "
                                   "a quarter to sixteen times, in whole nodes (%1)")
                                    .arg(range)
                              : tr("GPU counts to search, e.g. 64, 128, 256; empty: the plan's cluster"));
}

std::optional<Candidate> PlannerPage::selectedCandidate() const
{
    if (!m_result) return std::nullopt;
    if (m_selected) return candidateAt(m_result->space, *m_selected);
    if (!m_result->best.empty()) return m_result->best.front().candidate;
    return std::nullopt;
}

void PlannerPage::showWhyNot(const Prediction* selectedPrediction)
{
    m_whyNot->setRowCount(0);
    const std::optional<Candidate> other = selectedCandidate();
    const bool selected = m_selected.has_value();
    m_whyNotTitle->setText(selected ? tr("Why not mine? Your plan against the selected plan")
                                    : tr("Why not mine? Your plan against the best plan"));
    m_whyNot->setHorizontalHeaderLabels({ tr("Term"), tr("Your plan"), selected ? tr("Selected") : tr("Best"), tr("Difference") });
    if (!other || !m_document || !m_document->hasPlan()) return;
    const Prediction mine = evaluate(m_document->plan());
    const Prediction theirs = selectedPrediction ? *selectedPrediction : evaluate(applyCandidate(m_result->space.templ, *other));
    if (!mine.valid) {
        m_whyNot->setRowCount(1);
        m_whyNot->setItem(0, 0, textCell(tr("Your plan is invalid: there are no terms to compare.")));
        return;
    }
    const std::vector<TermDifference> terms = compareTerms(mine, theirs);
    m_whyNot->setRowCount(int(terms.size()));
    for (int row = 0; row < int(terms.size()); ++row) {
        const TermDifference& t = terms[std::size_t(row)];
        m_whyNot->setItem(row, 0, textCell(termLabel(t)));
        m_whyNot->setItem(row, 1, readOnlyCell(termValue(t.mine, t.unit)));
        m_whyNot->setItem(row, 2, readOnlyCell(termValue(t.best, t.unit)));
        m_whyNot->setItem(row, 3, readOnlyCell(termDifference(t.mine - t.best, t.unit)));
    }
}

// --- selection and opening ---------------------------------------------------------------------------------

void PlannerPage::selectRow(int row)
{
    if (!m_result || row < 0 || row >= m_best->rowCount()) return;
    const int rank = m_best->item(row, cRank)->data(Qt::UserRole).toInt();
    if (rank < 1 || rank > int(m_result->best.size())) return;
    selectIndex(m_result->best[std::size_t(rank - 1)].index);
}

void PlannerPage::selectIndex(qint64 index)
{
    if (!m_result || index < 0 || double(index) >= m_result->plans) return;
    m_selected = index;
    // The table follows a point of the chart that is one of its rows (and shows none for another).
    m_filling = true;
    m_best->clearSelection();
    for (int row = 0; row < m_best->rowCount(); ++row) {
        const int rank = m_best->item(row, cRank)->data(Qt::UserRole).toInt();
        if (m_result->best[std::size_t(rank - 1)].index == index) {
            m_best->selectRow(row);
            m_best->scrollToItem(m_best->item(row, cRank));
        }
    }
    followSelectionInSizingTable(index);
    m_filling = false;
    const Candidate c = candidateAt(m_result->space, index);
    const Prediction p = evaluate(applyCandidate(m_result->space.templ, c));
    m_scatter->setSelected(index, p.stepSeconds, p.peakBytes);
    // Cut where the row is narrow, whole in its tooltip.
    m_selectionLabel->setText(
        tr("Selected: %1 — step %2, peak %3").arg(describe(c), display::seconds(p.stepSeconds), display::gib(double(p.peakBytes))));
    m_selectionLabel->setToolTip(m_selectionLabel->text());
    m_open->setEnabled(true);
    m_compare->setEnabled(true);
    showWhyNot(&p); // the selected plan's prediction, evaluated once above
}

void PlannerPage::openSelected()
{
    const std::optional<Candidate> c = selectedCandidate();
    if (!c || !m_document) return;
    const Plan plan = applyCandidate(m_result->space.templ, *c);
    const QString text = tr("Open the planner's plan: %1").arg(describe(*c));
    // Through the editor where the window connected it (one undo step); a page on its own sets the plan.
    if (isSignalConnected(QMetaMethod::fromSignal(&PlannerPage::planChosen)))
        Q_EMIT planChosen(plan, text);
    else
        m_document->setPlan(plan);
}

void PlannerPage::compareSelected()
{
    const std::optional<Candidate> c = selectedCandidate();
    if (!c) return;
    Q_EMIT compareRequested(applyCandidate(m_result->space.templ, *c), tr("Planner: %1").arg(describe(*c)));
}

// --- the page ------------------------------------------------------------------------------------------------

void PlannerPage::setDocument(PlanDocument* document)
{
    if (m_document) disconnect(m_document, nullptr, this, nullptr);
    stopWorker();
    m_document = document;
    m_result.reset();
    if (document) {
        connect(document, &PlanDocument::planEdited, this, &PlannerPage::followPlan);
        connect(document, &PlanDocument::planReplaced, this, &PlannerPage::followPlan);
    }
    // Another plan's tokens; the deadline is the user's question and stays.
    m_planTokens = document && document->hasPlan() ? document->plan().training.tokens : 0;
    m_tokens->setValue(m_planTokens);
    showGpuCountsHint();
    setRunning(false);
    showResult();
}

void PlannerPage::followPlan()
{
    // The result stays (a plan opened from it is one of its points); the summary says it is stale and why-not
    // compares the plan as it is now.
    m_search->setEnabled(!isRunning() && m_document && m_document->hasPlan());
    // The tokens follow the plan's until the user types others.
    const double tokens = m_document && m_document->hasPlan() ? m_document->plan().training.tokens : 0;
    if (m_tokens->value() == m_planTokens) m_tokens->setValue(tokens);
    m_planTokens = tokens;
    showGpuCountsHint();
    showSummary();
    showWhyNot();
    // A plan that arrives while the page is on screen with nothing searched yet (the app started on this page).
    if (isVisible() && !m_result && !isRunning() && m_document && m_document->hasPlan()) startSearch();
}

void PlannerPage::showEvent(QShowEvent* event)
{
    QWidget::showEvent(event);
    // The first visit searches at once with the default knobs: a page that shows something.
    if (!m_result && !isRunning() && m_document && m_document->hasPlan()) startSearch();
}

bool PlannerPage::exportTo(const QString& path, QSize size, QString* error)
{
    // A picture of the planner shows a finished search of the open plan.
    const bool stale = !m_result || (m_document && m_document->plan() != m_searchedPlan);
    if (!isRunning() && stale) startSearch();
    waitForSearch();
    if (size.isValid() && !size.isEmpty()) resize(size);
    QCoreApplication::sendPostedEvents(nullptr, QEvent::LayoutRequest);
    return WidgetExporter::exportWidget(this, path, error);
}

void PlannerPage::changeEvent(QEvent* event)
{
    if (event->type() == QEvent::LanguageChange) retranslate();
    QWidget::changeEvent(event);
}

void PlannerPage::retranslate()
{
    m_knobBox->setTitle(tr("Vary"));
    for (Knob k : offeredKnobs()) m_knobs[std::size_t(k)]->setToolTip(tr(kKnobTips[int(k)]));
    m_gpusLabel->setText(tr("GPU counts:"));
    showGpuCountsHint();
    m_tokensLabel->setText(tr("Tokens:"));
    m_tokens->setToolTip(tr("Tokens to train, for the cluster size (e.g. 3e11); the plan's training tokens unless typed"));
    m_deadlineLabel->setText(tr("Deadline (days):"));
    m_deadline->setSpecialValueText(tr("none"));
    m_deadline->setToolTip(tr("Days the training may take: the cluster-size table names the fewest GPUs that finish in "
                              "time. With no GPU counts typed, the search covers the plan's count from a quarter to "
                              "sixteen times. None: no deadline"));
    m_sizingTitle->setText(tr("Cluster size: the fastest plan per GPU count"));
    m_objectiveLabel->setText(tr("Objective:"));
    m_objective->setItemText(0, tr("step time"));
    m_objective->setItemText(1, tr("cost (GPU-hours per token)"));
    m_objective->setItemText(2, tr("peak memory"));
    m_topLabel->setText(tr("Top:"));
    m_top->setToolTip(tr("How many of the best plans to list"));
    m_search->setText(tr("Search"));
    m_cancel->setText(tr("Cancel"));
    m_colourLabel->setText(tr("Colour by:"));
    m_open->setText(tr("Open this plan"));
    m_open->setToolTip(tr("Make the selected plan (the best without a selection) the open plan; Undo brings yours back"));
    m_compare->setText(tr("Compare with current"));
    m_compare->setToolTip(tr("Show the selected plan (the best without a selection) beside the open plan on the Compare page"));
    m_rejectedTitle->setText(tr("Plans turned away, by reason"));
    retranslateTables();
    showBestTitle();
    showSummary();
    showOpenPlanNote();
    // Core's reasons and the knobs' words (sp on/off) in the new language; the selection stays.
    if (m_result) {
        const std::optional<std::int64_t> selected = m_selected;
        fillBestTable();
        fillRejected();
        if (selected) selectIndex(*selected);
    }
    showSizing();
    showWhyNot();
}

void PlannerPage::showBestTitle()
{
    const char* const by[] = { QT_TR_NOOP("Best plans by step time"), QT_TR_NOOP("Best plans by cost (GPU-hours per token)"),
        QT_TR_NOOP("Best plans by peak memory") };
    m_bestTitle->setText(tr(by[int(m_resultObjective)]));
}

void PlannerPage::retranslateTables()
{
    m_best->setAccessibleName(tr("Best plans")); // its sheet's name in File > Export Tables
    m_best->setHorizontalHeaderLabels({ tr("#"), tr("GPUs"), QStringLiteral("dp"), QStringLiteral("tp"), QStringLiteral("pp"),
        QStringLiteral("cp"), QStringLiteral("ep"), QStringLiteral("vpp"), QStringLiteral("sp"), tr("ZeRO"), tr("microbatch"),
        tr("recompute"), tr("schedule"), tr("overlap"), tr("offload"), tr("step time"), tr("tokens/s"), tr("MFU"),
        tr("peak memory"), tr("evidence") });
    m_best->horizontalHeaderItem(cEvidence)->setToolTip(
        tr("Where a plan lies beyond what published runs reached: its MFU above the best published on this GPU and "
           "precision (samples/published/mfu-ceilings.json), or its peak within %1 % of the GPU's memory (the memory "
           "model's largest measured shortfall, docs/MEMORY-ACCURACY.md). Such a plan is a prediction no run confirms.")
            .arg(100.0 * kDefaultMemoryHeadroom, 0, 'f', 0));
    m_rejected->setHorizontalHeaderLabels({ tr("Reason"), tr("Plans") });
    m_sizingTable->setHorizontalHeaderLabels({ tr("GPUs"), tr("fit"), tr("fastest plan"), tr("step time"), tr("days"), tr("GPU-hours") });
    m_sizingTable->horizontalHeaderItem(1)->setToolTip(tr("Plans of this GPU count that fit with the memory headroom"));
    m_sizingTable->horizontalHeaderItem(4)->setToolTip(tr("Days to train the tokens with the fastest plan"));
    m_sizingTable->horizontalHeaderItem(5)->setToolTip(tr("GPUs × hours to train the tokens with the fastest plan"));
}

QString PlannerPage::pageTitle() const
{
    return tr("Planner");
}

} // namespace planscope
