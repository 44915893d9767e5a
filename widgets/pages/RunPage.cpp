#include "pages/RunPage.h"

#include "WidgetExporter.h"
#include "charts/ReadOnlyTable.h"
#include "charts/RunViews.h"
#include "io/RunFile.h"
#include "util/Units.h"

#include <QComboBox>
#include <QCoreApplication>
#include <QEvent>
#include <QFileDialog>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QPushButton>
#include <QSplitter>
#include <QTabWidget>
#include <QTableWidget>
#include <QVBoxLayout>
#include <QtConcurrent/QtConcurrentRun>
#include <algorithm>
#include <set>

namespace planscope {

namespace {

std::shared_ptr<const LoadedRun> load(const QString& path)
{
    auto loaded = std::make_shared<LoadedRun>();
    loaded->path = path;
    Result<MeasuredRun> run = readRunFile(QFile::encodeName(path).toStdString());
    if (!run.ok()) {
        loaded->error = QString::fromStdString(issueLine(run.errors().front()));
        return loaded;
    }
    loaded->run = std::move(run).value();
    loaded->metrics = rankMetrics(*loaded->run);
    loaded->median = medianMetrics(loaded->metrics);
    loaded->slowest = slowestRanks(*loaded->run, loaded->metrics, 20);
    return loaded;
}

QString ms(std::int64_t ns) { return RunPage::tr("%1 ms").arg(double(ns) * 1e-6, 0, 'f', 2); }

QString label(const std::string& s) { return QString::fromStdString(s); }

void fill(QTableWidget* table, const QStringList& headers, const std::vector<QStringList>& rows)
{
    table->setSortingEnabled(false);
    table->clear();
    table->setColumnCount(int(headers.size()));
    table->setHorizontalHeaderLabels(headers);
    table->setRowCount(int(rows.size()));
    for (int r = 0; r < int(rows.size()); ++r)
        for (int c = 0; c < int(rows[std::size_t(r)].size()) && c < int(headers.size()); ++c)
            table->setItem(r, c, readOnlyCell(rows[std::size_t(r)][c], c == 0 || c + 1 == int(headers.size()) ? Qt::AlignLeft | Qt::AlignVCenter : Qt::AlignRight | Qt::AlignVCenter));
    table->resizeColumnsToContents();
}

QString scopeText(const std::string& scope)
{
    if (scope == "intra-node") return RunPage::tr("intra-node");
    if (scope == "inter-node") return RunPage::tr("inter-node");
    return RunPage::tr("unknown");
}

} // namespace

RunPage::RunPage(QWidget* parent) : QWidget(parent)
{
    m_title = new QLabel(this);
    QFont f = m_title->font();
    f.setBold(true);
    m_title->setFont(f);
    m_open = new QPushButton(this);
    m_compare = new QPushButton(this);
    m_timelines = new QPushButton(this);
    m_metricLabel = new QLabel(this);
    m_metric = new QComboBox(this);
    m_status = new QLabel(this);
    m_status->setWordWrap(true);
    m_status->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_heat = new RankHeatMap(this);
    m_grid = new RankGridView(this);
    m_tabs = new QTabWidget(this);
    for (QTableWidget** t : { &m_slowest, &m_groups, &m_allToAll, &m_files, &m_comparison }) {
        *t = new QTableWidget(this);
        setUpReadOnlyTable(*t);
    }
    m_tabs->addTab(m_slowest, QString());
    m_tabs->addTab(m_groups, QString());
    m_tabs->addTab(m_allToAll, QString());
    m_tabs->addTab(m_files, QString());
    m_tabs->addTab(m_comparison, QString());

    auto* bar = new QHBoxLayout;
    bar->addWidget(m_title);
    bar->addStretch(1);
    bar->addWidget(m_timelines);
    bar->addWidget(m_compare);
    bar->addWidget(m_open);
    // The grid with its colour picker above it.
    auto* gridPane = new QWidget(this);
    auto* gridBar = new QHBoxLayout;
    gridBar->addWidget(m_metricLabel);
    gridBar->addWidget(m_metric);
    gridBar->addStretch(1);
    auto* gridLayout = new QVBoxLayout(gridPane);
    gridLayout->setContentsMargins(0, 0, 0, 0);
    gridLayout->addLayout(gridBar);
    gridLayout->addWidget(m_grid, 1);
    auto* right = new QSplitter(Qt::Vertical, this);
    right->addWidget(gridPane);
    right->addWidget(m_tabs);
    right->setStretchFactor(0, 2);
    right->setStretchFactor(1, 3);
    auto* split = new QSplitter(Qt::Horizontal, this);
    split->addWidget(m_heat);
    split->addWidget(right);
    split->setStretchFactor(0, 1);
    split->setStretchFactor(1, 1);
    auto* layout = new QVBoxLayout(this);
    layout->addLayout(bar);
    layout->addWidget(m_status);
    layout->addWidget(split, 1);

    connect(m_open, &QPushButton::clicked, this, [this] {
        const QString path = QFileDialog::getOpenFileName(this, tr("Open Run Summary"), QString(),
            tr("Run summaries (*.planscope-run *.jsonl);;All files (*)"));
        if (!path.isEmpty()) openRun(path);
    });
    connect(m_compare, &QPushButton::clicked, this, [this] {
        const QString path = QFileDialog::getOpenFileName(this, tr("Compare With Another Run"), QString(),
            tr("Run summaries (*.planscope-run *.jsonl);;All files (*)"));
        if (!path.isEmpty()) openComparison(path);
    });
    connect(m_timelines, &QPushButton::clicked, this, &RunPage::openTimelines);
    connect(m_metric, &QComboBox::currentIndexChanged, this, [this](int i) {
        if (i >= 0) m_grid->setColourMetric(RunMetric(m_metric->itemData(i).toInt()));
    });
    connect(m_heat, &RankHeatMap::rankClicked, this, &RunPage::pickRank);
    connect(m_grid, &RankGridView::rankClicked, this, &RunPage::pickRank);
    connect(m_slowest, &QTableWidget::itemSelectionChanged, this, [this] {
        const QList<QTableWidgetItem*> items = m_slowest->selectedItems();
        if (!items.isEmpty()) {
            const QTableWidgetItem* rank = m_slowest->item(items.front()->row(), 0);
            if (rank) pickRank(rank->text().toInt());
        }
    });
    connect(&m_runWatcher, &QFutureWatcher<std::shared_ptr<const LoadedRun>>::finished, this, [this] {
        m_run = m_runWatcher.result();
        m_picked = -1;
        rebuild();
        rebuildComparison();
        if (m_run->run && m_other && m_other->run) m_tabs->setCurrentWidget(m_comparison); // the second run came first
        emit runShown();
    });
    connect(&m_otherWatcher, &QFutureWatcher<std::shared_ptr<const LoadedRun>>::finished, this, [this] {
        m_other = m_otherWatcher.result();
        rebuildComparison();
        if (m_other && m_other->run) m_tabs->setCurrentWidget(m_comparison);
        emit runShown();
    });
    retranslate();
}

RunPage::~RunPage()
{
    m_runWatcher.waitForFinished();
    m_otherWatcher.waitForFinished();
}

QString RunPage::pageTitle() const { return tr("Run Summary"); }

void RunPage::startRead(const QString& path, bool comparison)
{
    // A read still in flight is left to finish on its own: the watcher follows the newest (the lambda holds only the path).
    QFutureWatcher<std::shared_ptr<const LoadedRun>>& w = comparison ? m_otherWatcher : m_runWatcher;
    m_status->setText(tr("Reading %1…").arg(QFileInfo(path).fileName()));
    w.setFuture(QtConcurrent::run([path] { return load(path); }));
}

void RunPage::openRun(const QString& path) { startRead(path, false); }

void RunPage::openComparison(const QString& path) { startRead(path, true); }

void RunPage::waitForLoad()
{
    for (QFutureWatcher<std::shared_ptr<const LoadedRun>>* w : { &m_runWatcher, &m_otherWatcher }) {
        if (!w->isRunning() && !w->isFinished()) continue;
        w->waitForFinished();
    }
    // The finished signals are queued: deliver them.
    for (int i = 0; i < 3; ++i) QCoreApplication::processEvents();
}

QString RunPage::statusText() const { return m_status->text(); }

QStringList RunPage::tableRows(const QString& table) const
{
    const QTableWidget* t = table == QLatin1String("slowest") ? m_slowest
        : table == QLatin1String("groups")                   ? m_groups
        : table == QLatin1String("alltoall")                 ? m_allToAll
        : table == QLatin1String("files")                    ? m_files
        : table == QLatin1String("comparison")               ? m_comparison
                                                             : nullptr;
    return t ? tableRowTexts(t) : QStringList();
}

QList<int> RunPage::pickedRanks() const
{
    std::set<int> ranks;
    for (QTableWidgetItem* item : m_slowest->selectedItems())
        if (const QTableWidgetItem* rank = m_slowest->item(item->row(), 0)) ranks.insert(rank->text().toInt());
    if (m_picked >= 0) ranks.insert(m_picked);
    return QList<int>(ranks.begin(), ranks.end());
}

void RunPage::pickRank(int rank)
{
    m_picked = rank;
    m_heat->setSelectedRank(rank);
    m_grid->setSelectedRank(rank);
    m_timelines->setEnabled(m_run && m_run->run);
}

void RunPage::openTimelines()
{
    if (!m_run || !m_run->run) return;
    QStringList files, missing;
    for (int rank : pickedRanks())
        for (const RankSummary& r : m_run->run->ranks)
            if (r.rank == rank) {
                const QString file = QFile::decodeName(QByteArray::fromStdString(r.file));
                (QFileInfo::exists(file) ? files : missing) << file;
            }
    m_timelineNote = missing.isEmpty() ? QString()
                                       : tr("%n picked trace(s) not reachable from here (the run was reduced on another machine): %1", nullptr,
                                             int(missing.size()))
                                             .arg(missing.first());
    rebuild();
    if (!files.isEmpty()) emit openTracesRequested(files);
}

void RunPage::rebuild()
{
    const bool shown = m_run && m_run->run;
    m_timelines->setEnabled(shown && !pickedRanks().isEmpty());
    m_compare->setEnabled(shown);
    if (!m_run) {
        m_status->setText(tr("Open a run summary: planscope-reduce (under srun or mpirun) or planscope-cli reduce writes one from "
                             "the traces of every rank."));
        m_heat->setMetrics({}, {});
        m_grid->setMetrics({}, {}, 0, 0);
        return;
    }
    if (!shown) {
        m_status->setText(tr("%1 could not be read: %2").arg(QFileInfo(m_run->path).fileName(), m_run->error));
        m_heat->setMetrics({}, {});
        m_grid->setMetrics({}, {}, 0, 0);
        for (QTableWidget* t : { m_slowest, m_groups, m_allToAll, m_files }) t->setRowCount(0);
        return;
    }
    const MeasuredRun& run = *m_run->run;
    QString status = tr("%1: %n rank(s) of world size %2 from %3 trace files (%4), %5 GPUs per node%6; %7 process groups.", nullptr,
        int(run.ranks.size()))
                         .arg(QFileInfo(m_run->path).fileName())
                         .arg(run.worldSize)
                         .arg(run.files)
                         .arg(QString::fromStdString(units::formatBytes(double(run.bytesRead))))
                         .arg(run.gpusPerNode)
                         .arg(run.gpusPerNodeInferred ? tr(" (inferred from the CUDA devices)") : QString())
                         .arg(run.groups.size());
    if (!run.failed.empty() || !run.excluded.empty())
        status += QLatin1Char(' ') + tr("%1 files not read, %2 left out (Files tab).").arg(run.failed.size()).arg(run.excluded.size());
    status += QLatin1Char(' ')
        + tr("Median rank: step %1, compute %2, exposed communication %3, idle %4.")
              .arg(ms(m_run->median.stepNs), ms(m_run->median.computeNs), ms(m_run->median.exposedCommNs), ms(m_run->median.idleNs));
    if (!m_timelineNote.isEmpty()) status += QLatin1Char(' ') + m_timelineNote;
    m_status->setText(status);
    m_heat->setMetrics(m_run->metrics, m_run->median);
    m_grid->setMetrics(m_run->metrics, m_run->median, run.worldSize, run.gpusPerNode);
    m_heat->setSelectedRank(m_picked);
    m_grid->setSelectedRank(m_picked);

    std::vector<QStringList> rows;
    for (const SlowRank& s : m_run->slowest) {
        QStringList why;
        for (const SlowCause& c : s.causes) {
            switch (c.kind) {
            case SlowCause::Compute: why << tr("compute %1 against a median %2 (a slower GPU or more work)").arg(ms(c.valueNs), ms(c.medianNs)); break;
            case SlowCause::Idle: why << tr("GPU idle %1 against a median %2 (its CPU launches late)").arg(ms(c.valueNs), ms(c.medianNs)); break;
            case SlowCause::ExposedComm: why << tr("exposed communication %1 against a median %2").arg(ms(c.valueNs), ms(c.medianNs)); break;
            case SlowCause::ArrivesLast:
                why << tr("last to arrive at %1 of %2 collectives of %3").arg(c.valueNs).arg(c.medianNs).arg(label(c.group));
                break;
            }
        }
        if (why.isEmpty()) why << tr("no cause above 1% of the median step in its own trace");
        rows.push_back({ QString::number(s.metrics.rank), QString::number(s.metrics.node), ms(s.metrics.lagNs), ms(s.metrics.stepNs),
            why.join(QStringLiteral("; ")) });
    }
    fill(m_slowest, { tr("Rank"), tr("Node"), tr("Straggler lag"), tr("Step"), tr("Why") }, rows);

    rows.clear();
    std::vector<QStringList> a2a;
    for (const GroupResult& g : run.groups) {
        QStringList ops, dur, spread;
        for (const GroupOpStat& op : g.ops) {
            ops << QStringLiteral("%1 ×%2").arg(QString::fromLatin1(toString(op.op).data(), qsizetype(toString(op.op).size()))).arg(op.instances);
            dur << ms(op.medianDurNs);
            spread << ms(op.medianSpreadNs);
        }
        rows.push_back({ label(groupLabel(g)), QString::number(g.ranks.size()), scopeText(groupScope(g, run.gpusPerNode)),
            ops.join(QStringLiteral(", ")), dur.join(QStringLiteral(", ")), spread.join(QStringLiteral(", ")),
            g.straggler >= 0 ? QString::number(g.straggler) : QStringLiteral("–"), QString::number(g.unmatched) });
        for (const AllToAllImbalance& im : g.allToAll)
            a2a.push_back({ label(groupLabel(g)), QString::number(im.position + 1), QString::number(im.instances),
                QString::number(double(im.medianPermille) / 1000, 'f', 2), QString::number(double(im.worstPermille) / 1000, 'f', 2),
                QString::number(im.heaviestRank) });
    }
    fill(m_groups, { tr("Group"), tr("Members"), tr("Scope"), tr("Collectives"), tr("Median kernel"), tr("Median spread"),
                       tr("Last to arrive most"), tr("Unmatched") },
        rows);
    fill(m_allToAll, { tr("Group"), tr("All-to-all in step"), tr("Instances"), tr("Max/mean bytes"), tr("Worst"), tr("Heaviest rank") }, a2a);

    rows.clear();
    for (const RunIssue& i : run.failed) rows.push_back({ label(i.file), QStringLiteral("–"), tr("not read"), label(i.reason) });
    for (const RunIssue& i : run.excluded)
        rows.push_back({ label(i.file), i.rank >= 0 ? QString::number(i.rank) : QStringLiteral("–"), tr("left out"), label(i.reason) });
    fill(m_files, { tr("File"), tr("Rank"), tr("What happened"), tr("Reason") }, rows);
}

void RunPage::rebuildComparison()
{
    std::vector<QStringList> rows;
    if (m_other && !m_other->run) {
        rows.push_back({ tr("%1 could not be read: %2").arg(QFileInfo(m_other->path).fileName(), m_other->error) });
    } else if (m_run && m_run->run && m_other) {
        const RunComparison c = compareRuns(*m_run->run, *m_other->run);
        auto add = [&](const std::vector<RunDelta>& v, const QString& section) {
            for (const RunDelta& d : v) {
                QString what = label(d.what);
                for (RunMetric m : kRunMetrics)
                    if (d.what == toString(m)) what = runMetricTitle(m);
                rows.push_back({ section + QStringLiteral(": ") + what, ms(d.a), ms(d.b),
                    (d.delta() >= 0 ? QStringLiteral("+") : QString()) + ms(d.delta()) });
            }
        };
        add(c.phases, tr("Median rank"));
        add(c.collectives, tr("Collective"));
        add(c.ranks, tr("Step of"));
        for (const std::string& s : c.onlyInA) rows.push_back({ tr("Only in this run: %1").arg(label(s)) });
        for (const std::string& s : c.onlyInB) rows.push_back({ tr("Only in %1: %2").arg(QFileInfo(m_other->path).fileName(), label(s)) });
        if (!c.biggest.empty()) rows.insert(rows.begin(), { tr("Biggest difference: %1").arg(label(c.biggest)) });
    }
    const QString other = m_other ? QFileInfo(m_other->path).fileName() : tr("B");
    fill(m_comparison, { tr("What"), m_run ? QFileInfo(m_run->path).fileName() : tr("A"), other, tr("Difference") }, rows);
}

bool RunPage::exportTo(const QString& path, QSize size, QString* error)
{
    if (size.isValid() && !size.isEmpty()) resize(size);
    return WidgetExporter::exportWidget(this, path, error);
}

void RunPage::changeEvent(QEvent* event)
{
    if (event->type() == QEvent::LanguageChange) retranslate();
    QWidget::changeEvent(event);
}

void RunPage::retranslate()
{
    m_title->setText(tr("Measured run of many ranks"));
    m_open->setText(tr("Open Run Summary…"));
    m_compare->setText(tr("Compare With Another Run…"));
    m_timelines->setText(tr("Open Timelines of Picked Ranks"));
    m_timelines->setToolTip(tr("Loads the full traces of the ranks picked in the heat map, the grid or the slowest-ranks table onto "
                               "the Measured Run page"));
    m_metricLabel->setText(tr("Grid colour:"));
    const int current = m_metric->currentIndex();
    {
        const QSignalBlocker block(m_metric);
        m_metric->clear();
        for (RunMetric m : kRunMetrics) m_metric->addItem(runMetricTitle(m), int(m));
        m_metric->setCurrentIndex(current >= 0 ? current : int(std::find(std::begin(kRunMetrics), std::end(kRunMetrics), RunMetric::Lag) - std::begin(kRunMetrics)));
    }
    m_grid->setColourMetric(RunMetric(m_metric->currentData().toInt()));
    m_tabs->setTabText(0, tr("Slowest ranks"));
    m_tabs->setTabText(1, tr("Process groups"));
    m_tabs->setTabText(2, tr("All-to-all imbalance"));
    m_tabs->setTabText(3, tr("Files"));
    m_tabs->setTabText(4, tr("Comparison"));
    rebuild();
    rebuildComparison();
}

} // namespace planscope
