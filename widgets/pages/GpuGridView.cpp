#include "pages/GpuGridView.h"
#include "WidgetExporter.h"

#include "Palette.h"
#include "Theme.h"
#include "document/PlanDocument.h"
#include "document/ViewState.h"
#include "sim/Timeline.h"
#include "util/Units.h"

#include <QComboBox>
#include <QEvent>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QImage>
#include <QLabel>
#include <QMouseEvent>
#include <QPageLayout>
#include <QPageSize>
#include <QPainter>
#include <QHelpEvent>
#include <QToolTip>
#include <QScopeGuard>
#include <QPainterPath>
#include <QPushButton>
#include <QVBoxLayout>
#include <QWheelEvent>
#include <algorithm>
#include <array>
#include <cmath>
#include <set>

namespace planscope {

namespace {

constexpr long long kMaxDrawableGpus = 1LL << 22;
constexpr long long kAggregateColourGpus = 4096;
constexpr double kPad = 8;

QColor blend(const QColor& a, const QColor& b, double t)
{
    return QColor::fromRgbF(float(a.redF() + (b.redF() - a.redF()) * t),
        float(a.greenF() + (b.greenF() - a.greenF()) * t), float(a.blueF() + (b.blueF() - a.blueF()) * t));
}

// Okabe & Ito for up to eight values (vermillion late: red means "crosses nodes" here); viridis beyond,
// which stays ordered and readable for colour-blind viewers.
QColor categorical(int i)
{
    static const std::array<QColor, 8> colours { palette::blue(), palette::orange(), palette::bluishGreen(),
        palette::skyBlue(), palette::reddishPurple(), palette::yellow(), palette::vermillion(),
        palette::grey() };
    return colours[std::size_t(i) % colours.size()];
}

QColor viridis(double t)
{
    static const std::array<QColor, 10> stops { QColor(0x44, 0x01, 0x54), QColor(0x48, 0x28, 0x78),
        QColor(0x3E, 0x4A, 0x89), QColor(0x31, 0x68, 0x8E), QColor(0x26, 0x82, 0x8E),
        QColor(0x1F, 0x9E, 0x89), QColor(0x35, 0xB7, 0x79), QColor(0x6D, 0xCD, 0x59),
        QColor(0xB4, 0xDE, 0x2C), QColor(0xFD, 0xE7, 0x25) };
    t = std::clamp(t, 0.0, 1.0) * double(stops.size() - 1);
    const int i = std::min(int(t), int(stops.size()) - 2);
    return blend(stops[std::size_t(i)], stops[std::size_t(i) + 1], t - i);
}

QColor textOn(const QColor& fill)
{
    const double luminance = 0.299 * fill.redF() + 0.587 * fill.greenF() + 0.114 * fill.blueF();
    return luminance > 0.55 ? QColor(0x10, 0x10, 0x10) : QColor(Qt::white);
}

// One line style per group kind, with dashes long and gaps wide enough to tell apart on small cells.
QPen groupPen(GroupKind kind, const QColor& colour, double width)
{
    QPen pen(colour, width, Qt::SolidLine, Qt::FlatCap, Qt::MiterJoin);
    switch (kind) {
    case GroupKind::TP:
        break;
    case GroupKind::CP:
        pen.setDashPattern({ 4, 1.5, 1, 1.5 });
        break;
    case GroupKind::DPCP:
        pen.setDashPattern({ 3, 2 });
        break;
    case GroupKind::PP:
        pen.setDashPattern({ 0.75, 1.5 });
        break;
    case GroupKind::EP:
        pen.setDashPattern({ 4, 1.5, 1, 1.5, 1, 1.5 });
        break;
    case GroupKind::ExpertDP:
        pen.setStyle(Qt::NoPen);
        break;
    }
    return pen;
}

// The groups outlined around the highlighted GPU, innermost first.
constexpr std::array<GroupKind, 5> kOutlined { GroupKind::TP, GroupKind::CP, GroupKind::EP, GroupKind::DPCP,
    GroupKind::PP };

// A group crossing trays inside an NVLink domain: still NVLink, so a calm colour, not the alarm's.
QColor nvlinkColour()
{
    return palette::bluishGreen();
}

QString spanLetter(int kind)
{
    switch (SpanKind(kind)) {
    case SpanKind::Forward:
        return QStringLiteral("F");
    case SpanKind::Backward:
        return QStringLiteral("B");
    case SpanKind::InputGrad:
        return QStringLiteral("B (input)");
    case SpanKind::WeightGrad:
        return QStringLiteral("W");
    case SpanKind::OverlapFB:
        return QStringLiteral("F&B");
    default:
        return QString();
    }
}

} // namespace

// The painted area: forwards input to the view, which owns the state and paints.
class GpuGridCanvas : public QWidget {
public:
    explicit GpuGridCanvas(GpuGridView* view)
        : QWidget(view)
        , m_view(view)
    {
        setMouseTracking(true);
        setMinimumSize(320, 240);
        setAttribute(Qt::WA_OpaquePaintEvent);
        setFocusPolicy(Qt::WheelFocus);
    }

protected:
    void paintEvent(QPaintEvent*) override
    {
        QPainter p(this);
        m_view->paintScene(p, QRectF(rect()), m_view->m_geometry);
    }
    void resizeEvent(QResizeEvent* event) override
    {
        QWidget::resizeEvent(event);
        m_view->refit();
    }
    void mouseMoveEvent(QMouseEvent* event) override
    {
        const QPointF pos = event->position();
        if (event->buttons() & Qt::LeftButton) {
            const QPointF delta = pos - m_last;
            if (m_dragging || delta.manhattanLength() > 3) {
                m_dragging = true;
                m_view->m_geometry.pan(delta);
                m_view->m_zoomed = true;
                m_last = pos;
                update();
            }
            return;
        }
        m_view->hoverAt(pos);
    }
    void mousePressEvent(QMouseEvent* event) override
    {
        m_last = event->position();
        m_dragging = false;
    }
    void mouseReleaseEvent(QMouseEvent* event) override
    {
        if (event->button() == Qt::LeftButton && !m_dragging) m_view->clickAt(event->position());
        m_dragging = false;
    }
    void mouseDoubleClickEvent(QMouseEvent*) override { m_view->zoomToFit(); }
    void wheelEvent(QWheelEvent* event) override
    {
        const double steps = event->angleDelta().y() / 120.0;
        if (steps == 0) return;
        m_view->m_geometry.zoomAt(event->position(), std::pow(1.25, steps));
        m_view->m_zoomed = true;
        update();
        event->accept();
    }
    void leaveEvent(QEvent*) override { m_view->leave(); }
    bool event(QEvent* event) override
    {
        if (event->type() == QEvent::ToolTip) {
            auto* help = static_cast<QHelpEvent*>(event);
            const QString text = m_view->headerToolTipAt(help->pos());
            if (text.isEmpty())
                QToolTip::hideText();
            else
                QToolTip::showText(help->globalPos(), text, this);
            return true;
        }
        return QWidget::event(event);
    }

private:
    GpuGridView* m_view;
    QPointF m_last;
    bool m_dragging = false;
};

GpuGridView::GpuGridView(QWidget* parent)
    : QWidget(parent)
{
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(2);
    auto* bar = new QHBoxLayout;
    bar->setContentsMargins(6, 4, 6, 0);
    m_colourLabel = new QLabel(this);
    m_colourCombo = new QComboBox(this);
    m_fitButton = new QPushButton(this);
    m_hint = new QLabel(this);
    m_hint->setForegroundRole(QPalette::PlaceholderText);
    bar->addWidget(m_colourLabel);
    bar->addWidget(m_colourCombo);
    bar->addWidget(m_fitButton);
    bar->addStretch(1);
    bar->addWidget(m_hint);
    layout->addLayout(bar);
    m_canvas = new GpuGridCanvas(this);
    layout->addWidget(m_canvas, 1);
    for (int i = 0; i < 6; ++i)
        m_colourCombo->addItem(QString(), i);
    connect(m_colourCombo, &QComboBox::currentIndexChanged, this,
        [this](int index) { setColourBy(GridColour(m_colourCombo->itemData(index).toInt())); });
    m_colourCombo->setToolTip(tr("Which coordinate of each GPU its colour shows"));
    connect(m_fitButton, &QPushButton::clicked, this, &GpuGridView::zoomToFit);
    connect(Theme::instance(), &Theme::changed, this, [this] { m_canvas->update(); });
    retranslate();
    rebuild();
}

GpuGridView::~GpuGridView() = default;

QWidget* GpuGridView::canvas() const
{
    return m_canvas;
}

void GpuGridView::setDocument(PlanDocument* document)
{
    m_feed.follow(document, this,
        [this](std::shared_ptr<const Analysis> analysis) { setAnalysis(std::move(analysis)); });
}

void GpuGridView::setAnalysis(std::shared_ptr<const Analysis> analysis)
{
    m_analysis = std::move(analysis);
    rebuild();
}

void GpuGridView::setCompact(bool compact)
{
    m_compact = compact;
    for (QWidget* w : std::initializer_list<QWidget*> { m_colourLabel, m_colourCombo, m_fitButton, m_hint }) w->setVisible(!compact);
    m_canvas->setMinimumSize(compact ? QSize(160, 120) : QSize(320, 240));
    refit();
}

void GpuGridView::setViewState(ViewState* state)
{
    if (m_state) disconnect(m_state, nullptr, this, nullptr);
    m_state = state;
    if (state) {
        connect(state, &ViewState::playheadChanged, this, &GpuGridView::updateBusy);
        connect(state, &ViewState::highlightedGpuChanged, this, [this] { m_canvas->update(); });
    }
    updateBusy();
}

void GpuGridView::changeEvent(QEvent* event)
{
    if (event->type() == QEvent::LanguageChange) {
        retranslate();
        rebuild();
    }
    QWidget::changeEvent(event);
}

QString GpuGridView::colourName(GridColour colour) const
{
    switch (colour) {
    case GridColour::TP:
        return tr("tp (tensor-parallel rank)");
    case GridColour::PP:
        return tr("pp (pipeline stage)");
    case GridColour::DP:
        return tr("dp (data-parallel replica)");
    case GridColour::CP:
        return tr("cp (context-parallel rank)");
    case GridColour::EP:
        return tr("ep (expert-parallel rank)");
    case GridColour::Node:
        return tr("node");
    }
    return QString();
}

QString GpuGridView::groupName(GroupKind kind) const
{
    switch (kind) {
    case GroupKind::TP:
        return tr("TP group");
    case GroupKind::CP:
        return tr("CP group");
    case GroupKind::DPCP:
        return tr("DP×CP group");
    case GroupKind::PP:
        return tr("pipeline");
    case GroupKind::EP:
        return tr("EP group");
    case GroupKind::ExpertDP:
        return tr("expert-DP group");
    }
    return QString();
}

void GpuGridView::retranslate()
{
    m_colourLabel->setText(tr("Colour by:"));
    for (int i = 0; i < m_colourCombo->count(); ++i)
        m_colourCombo->setItemText(i, colourName(GridColour(m_colourCombo->itemData(i).toInt())));
    m_fitButton->setText(tr("Fit"));
    m_fitButton->setToolTip(tr("Show the whole grid (or double-click it)"));
    m_hint->setText(tr("Wheel: zoom · drag: pan · hover: a GPU's groups · click: select its pipeline rank"));
}

void GpuGridView::setColourBy(GridColour colour)
{
    m_colourChosen = true;
    applyColour(colour);
}

void GpuGridView::applyColour(GridColour colour)
{
    m_colour = colour;
    const int index = m_colourCombo->findData(int(colour));
    if (index >= 0 && m_colourCombo->currentIndex() != index) {
        const QSignalBlocker block(m_colourCombo);
        m_colourCombo->setCurrentIndex(index);
    }
    m_canvas->update();
}

void GpuGridView::rebuild()
{
    m_hasGrid = false;
    m_warnings.clear();
    m_alarmNode.clear();
    m_alarmLinks.clear();
    m_crossings.clear();
    m_trayLinks.clear();
    m_domainNodes = 1;
    m_compute.clear();
    m_busiest = -1;
    m_title.clear();
    m_linkText.clear();
    m_duration = 0;
    const std::shared_ptr<const Analysis> analysis = m_analysis;
    if (!analysis) {
        m_emptyReason = tr("No plan loaded");
        refit();
        updateBusy();
        return;
    }
    const Plan& plan = analysis->plan;
    const ParallelSpec& P = plan.parallel;
    const long long gpus
        = 1LL * std::max(1, P.tp) * std::max(1, P.cp) * std::max(1, P.dp) * std::max(1, P.pp);
    if (P.tp <= 0 || P.cp <= 0 || P.dp <= 0 || P.pp <= 0 || gpus > kMaxDrawableGpus) {
        m_emptyReason = tr("Cannot draw this grid: dp × tp × pp × cp = %L1 GPUs").arg(gpus);
        refit();
        updateBusy();
        return;
    }
    m_grid = RankGrid(plan);
    m_hasGrid = true;
    const ClusterSpec& C = plan.cluster;
    m_title = tr("%L1 GPUs = dp %2 × tp %3 × pp %4 × cp %5%6 on %L7 nodes of %8 GPUs, rank order %9")
                  .arg(m_grid.gpus())
                  .arg(P.dp)
                  .arg(P.tp)
                  .arg(P.pp)
                  .arg(P.cp)
                  .arg(m_grid.ep() > 1 ? tr(" (ep %1 inside dp × cp)").arg(m_grid.ep()) : QString())
                  .arg(m_grid.nodes())
                  .arg(m_grid.gpusPerNode())
                  .arg(QString::fromStdString(P.order));
    m_domainNodes = std::max(1, C.nvlinkDomainNodes);
    const int dn = m_domainNodes;
    if (dn > 1)
        m_title += tr(", %L1 NVLink domains of %2 nodes")
                       .arg((m_grid.nodes() + dn - 1) / dn)
                       .arg(dn);
    if (m_grid.gpus() != 1LL * C.gpus()) m_title += tr(" (the cluster has %L1 GPUs)").arg(C.gpus());
    m_linkText = dn > 1
        ? tr("network between NVLink domains: %1 GB/s per GPU per direction; inside a domain (NVLink) %2 GB/s "
             "per direction")
              .arg(units::toGB(C.interNode.bandwidth), 0, 'f', 1)
              .arg(units::toGB(C.intraNode.bandwidth), 0, 'f', 0)
        : tr("inter-node network: %1 GB/s per GPU per direction; inside a node %2 GB/s per direction")
              .arg(units::toGB(C.interNode.bandwidth), 0, 'f', 1)
              .arg(units::toGB(C.intraNode.bandwidth), 0, 'f', 0);

    // Groups whose collectives run inside every layer must not leave NVLink: mark their nodes and links red.
    // With NVLink domains of several nodes, NVLink reaches the whole domain: a group crossing trays inside
    // one is fine (its links are drawn calm); only crossing domains is marked.
    m_alarmNode.assign(std::size_t(m_grid.nodes()), 0);
    std::set<std::pair<int, int>> links, trayLinks;
    const int perNode = m_grid.gpusPerNode();
    for (GroupKind kind : { GroupKind::TP, GroupKind::CP, GroupKind::EP }) {
        const int size = m_grid.size(kind);
        // Whether a group crosses, and how far, is RankLayout's rule (the cost model's and validation's);
        // the loop below only finds which nodes and links to mark.
        if (size <= 1 || (kind == GroupKind::EP && !plan.model.isMoe()) || !m_grid.anyGroupCrossesNodes(kind)) continue;
        const GroupPlacement& worst = m_grid.worstPlacement(kind);
        const int most = dn > 1 ? worst.domainsSpanned : m_grid.maxNodesSpanned(kind);
        std::set<std::pair<int, int>> kindLinks;
        for (long long r = 0; r < m_grid.gpus(); ++r) {
            if (m_grid.indexInGroup(kind, int(r)) != 0) continue;
            int previous = -1, previousDomain = -1, domains = 0;
            for (int m : m_grid.members(kind, int(r))) {
                const int node = m / perNode;
                if (node == previous) continue;
                if (previous >= 0) {
                    if (previous / dn == node / dn) {
                        trayLinks.insert({ previous, node });
                    } else {
                        links.insert({ previous, node });
                        kindLinks.insert({ previous, node });
                    }
                }
                previous = node;
                if (node / dn != previousDomain) ++domains;
                previousDomain = node / dn;
            }
            if (domains > 1)
                for (int m : m_grid.members(kind, int(r)))
                    m_alarmNode[std::size_t(m / perNode)] = 1;
        }
        // Its traffic: the prediction's group of this kind (core/cost: bytes one GPU sends per step, their time).
        Crossing crossing;
        crossing.kind = kind;
        crossing.links.assign(kindLinks.begin(), kindLinks.end());
        for (const CommGroup& g : analysis->prediction.comm)
            if (g.kind == kind && g.bytesPerStep > crossing.bytesPerStep) {
                crossing.bytesPerStep = g.bytesPerStep;
                crossing.seconds = g.seconds;
                crossing.exposedSeconds = g.exposedSeconds;
            }
        const auto traffic = [&] {
            return crossing.bytesPerStep > 0
                ? tr(" (%1 per GPU per step, %2 of collectives, %3 exposed)")
                      .arg(QString::fromStdString(units::formatBytes(crossing.bytesPerStep)),
                          QString::fromStdString(units::formatSeconds(crossing.seconds)),
                          QString::fromStdString(units::formatSeconds(crossing.exposedSeconds)))
                : QString();
        };
        if (!crossing.links.empty()) m_crossings.push_back(crossing);
        const qsizetype warningsBefore = m_warnings.size();
        const auto addTraffic = qScopeGuard([&] {
            if (m_warnings.size() > warningsBefore) m_warnings.last() += traffic();
        });
        if (dn > 1) {
            if (!worst.crossesDomains) continue;
            if (kind == GroupKind::TP)
                m_warnings << tr("TP group of %1 spans %2 NVLink domains: every layer's all-reduce crosses the "
                                 "network (%3 GB/s per GPU per direction instead of %4 GB/s over NVLink)")
                                  .arg(size)
                                  .arg(most)
                                  .arg(units::toGB(C.interNode.bandwidth), 0, 'f', 1)
                                  .arg(units::toGB(C.intraNode.bandwidth), 0, 'f', 0);
            else if (kind == GroupKind::CP)
                m_warnings << tr("CP group of %1 spans %2 NVLink domains: every layer's K/V exchange crosses "
                                 "the network")
                                  .arg(size)
                                  .arg(most);
            else
                m_warnings << tr("EP group of %1 spans %2 NVLink domains: every MoE layer's all-to-all crosses "
                                 "the network")
                                  .arg(size)
                                  .arg(most);
            continue;
        }
        if (kind == GroupKind::TP)
            m_warnings << tr("TP group of %1 spans %2 nodes: every layer's all-reduce crosses InfiniBand "
                             "(%3 GB/s per GPU per direction instead of %4 GB/s over NVLink)")
                              .arg(size)
                              .arg(most)
                              .arg(units::toGB(C.interNode.bandwidth), 0, 'f', 1)
                              .arg(units::toGB(C.intraNode.bandwidth), 0, 'f', 0);
        else if (kind == GroupKind::CP)
            m_warnings << tr("CP group of %1 spans %2 nodes: every layer's K/V exchange crosses InfiniBand")
                              .arg(size)
                              .arg(most);
        else
            m_warnings << tr("EP group of %1 spans %2 nodes: every MoE layer's all-to-all crosses InfiniBand")
                              .arg(size)
                              .arg(most);
    }
    m_alarmLinks.assign(links.begin(), links.end());
    m_trayLinks.assign(trayLinks.begin(), trayLinks.end());
    // Until the user picks a colour: TP shows the groups of a small grid; a grid too large to show every
    // GPU folds nodes into one cell each, where the pipeline stage tells more (a node holds a whole TP
    // group).
    if (!m_colourChosen) applyColour(m_grid.gpus() > kAggregateColourGpus ? GridColour::PP : GridColour::TP);

    // Compute spans per pipeline rank, for "busy at the playhead".
    if (const std::shared_ptr<const Timeline> tl = analysis->timeline) {
        m_duration = tl->stepSeconds;
        m_compute.assign(std::size_t(m_grid.pp()), {});
        for (const Span& s : tl->spans)
            if (s.stream == Stream::Compute && s.rank >= 0 && s.rank < m_grid.pp())
                m_compute[std::size_t(s.rank)].push_back({ s.start, s.end, int(s.kind), s.microbatch });
        for (auto& lane : m_compute)
            std::sort(lane.begin(), lane.end(),
                [](const Interval& a, const Interval& b) { return a.start < b.start; });
        // The first moment the most stages compute: a sweep over every start (+1) and end (-1), ends first at a tie.
        std::vector<std::pair<double, int>> events;
        for (const auto& lane : m_compute)
            for (const Interval& i : lane) {
                events.push_back({ i.start, +1 });
                events.push_back({ i.end, -1 });
            }
        std::sort(events.begin(), events.end());
        int level = 0, most = 0;
        for (const auto& [time, delta] : events)
            if ((level += delta) > most) {
                most = level;
                m_busiest = time;
            }
    }
    m_zoomed = false;
    refit();
    updateBusy();
}

void GpuGridView::updateBusy()
{
    m_busyStage.assign(m_hasGrid ? std::size_t(m_grid.pp()) : 0, 0);
    if (!m_hasGrid) {
        m_status.clear();
        m_shownTime = -1;
    } else if (m_compute.empty()) {
        m_shownTime = -1;
        const QString why = m_analysis ? PlanDocument::describe(m_analysis->timelineErrors) : QString();
        m_status = why.isEmpty()
            ? tr("No simulated timeline: every GPU is drawn at full colour")
            : tr("No simulated timeline (%1): every GPU is drawn at full colour").arg(why);
    } else {
        // At the end of the step no stage computes (the playhead stands there after a plan opens, and in pictures):
        // the grid then lights the busiest moment instead, and says so.
        const double playhead = m_state ? m_state->playhead() : 0.0;
        const bool atEnd = m_busiest >= 0 && playhead >= m_duration && !(m_state && m_state->isPlaying());
        const double t = atEnd ? m_busiest : playhead;
        m_shownTime = t;
        int busy = 0;
        QStringList doing;
        for (std::size_t r = 0; r < m_compute.size(); ++r) {
            const auto& lane = m_compute[r];
            auto it = std::upper_bound(
                lane.begin(), lane.end(), t, [](double v, const Interval& i) { return v < i.start; });
            if (it == lane.begin()) continue;
            --it;
            if (t >= it->start && t < it->end) {
                m_busyStage[r] = 1;
                ++busy;
                if (doing.size() < 6)
                    doing << tr("stage %1: %2 mb %3").arg(r).arg(spanLetter(it->kind)).arg(it->microbatch);
            }
        }
        if (busy > 6) doing << QStringLiteral("…");
        m_status = (atEnd ? tr("At %1 of %2, the busiest moment (the playhead is at the end of the step): %3 of %4 "
                               "pipeline stages computing (lit), the others idle (dimmed)")
                          : tr("Playhead %1 of %2: %3 of %4 pipeline stages computing (lit), the others idle (dimmed)"))
                       .arg(QString::fromStdString(units::formatSeconds(t)),
                           QString::fromStdString(units::formatSeconds(m_duration)))
                       .arg(busy)
                       .arg(m_grid.pp());
        if (!doing.isEmpty()) m_status += QStringLiteral(" — ") + doing.join(QStringLiteral(", "));
    }
    m_canvas->update();
}

std::vector<GpuGridView::LegendEntry> GpuGridView::legendEntries() const
{
    std::vector<LegendEntry> entries;
    if (!m_hasGrid || m_compact) return entries;
    for (GroupKind kind : kOutlined)
        if (m_grid.size(kind) > 1) entries.push_back({ groupName(kind), LegendEntry::Group, int(kind) });
    if (!m_compute.empty()) {
        entries.push_back({ tr("computing at the playhead"), LegendEntry::Busy, 0 });
        entries.push_back({ tr("idle"), LegendEntry::Idle, 0 });
    }
    if (!m_trayLinks.empty())
        entries.push_back({ tr("group crossing trays inside an NVLink domain (NVLink)"), LegendEntry::NvLink, 0 });
    // Each kind of group crossing nodes, in its pattern and thickness (at the legend's scale), with its traffic.
    for (std::size_t k = 0; k < m_crossings.size(); ++k) {
        const Crossing& c = m_crossings[k];
        const QString what = m_domainNodes > 1 ? tr("%1 crossing NVLink domains (network)").arg(groupName(c.kind))
                                               : tr("%1 crossing nodes").arg(groupName(c.kind));
        entries.push_back({ c.bytesPerStep > 0
                ? tr("%1: %2 per GPU per step").arg(what, QString::fromStdString(units::formatBytes(c.bytesPerStep)))
                : what,
            LegendEntry::Crossing, int(k) });
    }
    entries.push_back({ m_linkText, LegendEntry::Bus, 0 });
    return entries;
}

int GpuGridView::colourRows(double width) const
{
    const int count = colourCount();
    if (!m_hasGrid || count > 16) return 1;
    const QFontMetricsF fm(font());
    const double sw = fm.height(), right = width - kPad;
    const double indent = kPad + fm.horizontalAdvance(tr("Colour = %1:").arg(colourName(m_colour))) + 8;
    double x = indent;
    int rows = 1;
    for (int v = 0; v < count; ++v) {
        const double w = fm.horizontalAdvance(QString::number(v));
        if (x > indent && x + sw + w + 12 > right) {
            x = indent;
            ++rows;
        }
        x += sw + 3 + w + 10;
    }
    return rows;
}

int GpuGridView::legendRows(double width) const
{
    const QFontMetricsF fm(font());
    const double left = kPad, right = width - kPad;
    double x = left;
    int rows = 1;
    for (const LegendEntry& e : legendEntries()) {
        const double w = fm.horizontalAdvance(e.text);
        if (x > left && x + 30 + w > right) {
            x = left;
            ++rows;
        }
        x += 28 + w + 14;
    }
    return rows;
}

std::pair<QPen, double> GpuGridView::crossingPen(std::size_t k, double scale) const
{
    double heaviest = 0;
    for (const Crossing& c : m_crossings) heaviest = std::max(heaviest, c.bytesPerStep);
    const double base = std::clamp(scale * 0.18, 2.0, 6.0);
    const Crossing& c = m_crossings[k];
    const double width = heaviest > 0 ? base * (0.35 + 0.65 * c.bytesPerStep / heaviest) : base;
    const double offset = (double(k) - double(m_crossings.size() - 1) / 2.0) * (base + 1.0);
    return { groupPen(c.kind, palette::alarm(), width), offset };
}

bool GpuGridView::isBusy(int rank) const
{
    if (!m_hasGrid || m_busyStage.empty() || rank < 0 || rank >= m_grid.gpus()) return false;
    return m_busyStage[std::size_t(m_grid.coords(rank).pp)] != 0;
}

int GpuGridView::busyGpuCount() const
{
    if (!m_hasGrid) return 0;
    long long stages = std::count(m_busyStage.begin(), m_busyStage.end(), char(1));
    return int(stages * (m_grid.gpus() / m_grid.pp()));
}

int GpuGridView::highlightedGpu() const
{
    return m_state ? m_state->highlightedGpu() : m_localHighlight;
}

GpuGridView::SceneParts GpuGridView::sceneParts(const QRectF& rect) const
{
    const double line = QFontMetricsF(font()).lineSpacing();
    const int headerLines = (m_compact ? 1 : 2) + int(m_warnings.size());
    const double header = kPad + headerLines * line + 4;
    // The colour key in the lines it wraps to, or in one strip under its title where it would take more than two.
    const int colourLines = std::min(2, colourRows(rect.width()));
    const double footer = (colourLines + (m_compact ? 0 : 1 + legendRows(rect.width()))) * (line + 6) + kPad;
    SceneParts parts;
    parts.header = QRectF(rect.left(), rect.top(), rect.width(), header);
    parts.footer = QRectF(rect.left(), rect.bottom() - footer, rect.width(), footer);
    parts.grid = QRectF(rect.left() + kPad, parts.header.bottom(), rect.width() - 2 * kPad,
        std::max(10.0, parts.footer.top() - parts.header.bottom()));
    return parts;
}

void GpuGridView::refit()
{
    if (!m_hasGrid) {
        m_geometry.setGrid(0, 8);
        m_canvas->update();
        return;
    }
    const QRectF area = sceneParts(QRectF(m_canvas->rect())).grid;
    if (m_zoomed) {
        // Keep the user's zoom; only the nodes per row follow a new size when fitted again.
        m_canvas->update();
        return;
    }
    m_geometry.setGrid(m_grid.nodes(), m_grid.gpusPerNode(), m_domainNodes);
    m_geometry.fit(area);
    m_canvas->update();
}

void GpuGridView::zoomToFit()
{
    m_zoomed = false;
    refit();
}

void GpuGridView::setZoom(double zoom)
{
    if (!m_hasGrid) return;
    if (layout()) layout()->activate();
    zoomToFit();
    const QRectF area = m_geometry.area();
    m_geometry.zoomAt(area.center(), zoom);
    m_zoomed = zoom != 1.0;
    m_canvas->update();
}

QRect GpuGridView::cellRect(int rank) const
{
    if (!m_hasGrid || rank < 0 || rank >= m_grid.gpus()) return {};
    return m_geometry.cellRect(rank).toAlignedRect();
}

int GpuGridView::colourCount() const
{
    if (!m_hasGrid) return 1;
    switch (m_colour) {
    case GridColour::TP:
        return m_grid.tp();
    case GridColour::PP:
        return m_grid.pp();
    case GridColour::DP:
        return m_grid.dp();
    case GridColour::CP:
        return m_grid.cp();
    case GridColour::EP:
        return m_grid.ep();
    case GridColour::Node:
        return int(m_grid.nodes());
    }
    return 1;
}

int GpuGridView::colourValue(int rank) const
{
    const RankCoords c = m_grid.coords(rank);
    switch (m_colour) {
    case GridColour::TP:
        return c.tp;
    case GridColour::PP:
        return c.pp;
    case GridColour::DP:
        return c.dp;
    case GridColour::CP:
        return c.cp;
    case GridColour::EP:
        return c.ep;
    case GridColour::Node:
        return c.node;
    }
    return 0;
}

QColor GpuGridView::valueColour(int value) const
{
    const int count = colourCount();
    if (count <= 8) return categorical(value);
    return viridis(double(value) / double(count - 1));
}

void GpuGridView::hoverAt(const QPointF& pos)
{
    const long long rank = m_hasGrid ? m_geometry.rankAt(pos) : -1;
    const int gpu = rank >= 0 && rank < m_grid.gpus() ? int(rank) : -1;
    if (m_state) {
        m_state->setHighlightedGpu(gpu);
    } else if (gpu != m_localHighlight) {
        m_localHighlight = gpu;
        m_canvas->update();
    }
}

void GpuGridView::clickAt(const QPointF& pos)
{
    const long long rank = m_hasGrid ? m_geometry.rankAt(pos) : -1;
    if (!m_state || rank < 0 || rank >= m_grid.gpus()) return;
    m_state->select(m_grid.coords(int(rank)).pp, -1, -1);
}

void GpuGridView::leave()
{
    if (m_state)
        m_state->setHighlightedGpu(-1);
    else if (m_localHighlight >= 0) {
        m_localHighlight = -1;
        m_canvas->update();
    }
}

QStringList GpuGridView::cutHeaderLines() const
{
    QStringList out;
    for (const auto& [r, text] : m_cutLines) out << text;
    return out;
}

QString GpuGridView::headerToolTipAt(const QPointF& pos) const
{
    for (const auto& [r, text] : m_cutLines)
        if (r.contains(pos)) return text;
    return {};
}

QString GpuGridView::hoverText() const
{
    const int gpu = highlightedGpu();
    if (!m_hasGrid || gpu < 0 || gpu >= m_grid.gpus())
        return tr("Hover a GPU to outline its groups. Cells: rank, then (dp, tp, pp, cp, ep).");
    const RankCoords c = m_grid.coords(gpu);
    QStringList parts;
    if (m_domainNodes > 1)
        parts << tr("GPU %L1 on node %L2 (tray %3 of NVLink domain %4, GPU %5 there): dp %6, tp %7, pp %8, cp %9, "
                    "ep %10")
                     .arg(gpu)
                     .arg(c.node)
                     .arg(c.node % m_domainNodes)
                     .arg(c.node / m_domainNodes)
                     .arg(c.localGpu)
                     .arg(c.dp)
                     .arg(c.tp)
                     .arg(c.pp)
                     .arg(c.cp)
                     .arg(c.ep);
    else
    parts << tr("GPU %L1 on node %L2 (GPU %3 there): dp %4, tp %5, pp %6, cp %7, ep %8")
                 .arg(gpu)
                 .arg(c.node)
                 .arg(c.localGpu)
                 .arg(c.dp)
                 .arg(c.tp)
                 .arg(c.pp)
                 .arg(c.cp)
                 .arg(c.ep);
    for (GroupKind kind : kOutlined) {
        if (m_grid.size(kind) <= 1) continue;
        const GroupPlacement g = m_grid.placement(kind, gpu);
        if (m_domainNodes > 1 && g.nodesSpanned > 1)
            parts << (g.domainsSpanned == 1
                    ? tr("%1 of %2 on %3 trays of one NVLink domain").arg(groupName(kind)).arg(g.size).arg(g.nodesSpanned)
                    : tr("%1 of %2 on %3 nodes in %4 NVLink domains")
                          .arg(groupName(kind))
                          .arg(g.size)
                          .arg(g.nodesSpanned)
                          .arg(g.domainsSpanned));
        else
        parts << (g.nodesSpanned == 1
                ? tr("%1 of %2 inside one node").arg(groupName(kind)).arg(g.size)
                : tr("%1 of %2 on %3 nodes").arg(groupName(kind)).arg(g.size).arg(g.nodesSpanned));
    }
    return parts.join(QStringLiteral(" · "));
}

void GpuGridView::paintScene(QPainter& p, const QRectF& rect, const GridGeometry& g) const
{
    p.fillRect(rect, Theme::background());
    const SceneParts parts = sceneParts(rect);
    QFont base = font();
    QFont bold = base;
    bold.setBold(true);
    QFont small = base;
    small.setPointSizeF(std::max(6.0, base.pointSizeF() - 1.5));
    QFont smallBold = small;
    smallBold.setBold(true);
    const QFontMetricsF fm(base, p.device());
    const QFontMetricsF fmSmall(small, p.device());
    const QColor ink = Theme::pick(QColor(0x20, 0x20, 0x20), Theme::text());
    const QColor paper = Theme::background(); // idle cells fade towards it
    const QColor quiet = Theme::pick(QColor(0x50, 0x50, 0x50), Theme::mutedText());

    // ---- header: what the grid is, what is wrong with it, where the playhead is
    double y = parts.header.top() + kPad;
    const double width = rect.width() - 2 * kPad;
    // A line too long for the width is shortened in the middle (its start and its end both say something); on the
    // canvas, hovering it shows it whole (headerToolTipAt()).
    const bool onCanvas = m_canvas && p.device() == m_canvas;
    if (onCanvas) m_cutLines.clear();
    auto headerLine = [&](const QString& text, const QFont& f, const QColor& colour) {
        p.setFont(f);
        p.setPen(colour);
        const QFontMetricsF m(f, p.device());
        const QString shown = m.elidedText(text, Qt::ElideMiddle, width);
        p.drawText(QPointF(rect.left() + kPad, y + m.ascent()), shown);
        if (onCanvas && shown != text) m_cutLines.push_back({ QRectF(rect.left(), y, rect.width(), fm.lineSpacing()), text });
        y += fm.lineSpacing();
    };
    if (!m_hasGrid) {
        headerLine(m_emptyReason, bold, ink);
        return;
    }
    headerLine(m_title, bold, ink);
    for (const QString& w : m_warnings)
        headerLine(w, bold, Theme::alarmText());
    if (!m_compact) headerLine(m_status, base, Theme::pick(QColor(0x40, 0x40, 0x40), QColor(0xC0, 0xC0, 0xC0)));

    // ---- the grid
    p.save();
    p.setClipRect(parts.grid.adjusted(-kPad, 0, kPad, 0));
    long long firstRow = 0, lastRow = -1;
    g.visibleRows(parts.grid, firstRow, lastRow);
    const long long nodes = g.nodes();
    const int perRow = g.nodesPerRow();
    const bool aggregated = g.aggregated();
    const double s = g.scale();
    const bool timeline = !m_compact && !m_compute.empty(); // compact: no playhead, every GPU at full colour
    const int perNode = m_grid.gpusPerNode();
    long long firstDomainRow = 0, lastDomainRow = -1;
    if (g.hasDomains()) g.visibleDomainRows(parts.grid, firstDomainRow, lastDomainRow);
    m_paintedDomains = 0;
    auto nodeShown = [&](long long node) {
        const long long row = g.hasDomains() ? node / g.domainNodes() / g.domainsPerRow() : node / perRow;
        return g.hasDomains() ? row >= firstDomainRow && row <= lastDomainRow : row >= firstRow && row <= lastRow;
    };

    const bool domains = g.hasDomains();
    const QPen busPen(Theme::pick(QColor(0xA0, 0xA0, 0xA0), QColor(0x70, 0x70, 0x70)), s > 20 ? 2 : 1);
    if (!domains) {
    // Inter-node links: a bus under each row of nodes with a stub from every node, and a spine on the left.
    p.setRenderHint(QPainter::Antialiasing, false);
    p.setPen(busPen);
    double spineTop = -1, spineBottom = -1;
    const double spineX = g.nodeRect(0).left() - GridGeometry::kGapX * 0.5 * s;
    for (long long row = firstRow; row <= lastRow; ++row) {
        const long long first = row * perRow, last = std::min(nodes - 1, first + perRow - 1);
        const QRectF a = g.nodeRect(first), b = g.nodeRect(last);
        const double busY = a.bottom() + GridGeometry::kGapY * 0.22 * s;
        p.drawLine(QPointF(spineX, busY), QPointF(b.center().x(), busY));
        if (a.width() >= 12)
            for (long long n = first; n <= last; ++n) {
                const QRectF r = g.nodeRect(n);
                p.drawLine(QPointF(r.center().x(), r.bottom()), QPointF(r.center().x(), busY));
            }
        if (spineTop < 0) spineTop = busY;
        spineBottom = busY;
    }
    if (nodes > 1 && spineTop >= 0) p.drawLine(QPointF(spineX, spineTop), QPointF(spineX, spineBottom));

    // Groups that cross nodes: per group kind, red links between the nodes they join (under the boxes, seen in the
    // gaps), in the kind's dash pattern and as thick as its traffic; kinds joining the same nodes side by side.
    p.setRenderHint(QPainter::Antialiasing, true);
    for (std::size_t k = 0; k < m_crossings.size(); ++k) {
        const auto [pen, offset] = crossingPen(k, s);
        p.setPen(pen);
        for (const auto& [a, b] : m_crossings[k].links) {
            const long long ra = a / perRow, rb = b / perRow;
            if (std::max(ra, rb) < firstRow || std::min(ra, rb) > lastRow) continue;
            const QRectF na = g.nodeRect(a), nb = g.nodeRect(b);
            if (ra == rb) {
                p.drawLine(QPointF(na.right(), na.center().y() + offset), QPointF(nb.left(), nb.center().y() + offset));
            } else {
                // Wrapped to the next row: down from one box, along the gap, up into the other.
                QPainterPath path(QPointF(na.center().x() + offset, na.bottom()));
                const double gapY = na.bottom() + GridGeometry::kGapY * 0.62 * s + offset;
                path.lineTo(na.center().x() + offset, gapY);
                path.lineTo(nb.center().x() + offset, gapY);
                path.lineTo(nb.center().x() + offset, nb.top());
                p.drawPath(path);
            }
        }
    }
    p.setRenderHint(QPainter::Antialiasing, false);

    }

    // Node boxes, then cells (or one cell per node when cells would be under ~6 px).
    const QColor boxFill = Theme::pick(QColor(0xEE, 0xEE, 0xEE), Theme::surface());
    const QColor boxEdge = Theme::pick(QColor(0x80, 0x80, 0x80), QColor(0x70, 0x70, 0x70));
    const QPen boxPen(boxEdge, 1), alarmPen(palette::alarm(), aggregated ? 2 : 3);
    const double dim = 0.62;
    p.setFont(small);
    const bool nodeLabels = !aggregated && GridGeometry::kGapY * 0.5 * s >= fmSmall.height() * 0.9;
    // In domain blocks, on whole pixels: a thousand cells of a fractional size alias into moiré otherwise.
    auto px = [&](const QRectF& r) {
        return domains ? QRectF(QPointF(std::round(r.left()), std::round(r.top())),
                             QPointF(std::round(r.right()), std::round(r.bottom())))
                       : r;
    };
    // Rank labels on every cell or on none, in one font: the small font, made smaller (down to 5 pt) until the
    // widest rank fits a cell, so a grid is never labelled on its first 100 GPUs and bare on the rest.
    QFont labelFont = small;
    const QString widestRank = QString::number(std::max(0LL, m_grid.gpus() - 1));
    const QSizeF cellRoom = g.cellSize() - QSizeF(2, 2);
    for (;;) {
        const QFontMetricsF m(labelFont);
        if ((m.horizontalAdvance(widestRank) + 3 <= cellRoom.width() && m.height() <= cellRoom.height() + 1)
            || labelFont.pointSizeF() <= 5.0)
            break;
        labelFont.setPointSizeF(labelFont.pointSizeF() - 0.5);
    }
    const QFontMetricsF fmLabel(labelFont);
    const bool rankLabels = fmLabel.horizontalAdvance(widestRank) + 3 <= cellRoom.width() && fmLabel.height() <= cellRoom.height() + 1;
    // One node (tray): its box and its cells, or one cell for the node when cells are too small.
    auto paintNode = [&](long long n, bool label) {
        const QRectF box = px(g.nodeRect(n));
        if (box.right() < parts.grid.left() - kPad || box.left() > parts.grid.right() + kPad) return;
        const bool alarm = m_alarmNode.size() > std::size_t(n) && m_alarmNode[std::size_t(n)];
        if (!aggregated) {
            p.setPen(alarm ? alarmPen : boxPen);
            p.setBrush(boxFill);
            p.drawRect(box);
            const double baseline = box.top() - fmSmall.descent() - 1;
            if (label && baseline - fmSmall.ascent() >= parts.grid.top()
                && baseline + fmSmall.descent() <= parts.grid.bottom()) {
                p.setPen(alarm ? Theme::alarmText() : quiet);
                p.drawText(QPointF(box.left(), baseline),
                    fmSmall.elidedText(domains ? tr("tray %1").arg(n % g.domainNodes()) : tr("node %L1").arg(n),
                        Qt::ElideRight, box.width()));
            }
            const QSizeF cell = g.cellSize();
            const bool twoLines = cell.height() >= 2 * fmSmall.lineSpacing() + 2;
            for (int local = 0; local < perNode; ++local) {
                const long long rank = n * perNode + local;
                if (rank >= m_grid.gpus()) break;
                const QRectF r = px(g.cellRect(rank)).adjusted(1, 1, -1, -1);
                const RankCoords c = m_grid.coords(int(rank));
                const bool busy = !timeline || m_busyStage[std::size_t(c.pp)];
                const QColor base = valueColour(colourValue(int(rank)));
                const QColor fill = busy ? base : blend(base, paper, dim);
                p.fillRect(r, fill);
                // Labels where they fit: the rank, then (dp,tp,pp,cp,ep).
                const QString rankText = QString::number(rank);
                if (!rankLabels) continue;
                p.setPen(busy ? textOn(fill) : Theme::pick(QColor(0x60, 0x60, 0x60), QColor(0xB0, 0xB0, 0xB0)));
                const QString coordText = QStringLiteral("(%1,%2,%3,%4,%5)")
                                              .arg(c.dp)
                                              .arg(c.tp)
                                              .arg(c.pp)
                                              .arg(c.cp)
                                              .arg(c.ep);
                if (twoLines && fmSmall.horizontalAdvance(coordText) + 4 <= r.width()) {
                    const double top = r.center().y() - fmSmall.lineSpacing();
                    p.setFont(smallBold);
                    p.drawText(QRectF(r.left(), top, r.width(), fmSmall.lineSpacing()), Qt::AlignCenter,
                        rankText);
                    p.setFont(small);
                    p.drawText(
                        QRectF(r.left(), top + fmSmall.lineSpacing(), r.width(), fmSmall.lineSpacing()),
                        Qt::AlignCenter, coordText);
                } else {
                    p.setFont(labelFont);
                    p.drawText(r, Qt::AlignCenter, rankText);
                    p.setFont(small);
                }
            }
        } else {
            // One cell per node: the most common value on it, dimmed by the share of its GPUs idle.
            std::vector<int> values;
            int busyCount = 0, ppMin = INT32_MAX, ppMax = -1;
            const long long begin = n * perNode, end = std::min(m_grid.gpus(), begin + perNode);
            for (long long rank = begin; rank < end; ++rank) {
                const RankCoords c = m_grid.coords(int(rank));
                values.push_back(colourValue(int(rank)));
                busyCount += !timeline || m_busyStage[std::size_t(c.pp)] ? 1 : 0;
                ppMin = std::min(ppMin, c.pp);
                ppMax = std::max(ppMax, c.pp);
            }
            int majority = values.empty() ? 0 : values.front(), best = 0;
            for (int v : values) {
                const int k = int(std::count(values.begin(), values.end(), v));
                if (k > best) {
                    best = k;
                    majority = v;
                }
            }
            const double idleShare
                = values.empty() ? 1.0 : 1.0 - double(busyCount) / double(values.size());
            const QColor base = valueColour(majority);
            const QColor fill = blend(base, paper, dim * idleShare);
            p.fillRect(box, fill);
            if (alarm) {
                p.setPen(alarmPen);
                p.setBrush(Qt::NoBrush);
                p.drawRect(box);
            }
            const QString label
                = ppMin == ppMax ? tr("pp %1").arg(ppMin) : tr("pp %1–%2").arg(ppMin).arg(ppMax);
            if (fmSmall.horizontalAdvance(label) + 4 <= box.width() && fmSmall.height() <= box.height()) {
                p.setPen(idleShare < 0.5 ? textOn(fill) : quiet);
                p.drawText(box, Qt::AlignCenter, label);
            }
        }
    };
    if (!domains) {
        for (long long row = firstRow; row <= lastRow; ++row) {
            const long long first = row * perRow, last = std::min(nodes - 1, first + perRow - 1);
            for (long long n = first; n <= last; ++n)
                paintNode(n, nodeLabels);
        }
    } else {
        // NVLink domains: a labelled frame per domain with its trays inside. The network joins the domains
        // (a bus under each row of domains); a group crossing trays inside a domain rides NVLink (a calm
        // line), one crossing domains the network (red).
        const long long count = g.domains();
        const int perDomainRow = g.domainsPerRow();
        const int dn = g.domainNodes();
        auto domainShown = [&](long long d) {
            const QRectF r = g.domainRect(d);
            return d / perDomainRow >= firstDomainRow && d / perDomainRow <= lastDomainRow
                && r.right() >= parts.grid.left() - kPad && r.left() <= parts.grid.right() + kPad;
        };
        p.setRenderHint(QPainter::Antialiasing, false);
        p.setPen(busPen);
        double spineTop = -1, spineBottom = -1;
        const double spineX = std::round(g.domainRect(0).left() - GridGeometry::kDomainGapX * 0.5 * s);
        for (long long row = firstDomainRow; row <= lastDomainRow; ++row) {
            const long long first = row * perDomainRow, last = std::min(count - 1, first + perDomainRow - 1);
            const QRectF a = g.domainRect(first), b = g.domainRect(last);
            const double busY = std::round(a.bottom() + GridGeometry::kDomainGapY * 0.3 * s);
            p.drawLine(QPointF(spineX, busY), QPointF(std::round(b.center().x()), busY));
            for (long long d = first; d <= last; ++d) {
                const double x = std::round(g.domainRect(d).center().x());
                p.drawLine(QPointF(x, std::round(g.domainRect(d).bottom())), QPointF(x, busY));
            }
            if (spineTop < 0) spineTop = busY;
            spineBottom = busY;
        }
        if (count > 1 && spineTop >= 0) p.drawLine(QPointF(spineX, spineTop), QPointF(spineX, spineBottom));

        const QColor frameFill
            = Theme::pick(QColor(0xF7, 0xF7, 0xF7), Theme::mix(Theme::background(), Theme::surface(), 0.5));
        const QColor frameEdge = Theme::pick(QColor(0x60, 0x60, 0x60), QColor(0x98, 0x98, 0x98));
        const QFontMetricsF lfm(smallBold, p.device());
        for (long long d = 0; d < count; ++d) {
            if (!domainShown(d)) continue;
            const QRectF frame = px(g.domainRect(d));
            p.setPen(QPen(frameEdge, 1));
            p.setBrush(frameFill);
            p.drawRect(frame.adjusted(0, 0, -1, -1));
            ++m_paintedDomains;
            const QRectF lr = g.domainLabelRect(d);
            if (lfm.height() > lr.height() + 3) continue; // too small for a label: the frames still group
            const long long t0 = d * dn, t1 = std::min(nodes, t0 + dn) - 1;
            const QString name = tr("NVL domain %1").arg(d);
            const QString trays = tr("nodes %L1–%L2").arg(t0).arg(t1);
            p.setFont(smallBold);
            p.setPen(ink);
            p.drawText(lr, Qt::AlignLeft | Qt::AlignVCenter, lfm.elidedText(name, Qt::ElideRight, lr.width()));
            if (lfm.horizontalAdvance(name) + fmSmall.horizontalAdvance(trays) + 12 <= lr.width()) {
                p.setFont(small);
                p.setPen(quiet);
                p.drawText(lr, Qt::AlignRight | Qt::AlignVCenter, trays);
            }
        }
        p.setFont(small);

        // Links, under the trays (seen in the gaps between them).
        p.setRenderHint(QPainter::Antialiasing, true);
        auto linkPath = [&](long long a, long long b) {
            const QRectF na = g.nodeRect(a), nb = g.nodeRect(b);
            QPainterPath path;
            if (std::abs(na.center().y() - nb.center().y()) < 1) {
                path.moveTo(na.right(), na.center().y());
                path.lineTo(nb.left(), nb.center().y());
            } else {
                // Down from one box into the gap under its row, along it, then into the other.
                const bool sameDomain = a / dn == b / dn;
                const double gapY = sameDomain
                    ? na.bottom() + GridGeometry::kTrayGap * 0.5 * s
                    : g.domainRect(a / dn).bottom() + GridGeometry::kDomainGapY * 0.62 * s;
                path.moveTo(na.center().x(), na.bottom());
                path.lineTo(na.center().x(), gapY);
                path.lineTo(nb.center().x(), gapY);
                path.lineTo(nb.center().x(), nb.top());
            }
            return path;
        };
        auto linkShown = [&](long long a, long long b) {
            const long long ra = a / dn / perDomainRow, rb = b / dn / perDomainRow;
            return std::max(ra, rb) >= firstDomainRow && std::min(ra, rb) <= lastDomainRow;
        };
        p.setBrush(Qt::NoBrush);
        p.setPen(QPen(nvlinkColour(), std::clamp(s * 0.12, 1.5, 4.0), Qt::SolidLine, Qt::RoundCap));
        for (const auto& [a, b] : m_trayLinks)
            if (linkShown(a, b)) p.drawPath(linkPath(a, b));
        for (std::size_t k = 0; k < m_crossings.size(); ++k) {
            const auto [pen, offset] = crossingPen(k, s);
            p.setPen(pen);
            for (const auto& [a, b] : m_crossings[k].links)
                if (linkShown(a, b)) p.drawPath(linkPath(a, b).translated(offset, offset));
        }
        p.setRenderHint(QPainter::Antialiasing, false);

        const bool trayLabels = !aggregated && GridGeometry::kTrayGap * s >= fmSmall.height() * 0.9;
        for (long long d = 0; d < count; ++d) {
            if (!domainShown(d)) continue;
            for (long long n = d * dn; n < std::min(nodes, (d + 1) * dn); ++n)
                paintNode(n, trayLabels);
        }
    }

    // The highlighted GPU's groups: one outline style per kind, nested so that none hides another.
    const int gpu = highlightedGpu();
    if (gpu >= 0 && gpu < m_grid.gpus()) {
        p.setRenderHint(QPainter::Antialiasing, true);
        p.setBrush(Qt::NoBrush);
        const double step = aggregated ? 1.5 : std::clamp(g.cellSize().height() / 9.0, 1.5, 3.5);
        int depth = 0;
        const double width = aggregated ? 1.5 : 2;
        const QPen halo(Theme::pick(QColor(255, 255, 255, 200), QColor(0x10, 0x10, 0x10, 200)), width + 2);
        for (GroupKind kind : kOutlined) {
            if (m_grid.size(kind) <= 1) continue;
            const QPen pen = groupPen(kind, ink, width);
            const double inset = 1.5 + step * depth++;
            long long lastNode = -1;
            QList<QRectF> rects;
            for (int m : m_grid.members(kind, gpu)) {
                const long long node = m / perNode;
                if (!nodeShown(node)) continue;
                if (aggregated) {
                    if (node == lastNode) continue;
                    lastNode = node;
                    rects << g.nodeRect(node).adjusted(-inset, -inset, inset, inset);
                } else {
                    rects << g.cellRect(m).adjusted(inset, inset, -inset, -inset);
                }
            }
            // A light halo under the line keeps it readable on every fill colour.
            p.setPen(halo);
            for (const QRectF& r : rects)
                p.drawRect(r);
            p.setPen(pen);
            for (const QRectF& r : rects)
                p.drawRect(r);
        }
        const QRectF own = aggregated ? g.nodeRect(gpu / perNode) : g.cellRect(gpu);
        p.setPen(QPen(ink, 3));
        p.drawRect(own.adjusted(-1.5, -1.5, 1.5, 1.5));
    }
    p.restore();

    // ---- footer: colour legend, line styles, the hovered GPU
    p.setRenderHint(QPainter::Antialiasing, false);
    p.fillRect(parts.footer, Theme::background());
    p.setPen(Theme::pick(QColor(0xD0, 0xD0, 0xD0), QColor(0x48, 0x48, 0x48)));
    p.drawLine(
        QPointF(rect.left() + kPad, parts.footer.top()), QPointF(rect.right() - kPad, parts.footer.top()));
    const double lineH = fm.lineSpacing() + 6;
    double x = rect.left() + kPad;
    y = parts.footer.top() + kPad * 0.5;
    p.setFont(base);
    p.setPen(ink);
    const QString colourTitle = tr("Colour = %1:").arg(colourName(m_colour));
    p.drawText(QPointF(x, y + fm.ascent()), colourTitle);
    x += fm.horizontalAdvance(colourTitle) + 8;
    const int count = colourCount();
    const double sw = fm.height();
    const double right = rect.right() - kPad;
    if (count <= 16 && colourRows(rect.width()) > 2) {
        // Too narrow for every value in two lines: under the title, one strip of the values' swatches, the first
        // and last named.
        x = rect.left() + kPad;
        y += lineH;
        const double first = fm.horizontalAdvance(QStringLiteral("0")), last = fm.horizontalAdvance(QString::number(count - 1));
        const double each = std::max(2.0, std::floor((right - x - first - last - 12) / count));
        p.drawText(QPointF(x, y + fm.ascent()), QStringLiteral("0"));
        x += first + 4;
        for (int v = 0; v < count; ++v) p.fillRect(QRectF(x + v * each, y + 1, each, sw - 2), valueColour(v));
        x += count * each + 4;
        p.drawText(QPointF(x, y + fm.ascent()), QString::number(count - 1));
    } else if (count <= 16) {
        // Every value, wrapped under the title where the line is full (colourRows() sized the footer for it).
        const double indent = x;
        for (int v = 0; v < count; ++v) {
            const QString label = QString::number(v);
            if (x > indent && x + sw + fm.horizontalAdvance(label) + 12 > right) {
                x = indent;
                y += lineH;
            }
            p.fillRect(QRectF(x, y + 1, sw, sw - 2), valueColour(v));
            x += sw + 3;
            p.drawText(QPointF(x, y + fm.ascent()), label);
            x += fm.horizontalAdvance(label) + 10;
        }
    } else {
        const double barW = std::min(260.0, right - x - 80);
        p.drawText(QPointF(x, y + fm.ascent()), QStringLiteral("0"));
        x += fm.horizontalAdvance(QStringLiteral("0")) + 4;
        for (int i = 0; i < int(barW); ++i)
            p.fillRect(QRectF(x + i, y + 1, 1, sw - 2), viridis(i / std::max(1.0, barW - 1)));
        x += barW + 4;
        p.drawText(QPointF(x, y + fm.ascent()), QString::number(count - 1));
        x += fm.horizontalAdvance(QString::number(count - 1)) + 10;
        if (aggregated && x + 200 < right)
            p.drawText(
                QPointF(x, y + fm.ascent()), tr("(zoomed out: each node shows its most common value)"));
    }

    if (m_compact) return;
    // Lines 2 and on: what the outlines, the brightness and red mean, wrapped to as many lines as they need (the
    // footer is that tall, sceneParts()): never cut.
    x = rect.left() + kPad;
    y += lineH;
    for (const LegendEntry& e : legendEntries()) {
        const double w = fm.horizontalAdvance(e.text);
        if (x > rect.left() + kPad && x + 30 + w > right) {
            x = rect.left() + kPad;
            y += lineH;
        }
        const QRectF r(x, y + 1, 24, sw - 2);
        switch (e.swatch) {
        case LegendEntry::Group:
            p.setPen(groupPen(GroupKind(e.index), ink, 2));
            p.drawLine(QPointF(r.left(), r.center().y()), QPointF(r.right(), r.center().y()));
            break;
        case LegendEntry::Busy: p.fillRect(r, palette::blue()); break;
        case LegendEntry::Idle: p.fillRect(r, blend(palette::blue(), paper, dim)); break;
        case LegendEntry::NvLink:
            p.setPen(QPen(nvlinkColour(), 3));
            p.drawLine(QPointF(r.left(), r.center().y()), QPointF(r.right(), r.center().y()));
            break;
        case LegendEntry::Crossing:
            p.setPen(crossingPen(std::size_t(e.index), 16).first);
            p.drawLine(QPointF(r.left(), r.center().y()), QPointF(r.right(), r.center().y()));
            break;
        case LegendEntry::Bus:
            p.setPen(busPen);
            p.drawLine(QPointF(r.left(), r.center().y()), QPointF(r.right(), r.center().y()));
            break;
        }
        x += 28;
        p.setPen(ink);
        p.drawText(QPointF(x, y + fm.ascent()), e.text);
        x += w + 14;
    }

    // Line 3: the hovered GPU and its groups.
    y += lineH;
    p.setPen(ink);
    p.drawText(
        QPointF(rect.left() + kPad, y + fm.ascent()), fm.elidedText(hoverText(), Qt::ElideRight, width));
}

bool GpuGridView::exportTo(const QString& path, QSize size, QString* error)
{
    if (layout()) layout()->activate(); // a hidden view has not laid its canvas out yet
    if (!m_zoomed) refit();
    const bool onScreen = !size.isValid() || size.isEmpty();
    if (onScreen)
        size = m_canvas->width() > 200 && m_canvas->height() > 150 ? m_canvas->size() : QSize(1400, 900);
    // Another size than the screen's: the whole grid, fitted to it.
    GridGeometry geometry = m_geometry;
    if (!onScreen || size != m_canvas->size()) {
        geometry.setGrid(m_hasGrid ? m_grid.nodes() : 0, m_hasGrid ? m_grid.gpusPerNode() : 8, m_domainNodes);
        geometry.fit(sceneParts(QRectF(QPointF(0, 0), QSizeF(size))).grid);
    }
    return WidgetExporter::exportPainted(
        path, size,
        [&](QPaintDevice* device, const QRectF& rect) {
            QPainter painter;
            if (!painter.begin(device)) return false;
            paintScene(painter, rect, geometry);
            return painter.end();
        },
        error, tr("PlanScope GPU grid") + QStringLiteral(": ") + m_title, Theme::background());
}

QString GpuGridView::pageTitle() const
{
    return tr("GPU Grid");
}

} // namespace planscope
