#include "charts/LayerAnatomyView.h"

#include "Theme.h"
#include "charts/OperatorText.h"

#include <QEvent>
#include <QFontMetricsF>
#include <QMouseEvent>
#include <QPainter>
#include <QPainterPath>
#include <QStringList>
#include <QToolTip>
#include <algorithm>
#include <array>
#include <cmath>

namespace planscope {

namespace {

constexpr double kMargin = 10;
constexpr double kMinRow = 13; // below this the names stop being readable
constexpr double kMaxRow = 24; // above this the waterfall stops looking like one
constexpr double kLabelGap = 5; // between a bar and its value label

const std::vector<KernelOp>& noOps()
{
    static const std::vector<KernelOp> none;
    return none;
}

QFont scaled(const QFont& base, double factor, bool bold = false)
{
    QFont f = base;
    if (f.pointSizeF() > 0)
        f.setPointSizeF(f.pointSizeF() * factor);
    else
        f.setPixelSize(std::max(1, int(std::lround(f.pixelSize() * factor))));
    f.setBold(bold);
    return f;
}

double niceStep(double raw)
{
    if (!(raw > 0)) return 1;
    const double mag = std::pow(10.0, std::floor(std::log10(raw)));
    const double r = raw / mag;
    return mag * (r <= 1 ? 1 : r <= 2 ? 2 : r <= 5 ? 5 : 10);
}

// Whether the ops carry the host's lane at all (a prediction read from an older file has none).
bool hasHost(const std::vector<KernelOp>& ops)
{
    return std::any_of(
        ops.begin(), ops.end(), [](const KernelOp& op) { return op.hostSeconds > 0 || op.graphed; });
}

// The passes of core's host lanes (Operators.cpp hostPasses): the forward, then the backward with its
// recompute; a schedule that runs the weight gradient apart issues it as a pass of its own, which shows as
// the CPU's clock starting over at the first weight-gradient op (within a pass the CPU only moves forward).
std::vector<int> hostPassOf(const std::vector<KernelOp>& ops)
{
    bool split = false;
    for (std::size_t i = 1; i < ops.size() && !split; ++i) {
        const KernelOp &a = ops[i - 1], &b = ops[i];
        split = b.pass == KernelPass::BackwardWeight && a.pass != KernelPass::BackwardWeight
            && a.pass != KernelPass::Forward && b.hostStart < a.hostStart + a.hostSeconds - 1e-12;
    }
    std::vector<int> pass(ops.size());
    for (std::size_t i = 0; i < ops.size(); ++i)
        pass[i] = ops[i].pass == KernelPass::Forward ? 0
            : ops[i].pass == KernelPass::BackwardWeight && split ? 2
                                                                 : 1;
    return pass;
}

// What each op holds the GPU for beyond its exposed time: the exposed rest of the collectives beside it.
std::vector<double> besideSeconds(const std::vector<KernelOp>& ops)
{
    std::vector<double> extra(ops.size(), 0.0);
    for (std::size_t i = 0; i < ops.size(); ++i)
        if (isOverlapped(ops, i)) extra[std::size_t(ops[i].hiddenBy)] += ops[i].exposedSeconds;
    return extra;
}

QColor hostFill(const QColor& c)
{
    return Theme::mix(c, Theme::background(), 0.6);
}

QColor waitFill()
{
    return Theme::mix(Theme::background(), Theme::text(), 0.16);
}

QColor graphColor()
{
    return Theme::mix(Theme::text(), Theme::background(), 0.35);
}

// A CPU bar: the op's colour, light, hatched, outlined where it is wide enough.
void paintHostBar(QPainter& p, const QRectF& r, const QColor& c)
{
    p.fillRect(r, hostFill(c));
    p.fillRect(r, QBrush(c, Qt::BDiagPattern));
    if (r.width() >= 4) {
        p.setPen(QPen(c, 1));
        p.setBrush(Qt::NoBrush);
        p.drawRect(r.adjusted(0, 0, -1, -1));
    }
}

struct PhaseGroup {
    OperatorText::Phase phase;
    int first = 0, last = 0; // rows
    double t0 = 0, t1 = 0; // seconds
    double exposed = 0; // the pass's exposed seconds (sumPasses)
};

} // namespace

struct LayerAnatomyView::Header {
    QFont titleFont, textFont;
    QRectF titleRect, summaryRect, messageRect;
    QString title, summary, message;
    bool alarm = false;
    struct Item {
        QRectF swatch, text;
        QString label;
        QColor color;
        enum Style { Solid, Hidden, Host, Wait, Sync, Graph } style = Solid;
    };
    std::vector<Item> legend;
    QRectF hostRect;
    QString host; // the host-bound caption
    double bottom = 0;
};

LayerAnatomyView::LayerAnatomyView(QWidget* parent)
    : QWidget(parent)
{
    setMouseTracking(true);
    setAttribute(Qt::WA_OpaquePaintEvent);
    QSizePolicy policy(QSizePolicy::Expanding, QSizePolicy::Expanding);
    policy.setHeightForWidth(true);
    setSizePolicy(policy);
    connect(Theme::instance(), &Theme::changed, this, [this] { update(); });
}

void LayerAnatomyView::setPrediction(std::shared_ptr<const Prediction> prediction)
{
    m_prediction = std::move(prediction);
    refresh();
}

void LayerAnatomyView::setOps(Ops which)
{
    if (which == m_which) return;
    m_which = which;
    refresh();
}

void LayerAnatomyView::setSubject(const QString& subject)
{
    m_subject = subject;
    update();
}

void LayerAnatomyView::refresh()
{
    m_hoverRow = -1;
    setMinimumHeight(heightForWidth(std::max(width(), 900)));
    updateGeometry();
    update();
}

const std::vector<KernelOp>& LayerAnatomyView::ops() const
{
    if (!m_prediction || !m_prediction->valid) return noOps();
    return m_which == Ops::Layer ? m_prediction->layerOps : m_prediction->outputOps;
}

QString LayerAnatomyView::title() const
{
    const QString what = m_which == Ops::Layer
        ? tr("Layer anatomy: one transformer layer, one microbatch, on one GPU")
        : tr("Output layer anatomy (last pipeline stage): final norm, logits and loss, one microbatch, on "
             "one GPU");
    return m_subject.isEmpty() ? what : tr("%1 — %2").arg(what, m_subject);
}

QString LayerAnatomyView::hostBoundCaption() const
{
    const std::vector<KernelOp>& list = ops();
    QStringList lines;
    for (const OperatorText::Phase phase :
        { OperatorText::Phase::Forward, OperatorText::Phase::Recompute, OperatorText::Phase::Backward }) {
        double wait = 0, total = 0;
        for (const KernelOp& op : list) {
            if (OperatorText::phase(op.pass) != phase) continue;
            wait += op.hostWaitSeconds;
            total += op.exposedSeconds + op.hostWaitSeconds;
        }
        if (total > 0 && wait > 0.05 * total)
            lines << tr("Host-bound %1 pass: the GPU waits %2 ms of %3 ms (%4) for the CPU to issue its kernels.")
                         .arg(OperatorText::phaseName(phase), OperatorText::milliseconds(wait),
                             OperatorText::milliseconds(total), OperatorText::efficiency(wait / total));
    }
    return lines.join(QLatin1Char(' '));
}

LayerAnatomyView::Header LayerAnatomyView::header(const QRectF& rect, QPaintDevice* device) const
{
    Header h;
    h.titleFont = scaled(font(), 1.2, true);
    h.textFont = font();
    const QFontMetricsF tfm(h.titleFont, device), fm(h.textFont, device);
    const double width = std::max(50.0, rect.width() - 2 * kMargin);
    double y = rect.top() + kMargin;

    h.title = title();
    h.titleRect = tfm.boundingRect(QRectF(rect.left() + kMargin, y, width, 1e6), Qt::TextWordWrap, h.title);
    h.titleRect.setWidth(width);
    y = h.titleRect.bottom() + 4;

    const std::vector<KernelOp>& list = ops();
    if (list.empty()) {
        if (!m_prediction)
            h.message = tr("No plan loaded.");
        else if (!m_prediction->valid) {
            h.message = tr("This plan cannot run, so it has no operators to show (the reasons are on the "
                           "Metrics page).");
            h.alarm = true;
        } else
            h.message = tr("This prediction lists no operators.");
        h.messageRect = QRectF(rect.left() + kMargin, y + 20, width, fm.height() * 3);
        h.bottom = h.messageRect.bottom();
        return h;
    }

    // The sums a student reads first: the passes, and where the time goes by what bounds each op.
    const PassTotals passes = sumPasses(list);
    double total = 0, hiddenComm = 0, hostWait = 0;
    std::array<double, 4> byBound {};
    for (const KernelOp& op : list) {
        // The critical path holds the GPU's waits for the CPU too (sumPasses counts them in the passes).
        total += op.exposedSeconds + op.hostWaitSeconds;
        hostWait += op.hostWaitSeconds;
        byBound[std::size_t(op.bound)] += op.exposedSeconds;
        if (op.kind == KernelKind::Collective) hiddenComm += op.seconds - op.exposedSeconds;
    }
    auto ms = [](double s) { return OperatorText::milliseconds(s); };
    auto share = [total](double s) { return OperatorText::efficiency(total > 0 ? s / total : 0); };
    QString sums = passes.recompute > 0
        ? tr("%1 ms on the critical path: forward %2 ms, recompute %3 ms, backward %4 ms.")
              .arg(ms(total), ms(passes.forward), ms(passes.recompute),
                  ms(passes.backwardInput + passes.backwardWeight))
        : tr("%1 ms on the critical path: forward %2 ms, backward %3 ms.")
              .arg(ms(total), ms(passes.forward), ms(passes.backward()));
    QString bounds
        = tr("Exposed communication %1 ms (%2), memory-bound ops %3 ms (%4), compute-bound ops %5 ms (%6)")
              .arg(ms(byBound[std::size_t(OpBound::Communication)]),
                  share(byBound[std::size_t(OpBound::Communication)]),
                  ms(byBound[std::size_t(OpBound::Memory)]), share(byBound[std::size_t(OpBound::Memory)]),
                  ms(byBound[std::size_t(OpBound::Compute)]), share(byBound[std::size_t(OpBound::Compute)]));
    if (byBound[std::size_t(OpBound::Latency)] > 0)
        bounds += tr(", latency-bound ops %1 ms (%2)")
                      .arg(ms(byBound[std::size_t(OpBound::Latency)]),
                          share(byBound[std::size_t(OpBound::Latency)]));
    if (hostWait > 0) bounds += tr(", the GPU waiting for the CPU %1 ms (%2)").arg(ms(hostWait), share(hostWait));
    bounds += hiddenComm > 1e-12 ? tr("; %1 ms of communication hidden behind compute.").arg(ms(hiddenComm))
                                 : tr(".");
    h.summary = sums + QLatin1Char(' ') + bounds;
    h.summaryRect
        = fm.boundingRect(QRectF(rect.left() + kMargin, y, width, 1e6), Qt::TextWordWrap, h.summary);
    h.summaryRect.setWidth(width);
    y = h.summaryRect.bottom() + 6;

    // The legend, flowing into as many lines as the width needs.
    using Style = Header::Item::Style;
    std::vector<std::pair<QString, std::pair<OpBound, Style>>> items = {
        { tr("compute-bound"), { OpBound::Compute, Style::Solid } },
        { tr("memory-bound"), { OpBound::Memory, Style::Solid } },
        { tr("communication, exposed"), { OpBound::Communication, Style::Solid } },
        { tr("communication hidden behind compute"), { OpBound::Communication, Style::Hidden } },
        { tr("latency-bound"), { OpBound::Latency, Style::Solid } },
    };
    if (hasHost(list)) {
        items.push_back({ tr("CPU issuing the op (the lane under each pass)"), { OpBound::Compute, Style::Host } });
        if (std::any_of(list.begin(), list.end(), [](const KernelOp& op) { return op.graphed; }))
            items.push_back({ tr("CUDA graph launch"), { OpBound::Compute, Style::Graph } });
        if (std::any_of(list.begin(), list.end(), [](const KernelOp& op) { return op.hostWaitSeconds > 0; }))
            items.push_back({ tr("GPU waiting for the CPU"), { OpBound::Compute, Style::Wait } });
        if (std::any_of(list.begin(), list.end(), [](const KernelOp& op) { return op.syncAfter; }))
            items.push_back({ tr("sync: the CPU waits for the GPU"), { OpBound::Compute, Style::Sync } });
    }
    const double sw = 16, sh = std::max(8.0, fm.height() * 0.6), gap = 5, spacing = 18;
    double x = rect.left() + kMargin;
    const double lineH = fm.height() + 2;
    for (const auto& [label, style] : items) {
        const double w = sw + gap + fm.horizontalAdvance(label);
        if (x > rect.left() + kMargin && x + w > rect.left() + kMargin + width) {
            x = rect.left() + kMargin;
            y += lineH;
        }
        Header::Item item;
        item.swatch = QRectF(x, y + (lineH - sh) / 2, sw, sh);
        item.text = QRectF(x + sw + gap, y, w - sw - gap + 1, lineH);
        item.label = label;
        item.color = OperatorText::boundColor(style.first);
        item.style = style.second;
        h.legend.push_back(item);
        x += w + spacing;
    }
    h.bottom = y + lineH;
    h.host = hostBoundCaption();
    if (!h.host.isEmpty()) {
        y = h.bottom + 2;
        h.hostRect
            = fm.boundingRect(QRectF(rect.left() + kMargin, y, width, 1e6), Qt::TextWordWrap, h.host);
        h.hostRect.setWidth(width);
        h.bottom = h.hostRect.bottom() + 2;
    }
    return h;
}

QFont LayerAnatomyView::rowFont(double rowHeight, QPaintDevice* device) const
{
    QFont f = font();
    const QFontMetricsF fm(f, device);
    if (fm.height() > rowHeight - 1) {
        const double factor = std::max(0.6, (rowHeight - 1) / fm.height());
        f = scaled(f, factor);
    }
    return f;
}

namespace {

// The rows: the ops in order, a CPU lane after the last op of each pass (when the ops carry the host's lane).
// opRows[i] is op i's row; laneRows[g] the lane of the g-th pass.
struct Rows {
    std::vector<int> opRows, laneRows, lanePhases;
    int count = 0;
};

Rows rowsOf(const std::vector<KernelOp>& list)
{
    Rows R;
    const bool lanes = hasHost(list);
    const int n = int(list.size());
    for (int i = 0; i < n; ++i) {
        R.opRows.push_back(R.count++);
        const OperatorText::Phase ph = OperatorText::phase(list[std::size_t(i)].pass);
        const bool lastOfPass = i + 1 == n || OperatorText::phase(list[std::size_t(i + 1)].pass) != ph;
        if (lanes && lastOfPass) {
            R.laneRows.push_back(R.count++);
            R.lanePhases.push_back(int(ph));
        }
    }
    return R;
}

} // namespace

LayerAnatomyView::Layout LayerAnatomyView::layoutFor(const QRectF& rect, QPaintDevice* device) const
{
    if (!device) device = const_cast<LayerAnatomyView*>(this);
    Layout L;
    const std::vector<KernelOp>& list = ops();
    if (list.empty() || rect.isEmpty()) return L;
    const Header h = header(rect, device);
    const QFontMetricsF fm(font(), device);
    const double strip = fm.height() + 8; // the passes' names over the chart
    const double axis = 2 * fm.height() + 14; // tick labels and the axis title
    const int n = int(list.size());
    const Rows R = rowsOf(list);
    L.rows = R.count;
    L.opRows = R.opRows;

    double nameWidth = fm.horizontalAdvance(tr("CPU"));
    for (const KernelOp& op : list)
        nameWidth = std::max(nameWidth, fm.horizontalAdvance(QString::fromUtf8(op.name)));
    const double gutter = std::min(nameWidth + 14, std::max(80.0, rect.width() * 0.3));

    const double top = h.bottom + 8 + strip;
    const double available = rect.bottom() - kMargin - axis - top;
    L.rowHeight = std::clamp(available / L.rows, kMinRow, kMaxRow);
    L.gutter = QRectF(rect.left() + kMargin, top, gutter, L.rowHeight * L.rows);
    L.chart = QRectF(L.gutter.right(), top, std::max(40.0, rect.right() - kMargin - L.gutter.right()),
        L.rowHeight * L.rows);

    const std::vector<double> starts = opStartTimes(list, &L.span);
    L.pixelsPerSecond = L.span > 0 ? L.chart.width() / L.span : 0;
    const double barH = std::max(4.0, L.rowHeight * 0.66);
    auto xAt = [&](double t) { return L.chart.left() + t * L.pixelsPerSecond; };
    auto barTop = [&](int row) { return L.chart.top() + row * L.rowHeight + (L.rowHeight - barH) / 2; };
    L.bars.reserve(list.size());
    for (int i = 0; i < n; ++i) {
        const KernelOp& op = list[std::size_t(i)];
        AnatomyBar b;
        b.op = i;
        b.start = starts[std::size_t(i)];
        b.seconds = op.seconds;
        b.hidden = isOverlapped(list, std::size_t(i));
        b.color = OperatorText::boundColor(op.bound);
        b.rect = QRectF(xAt(b.start), barTop(R.opRows[std::size_t(i)]), op.seconds * L.pixelsPerSecond, barH);
        L.bars.push_back(b);
        if (op.hostWaitSeconds > 0 && !b.hidden) {
            AnatomyWait w { i, b.start - op.hostWaitSeconds, op.hostWaitSeconds, {} };
            w.rect = QRectF(xAt(w.start), b.rect.top(), w.seconds * L.pixelsPerSecond, barH);
            L.waits.push_back(w);
        }
    }
    if (R.laneRows.empty()) return L;

    // The CPU lanes: each op's issue on the chart's time axis, its pass's GPU start (where the pass's first
    // op on the critical path starts, less the GPU's wait for it) + hostStart.
    const std::vector<int> hostPass = hostPassOf(list);
    std::array<double, 3> origin { -1, -1, -1 };
    for (int i = 0; i < n; ++i) {
        double& o = origin[std::size_t(hostPass[std::size_t(i)])];
        if (o < 0 && !isOverlapped(list, std::size_t(i)))
            o = starts[std::size_t(i)] - list[std::size_t(i)].hostWaitSeconds;
    }
    for (double& o : origin) o = std::max(0.0, o);
    const std::vector<double> extra = besideSeconds(list);
    const double hostH = std::max(4.0, L.rowHeight * 0.56);
    std::size_t lane = 0;
    for (std::size_t g = 0; g < R.laneRows.size(); ++g) {
        AnatomyHostLane hl;
        hl.row = R.laneRows[g];
        hl.phase = R.lanePhases[g];
        hl.rect = QRectF(L.chart.left(), L.chart.top() + hl.row * L.rowHeight, L.chart.width(), L.rowHeight);
        L.hostLanes.push_back(hl);
    }
    const double laneTop = (L.rowHeight - hostH) / 2;
    for (int i = 0; i < n; ++i) {
        const KernelOp& op = list[std::size_t(i)];
        // The lane of this op's pass: the first lane below its row.
        while (lane + 1 < L.hostLanes.size() && L.hostLanes[lane].row < R.opRows[std::size_t(i)]) ++lane;
        AnatomyHostLane& hl = L.hostLanes[lane];
        const double o = origin[std::size_t(hostPass[std::size_t(i)])];
        const bool continues = op.graphed && i > 0 && !hl.bars.empty() && hl.bars.back().graph
            && hl.bars.back().lastOp == i - 1 && hostPass[std::size_t(i - 1)] == hostPass[std::size_t(i)];
        if (continues) {
            AnatomyHostBar& b = hl.bars.back();
            b.lastOp = i;
            b.seconds += op.hostSeconds;
            b.rect.setWidth(b.seconds * L.pixelsPerSecond);
        } else {
            AnatomyHostBar b;
            b.op = b.lastOp = i;
            b.hostStart = op.hostStart;
            b.start = o + op.hostStart;
            b.seconds = op.hostSeconds;
            b.graph = op.graphed;
            b.color = op.graphed ? graphColor() : OperatorText::boundColor(op.bound);
            b.rect = QRectF(xAt(b.start), hl.rect.top() + laneTop, b.seconds * L.pixelsPerSecond, hostH);
            hl.bars.push_back(b);
        }
        if (op.syncAfter) {
            const bool hidden = isOverlapped(list, std::size_t(i));
            const double gpuEnd = starts[std::size_t(i)]
                + (hidden ? op.seconds : op.exposedSeconds + extra[std::size_t(i)]);
            hl.syncs.push_back({ i, o + op.hostStart + op.hostSeconds, gpuEnd });
        }
    }
    return L;
}

int LayerAnatomyView::heightForWidth(int width) const
{
    const std::vector<KernelOp>& list = ops();
    const QRectF rect(0, 0, std::max(200, width), 1e6);
    const Header h = header(rect, const_cast<LayerAnatomyView*>(this));
    if (list.empty()) return int(std::ceil(h.bottom + kMargin));
    const QFontMetricsF fm(font());
    const double strip = fm.height() + 8, axis = 2 * fm.height() + 14;
    return int(std::ceil(h.bottom + 8 + strip + kMinRow * double(rowsOf(list).count) + axis + kMargin));
}

QSize LayerAnatomyView::sizeHint() const
{
    return { 1200, std::max(600, heightForWidth(1200)) };
}

QSize LayerAnatomyView::minimumSizeHint() const
{
    return { 480, heightForWidth(900) };
}

void LayerAnatomyView::paintEvent(QPaintEvent*)
{
    QPainter p(this);
    paint(p, QRectF(rect()));
}

void LayerAnatomyView::paint(QPainter& p, const QRectF& rect) const
{
    p.save();
    p.fillRect(rect, Theme::background());
    p.setRenderHint(QPainter::Antialiasing, false);
    p.setRenderHint(QPainter::TextAntialiasing, true);
    const Header h = header(rect, p.device());
    paintHeader(p, h);
    if (!ops().empty()) paintChart(p, layoutFor(rect, p.device()));
    p.restore();
}

void LayerAnatomyView::paintHeader(QPainter& p, const Header& h) const
{
    p.setFont(h.titleFont);
    p.setPen(Theme::text());
    p.drawText(h.titleRect, Qt::TextWordWrap | Qt::AlignLeft | Qt::AlignTop, h.title);
    p.setFont(h.textFont);
    if (!h.message.isEmpty()) {
        p.setPen(h.alarm ? Theme::alarmText() : Theme::mutedText());
        p.drawText(h.messageRect, Qt::TextWordWrap | Qt::AlignHCenter | Qt::AlignTop, h.message);
        return;
    }
    p.setPen(Theme::text());
    p.drawText(h.summaryRect, Qt::TextWordWrap | Qt::AlignLeft | Qt::AlignTop, h.summary);
    for (const Header::Item& item : h.legend) {
        switch (item.style) {
        case Header::Item::Hidden:
            p.fillRect(item.swatch, Theme::mix(item.color, Theme::background(), 0.62));
            p.setPen(QPen(item.color, 1, Qt::DashLine));
            p.setBrush(Qt::NoBrush);
            p.drawRect(item.swatch.adjusted(0, 0, -1, -1));
            break;
        case Header::Item::Host:
            paintHostBar(p, item.swatch, item.color);
            break;
        case Header::Item::Graph:
            paintHostBar(p, item.swatch, graphColor());
            break;
        case Header::Item::Wait:
            p.fillRect(item.swatch, waitFill());
            break;
        case Header::Item::Sync: {
            const double x = item.swatch.center().x();
            p.setPen(QPen(Theme::alarmText(), 2));
            p.drawLine(QPointF(x, item.swatch.top() - 2), QPointF(x, item.swatch.bottom() + 2));
            p.setPen(QPen(Theme::alarmText(), 1, Qt::DotLine));
            p.drawLine(QPointF(item.swatch.left(), item.swatch.center().y()),
                QPointF(x, item.swatch.center().y()));
            break;
        }
        case Header::Item::Solid:
            p.fillRect(item.swatch, item.color);
            break;
        }
        p.setPen(Theme::text());
        p.drawText(item.text, Qt::AlignLeft | Qt::AlignVCenter, item.label);
    }
    if (!h.host.isEmpty()) {
        p.setPen(Theme::alarmText());
        p.drawText(h.hostRect, Qt::TextWordWrap | Qt::AlignLeft | Qt::AlignTop, h.host);
    }
}

void LayerAnatomyView::paintChart(QPainter& p, const Layout& L) const
{
    const std::vector<KernelOp>& list = ops();
    if (L.bars.size() != list.size() || list.empty()) return;
    const QFont base = font();
    const QFontMetricsF fm(base, p.device());
    const QFont small = rowFont(L.rowHeight, p.device());
    const QFontMetricsF sfm(small, p.device());
    auto xAt = [&](double t) { return L.chart.left() + t * L.pixelsPerSecond; };
    auto rowTop = [&](int r) { return L.chart.top() + r * L.rowHeight; };
    auto opTop = [&](int i) { return rowTop(L.opRows[std::size_t(i)]); };
    const double stripTop = L.chart.top() - (fm.height() + 8);

    // Ticks and grid lines, every 1, 2 or 5 × 10^k ms, about every 90 px.
    const double step = niceStep(L.span / std::max(2.0, L.chart.width() / 90.0));
    const int decimals = std::max(0, int(-std::floor(std::log10(step * 1e3) + 1e-9)));

    // The passes: groups of consecutive rows, each shaded over its own rows and time, a dashed line where it
    // starts.
    const PassTotals totals = sumPasses(list);
    std::vector<PhaseGroup> groups;
    for (int i = 0; i < int(list.size()); ++i) {
        const OperatorText::Phase ph = OperatorText::phase(list[std::size_t(i)].pass);
        if (groups.empty() || groups.back().phase != ph) {
            PhaseGroup g { ph, i, i, L.bars[std::size_t(i)].start, 0, 0 };
            g.exposed = ph == OperatorText::Phase::Forward ? totals.forward
                : ph == OperatorText::Phase::Recompute     ? totals.recompute
                                                           : totals.backwardInput + totals.backwardWeight;
            groups.push_back(g);
        }
        groups.back().last = i;
    }
    for (std::size_t g = 0; g < groups.size(); ++g) {
        PhaseGroup& gr = groups[g];
        gr.t0 = L.span;
        for (int r = gr.first; r <= gr.last; ++r)
            if (!L.bars[std::size_t(r)].hidden) gr.t0 = std::min(gr.t0, L.bars[std::size_t(r)].start);
    }
    for (std::size_t g = 0; g < groups.size(); ++g)
        groups[g].t1 = g + 1 < groups.size() ? groups[g + 1].t0 : L.span;
    const QColor band = Theme::mix(Theme::background(), Theme::separator(), 0.32);
    for (const PhaseGroup& g : groups) {
        const QRectF r(QPointF(xAt(g.t0), opTop(g.first)), QPointF(xAt(g.t1), opTop(g.last) + L.rowHeight));
        p.fillRect(r, band);
    }
    p.setPen(QPen(Theme::gridLine(), 1));
    for (double t = 0; t <= L.span * (1 + 1e-9); t += step)
        p.drawLine(QPointF(xAt(t), L.chart.top()), QPointF(xAt(t), L.chart.bottom()));
    if (m_hoverRow >= 0 && m_hoverRow < int(list.size()))
        p.fillRect(QRectF(QPointF(L.gutter.left(), opTop(m_hoverRow)),
                       QPointF(L.chart.right(), opTop(m_hoverRow) + L.rowHeight)),
            Theme::mix(Theme::background(), Theme::text(), 0.08));
    p.setFont(base);
    for (std::size_t g = 0; g < groups.size(); ++g) {
        const PhaseGroup& gr = groups[g];
        const double x0 = xAt(gr.t0), x1 = xAt(gr.t1);
        if (g > 0) {
            p.setPen(QPen(Theme::axis(), 1, Qt::DashLine));
            p.drawLine(QPointF(x0, stripTop), QPointF(x0, L.chart.bottom()));
            p.setPen(QPen(Theme::separator(), 1));
            p.drawLine(
                QPointF(L.gutter.left(), opTop(gr.first)), QPointF(L.chart.right(), opTop(gr.first)));
        }
        const QString full
            = tr("%1 · %2 ms").arg(OperatorText::phaseName(gr.phase), OperatorText::milliseconds(gr.exposed));
        const QString name = OperatorText::phaseName(gr.phase);
        const double room = x1 - x0 - 8;
        const QString label = fm.horizontalAdvance(full) <= room ? full
            : fm.horizontalAdvance(name) <= room                 ? name
                                                 : fm.elidedText(name, Qt::ElideRight, std::max(0.0, room));
        QFont bold = base;
        bold.setBold(true);
        p.setFont(bold);
        p.setPen(Theme::text());
        p.drawText(QRectF(x0 + 4, stripTop, std::max(0.0, x1 - x0 - 8), fm.height() + 6),
            Qt::AlignLeft | Qt::AlignVCenter, label);
        p.setFont(base);
    }

    // The GPU waiting for the CPU: a grey gap before the op, in its row.
    for (const AnatomyWait& w : L.waits) {
        QRectF r = w.rect;
        if (r.width() < 1.5) r.setWidth(1.5);
        p.fillRect(r, waitFill());
    }
    paintHostLanes(p, L);

    // Bars; a hidden collective pale with a dashed outline, the part it is not hidden (exposed) solid.
    for (const AnatomyBar& b : L.bars) {
        const KernelOp& op = list[std::size_t(b.op)];
        QRectF r = b.rect;
        if (r.width() < 1.5) r.setWidth(1.5); // an op of a few µs still shows
        if (b.hidden) {
            p.fillRect(r, Theme::mix(b.color, Theme::background(), 0.62));
            if (op.exposedSeconds > 0) {
                const double w = op.exposedSeconds * L.pixelsPerSecond;
                p.fillRect(QRectF(r.right() - w, r.top(), w, r.height()), b.color);
            }
            p.setPen(QPen(b.color, 1, Qt::DashLine));
            p.setBrush(Qt::NoBrush);
            p.drawRect(r.adjusted(0, 0, -1, -1));
        } else {
            p.fillRect(r, b.color);
        }
    }

    // Names in the gutter, right-aligned; values beside each bar, where they fit: right of it, inside, or
    // left of it.
    p.setFont(small);
    for (const AnatomyBar& b : L.bars) {
        const KernelOp& op = list[std::size_t(b.op)];
        const QRectF row(L.gutter.left(), opTop(b.op), L.gutter.width() - 8, L.rowHeight);
        p.setPen(b.hidden ? Theme::mutedText() : Theme::text());
        p.drawText(row, Qt::AlignRight | Qt::AlignVCenter,
            sfm.elidedText(QString::fromUtf8(op.name), Qt::ElideMiddle, row.width()));

        const QString ms = OperatorText::milliseconds(op.seconds);
        QString value;
        const QString behind = OperatorText::hiddenBehind(list, op);
        if (b.hidden && op.exposedSeconds <= 0)
            value = tr("%1 ms, hidden behind %2").arg(ms, behind);
        else if (b.hidden)
            value = tr("%1 ms, %2 ms not hidden by %3")
                        .arg(ms, OperatorText::milliseconds(op.exposedSeconds), behind);
        else if (op.kind == KernelKind::Collective)
            value = tr("%1 ms exposed").arg(ms);
        else if ((op.kind == KernelKind::Gemm || op.kind == KernelKind::Attention) && op.efficiency > 0) {
            value = tr("%1 ms · %2 of peak").arg(ms, OperatorText::efficiency(op.efficiency));
            // Transformer Engine's TP overlap runs the GEMM in pieces, or beside SMs of communication.
            if (op.splits > 1) value += tr(" · %1 GEMMs").arg(op.splits);
            else if (op.reservedSms > 0) value += tr(" · %1 SMs to communication").arg(op.reservedSms);
        }
        else
            value = tr("%1 ms").arg(ms);
        const double tw = sfm.horizontalAdvance(value);
        const double rightRoom = L.chart.right() - (b.rect.right() + kLabelGap);
        const double leftRoom = b.rect.left() - kLabelGap - L.chart.left();
        const QRectF rowRect(L.chart.left(), opTop(b.op), L.chart.width(), L.rowHeight);
        // Where a label crosses a pass boundary's dashed line, the line goes behind it.
        auto backdrop = [&](const QRectF& r) {
            for (std::size_t g = 1; g < groups.size(); ++g) {
                const double x = xAt(groups[g].t0);
                if (x > r.left() && x < r.right()) {
                    const double h = std::min(r.height(), sfm.height());
                    p.fillRect(
                        QRectF(r.left(), r.center().y() - h / 2, r.width(), h), Theme::labelBackdrop());
                    return;
                }
            }
        };
        if (tw <= rightRoom) {
            const QRectF r(b.rect.right() + kLabelGap, rowRect.top(), tw + 2, rowRect.height());
            backdrop(r);
            p.setPen(Theme::text());
            p.drawText(r, Qt::AlignLeft | Qt::AlignVCenter, value);
        } else if (tw + 8 <= b.rect.width() && !b.hidden) {
            p.setPen(Theme::textOn(b.color));
            p.drawText(QRectF(b.rect.left() + 4, rowRect.top(), b.rect.width() - 8, rowRect.height()),
                Qt::AlignLeft | Qt::AlignVCenter, value);
        } else if (tw <= leftRoom) {
            const QRectF r(b.rect.left() - kLabelGap - tw - 2, rowRect.top(), tw + 2, rowRect.height());
            backdrop(r);
            p.setPen(Theme::text());
            p.drawText(r, Qt::AlignRight | Qt::AlignVCenter, value);
        } else {
            const bool right = rightRoom >= leftRoom;
            const double room = std::max(0.0, right ? rightRoom : leftRoom);
            const QString elided = sfm.elidedText(value, Qt::ElideRight, room);
            p.setPen(Theme::text());
            p.drawText(right ? QRectF(b.rect.right() + kLabelGap, rowRect.top(), room, rowRect.height())
                             : QRectF(L.chart.left(), rowRect.top(), room, rowRect.height()),
                (right ? Qt::AlignLeft : Qt::AlignRight) | Qt::AlignVCenter, elided);
        }
    }

    // The time axis: ticks in ms under the chart, its title centred below them.
    p.setFont(base);
    p.setPen(QPen(Theme::axis(), 1));
    p.drawLine(QPointF(L.chart.left(), L.chart.bottom()), QPointF(L.chart.right(), L.chart.bottom()));
    double lastRight = -1e9;
    for (double t = 0; t <= L.span * (1 + 1e-9); t += step) {
        const double x = xAt(t);
        p.setPen(QPen(Theme::axis(), 1));
        p.drawLine(QPointF(x, L.chart.bottom()), QPointF(x, L.chart.bottom() + 4));
        const QString label = QString::number(t * 1e3, 'f', decimals);
        const double w = fm.horizontalAdvance(label);
        const double left = std::clamp(x - w / 2, L.chart.left() - w / 2, L.chart.right() - w);
        if (left < lastRight + 6) continue;
        p.setPen(Theme::text());
        p.drawText(QRectF(left, L.chart.bottom() + 5, w + 1, fm.height()), Qt::AlignCenter, label);
        lastRight = left + w;
    }
    p.setPen(Theme::mutedText());
    const QString axisTitle = m_which == Ops::Layer
        ? tr("ms on the critical path of one layer (an overlapped collective is drawn beside the op it "
             "overlaps with)")
        : tr("ms on the critical path of the output layer (an overlapped collective is drawn beside the op "
             "it overlaps with)");
    p.drawText(QRectF(L.chart.left(), L.chart.bottom() + 6 + fm.height(), L.chart.width(), fm.height() + 4),
        Qt::AlignHCenter | Qt::AlignVCenter, fm.elidedText(axisTitle, Qt::ElideRight, L.chart.width()));
}

void LayerAnatomyView::paintHostLanes(QPainter& p, const Layout& L) const
{
    if (L.hostLanes.empty()) return;
    const QFont small = rowFont(L.rowHeight, p.device());
    const QFontMetricsF sfm(small, p.device());
    QFont bold = small;
    bold.setBold(true);
    const QFontMetricsF bfm(bold, p.device());
    auto xAt = [&](double t) { return L.chart.left() + t * L.pixelsPerSecond; };
    for (const AnatomyHostLane& hl : L.hostLanes) {
        // The lane: a tinted row, its name in the gutter.
        p.fillRect(QRectF(QPointF(L.gutter.left(), hl.rect.top()), hl.rect.bottomRight()),
            Theme::mix(Theme::background(), Theme::surface(), 0.7));
        p.setPen(QPen(Theme::separator(), 1, Qt::DotLine));
        p.drawLine(QPointF(L.gutter.left(), hl.rect.top()), QPointF(L.chart.right(), hl.rect.top()));
        p.setFont(bold);
        p.setPen(Theme::mutedText());
        p.drawText(QRectF(L.gutter.left(), hl.rect.top(), L.gutter.width() - 8, L.rowHeight),
            Qt::AlignRight | Qt::AlignVCenter, tr("CPU"));

        p.save();
        p.setClipRect(hl.rect);
        bool before = false;
        for (const AnatomyHostBar& b : hl.bars) {
            QRectF r = b.rect;
            if (r.width() < 1.5) r.setWidth(1.5);
            before = before || b.start < 0;
            paintHostBar(p, r, b.color);
        }
        // A graph's launch, named where it fits.
        p.setFont(small);
        for (const AnatomyHostBar& b : hl.bars) {
            if (!b.graph) continue;
            const QString label = tr("CUDA graph launch");
            const double w = sfm.horizontalAdvance(label);
            const double x = std::max(hl.rect.left(), b.rect.right()) + kLabelGap;
            if (x + w > hl.rect.right()) continue;
            const QRectF r(x, hl.rect.top(), w + 2, hl.rect.height());
            p.fillRect(r.adjusted(0, 2, 0, -2), Theme::labelBackdrop());
            p.setPen(Theme::text());
            p.drawText(r, Qt::AlignLeft | Qt::AlignVCenter, label);
        }
        // The syncs: the CPU blocked (dotted) from the end of its issue to the op's end on the GPU, a tick
        // there, and "sync" beside the tick where it does not run into the previous label.
        double lastLabel = -1e9;
        for (const AnatomySync& sy : hl.syncs) {
            const double x0 = xAt(sy.cpuEnd), x1 = xAt(sy.gpuEnd), y = hl.rect.center().y();
            p.setPen(QPen(Theme::alarmText(), 1, Qt::DotLine));
            if (x1 > x0 + 1) p.drawLine(QPointF(x0, y), QPointF(x1, y));
            p.setPen(QPen(Theme::alarmText(), 2));
            p.drawLine(QPointF(x1, hl.rect.top() + 1), QPointF(x1, hl.rect.bottom() - 1));
            const QString label = tr("sync");
            const double w = sfm.horizontalAdvance(label);
            if (x1 + 3 < lastLabel + 4 || x1 + 3 + w > hl.rect.right()) continue;
            const QRectF r(x1 + 3, hl.rect.top(), w + 2, hl.rect.height());
            p.fillRect(r.adjusted(0, 2, 0, -2), Theme::labelBackdrop());
            p.setPen(Theme::alarmText());
            p.drawText(r, Qt::AlignLeft | Qt::AlignVCenter, label);
            lastLabel = r.right();
        }
        // A CPU far ahead of the GPU (a GPU-bound layer) issued the whole pass before the chart starts: say
        // so in the lane, which would be empty otherwise.
        const bool none = std::none_of(hl.bars.begin(), hl.bars.end(),
            [&](const AnatomyHostBar& b) { return b.rect.right() > hl.rect.left() && b.rect.left() < hl.rect.right(); });
        if (none && !hl.bars.empty()) {
            double from = hl.bars.front().start, to = from;
            for (const AnatomyHostBar& b : hl.bars) {
                from = std::min(from, b.start);
                to = std::max(to, b.start + b.seconds);
            }
            p.setFont(small);
            p.setPen(Theme::mutedText());
            p.drawText(hl.rect.adjusted(12, 0, -4, 0), Qt::AlignLeft | Qt::AlignVCenter,
                sfm.elidedText(tr("the CPU runs ahead: it issued this pass's kernels from %1 ms to %2 ms, during "
                                  "earlier layers, so the GPU never waits for it")
                                   .arg(OperatorText::milliseconds(from), OperatorText::milliseconds(to)),
                    Qt::ElideRight, hl.rect.width() - 16));
        }
        p.restore();
        // The CPU issued part of this pass during the previous one: an arrow at the chart's left edge.
        if (before) {
            const double y = hl.rect.center().y(), h = std::min(5.0, L.rowHeight / 3);
            QPainterPath arrow;
            arrow.moveTo(hl.rect.left() - 1, y);
            arrow.lineTo(hl.rect.left() + 2 * h - 1, y - h);
            arrow.lineTo(hl.rect.left() + 2 * h - 1, y + h);
            arrow.closeSubpath();
            p.setRenderHint(QPainter::Antialiasing, true);
            p.fillPath(arrow, Theme::mutedText());
            p.setRenderHint(QPainter::Antialiasing, false);
        }
    }
}

int LayerAnatomyView::rowAt(const QPointF& pos) const
{
    const Layout L = currentLayout();
    if (L.bars.empty() || L.rowHeight <= 0) return -1;
    if (pos.x() < L.gutter.left() || pos.x() > L.chart.right() || pos.y() < L.chart.top()
        || pos.y() >= L.chart.bottom())
        return -1;
    const int row = int((pos.y() - L.chart.top()) / L.rowHeight);
    const auto it = std::find(L.opRows.begin(), L.opRows.end(), row);
    return it == L.opRows.end() ? -1 : int(it - L.opRows.begin());
}

QString LayerAnatomyView::hostToolTip(const QPointF& pos) const
{
    const Layout L = currentLayout();
    const std::vector<KernelOp>& list = ops();
    for (const AnatomyHostLane& hl : L.hostLanes) {
        if (pos.y() < hl.rect.top() || pos.y() >= hl.rect.bottom()) continue;
        const AnatomyHostBar* best = nullptr;
        double distance = 4; // px: a bar of a few µs is still found
        for (const AnatomyHostBar& b : hl.bars) {
            const double d = pos.x() < b.rect.left() ? b.rect.left() - pos.x()
                : pos.x() > b.rect.right()           ? pos.x() - b.rect.right()
                                                     : 0;
            if (d < distance) {
                distance = d;
                best = &b;
            }
        }
        if (!best) return tr("CPU lane of the %1 pass: the host issuing its kernels")
                              .arg(OperatorText::phaseName(OperatorText::Phase(hl.phase)));
        const KernelOp& op = list[std::size_t(best->op)];
        const QString us = QString::number(best->seconds * 1e6, 'f', 1);
        if (best->graph)
            return tr("CUDA graph launch: %1 µs of CPU time for %2 ops (%3 … %4), from %5 ms")
                .arg(us)
                .arg(best->lastOp - best->op + 1)
                .arg(QString::fromUtf8(op.name), QString::fromUtf8(list[std::size_t(best->lastOp)].name),
                    OperatorText::milliseconds(best->start));
        QString text = tr("CPU issues %1: %2 µs, %3 kernel launches, from %4 ms (%5 ms from the pass's start)")
                           .arg(QString::fromUtf8(op.name), us)
                           .arg(op.launches)
                           .arg(OperatorText::milliseconds(best->start), OperatorText::milliseconds(op.hostStart));
        if (op.syncAfter) text += QLatin1Char(' ') + tr("Then the CPU waits for it to finish (sync).");
        return text;
    }
    return {};
}

void LayerAnatomyView::mouseMoveEvent(QMouseEvent* event)
{
    const int row = rowAt(event->position());
    if (row != m_hoverRow) {
        m_hoverRow = row;
        update();
    }
    const QString host = row < 0 ? hostToolTip(event->position()) : QString();
    if (row >= 0)
        QToolTip::showText(
            event->globalPosition().toPoint(), OperatorText::toolTip(ops(), std::size_t(row)), this);
    else if (!host.isEmpty())
        QToolTip::showText(event->globalPosition().toPoint(), host, this);
    else
        QToolTip::hideText();
    QWidget::mouseMoveEvent(event);
}

void LayerAnatomyView::leaveEvent(QEvent* event)
{
    if (m_hoverRow >= 0) {
        m_hoverRow = -1;
        update();
    }
    QWidget::leaveEvent(event);
}

void LayerAnatomyView::changeEvent(QEvent* event)
{
    if (event->type() == QEvent::LanguageChange || event->type() == QEvent::FontChange) refresh();
    QWidget::changeEvent(event);
}

} // namespace planscope
