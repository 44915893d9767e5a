#include "pages/CommView.h"
#include "CoreText.h"
#include "Format.h"

#include "Palette.h"
#include "Theme.h"
#include "document/ViewState.h"
#include "WidgetExporter.h"
#include "cost/Collective.h"
#include "cost/Prediction.h"
#include "cost/RankGrid.h"
#include "util/Units.h"
#include "charts/CommRingWidget.h"

#include <QCoreApplication>
#include <QEvent>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QPushButton>
#include <QScrollArea>
#include <QScrollBar>
#include <QSpinBox>
#include <QSplitter>
#include <QTableWidget>
#include <QVBoxLayout>
#include <algorithm>
#include <cmath>
#include <qcustomplot.h>

namespace planscope {

namespace {

// One all-reduce of S bytes on n GPUs with each algorithm, from the core's alpha-beta functions.
double allReduceSeconds(CommAlgorithm a, int n, double S, const LinkSpec& link, int perNode, const ClusterSpec& cluster)
{
    switch (a) {
    case CommAlgorithm::Ring: return ringSeconds(Collective::AllReduce, n, S, link);
    case CommAlgorithm::Tree: return treeAllReduceSeconds(n, S, link);
    case CommAlgorithm::Hierarchical:
        return hierarchicalSeconds(Collective::AllReduce, n, perNode, S, cluster.intraNode, cluster.interNode);
    case CommAlgorithm::ParameterServer: return parameterServerSeconds(n, 1, S, link);
    }
    return 0.0;
}

constexpr std::array<CommAlgorithm, 4> kAlgorithms { CommAlgorithm::Ring, CommAlgorithm::Tree,
    CommAlgorithm::Hierarchical, CommAlgorithm::ParameterServer };

QString qs(const std::string& s)
{
    return QString::fromStdString(s);
}

const auto bytesText = display::bytes;
const auto secondsText = display::seconds;

// Decades of seconds written as times ("1 ms"), not as powers of ten.
class SecondsTicker : public QCPAxisTickerLog {
protected:
    QString getTickLabel(double tick, const QLocale&, QChar, int) override
    {
        if (tick <= 0) return QString();
        const double e = std::round(std::log10(tick));
        static const char* units[] = { "ns", "µs", "ms", "s" };
        if (e >= 0) return QStringLiteral("%1 s").arg(std::pow(10.0, e), 0, 'f', 0);
        const int group = int(std::floor(e / 3.0)); // -1 ms, -2 µs, -3 ns
        const int index = std::clamp(3 + group, 0, 3);
        const double value = tick / std::pow(1000.0, group);
        return QStringLiteral("%1 %2").arg(std::round(value)).arg(QString::fromUtf8(units[index]));
    }
};

QPen algorithmPen(CommAlgorithm a)
{
    switch (a) {
    case CommAlgorithm::Ring:
        return QPen(palette::blue(), 2.2);
    case CommAlgorithm::Tree:
        return QPen(palette::orange(), 2.2, Qt::DashLine);
    case CommAlgorithm::Hierarchical:
        return QPen(palette::bluishGreen(), 2.2);
    case CommAlgorithm::ParameterServer:
        return QPen(palette::reddishPurple(), 2.2, Qt::DashDotLine);
    }
    return QPen();
}

QCPScatterStyle algorithmScatter(CommAlgorithm a)
{
    const QColor c = algorithmPen(a).color();
    switch (a) {
    case CommAlgorithm::Ring:
        return QCPScatterStyle(QCPScatterStyle::ssCircle, c, 4);
    case CommAlgorithm::Tree:
        return QCPScatterStyle(QCPScatterStyle::ssTriangle, c, 5);
    case CommAlgorithm::Hierarchical:
        return QCPScatterStyle(QCPScatterStyle::ssSquare, c, 4);
    case CommAlgorithm::ParameterServer:
        return QCPScatterStyle(QCPScatterStyle::ssDiamond, c, 5);
    }
    return {};
}

QCustomPlot* makePlot(QWidget* parent)
{
    auto* plot = new QCustomPlot(parent);
    // Never 0 x 0 on a hidden page (QCustomPlot would paint into a null buffer); small enough for 1280 x 800 with the
    // editor open, where the page scrolls rather than squeezing a chart further.
    plot->setMinimumSize(300, 300);
    for (QCPAxis* axis : { plot->xAxis, plot->yAxis }) {
        axis->setScaleType(QCPAxis::stLogarithmic);
        axis->grid()->setSubGridVisible(false);
    }
    auto yTicker = QSharedPointer<SecondsTicker>::create();
    yTicker->setSubTickCount(0);
    plot->yAxis->setTicker(yTicker);
    // The legend in its own row under the chart, two columns where they fit (one where not: fitLegend), so it never
    // covers a curve or a marker. The titles are labels above the chart, which wrap.
    auto* legendRow = new QCPLayoutGrid;
    plot->plotLayout()->addElement(1, 0, legendRow);
    legendRow->setMargins(QMargins(5, 0, 5, 4));
    legendRow->addElement(0, 0, plot->legend);
    plot->plotLayout()->setRowStretchFactor(1, 0.001);
    plot->legend->setVisible(true);
    plot->legend->setFillOrder(QCPLayoutGrid::foColumnsFirst);
    plot->legend->setWrap(2);
    plot->legend->setBorderPen(Qt::NoPen);
    QFont legendFont = parent->font();
    legendFont.setPointSizeF(std::max(6.0, legendFont.pointSizeF() - 1.0));
    plot->legend->setFont(legendFont);
    for (CommAlgorithm a : kAlgorithms) {
        QCPGraph* g = plot->addGraph();
        g->setPen(algorithmPen(a));
        g->setScatterStyle(algorithmScatter(a));
    }
    return plot;
}

// Two legend columns when the widest entries of both fit the chart's width, else one.
void fitLegend(QCustomPlot* plot)
{
    QCPLegend* legend = plot->legend;
    int widest = 0;
    for (int i = 0; i < legend->itemCount(); ++i)
        if (QCPAbstractLegendItem* item = legend->item(i)) widest = std::max(widest, item->minimumOuterSizeHint().width());
    const int columns = 2 * widest + legend->columnSpacing() + 30 <= plot->width() ? 2 : 1;
    if (legend->wrap() == columns) return;
    legend->setWrap(columns);
    legend->setFillOrder(QCPLayoutGrid::foColumnsFirst, true);
}

// The theme's chrome on a chart made by makePlot.
void styleCommPlot(QCustomPlot* plot)
{
    styleCustomPlot(plot);
}

// A vertical marker with a label at the top of the axis rect.
void marker(QCustomPlot* plot, double x, const QString& text, const QColor& colour, double yRatio)
{
    auto* line = new QCPItemStraightLine(plot);
    line->point1->setCoords(x, 1e-9);
    line->point2->setCoords(x, 1.0);
    line->setPen(QPen(colour, 1.2, Qt::DotLine));
    auto* label = new QCPItemText(plot);
    label->position->setTypeX(QCPItemPosition::ptPlotCoords);
    label->position->setTypeY(QCPItemPosition::ptAxisRectRatio);
    label->position->setCoords(x, yRatio);
    // Labels of lines in the left part of the chart go to the right of the line, the others to its left.
    const QCPRange range = plot->xAxis->range();
    const double share = plot->xAxis->scaleType() == QCPAxis::stLogarithmic
        ? std::log(x / range.lower) / std::log(range.upper / range.lower)
        : (x - range.lower) / range.size();
    label->setPositionAlignment((share < 0.4 ? Qt::AlignLeft : Qt::AlignRight) | Qt::AlignTop);
    label->setPadding(QMargins(5, 1, 5, 1));
    label->setColor(colour);
    label->setBrush(Theme::labelBackdrop());
    label->setText(text);
    label->setClipToAxisRect(true);
}

} // namespace

CommView::CommView(QWidget* parent)
    : QWidget(parent)
{
    // Everything in one scrolling page: at 1280 x 800 with the editor open the table, the ring and both charts
    // keep their minimum sizes and the page scrolls instead of cutting them.
    auto* outer = new QVBoxLayout(this);
    outer->setContentsMargins(0, 0, 0, 0);
    m_scroll = new QScrollArea(this);
    m_scroll->setFrameShape(QFrame::NoFrame);
    m_scroll->setWidgetResizable(true);
    m_content = new QWidget(m_scroll);
    m_scroll->setWidget(m_content);
    outer->addWidget(m_scroll);

    auto* layout = new QVBoxLayout(m_content);
    layout->setContentsMargins(6, 6, 6, 6);
    m_tableTitle = new QLabel(m_content);
    m_tableTitle->setWordWrap(true);
    QFont bold = font();
    bold.setBold(true);
    m_tableTitle->setFont(bold);
    m_table = new QTableWidget(0, 9, m_content);
    m_table->verticalHeader()->setVisible(false);
    m_table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->setVerticalScrollBarPolicy(Qt::ScrollBarAlwaysOff); // as tall as its rows (fitTableHeight)
    m_table->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_table->horizontalHeader()->setStretchLastSection(false);
    m_table->setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Fixed);
    m_table->installEventFilter(this);
    m_highlight = new QLabel(m_content);
    m_highlight->setWordWrap(true);
    m_highlight->setTextFormat(Qt::PlainText);
    layout->addWidget(m_tableTitle);
    layout->addWidget(m_table);
    layout->addWidget(m_highlight);

    auto* splitter = new QSplitter(Qt::Horizontal, m_content);
    splitter->setChildrenCollapsible(false);
    auto* ringBox = new QWidget(splitter);
    auto* ringLayout = new QVBoxLayout(ringBox);
    ringLayout->setContentsMargins(0, 0, 0, 0);
    m_ringTitle = new QLabel(ringBox);
    m_ringTitle->setFont(bold);
    m_ringTitle->setWordWrap(true);
    auto* controls = new QHBoxLayout;
    m_sizeLabel = new QLabel(ringBox);
    m_sizeSpin = new QSpinBox(ringBox);
    m_sizeSpin->setRange(2, 1024);
    m_sizeSpin->setValue(4);
    m_stepButton = new QPushButton(ringBox);
    m_playButton = new QPushButton(ringBox);
    m_playButton->setCheckable(true);
    m_resetButton = new QPushButton(ringBox);
    controls->addWidget(m_sizeLabel);
    controls->addWidget(m_sizeSpin);
    controls->addWidget(m_stepButton);
    controls->addWidget(m_playButton);
    controls->addWidget(m_resetButton);
    controls->addStretch(1);
    m_ring = new CommRingWidget(ringBox);
    m_ring->setMinimumSize(280, 260);
    m_caption = new QLabel(ringBox);
    m_caption->setWordWrap(true);
    m_caption->setTextFormat(Qt::PlainText);
    m_caption->setMinimumHeight(QFontMetrics(font()).lineSpacing() * 4);
    m_caption->setAlignment(Qt::AlignTop | Qt::AlignLeft);
    ringLayout->addWidget(m_ringTitle);
    ringLayout->addLayout(controls);
    ringLayout->addWidget(m_ring, 1);
    ringLayout->addWidget(m_caption);

    auto* charts = new QWidget(splitter);
    auto* chartLayout = new QVBoxLayout(charts);
    chartLayout->setContentsMargins(0, 0, 0, 0);
    m_countPlot = makePlot(charts);
    m_sizePlot = makePlot(charts);
    QFont subFont = font();
    subFont.setPointSizeF(std::max(6.0, subFont.pointSizeF() - 1.0));
    for (QCustomPlot* plot : { m_countPlot, m_sizePlot }) {
        // Title and subtitle above the chart, wrapped to its width.
        auto* title = new QLabel(charts);
        title->setFont(bold);
        auto* subtitle = new QLabel(charts);
        subtitle->setFont(subFont);
        for (QLabel* label : { title, subtitle }) {
            label->setWordWrap(true);
            label->setTextFormat(Qt::PlainText);
            label->setAlignment(Qt::AlignHCenter | Qt::AlignTop);
        }
        m_chartLabels.push_back({ title, subtitle });
        chartLayout->addWidget(title);
        chartLayout->addWidget(subtitle);
        chartLayout->addWidget(plot, 1);
        plot->installEventFilter(this);
    }
    connect(m_sizePlot, &QCustomPlot::afterLayout, this, &CommView::placeSizeTicks);
    splitter->addWidget(ringBox);
    splitter->addWidget(charts);
    splitter->setStretchFactor(0, 4);
    splitter->setStretchFactor(1, 6);
    layout->addWidget(splitter, 1);

    m_ring->setGpus(m_sizeSpin->value());
    connect(m_sizeSpin, &QSpinBox::valueChanged, this, [this](int n) {
        m_ring->setGpus(n);
        plotMessageSize();
        updateCaption();
    });
    connect(m_stepButton, &QPushButton::clicked, this, [this] { stepRing(); });
    connect(m_playButton, &QPushButton::toggled, m_ring, &CommRingWidget::setPlaying);
    connect(m_ring, &CommRingWidget::playingChanged, this, [this](bool playing) {
        const QSignalBlocker block(m_playButton);
        m_playButton->setChecked(playing);
        m_playButton->setText(playing ? tr("Pause") : tr("Play"));
    });
    connect(m_resetButton, &QPushButton::clicked, this, &CommView::resetRing);
    connect(m_ring, &CommRingWidget::stepChanged, this, &CommView::updateCaption);
    connect(Theme::instance(), &Theme::changed, this, &CommView::rebuild);

    retranslate();
    rebuild();
}

CommView::~CommView() = default;

void CommView::setDocument(PlanDocument* document)
{
    m_feed.follow(document, this,
        [this](std::shared_ptr<const Analysis> analysis) { setAnalysis(std::move(analysis)); });
}

void CommView::setAnalysis(std::shared_ptr<const Analysis> analysis)
{
    m_analysis = std::move(analysis);
    rebuild();
}

void CommView::setViewState(ViewState* state)
{
    if (m_state) disconnect(m_state, nullptr, this, nullptr);
    m_state = state;
    if (state) connect(state, &ViewState::highlightedGpuChanged, this, &CommView::updateHighlight);
    updateHighlight();
}

void CommView::changeEvent(QEvent* event)
{
    if (event->type() == QEvent::LanguageChange) {
        retranslate();
        rebuild();
    }
    QWidget::changeEvent(event);
}

void CommView::retranslate()
{
    m_tableTitle->setText(tr("Communication groups of this plan (one GPU, one training step)"));
    // Two-line headers: the columns stay as narrow as their numbers.
    m_table->setHorizontalHeaderLabels({ tr("Group"), tr("GPUs"), tr("Crosses\nnodes"), tr("Collective"),
        tr("Algorithm"), tr("Link (GB/s\nper direction)"), tr("Sent per\nstep (GiB)"), tr("Time\nper step"),
        tr("Exposed\nper step") });
    m_table->horizontalHeaderItem(5)->setToolTip(
        tr("The slowest link the group uses, in GB/s (1e9 bytes) per GPU per direction"));
    m_table->horizontalHeaderItem(6)->setToolTip(tr("Bytes one GPU sends per step, in GiB (2^30 bytes)"));
    m_table->horizontalHeaderItem(8)->setToolTip(tr("The part of the time on the critical path (not hidden "
                                                    "behind compute)"));
    m_ringTitle->setText(tr("Ring all-reduce, step by step"));
    m_sizeLabel->setText(tr("GPUs on the ring (n):"));
    m_stepButton->setText(tr("Step"));
    m_playButton->setText(m_ring->isPlaying() ? tr("Pause") : tr("Play"));
    m_resetButton->setText(tr("Reset"));
}

LinkSpec CommView::linkFor(const ClusterSpec& cluster, int n)
{
    return n <= std::max(1, cluster.gpusPerNode) ? cluster.intraNode : cluster.interNode;
}

QString CommView::algorithmName(CommAlgorithm a, int perNode) const
{
    switch (a) {
    case CommAlgorithm::Ring:
        return tr("ring");
    case CommAlgorithm::Tree:
        return tr("tree (2·log2 n latency steps)");
    case CommAlgorithm::Hierarchical:
        return tr("hierarchical (%1 per node)").arg(perNode);
    case CommAlgorithm::ParameterServer:
        return tr("parameter server (1 server)");
    }
    return QString();
}

void CommView::rebuild()
{
    const Prediction* pr = m_analysis ? &m_analysis->prediction : nullptr;
    m_hasPlan = pr != nullptr;
    if (m_hasPlan) m_plan = m_analysis->plan;
    // The gradient buffer: the largest stage's parameters on one GPU in the gradient dtype.
    m_gradientBytes = 1073741824.0;
    m_gradientStage = -1;
    if (pr && pr->valid)
        for (const StageMemory& st : pr->stages) {
            const double bytes = st.parameters * bytesPerElement(m_plan.training.gradDtype);
            if (bytes > 0 && (m_gradientStage < 0 || bytes > m_gradientBytes)) {
                m_gradientBytes = bytes;
                m_gradientStage = st.stage;
            }
        }
    m_planGroup = m_hasPlan ? std::max(1, m_plan.parallel.dp) * std::max(1, m_plan.parallel.cp) : 0;
    m_groups = pr && pr->valid ? pr->comm : std::vector<CommGroup>();
    if (m_hasPlan) {
        // The plan's data-parallel group, or its tensor-parallel group, where either is a size worth
        // watching.
        const int dp = m_planGroup, tp = std::max(1, m_plan.parallel.tp);
        int n = dp >= 3 && dp <= CommRingWidget::kMaxDrawnChunks ? dp
            : tp >= 3 && tp <= CommRingWidget::kMaxDrawnChunks
            ? tp
            : std::clamp(std::max(dp, tp), 2, CommRingWidget::kMaxDrawnChunks);
        const QSignalBlocker block(m_sizeSpin);
        m_sizeSpin->setValue(n);
        m_ring->setGpus(n);
    }
    for (const auto& [title, subtitle] : m_chartLabels) {
        // The subtitle quieter than the title, in either theme.
        QPalette quiet = subtitle->palette();
        quiet.setColor(QPalette::WindowText, Theme::pick(QColor(0x50, 0x50, 0x50), Theme::mutedText()));
        subtitle->setPalette(quiet);
    }
    fillTable();
    plotGpuCount();
    plotMessageSize();
    updateCaption();
    updateHighlight();
}

void CommView::fillTable()
{
    const Prediction* pr = m_analysis ? &m_analysis->prediction : nullptr;
    m_table->clearSpans();
    m_table->setRowCount(0);
    auto item = [](const QString& text, const QString& tip = QString()) {
        auto* it = new QTableWidgetItem(text);
        if (!tip.isEmpty()) it->setToolTip(tip);
        return it;
    };
    if (!pr || !pr->valid || pr->comm.empty()) {
        m_table->setRowCount(1);
        m_table->setSpan(0, 0, 1, m_table->columnCount());
        auto* it = item(!pr  ? tr("No plan loaded")
                : !pr->valid ? tr("No communication to show: this plan cannot run (the Metrics page says why)")
                             : tr("Every group has one GPU: nothing is communicated"));
        it->setForeground(pr && !pr->valid ? Theme::alarmText() : Theme::text());
        m_table->setItem(0, 0, it);
    } else {
        m_table->setRowCount(int(pr->comm.size()));
        for (int row = 0; row < int(pr->comm.size()); ++row) {
            const CommGroup& g = pr->comm[std::size_t(row)];
            const QString crosses
                = g.crossesNodes ? tr("yes (%1 nodes)").arg(g.nodesSpanned) : tr("no (inside one node)");
            QList<QTableWidgetItem*> items {
                item(qs(std::string(toString(g.kind))).toUpper()),
                item(QString::number(g.size)),
                item(crosses, tr("%1 GPUs of the group on the fullest node").arg(g.perNode)),
                item(CoreText::text(g.collective)),
                item(CoreText::text(g.algorithm)),
                item(QString::number(units::toGB(g.linkBandwidth), 'f', 1),
                    tr("%1 bytes/s per direction").arg(g.linkBandwidth, 0, 'g', 6)),
                item(QString::number(units::toGiB(g.bytesPerStep), 'f', 2),
                    tr("%1 bytes").arg(g.bytesPerStep, 0, 'f', 0)),
                item(secondsText(g.seconds), tr("%1 s").arg(g.seconds, 0, 'g', 9)),
                item(secondsText(g.exposedSeconds), tr("%1 s").arg(g.exposedSeconds, 0, 'g', 9)),
            };
            for (int c = 0; c < items.size(); ++c) {
                if (c == 1 || c >= 5) items[c]->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
                if (g.crossesNodes && (c == 0 || c == 2)) items[c]->setForeground(Theme::alarmText());
                m_table->setItem(row, c, items[c]);
            }
        }
    }
    m_table->resizeColumnsToContents();
    m_table->resizeRowsToContents();
    fitTableHeight();
}

void CommView::fitTableHeight()
{
    // Every row shown, and the horizontal scroll bar's height on top where the columns are wider than the table.
    int h = m_table->horizontalHeader()->sizeHint().height() + 2 * m_table->frameWidth() + 2;
    for (int r = 0; r < m_table->rowCount(); ++r)
        h += m_table->rowHeight(r);
    if (m_table->horizontalHeader()->length() > m_table->width() - 2 * m_table->frameWidth())
        h += m_table->horizontalScrollBar()->sizeHint().height();
    if (m_table->height() != h || m_table->minimumHeight() != h) m_table->setFixedHeight(h);
}

bool CommView::eventFilter(QObject* watched, QEvent* event)
{
    if (event->type() == QEvent::Resize) {
        if (watched == m_table) fitTableHeight();
        if (watched == m_countPlot || watched == m_sizePlot) fitLegend(static_cast<QCustomPlot*>(watched));
    }
    return QWidget::eventFilter(watched, event);
}

QLabel* CommView::chartLabel(const QCustomPlot* plot, int row) const
{
    const std::size_t i = plot == m_countPlot ? 0 : 1;
    if (i >= m_chartLabels.size()) return nullptr;
    return row == 0 ? m_chartLabels[i].first : m_chartLabels[i].second;
}

void CommView::placeSizeTicks()
{
    // One label every k powers of two (k = 2, 4 or 8), the smallest k whose labels keep a gap between them at this
    // width, from 1 KiB; the axis' end labelled too where it stands clear of the last.
    QCPAxis* axis = m_sizePlot->xAxis;
    const double perPower = std::abs(axis->coordToPixel(2048.0) - axis->coordToPixel(1024.0));
    if (!(perPower > 0)) return;
    const QFontMetricsF fm(axis->tickLabelFont());
    const double label = fm.horizontalAdvance(QStringLiteral("256 KiB")) + 10;
    int every = 2;
    while (every < 8 && every * perPower < label)
        every *= 2;
    const int top = m_sizeTop;
    auto name = [](int e) {
        static const char* units[] = { "KiB", "MiB", "GiB", "TiB" };
        return QStringLiteral("%1 %2").arg(1 << ((e - 10) % 10)).arg(QLatin1String(units[std::min(3, (e - 10) / 10)]));
    };
    QMap<double, QString> ticks;
    int last = 10;
    for (int e = 10; e <= top; e += every) {
        ticks.insert(std::ldexp(1.0, e), name(e));
        last = e;
    }
    if (top != last && (top - last) * perPower >= label) ticks.insert(std::ldexp(1.0, top), name(top));
    auto ticker = qSharedPointerDynamicCast<QCPAxisTickerText>(axis->ticker());
    if (!ticker || ticker->ticks() == ticks) return;
    ticker->setTicks(ticks);
    // New ticks after the layout: lay out again before drawing.
    for (auto phase : { QCPLayoutElement::upPreparation, QCPLayoutElement::upMargins, QCPLayoutElement::upLayout })
        m_sizePlot->plotLayout()->update(phase);
}

std::pair<double, double> CommView::setAlgorithmCurves(QCustomPlot* plot, const QVector<double>& xs,
    const std::function<double(CommAlgorithm, double)>& seconds, int perNode)
{
    double lo = 1e300, hi = 0;
    for (int i = 0; i < int(kAlgorithms.size()); ++i) {
        const CommAlgorithm a = kAlgorithms[std::size_t(i)];
        QVector<double> ys;
        ys.reserve(xs.size());
        for (double x : xs) {
            const double y = seconds(a, x);
            ys << y;
            if (y > 0) {
                lo = std::min(lo, y);
                hi = std::max(hi, y);
            }
        }
        QCPGraph* g = plot->graph(i);
        g->setData(xs, ys, true);
        g->setName(algorithmName(a, perNode));
    }
    return { lo, hi };
}

void CommView::plotGpuCount()
{
    QCustomPlot* plot = m_countPlot;
    plot->clearItems();
    styleCommPlot(plot);
    const ClusterSpec cluster = m_hasPlan ? m_plan.cluster : ClusterSpec {};
    const int perNode = std::max(1, cluster.gpusPerNode);
    const double S = m_gradientBytes;
    QVector<double> ns;
    // Powers of two and the halfway points 3 * 2^k: 2, 3, 4, 6, 8, 12, ..., 768, 1024.
    for (int n = 2; n <= 1024; n *= 2) {
        ns << n;
        if (n * 3 / 2 < 1024 && n >= 2) ns << n * 3 / 2;
    }
    std::sort(ns.begin(), ns.end());
    auto [lo, hi] = setAlgorithmCurves(plot, ns, [&](CommAlgorithm a, double nd) {
        const int n = int(nd);
        return allReduceSeconds(a, n, S, linkFor(cluster, n), perNode, cluster);
    }, perNode);
    auto xTicker = QSharedPointer<QCPAxisTickerLog>::create();
    xTicker->setLogBase(2);
    xTicker->setSubTickCount(0);
    plot->xAxis->setTicker(xTicker);
    plot->xAxis->setNumberFormat(QStringLiteral("f"));
    plot->xAxis->setNumberPrecision(0);
    plot->xAxis->setRange(1.7, 1250);
    if (hi <= 0) {
        lo = 1e-3;
        hi = 1;
    }
    plot->yAxis->setRange(lo / 2, hi * 3);
    plot->xAxis->setLabel(tr("GPUs in the group (log scale)"));
    plot->yAxis->setLabel(tr("Time (log scale)"));
    marker(plot, perNode + 0.5, tr("one node = %1 GPUs").arg(perNode), Theme::pick(QColor(0x60, 0x60, 0x60), QColor(0xA8, 0xA8, 0xA8)), 0.02);
    if (m_planGroup > 1 && m_planGroup <= 1024)
        marker(plot, m_planGroup, tr("this plan: dp×cp = %1").arg(m_planGroup), Theme::alarmText(), 0.12);
    const QString what = m_gradientStage >= 0 ? tr("stage %1's gradients on one GPU, %2")
                                                    .arg(m_gradientStage)
                                                    .arg(qs(std::string(toString(m_plan.training.gradDtype))))
                                              : tr("an example size: no valid prediction");
    chartLabel(plot, 0)->setText(tr("All-reduce of %1 (%2) against the number of GPUs").arg(bytesText(S), what));
    const LinkSpec& in = cluster.intraNode;
    const LinkSpec& out = cluster.interNode;
    chartLabel(plot, 1)->setText(tr(
        "Links per GPU per direction: inside a node %1 GB/s × efficiency %2, α %3 µs; between nodes %4 GB/s "
        "× %5, "
        "α %6 µs.\nRing, tree and the server run on NVLink up to %7 GPUs and on the inter-node link beyond.")
                                  .arg(units::toGB(in.bandwidth), 0, 'f', 0)
                                  .arg(in.efficiency, 0, 'f', 2)
                                  .arg(in.latency * 1e6, 0, 'f', 1)
                                  .arg(units::toGB(out.bandwidth), 0, 'f', 1)
                                  .arg(out.efficiency, 0, 'f', 2)
                                  .arg(out.latency * 1e6, 0, 'f', 1)
                                  .arg(perNode));
    replotIfSized(plot);
}

void CommView::plotMessageSize()
{
    QCustomPlot* plot = m_sizePlot;
    plot->clearItems();
    styleCommPlot(plot);
    const ClusterSpec cluster = m_hasPlan ? m_plan.cluster : ClusterSpec {};
    const int perNode = std::max(1, cluster.gpusPerNode);
    const int n = m_sizeSpin->value();
    // The plan's group of n GPUs where there is one, placed as the table places it (a DP group of 4 with TP=8 has
    // one GPU on each of 4 nodes); else n GPUs side by side.
    const CommGroup* group = messageSizeGroup();
    const bool crosses = group ? group->crossesNodes : n > perNode;
    const LinkSpec link = crosses ? cluster.interNode : cluster.intraNode;
    const int groupPerNode = group ? std::max(1, group->perNode) : perNode;
    const int nodes = group ? group->nodesSpanned : (n + perNode - 1) / perNode;
    // 1 KiB .. 4 GiB, and on to the plan's gradient buffer where that is larger (a 405B stage holds ~12 GiB).
    const int top = std::max(32, m_gradientStage >= 0 ? int(std::ceil(std::log2(m_gradientBytes))) : 32);
    QVector<double> sizes;
    for (int e = 10; e <= top; ++e)
        sizes << std::ldexp(1.0, e);
    auto [lo, hi] = setAlgorithmCurves(
        plot, sizes, [&](CommAlgorithm a, double S) { return allReduceSeconds(a, n, S, link, groupPerNode, cluster); },
        groupPerNode);
    // Labelled every few powers of two as the width allows (placeSizeTicks, at every layout).
    auto xTicker = QSharedPointer<QCPAxisTickerText>::create();
    m_sizeTop = top;
    plot->xAxis->setTicker(xTicker);
    plot->xAxis->setRange(std::ldexp(1.0, 10) / 1.5, std::ldexp(1.0, top) * 1.5);
    if (hi <= 0) {
        lo = 1e-6;
        hi = 1;
    }
    plot->yAxis->setRange(lo / 2, hi * 3);
    plot->xAxis->setLabel(tr("Message size per GPU (log scale)"));
    plot->yAxis->setLabel(tr("Time (log scale)"));
    if (m_gradientStage >= 0)
        marker(plot, m_gradientBytes, tr("this plan's gradients: %1").arg(bytesText(m_gradientBytes)),
            Theme::alarmText(), 0.02);
    const QString where = !crosses
        ? tr("inside one node: %1 GB/s per direction").arg(units::toGB(link.bandwidth), 0, 'f', 0)
        : tr("across %1 nodes, %2 per node: %3 GB/s per GPU per direction")
              .arg(nodes)
              .arg(groupPerNode)
              .arg(units::toGB(link.bandwidth), 0, 'f', 1);
    chartLabel(plot, 0)->setText(group
            ? tr("All-reduce on this plan's %1 group, n = %2 GPUs, against the message size (%3)")
                  .arg(qs(std::string(toString(group->kind))).toUpper())
                  .arg(n)
                  .arg(where)
            : tr("All-reduce on n = %1 GPUs against the message size (%2)").arg(n).arg(where));
    chartLabel(plot, 1)->setText(
        tr("Small messages pay the latency α of every step (ring 2(n−1) steps, tree 2·log2 n);"
           "\nlarge ones the bandwidth term 2(n−1)/n × S / B. KiB = 2^10 bytes, GiB = 2^30."));
    replotIfSized(plot);
}

const CommGroup* CommView::messageSizeGroup() const
{
    const int n = m_sizeSpin->value();
    // Groups that all-reduce; the pipeline's sends are point to point.
    for (GroupKind kind : { GroupKind::DPCP, GroupKind::TP, GroupKind::CP, GroupKind::EP })
        for (const CommGroup& g : m_groups)
            if (g.kind == kind && g.size == n) return &g;
    return nullptr;
}

QString CommView::chartTitle(CommChart chart, int row) const
{
    const QLabel* title = chartLabel(chart == CommChart::GpuCount ? m_countPlot : m_sizePlot, row);
    return title ? title->text() : QString();
}

int CommView::ringSize() const
{
    return m_sizeSpin->value();
}

void CommView::setRingSize(int n)
{
    m_sizeSpin->setValue(n);
}

int CommView::ringStep() const
{
    return m_ring->step();
}

int CommView::ringStepCount() const
{
    return m_ring->stepCount();
}

bool CommView::stepRing()
{
    return m_ring->stepForward();
}

void CommView::resetRing()
{
    m_ring->reset();
}

void CommView::playRing(bool playing)
{
    m_ring->setPlaying(playing);
}

QString CommView::ringCaption() const
{
    return m_caption->text();
}

void CommView::updateCaption()
{
    const CommRingAllReduce& ring = m_ring->ring();
    const int n = ring.gpus(), step = m_ring->step(), total = ring.stepCount();
    QString text;
    if (step == 0) {
        text = tr("Start: each of the %1 GPUs holds its own buffer of S bytes, cut into %1 chunks of S/%1. "
                  "Ring all-reduce takes 2(n−1) = %2 steps: %3 of reduce-scatter, then %3 of all-gather.")
                   .arg(n)
                   .arg(total)
                   .arg(n - 1);
    } else if (ring.isReduceScatter(step)) {
        const int k = ring.phaseStep(step);
        text = tr("reduce-scatter step %1/%2: each GPU sends 1/%3 of the buffer (one chunk) to the next GPU "
                  "on the ring, which adds it to its own copy; the chunks sent now sum %4 GPUs' inputs.")
                   .arg(k)
                   .arg(n - 1)
                   .arg(n)
                   .arg(k + 1);
        if (k == n - 1)
            text += QLatin1Char(' ') + tr("Every GPU now holds one chunk fully reduced (framed).");
    } else {
        const int k = ring.phaseStep(step);
        text = tr("all-gather step %1/%2: each GPU sends 1/%3 of the buffer (a fully reduced chunk) to the "
                  "next GPU, which keeps a copy; every GPU now has %4 of the %3 reduced chunks.")
                   .arg(k)
                   .arg(n - 1)
                   .arg(n)
                   .arg(k + 1);
    }
    if (step == total) {
        const double factor = 2.0 * (n - 1) / n;
        text += QLatin1Char(' ')
            + tr("Done after 2(n−1) = %1 steps: every GPU holds the full sum. Each GPU sent 2(n−1)/n × S = "
                 "%2 × S "
                 "(%3 for S = %4), close to 2S however many GPUs there are: the ring spreads the traffic "
                 "evenly, where a parameter server's link carries n × S.")
                  .arg(total)
                  .arg(factor, 0, 'f', 3)
                  .arg(bytesText(ring.bytesSentPerGpu(m_gradientBytes)), bytesText(m_gradientBytes));
    }
    m_caption->setText(text);
}

QString CommView::highlightText() const
{
    return m_highlight->text();
}

void CommView::updateHighlight()
{
    const int gpu = m_state ? m_state->highlightedGpu() : -1;
    if (!m_hasPlan || gpu < 0) {
        m_highlight->setText(tr("Hover a GPU in the GPU grid to see the groups it communicates in."));
        return;
    }
    const RankGrid grid(m_plan);
    if (gpu >= grid.gpus()) {
        m_highlight->clear();
        return;
    }
    const RankCoords c = grid.coords(gpu);
    QStringList parts;
    for (GroupKind kind : { GroupKind::TP, GroupKind::CP, GroupKind::EP, GroupKind::DPCP, GroupKind::PP }) {
        if (grid.size(kind) <= 1) continue;
        const std::vector<int> members = grid.members(kind, gpu);
        QStringList ranks;
        for (std::size_t i = 0; i < members.size() && i < 6; ++i)
            ranks << QString::number(members[i]);
        if (members.size() > 6) ranks << QStringLiteral("…") << QString::number(members.back());
        const GroupPlacement g = grid.placement(kind, gpu);
        const QString name = qs(std::string(toString(kind))).toUpper();
        parts << (g.nodesSpanned == 1
                ? tr("%1 %2 (inside one node)").arg(name, ranks.join(QStringLiteral(", ")))
                : tr("%1 %2 (%3 nodes)").arg(name, ranks.join(QStringLiteral(", "))).arg(g.nodesSpanned));
    }
    m_highlight->setText(
        tr("GPU %1 on node %2: %3").arg(gpu).arg(c.node).arg(parts.join(QStringLiteral("; "))));
}

QList<QPointF> CommView::plottedSeries(CommChart chart, CommAlgorithm algorithm) const
{
    const QCustomPlot* plot = chart == CommChart::GpuCount ? m_countPlot : m_sizePlot;
    const int index = int(std::find(kAlgorithms.begin(), kAlgorithms.end(), algorithm) - kAlgorithms.begin());
    QList<QPointF> out;
    if (index >= plot->graphCount()) return out;
    for (auto it = plot->graph(index)->data()->constBegin(); it != plot->graph(index)->data()->constEnd();
         ++it)
        out << QPointF(it->key, it->value);
    return out;
}

bool CommView::exportTo(const QString& path, QSize size, QString* error)
{
    const QSize old = this->size();
    if (!size.isValid() || size.isEmpty())
        size = old.width() > 200 && old.height() > 150 && testAttribute(Qt::WA_WState_Visible)
            ? old
            : QSize(1400, 900);
    const bool resized = size != old;
    if (resized) {
        resize(size);
        if (layout()) layout()->activate();
    }
    // The scrolling content whole, never the scroll area's window onto it: a picture has no scroll bars.
    const QSize contentSize = size.expandedTo(m_content->minimumSizeHint());
    if (contentSize != m_content->size()) m_content->resize(contentSize);
    if (m_content->layout()) m_content->layout()->activate();
    QCoreApplication::sendPostedEvents();
    replotIfSized(m_countPlot);
    replotIfSized(m_sizePlot);
    const bool ok = WidgetExporter::exportWidget(m_content, path, error);
    if (resized) {
        resize(old);
        if (layout()) layout()->activate();
    }
    replotIfSized(m_countPlot);
    replotIfSized(m_sizePlot);
    return ok;
}

QString CommView::pageTitle() const
{
    return tr("Communication");
}

} // namespace planscope
