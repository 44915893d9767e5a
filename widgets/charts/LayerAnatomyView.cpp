#include "charts/LayerAnatomyView.h"

#include "Theme.h"
#include "charts/OperatorText.h"

#include <QEvent>
#include <QFontMetricsF>
#include <QMouseEvent>
#include <QPainter>
#include <QPainterPath>
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
        bool hidden = false;
    };
    std::vector<Item> legend;
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
    double total = 0, hiddenComm = 0;
    std::array<double, 4> byBound {};
    for (const KernelOp& op : list) {
        total += op.exposedSeconds;
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
    bounds += hiddenComm > 1e-12 ? tr("; %1 ms of communication hidden behind compute.").arg(ms(hiddenComm))
                                 : tr(".");
    h.summary = sums + QLatin1Char(' ') + bounds;
    h.summaryRect
        = fm.boundingRect(QRectF(rect.left() + kMargin, y, width, 1e6), Qt::TextWordWrap, h.summary);
    h.summaryRect.setWidth(width);
    y = h.summaryRect.bottom() + 6;

    // The legend, flowing into as many lines as the width needs.
    const std::pair<QString, std::pair<OpBound, bool>> items[] = {
        { tr("compute-bound"), { OpBound::Compute, false } },
        { tr("memory-bound"), { OpBound::Memory, false } },
        { tr("communication, exposed"), { OpBound::Communication, false } },
        { tr("communication hidden behind compute"), { OpBound::Communication, true } },
        { tr("latency-bound"), { OpBound::Latency, false } },
    };
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
        item.hidden = style.second;
        h.legend.push_back(item);
        x += w + spacing;
    }
    h.bottom = y + lineH;
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

    double nameWidth = 0;
    for (const KernelOp& op : list)
        nameWidth = std::max(nameWidth, fm.horizontalAdvance(QString::fromUtf8(op.name)));
    const double gutter = std::min(nameWidth + 14, std::max(80.0, rect.width() * 0.3));

    const double top = h.bottom + 8 + strip;
    const double available = rect.bottom() - kMargin - axis - top;
    L.rowHeight = std::clamp(available / n, kMinRow, kMaxRow);
    L.gutter = QRectF(rect.left() + kMargin, top, gutter, L.rowHeight * n);
    L.chart = QRectF(
        L.gutter.right(), top, std::max(40.0, rect.right() - kMargin - L.gutter.right()), L.rowHeight * n);

    const std::vector<double> starts = opStartTimes(list, &L.span);
    L.pixelsPerSecond = L.span > 0 ? L.chart.width() / L.span : 0;
    L.bars.reserve(list.size());
    for (int i = 0; i < n; ++i) {
        const KernelOp& op = list[std::size_t(i)];
        AnatomyBar b;
        b.op = i;
        b.start = starts[std::size_t(i)];
        b.seconds = op.seconds;
        b.hidden = isOverlapped(list, std::size_t(i));
        b.color = OperatorText::boundColor(op.bound);
        const double barH = std::max(4.0, L.rowHeight * 0.66);
        b.rect = QRectF(L.chart.left() + b.start * L.pixelsPerSecond,
            L.chart.top() + i * L.rowHeight + (L.rowHeight - barH) / 2, op.seconds * L.pixelsPerSecond, barH);
        L.bars.push_back(b);
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
    return int(std::ceil(h.bottom + 8 + strip + kMinRow * double(list.size()) + axis + kMargin));
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
        if (item.hidden) {
            p.fillRect(item.swatch, Theme::mix(item.color, Theme::background(), 0.62));
            p.setPen(QPen(item.color, 1, Qt::DashLine));
            p.setBrush(Qt::NoBrush);
            p.drawRect(item.swatch.adjusted(0, 0, -1, -1));
        } else {
            p.fillRect(item.swatch, item.color);
        }
        p.setPen(Theme::text());
        p.drawText(item.text, Qt::AlignLeft | Qt::AlignVCenter, item.label);
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
        const QRectF r(QPointF(xAt(g.t0), rowTop(g.first)), QPointF(xAt(g.t1), rowTop(g.last + 1)));
        p.fillRect(r, band);
    }
    p.setPen(QPen(Theme::gridLine(), 1));
    for (double t = 0; t <= L.span * (1 + 1e-9); t += step)
        p.drawLine(QPointF(xAt(t), L.chart.top()), QPointF(xAt(t), L.chart.bottom()));
    if (m_hoverRow >= 0 && m_hoverRow < int(list.size()))
        p.fillRect(QRectF(QPointF(L.gutter.left(), rowTop(m_hoverRow)),
                       QPointF(L.chart.right(), rowTop(m_hoverRow + 1))),
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
                QPointF(L.gutter.left(), rowTop(gr.first)), QPointF(L.chart.right(), rowTop(gr.first)));
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
        const QRectF row(L.gutter.left(), rowTop(b.op), L.gutter.width() - 8, L.rowHeight);
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
        else if ((op.kind == KernelKind::Gemm || op.kind == KernelKind::Attention) && op.efficiency > 0)
            value = tr("%1 ms · %2 of peak").arg(ms, OperatorText::efficiency(op.efficiency));
        else
            value = tr("%1 ms").arg(ms);
        const double tw = sfm.horizontalAdvance(value);
        const double rightRoom = L.chart.right() - (b.rect.right() + kLabelGap);
        const double leftRoom = b.rect.left() - kLabelGap - L.chart.left();
        const QRectF rowRect(L.chart.left(), rowTop(b.op), L.chart.width(), L.rowHeight);
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

int LayerAnatomyView::rowAt(const QPointF& pos) const
{
    const Layout L = currentLayout();
    if (L.bars.empty() || L.rowHeight <= 0) return -1;
    if (pos.x() < L.gutter.left() || pos.x() > L.chart.right() || pos.y() < L.chart.top()
        || pos.y() >= L.chart.bottom())
        return -1;
    const int row = int((pos.y() - L.chart.top()) / L.rowHeight);
    return row >= 0 && row < int(L.bars.size()) ? row : -1;
}

void LayerAnatomyView::mouseMoveEvent(QMouseEvent* event)
{
    const int row = rowAt(event->position());
    if (row != m_hoverRow) {
        m_hoverRow = row;
        update();
    }
    if (row < 0)
        QToolTip::hideText();
    else
        QToolTip::showText(
            event->globalPosition().toPoint(), OperatorText::toolTip(ops(), std::size_t(row)), this);
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
