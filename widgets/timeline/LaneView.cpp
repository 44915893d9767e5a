#include "timeline/LaneView.h"

#include "Theme.h"
#include "WidgetExporter.h"
#include "document/ViewState.h"
#include "timeline/TimelineLayout.h"
#include "timeline/TimelinePalette.h"

#include <QEvent>
#include <QHelpEvent>
#include <QKeyEvent>
#include <QMouseEvent>
#include <QPainter>
#include <QPainterPath>
#include <QScrollBar>
#include <QToolTip>
#include <QWheelEvent>
#include <algorithm>
#include <cmath>

namespace planscope {

LaneView::LaneView(QWidget* parent)
    : QWidget(parent)
    , m_ownState(new ViewState(this))
    , m_state(m_ownState)
    , m_scrollBar(new QScrollBar(Qt::Vertical, this))
{
    setFocusPolicy(Qt::StrongFocus);
    setAttribute(Qt::WA_OpaquePaintEvent);
    m_scrollBar->hide();
    connect(m_scrollBar, &QScrollBar::valueChanged, this, [this](int v) { setScroll(v); });
    connect(Theme::instance(), &Theme::changed, this, [this] { themeChanged(); });
    connectState(); // no virtual call here: the subclass is not built yet
}

LaneView::~LaneView() = default;

void LaneView::setViewState(ViewState* state)
{
    if (m_state) disconnect(m_state, nullptr, this, nullptr);
    m_state = state ? state : m_ownState;
    connectState();
    stateAttached();
    relayout();
}

void LaneView::connectState()
{
    connect(m_state, &ViewState::viewRangeChanged, this, &LaneView::relayout);
    connect(m_state, &ViewState::durationChanged, this, &LaneView::relayout);
    connect(m_state, &ViewState::playheadChanged, this, qOverload<>(&QWidget::update));
    connect(m_state, &ViewState::playingChanged, this, qOverload<>(&QWidget::update));
    connect(m_state, &ViewState::selectionChanged, this, [this] { selectionChanged(); });
}

ViewState* LaneView::viewState() const
{
    return m_state;
}

ViewState& LaneView::state() const
{
    return *m_state;
}

void LaneView::zoomToFit()
{
    if (!hasLanes()) return;
    const Range fit = fitRange();
    setRange(fit.start, fit.end);
}

void LaneView::setRange(double start, double end)
{
    if (!hasLanes()) return;
    const Range limits = timeLimits();
    const double room = limits.end > limits.start ? limits.end - limits.start : 1.0;
    const double width = std::clamp(end - start, 1e-9, room);
    start = std::clamp(start, limits.start, limits.start + room - width);
    m_state->setViewRange(start, start + width);
}

void LaneView::setFixedTimeAxis(double span, int headerWidth)
{
    m_fixedSpan = std::max(0.0, span);
    m_minHeaderWidth = std::max(0, headerWidth);
    relayout();
}

void LaneView::setFitAllLanes(bool fit)
{
    if (fit == m_fitAllLanes) return;
    m_fitAllLanes = fit;
    relayout();
}

void LaneView::setFinalState(bool final)
{
    if (final == m_finalState) return;
    m_finalState = final;
    update();
}

void LaneView::setColumns(int header, int right)
{
    m_headerWidth = std::max(m_minHeaderWidth, header);
    m_rightWidth = std::max(0, right);
}

QFont LaneView::axisFont() const
{
    QFont small = font();
    small.setPointSizeF(std::max(7.0, font().pointSizeF() - 1));
    return small;
}

int LaneView::axisHeight() const
{
    return int(std::ceil(QFontMetricsF(axisFont()).height())) + 12;
}

QRect LaneView::timeArea() const
{
    const QSize canvas = canvasSize();
    const bool scrollBar = !exporting() && m_scrollBar->isVisibleTo(this);
    const int right = m_rightWidth + (scrollBar ? m_scrollBar->sizeHint().width() : 0);
    return QRect(m_headerWidth, axisHeight(), std::max(1, canvas.width() - m_headerWidth - right),
        std::max(1, canvas.height() - axisHeight()));
}

void LaneView::relayout()
{
    if (!hasLanes() || !m_state) {
        m_draw = {};
        m_layoutValid = false;
        m_scrollBar->hide();
        update();
        return;
    }
    Range range { m_state->viewStart(), m_state->viewEnd() };
    if (!(range.end > range.start)) range = fitRange();
    if (m_fixedSpan > 0) range = { 0.0, m_fixedSpan };

    // The lanes for the room there is; on screen the rest scrolls, a picture has no scroll bar.
    const int available = canvasSize().height() - axisHeight();
    const bool squeeze = exporting() || m_fitAllLanes;
    const double content = arrangeLanes(available, squeeze);
    const int overflow = int(std::ceil(content)) - available;
    const bool scrolls = overflow > 0 && !squeeze;
    m_scrollBar->setVisible(scrolls);
    m_scrollY = std::clamp(m_scrollY, 0.0, double(std::max(0, scrolls ? overflow : 0)));
    if (scrolls) {
        const int w = m_scrollBar->sizeHint().width();
        m_scrollBar->setGeometry(width() - w, axisHeight(), w, available);
        const QSignalBlocker block(m_scrollBar);
        m_scrollBar->setRange(0, overflow);
        m_scrollBar->setPageStep(available);
        m_scrollBar->setSingleStep(int(std::max(1.0, m_scrollStep)));
        m_scrollBar->setValue(int(m_scrollY));
    }
    m_viewport = { range.start, range.end, timeArea().width() };
    update();
}

void LaneView::layoutNow() const
{
    if (!hasLanes()) return;
    const double height = timeArea().height();
    if (m_layoutValid && m_viewport == m_laidOutViewport && m_scrollY == m_laidOutScroll && height == m_laidOutHeight)
        return;
    m_draw = layoutLanes(m_viewport, m_scrollY, height);
    m_laidOutViewport = m_viewport;
    m_laidOutScroll = m_scrollY;
    m_laidOutHeight = height;
    m_layoutValid = true;
    ++m_layoutCount;
}

const DrawList& LaneView::drawList() const
{
    layoutNow();
    return m_draw;
}

void LaneView::setScroll(double y)
{
    const double old = m_scrollY;
    m_scrollY = std::max(0.0, y);
    if (old != m_scrollY) relayout();
}

void LaneView::zoomAround(double x, double factor)
{
    const double t = m_viewport.toTime(x);
    setRange(t - (t - m_viewport.start) * factor, t + (m_viewport.end - t) * factor);
}

QString LaneView::axisLabel(double seconds, double step, double magnitude)
{
    double scale = 1;
    QString pattern = tr("%1 s");
    if (magnitude < 1e-3) {
        scale = 1e6;
        pattern = tr("%1 µs");
    } else if (magnitude < 1) {
        scale = 1e3;
        pattern = tr("%1 ms");
    }
    const int decimals = std::clamp(int(std::ceil(-std::log10(step * scale) - 1e-9)), 0, 9);
    if (std::abs(seconds) < step * 1e-6) seconds = 0; // no "-0" at the origin
    return pattern.arg(seconds * scale, 0, 'f', decimals);
}

QString LaneView::axisCaption() const
{
    return tr("time in step");
}

QColor LaneView::background() const
{
    return Theme::background();
}

// ---- Painting ------------------------------------------------------------------------------------------

void LaneView::paintEvent(QPaintEvent*)
{
    QPainter p(this);
    paintAll(p);
}

void LaneView::paintAll(QPainter& p)
{
    const QRect canvas(QPoint(0, 0), canvasSize());
    p.fillRect(canvas, background());
    if (!hasLanes()) {
        p.setPen(Theme::mutedText());
        p.drawText(canvas.adjusted(20, 20, -20, -20), Qt::AlignCenter | Qt::TextWordWrap, emptyText());
        return;
    }
    layoutNow();
    const QRect area = timeArea();
    paintLanes(p, area);
    paintOverlay(p, area);
    paintHeaders(p, area);
    paintAxis(p, area);
}

void LaneView::paintGrid(QPainter& p, const QRect& area) const
{
    p.save();
    p.setPen(Theme::gridLine());
    for (double t : axisTicks(m_viewport, 90)) {
        const double x = std::round(m_viewport.toX(t)) + 0.5;
        p.drawLine(QLineF(x, 0, x, area.height()));
    }
    p.restore();
}

void LaneView::paintOverlay(QPainter& p, const QRect& area)
{
    p.save();
    p.setClipRect(area);
    p.translate(area.topLeft());
    const double playhead = m_state ? m_state->playhead() : 0;
    if (!m_finalState && playheadShown() && playhead >= m_viewport.start && playhead <= m_viewport.end) {
        const double x = std::round(m_viewport.toX(playhead));
        p.setPen(QPen(TimelinePalette::playhead(), 2));
        p.drawLine(QLineF(x, 0, x, area.height()));
    }
    if (m_drag == Drag::Band) {
        const double x0 = m_pressPos.x() - area.left(), x1 = m_lastPos.x() - area.left();
        p.setPen(QPen(QColor(0x00, 0x72, 0xB2), 1));
        p.setBrush(QColor(0x00, 0x72, 0xB2, 40));
        p.drawRect(QRectF(std::min(x0, x1), 0, std::abs(x1 - x0), area.height() - 1));
    }
    p.restore();
}

void LaneView::paintAxis(QPainter& p, const QRect& area)
{
    p.save();
    const int axis = axisHeight();
    p.setClipRect(QRect(0, 0, canvasSize().width(), axis));
    const QFont small = axisFont();
    p.setFont(small);
    const QFontMetricsF fm(small);
    p.setPen(Theme::axis());
    p.drawLine(QLineF(area.left(), axis - 0.5, area.right() + 1, axis - 0.5));
    double step = 0;
    const std::vector<double> ticks = axisTicks(m_viewport, 90, &step);
    const double magnitude = std::max(std::abs(m_viewport.start), std::abs(m_viewport.end));
    double lastRight = -1e9;
    for (double t : ticks) {
        const double x = area.left() + std::round(m_viewport.toX(t)) + 0.5;
        p.setPen(Theme::axis());
        p.drawLine(QLineF(x, axis - 6, x, axis));
        const QString label = axisLabel(t, step, magnitude);
        const double w = fm.horizontalAdvance(label);
        // Centred on the tick, pushed inside the time area at its ends, skipped if it would overlap.
        const double left = std::clamp(x - w / 2, double(area.left()), double(area.right()) - w);
        if (left < lastRight + 6) continue;
        p.setPen(Theme::text());
        p.drawText(QRectF(left, 2, w + 1, axis - 8), Qt::AlignLeft | Qt::AlignVCenter, label);
        lastRight = left + w;
    }
    p.setPen(Theme::mutedText());
    p.drawText(QRectF(6, 2, m_headerWidth - 12, axis - 8), Qt::AlignLeft | Qt::AlignVCenter,
        fm.elidedText(axisCaption(), Qt::ElideRight, m_headerWidth - 12));
    // The playhead's marker on the axis.
    const double playhead = m_state ? m_state->playhead() : 0;
    if (!m_finalState && playheadShown() && playhead >= m_viewport.start && playhead <= m_viewport.end) {
        const double x = area.left() + std::round(m_viewport.toX(playhead));
        QPainterPath marker;
        marker.moveTo(x - 5, axis - 8);
        marker.lineTo(x + 5, axis - 8);
        marker.lineTo(x, axis);
        marker.closeSubpath();
        p.setRenderHint(QPainter::Antialiasing, true);
        p.fillPath(marker, TimelinePalette::playhead());
    }
    p.restore();
}

bool LaneView::exportTo(const QString& path, QSize size, QString* error)
{
    if (size.isEmpty()) size = width() >= 300 && height() >= 150 ? this->size() : QSize(1400, 800);
    m_exportSize = size;
    const bool wasFinal = m_finalState;
    m_finalState = true;
    relayout();
    const bool ok = WidgetExporter::exportPainted(
        path, size,
        [this](QPaintDevice* device, const QRectF&) {
            QPainter p;
            if (!p.begin(device)) return false;
            paintAll(p);
            return p.end();
        },
        error, tr("PlanScope timeline"), background());
    m_exportSize = QSize();
    m_finalState = wasFinal;
    relayout();
    return ok;
}

// ---- Interaction ---------------------------------------------------------------------------------------

void LaneView::resizeEvent(QResizeEvent* event)
{
    QWidget::resizeEvent(event);
    relayout();
}

void LaneView::changeEvent(QEvent* event)
{
    if (event->type() == QEvent::FontChange || event->type() == QEvent::LanguageChange) {
        invalidateLayout();
        relayout();
    }
    if (event->type() == QEvent::PaletteChange) themeChanged();
    QWidget::changeEvent(event);
}

bool LaneView::event(QEvent* event)
{
    if (event->type() == QEvent::ToolTip) {
        auto* help = static_cast<QHelpEvent*>(event);
        const QString text = hasLanes() ? toolTipAt(help->pos()) : QString();
        if (text.isEmpty()) QToolTip::hideText();
        else QToolTip::showText(help->globalPos(), text, this);
        return true;
    }
    return QWidget::event(event);
}

void LaneView::wheelEvent(QWheelEvent* event)
{
    event->accept();
    if (!hasLanes()) return;
    const QPoint delta = event->angleDelta();
    const QRect area = timeArea();
    if ((event->modifiers() & Qt::ShiftModifier) || event->position().x() < area.left()) {
        setScroll(m_scrollY - (delta.y() != 0 ? delta.y() : delta.x()) / 120.0 * m_scrollStep * 2);
    } else if (std::abs(delta.x()) > std::abs(delta.y())) {
        const double shift = -delta.x() / 120.0 * 0.1 * (m_viewport.end - m_viewport.start);
        setRange(m_viewport.start + shift, m_viewport.end + shift);
    } else if (delta.y() != 0) {
        zoomAround(std::clamp(event->position().x() - area.left(), 0.0, double(area.width())), std::pow(0.8, delta.y() / 120.0));
    }
}

void LaneView::mousePressEvent(QMouseEvent* event)
{
    if (event->button() != Qt::LeftButton || !hasLanes()) return QWidget::mousePressEvent(event);
    m_pressPos = m_lastPos = event->position().toPoint();
    m_pressViewport = m_viewport;
    m_drag = (event->modifiers() & Qt::ShiftModifier) ? Drag::Band : Drag::Pending;
    event->accept();
}

void LaneView::mouseMoveEvent(QMouseEvent* event)
{
    const QPoint pos = event->position().toPoint();
    if (m_drag == Drag::None) {
        if (hasLanes()) hoverAt(pos);
        return QWidget::mouseMoveEvent(event);
    }
    if (m_drag == Drag::Pending && (pos - m_pressPos).manhattanLength() > 4) m_drag = Drag::Pan;
    if (m_drag == Drag::Pan) {
        const double dt = -(pos.x() - m_pressPos.x()) * m_pressViewport.secondsPerPixel();
        setRange(m_pressViewport.start + dt, m_pressViewport.end + dt);
        setScroll(m_scrollY - (pos.y() - m_lastPos.y()));
    }
    m_lastPos = pos;
    if (m_drag == Drag::Band) update();
}

void LaneView::mouseReleaseEvent(QMouseEvent* event)
{
    if (m_drag == Drag::None || event->button() != Qt::LeftButton) return QWidget::mouseReleaseEvent(event);
    const Drag drag = m_drag;
    m_drag = Drag::None;
    const QRect area = timeArea();
    const QPoint pos = event->position().toPoint();
    if (drag == Drag::Band) {
        const double x0 = std::min(pos.x(), m_pressPos.x()) - area.left();
        const double x1 = std::max(pos.x(), m_pressPos.x()) - area.left();
        if (x1 - x0 >= 3) setRange(m_viewport.toTime(x0), m_viewport.toTime(x1));
        update();
    } else if (drag == Drag::Pending && area.contains(pos)) {
        clickAt(pos);
    }
    event->accept();
}

void LaneView::mouseDoubleClickEvent(QMouseEvent* event)
{
    if (event->button() == Qt::LeftButton) zoomToFit();
    event->accept();
}

void LaneView::keyPressEvent(QKeyEvent* event)
{
    const double width = m_viewport.end - m_viewport.start;
    switch (event->key()) {
    case Qt::Key_F: zoomToFit(); break;
    case Qt::Key_Escape: m_state->clearSelection(); break;
    case Qt::Key_Plus:
    case Qt::Key_Equal: zoomAround(m_viewport.widthPx / 2.0, 0.8); break;
    case Qt::Key_Minus: zoomAround(m_viewport.widthPx / 2.0, 1.25); break;
    case Qt::Key_Left: setRange(m_viewport.start - width / 10, m_viewport.end - width / 10); break;
    case Qt::Key_Right: setRange(m_viewport.start + width / 10, m_viewport.end + width / 10); break;
    case Qt::Key_Space: m_state->setPlaying(!m_state->isPlaying()); break;
    default: return QWidget::keyPressEvent(event);
    }
    event->accept();
}

} // namespace planscope
