#include "PresentationMode.h"

#include "document/PlanDocument.h"
#include "document/ViewState.h"
#include "sim/Timeline.h"

#include <QApplication>
#include <QCursor>
#include <QDockWidget>
#include <QMenuBar>
#include <QStatusBar>
#include <QKeyEvent>
#include <QLabel>
#include <QMainWindow>
#include <QPainter>
#include <QRadialGradient>
#include <QTabBar>
#include <QTabWidget>
#include <QTimer>
#include <algorithm>
#include <cmath>

namespace planscope {

namespace {
constexpr int kTrailLength = 10;   // points of the laser's trail (one per poll, 60 a second: a sixth of a second)
constexpr int kDotRadius = 9;      // pixels
constexpr int kCaptionMs = 2500;   // how long "3 / 9 · Memory" stays up after a change of view
} // namespace

// ---- the laser pointer ----------------------------------------------------------------------------------------

LaserPointer::LaserPointer(QWidget* parent)
    : QWidget(parent)
    , m_timer(new QTimer(this))
{
    setAttribute(Qt::WA_TransparentForMouseEvents);
    setAttribute(Qt::WA_NoSystemBackground);
    setObjectName(QStringLiteral("laserPointer"));
    m_timer->setInterval(16);
    connect(m_timer, &QTimer::timeout, this, &LaserPointer::poll);
    hide();
}

void LaserPointer::setActive(bool active)
{
    m_active = active;
    m_trail.clear();
    if (active) {
        raise();
        show();
        m_timer->start();
        poll();
    } else {
        m_timer->stop();
        hide();
    }
}

void LaserPointer::poll()
{
    // Polled rather than tracked: the pages under the dot keep their own mouse handling, and a mouse resting
    // over a widget without tracking still moves the dot.
    moveTo(mapFromGlobal(QCursor::pos()));
}

void LaserPointer::moveTo(QPoint position)
{
    if (!m_trail.empty() && m_trail.back() == position && int(m_trail.size()) >= kTrailLength) return;
    m_trail.push_back(position);
    if (int(m_trail.size()) > kTrailLength) m_trail.erase(m_trail.begin());
    update();
}

void LaserPointer::paintEvent(QPaintEvent*)
{
    if (m_trail.empty()) return;
    QPainter painter(this);
    painter.setRenderHint(QPainter::Antialiasing);
    painter.setPen(Qt::NoPen);
    // The trail fades from the oldest point; the dot has a soft glow so it reads on light and dark pages alike.
    for (std::size_t i = 0; i + 1 < m_trail.size(); ++i) {
        const double age = double(i + 1) / double(m_trail.size());
        painter.setBrush(QColor(230, 20, 20, int(90 * age)));
        const double r = kDotRadius * (0.4 + 0.5 * age);
        painter.drawEllipse(QPointF(m_trail[i]), r, r);
    }
    const QPointF dot(m_trail.back());
    QRadialGradient glow(dot, kDotRadius * 2.2);
    glow.setColorAt(0, QColor(255, 40, 40, 200));
    glow.setColorAt(0.45, QColor(255, 40, 40, 110));
    glow.setColorAt(1, QColor(255, 40, 40, 0));
    painter.setBrush(glow);
    painter.drawEllipse(dot, kDotRadius * 2.2, kDotRadius * 2.2);
    painter.setBrush(QColor(255, 30, 30));
    painter.setPen(QPen(QColor(255, 255, 255, 220), 1.5));
    painter.drawEllipse(dot, kDotRadius * 0.55, kDotRadius * 0.55);
}

// ---- presenting -----------------------------------------------------------------------------------------------

PresentationMode::PresentationMode(QMainWindow* window, QTabWidget* tabs, ViewState* state, PlanDocument* document)
    : QObject(window)
    , m_window(window)
    , m_tabs(tabs)
    , m_state(state)
    , m_document(document)
    , m_laser(new LaserPointer(window))
    , m_caption(new QLabel(window))
    , m_captionTimer(new QTimer(this))
{
    m_caption->setObjectName(QStringLiteral("presentationCaption"));
    m_caption->setAttribute(Qt::WA_TransparentForMouseEvents);
    m_caption->setAlignment(Qt::AlignCenter);
    m_caption->setStyleSheet(QStringLiteral(
        "QLabel { background: rgba(20, 20, 20, 190); color: white; border-radius: 6px; padding: 6px 14px; }"));
    m_caption->hide();
    m_captionTimer->setSingleShot(true);
    m_captionTimer->setInterval(kCaptionMs);
    connect(m_captionTimer, &QTimer::timeout, m_caption, &QWidget::hide);
    connect(m_tabs, &QTabWidget::currentChanged, this, [this] {
        if (m_active) showCaption();
    });
}

PresentationMode::~PresentationMode()
{
    if (qApp) qApp->removeEventFilter(this);
}

void PresentationMode::setActive(bool active)
{
    if (active == m_active) return;
    m_active = active;
    if (active) {
        QList<QWidget*> chrome { m_window->menuBar(), m_window->statusBar() };
        for (QDockWidget* dock : m_window->findChildren<QDockWidget*>(QString(), Qt::FindDirectChildrenOnly))
            chrome << dock;
        m_hidden.clear();
        for (QWidget* w : chrome)
            if (w->isVisible()) {
                m_hidden << w;
                w->hide();
            }
        m_tabBarVisible = m_tabs->tabBar()->isVisible();
        m_tabs->tabBar()->hide();
        m_font = m_tabs->font();
        QFont large = m_font;
        large.setPointSizeF(m_font.pointSizeF() * kFontScale);
        m_tabs->setFont(large);
        m_windowState = m_window->windowState();
        m_window->setWindowState(m_windowState | Qt::WindowFullScreen);
        qApp->installEventFilter(this);
        placeOverlays();
        showCaption();
    } else {
        qApp->removeEventFilter(this);
        m_laser->setActive(false);
        m_caption->hide();
        m_tabs->setFont(m_font);
        m_tabs->tabBar()->setVisible(m_tabBarVisible);
        for (QWidget* w : std::as_const(m_hidden)) w->show();
        m_hidden.clear();
        m_window->setWindowState(m_windowState);
    }
    Q_EMIT activeChanged(active);
}

void PresentationMode::placeOverlays()
{
    m_laser->setGeometry(m_window->rect());
    m_laser->raise();
    m_caption->adjustSize();
    m_caption->move((m_window->width() - m_caption->width()) / 2, m_window->height() - m_caption->height() - 24);
    m_caption->raise();
}

void PresentationMode::showCaption()
{
    const int i = m_tabs->currentIndex();
    m_caption->setText(tr("%1 / %2 · %3   (← → views, ↑ ↓ playhead, Space play, L laser, Esc leave)")
                           .arg(i + 1)
                           .arg(m_tabs->count())
                           .arg(m_tabs->tabText(i).remove(QLatin1Char('&'))));
    QFont font = m_caption->font();
    font.setPointSizeF(m_font.pointSizeF() * 1.1);
    m_caption->setFont(font);
    placeOverlays();
    m_caption->show();
    m_captionTimer->start();
}

void PresentationMode::nextView(int direction)
{
    const int n = m_tabs->count();
    if (n == 0) return;
    m_tabs->setCurrentIndex(std::clamp(m_tabs->currentIndex() + direction, 0, n - 1));
}

const std::vector<double>& PresentationMode::playheadStops() const
{
    const auto timeline = m_document ? m_document->timeline() : nullptr;
    if (timeline && timeline == m_stopsTimeline.lock()) return m_stops;
    m_stopsTimeline = timeline;
    std::vector<double>& stops = m_stops;
    stops.clear();
    if (!timeline) return stops;
    stops.push_back(0);
    for (const Span& s : timeline->spans)
        if (s.stream == Stream::Compute) stops.push_back(s.start);
    stops.push_back(timeline->stepSeconds);
    std::sort(stops.begin(), stops.end());
    // Starts closer than a nanosecond are one moment (equal stages start their ops together).
    stops.erase(std::unique(stops.begin(), stops.end(), [](double a, double b) { return b - a < 1e-9; }), stops.end());
    return stops;
}

void PresentationMode::stepPlayhead(int direction)
{
    const std::vector<double>& stops = playheadStops();
    if (stops.empty()) return;
    m_state->setPlaying(false);
    const double now = m_state->playhead();
    if (direction > 0) {
        // From the step's end (where a finished step leaves the playhead) the walk starts over at 0.
        if (now >= stops.back() - 1e-9) {
            m_state->setPlayhead(stops.front());
            return;
        }
        const auto next = std::upper_bound(stops.begin(), stops.end(), now + 1e-9);
        m_state->setPlayhead(next == stops.end() ? stops.back() : *next);
    } else {
        const auto previous = std::lower_bound(stops.begin(), stops.end(), now - 1e-9);
        m_state->setPlayhead(previous == stops.begin() ? stops.front() : *std::prev(previous));
    }
}

bool PresentationMode::eventFilter(QObject* watched, QEvent* event)
{
    if (event->type() == QEvent::Resize && watched == m_window) placeOverlays();
    if (event->type() != QEvent::KeyPress && event->type() != QEvent::ShortcutOverride)
        return QObject::eventFilter(watched, event);
    auto* widget = qobject_cast<QWidget*>(watched);
    if (!widget || widget->window() != m_window) return QObject::eventFilter(watched, event);
    auto* key = static_cast<QKeyEvent*>(event);
    if (key->modifiers() & (Qt::ControlModifier | Qt::AltModifier | Qt::MetaModifier)) return false;
    const bool press = event->type() == QEvent::KeyPress;
    // Shortcut overrides are claimed so that no menu shortcut or focused widget (a table's arrow keys) takes the key.
    auto handle = [&](auto action) {
        if (press) action();
        else event->accept();
        return true;
    };
    switch (key->key()) {
    case Qt::Key_Right:
    case Qt::Key_PageDown: return handle([this] { nextView(+1); });
    case Qt::Key_Left:
    case Qt::Key_PageUp: return handle([this] { nextView(-1); });
    case Qt::Key_Down: return handle([this] { stepPlayhead(+1); });
    case Qt::Key_Up: return handle([this] { stepPlayhead(-1); });
    case Qt::Key_Space: return handle([this] { m_state->setPlaying(!m_state->isPlaying()); });
    case Qt::Key_L: return handle([this] { m_laser->setActive(!m_laser->isActive()); });
    case Qt::Key_Escape:
    case Qt::Key_F5: return handle([this] { setActive(false); });
    default: return false;
    }
}

} // namespace planscope
