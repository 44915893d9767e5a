#include "charts/CommRingWidget.h"

#include "Palette.h"
#include "Theme.h"

#include <QPainter>
#include <QPainterPath>
#include <QtMath>
#include <algorithm>
#include <array>
#include <cmath>

namespace planscope {

namespace {

QColor chunkColour(int chunk, int n)
{
    static const std::array<QColor, 7> colours { palette::blue(), palette::orange(), palette::bluishGreen(),
        palette::reddishPurple(), palette::skyBlue(), palette::vermillion(), palette::yellow() };
    if (n <= int(colours.size())) return colours[std::size_t(chunk)];
    // More chunks than distinct colours: walk the hue circle at constant lightness.
    return QColor::fromHslF(float(std::fmod(0.58 + double(chunk) / n, 1.0)), 0.65f, 0.45f);
}

// Faded towards the paper: white in the light theme, the box's fill in the dark one.
QColor lighter(const QColor& c, double toWhite)
{
    return Theme::mix(c, Theme::pick(QColor(Qt::white), Theme::surface()), toWhite);
}

constexpr double kPhaseStep = 0.035; // ~0.9 s a step at 30 ms a frame
constexpr double kHold = 1.35; // the finished step stays on screen a little before the next one

} // namespace

CommRingWidget::CommRingWidget(QWidget* parent)
    : QWidget(parent)
    , m_ring(4)
{
    setMinimumSize(280, 260);
    m_timer.setInterval(30);
    connect(&m_timer, &QTimer::timeout, this, &CommRingWidget::advance);
    connect(Theme::instance(), &Theme::changed, this, qOverload<>(&QWidget::update));
}

void CommRingWidget::setGpus(int n)
{
    setPlaying(false);
    m_ring = CommRingAllReduce(n);
    m_step = 0;
    m_phase = 1.0;
    update();
    Q_EMIT stepChanged(m_step);
}

bool CommRingWidget::stepForward()
{
    if (m_phase < 1.0) {
        m_phase = 1.0;
    } else {
        if (m_step >= m_ring.stepCount()) return false;
        ++m_step;
        m_phase = 1.0;
        Q_EMIT stepChanged(m_step);
    }
    update();
    return true;
}

void CommRingWidget::reset()
{
    setPlaying(false);
    m_step = 0;
    m_phase = 1.0;
    update();
    Q_EMIT stepChanged(m_step);
}

void CommRingWidget::setPlaying(bool playing)
{
    if (playing == m_timer.isActive()) return;
    if (playing) {
        if (m_step >= m_ring.stepCount()) {
            m_step = 0;
            Q_EMIT stepChanged(m_step);
        }
        m_phase = kHold; // start with the next step
        m_timer.start();
    } else {
        m_timer.stop();
        m_phase = std::min(m_phase, 1.0);
        if (m_phase < 1.0) m_phase = 1.0;
        update();
    }
    Q_EMIT playingChanged(playing);
}

void CommRingWidget::advance()
{
    m_phase += kPhaseStep;
    if (m_phase >= kHold) {
        if (m_step >= m_ring.stepCount()) {
            setPlaying(false);
            return;
        }
        ++m_step;
        m_phase = 0.0;
        Q_EMIT stepChanged(m_step);
    }
    update();
}

void CommRingWidget::paintEvent(QPaintEvent*)
{
    QPainter p(this);
    p.fillRect(rect(), Theme::background());
    p.setRenderHint(QPainter::Antialiasing, true);
    const int n = m_ring.gpus();
    const QColor ink = Theme::pick(QColor(0x20, 0x20, 0x20), Theme::text());
    const QColor inkOnFill(0x20, 0x20, 0x20); // dark text on a light chunk, in both themes
    const QFontMetricsF fm(font());
    const QPointF centre(width() / 2.0, height() / 2.0);
    const double side = std::min(width(), height());
    const bool chunks = n <= kMaxDrawnChunks;

    // A GPU box: wide enough for its n chunks, small enough that neighbours do not touch.
    const double radiusGuess = side / 2.0 - 40;
    const double arc = 2 * M_PI * radiusGuess / n;
    const double boxW = chunks ? std::clamp(arc * 0.78, 36.0, std::min(190.0, side * 0.42))
                               : std::clamp(arc * 0.6, 5.0, 22.0);
    const double boxH
        = chunks ? std::clamp(boxW / n * 1.6, 14.0, 26.0) + fm.height() : std::max(6.0, boxW * 0.6);
    const double radius = std::max(20.0, side / 2.0 - std::max(boxW, boxH) / 2.0 - 8);

    auto gpuCentre = [&](int i) {
        const double a = -M_PI / 2 + 2 * M_PI * i / n;
        return QPointF(centre.x() + radius * std::cos(a), centre.y() + radius * std::sin(a));
    };
    // The ring itself.
    p.setPen(QPen(Theme::pick(QColor(0xC8, 0xC8, 0xC8), QColor(0x55, 0x55, 0x55)), 2));
    p.setBrush(Qt::NoBrush);
    p.drawEllipse(centre, radius, radius);

    const bool inFlight = m_phase < 1.0;
    const int shownState = inFlight ? m_step - 1 : m_step;
    const std::vector<CommRingAllReduce::Transfer> moving = m_ring.transfers(m_step);
    const double t = std::clamp(m_phase, 0.0, 1.0);

    if (!chunks) {
        // Too many GPUs to draw chunks: dots, and the share of the step done in the middle.
        for (int i = 0; i < n; ++i) {
            p.setPen(Qt::NoPen);
            p.setBrush(palette::blue());
            p.drawEllipse(gpuCentre(i), boxW / 2, boxW / 2);
        }
        p.setPen(ink);
        p.drawText(rect().adjusted(20, 0, -20, 0), Qt::AlignCenter | Qt::TextWordWrap,
            tr("%1 GPUs: too many to draw the chunks.\nStep %2 of %3")
                .arg(n)
                .arg(m_step)
                .arg(m_ring.stepCount()));
        return;
    }

    const CommRingAllReduce::State state = m_ring.stateAfter(std::max(0, shownState));
    const double chunkW = (boxW - 4) / n;
    const double chunkH = boxH - fm.height() - 4;
    auto chunkRect = [&](int gpu, int chunk) {
        const QPointF c = gpuCentre(gpu);
        const double left = c.x() - boxW / 2 + 2, top = c.y() - boxH / 2 + fm.height() + 2;
        return QRectF(left + chunk * chunkW, top, chunkW, chunkH);
    };

    // Arrows from each sender to its neighbour (the step in flight, or the one just done).
    if (m_step >= 1) {
        p.setPen(QPen(inFlight ? ink : Theme::pick(QColor(0x90, 0x90, 0x90), QColor(0x78, 0x78, 0x78)), 1.5));
        for (const auto& send : moving) {
            const double a0 = -M_PI / 2 + 2 * M_PI * send.from / n, a1 = a0 + 2 * M_PI / n;
            const double r = radius;
            QPainterPath path;
            const int segments = 16;
            for (int k = 0; k <= segments; ++k) {
                const double a = a0 + (a1 - a0) * (0.28 + 0.44 * k / segments);
                const QPointF q(centre.x() + r * std::cos(a), centre.y() + r * std::sin(a));
                if (k == 0)
                    path.moveTo(q);
                else
                    path.lineTo(q);
            }
            p.drawPath(path);
            // Arrow head at the end, pointing along the ring.
            const double ae = a0 + (a1 - a0) * 0.72;
            const QPointF tip(centre.x() + r * std::cos(ae), centre.y() + r * std::sin(ae));
            const QPointF dir(-std::sin(ae), std::cos(ae));
            const QPointF normal(std::cos(ae), std::sin(ae));
            QPolygonF head { tip, tip - dir * 8 + normal * 4, tip - dir * 8 - normal * 4 };
            p.setBrush(p.pen().color());
            p.drawPolygon(head);
            p.setBrush(Qt::NoBrush);
        }
    }

    // GPU boxes with their chunks.
    QFont small = font();
    small.setPointSizeF(std::max(6.0, small.pointSizeF() - 1.5));
    QFont smallBold = small;
    smallBold.setBold(true);
    const QFontMetricsF fmSmall(small);
    for (int i = 0; i < n; ++i) {
        const QPointF c = gpuCentre(i);
        const QRectF box(c.x() - boxW / 2, c.y() - boxH / 2, boxW, boxH);
        p.setPen(QPen(Theme::pick(QColor(0x70, 0x70, 0x70), QColor(0x80, 0x80, 0x80)), 1));
        p.setBrush(Theme::pick(QColor(0xF4, 0xF4, 0xF4), Theme::surface()));
        p.drawRoundedRect(box, 3, 3);
        p.setPen(ink);
        p.setFont(font());
        p.drawText(QRectF(box.left(), box.top() + 1, box.width(), fm.height()), Qt::AlignCenter,
            tr("GPU %1").arg(i));
        p.setFont(small);
        for (int k = 0; k < n; ++k) {
            const int count = state[std::size_t(i)][std::size_t(k)];
            const QColor base = chunkColour(k, n);
            const QColor fill = lighter(base, 0.8 * (1.0 - double(count - 1) / std::max(1, n - 1)));
            const QRectF r = chunkRect(i, k).adjusted(0.5, 0, -0.5, 0);
            p.setPen(Qt::NoPen);
            p.setBrush(fill);
            p.drawRect(r);
            const QString label = count == n ? QStringLiteral("Σ") : QString::number(count);
            if (fmSmall.horizontalAdvance(label) + 2 <= r.width() && fmSmall.height() <= r.height()) {
                const double lum = 0.299 * fill.redF() + 0.587 * fill.greenF() + 0.114 * fill.blueF();
                p.setPen(lum > 0.55 ? inkOnFill : QColor(Qt::white));
                p.setFont(count == n ? smallBold : small);
                p.drawText(r, Qt::AlignCenter, label);
            }
        }
    }
    // The chunks being sent: outlined in the sender, moving towards the receiver.
    for (const auto& send : moving) {
        const QRectF from = chunkRect(send.from, send.chunk), to = chunkRect(send.to, send.chunk);
        p.setPen(QPen(ink, 2));
        p.setBrush(Qt::NoBrush);
        p.drawRect(from.adjusted(-1, -1, 1, 1));
        if (!inFlight) {
            p.setPen(QPen(ink, 2, Qt::DotLine));
            p.drawRect(to.adjusted(-1, -1, 1, 1));
            continue;
        }
        const QPointF pos = from.center() + (to.center() - from.center()) * t;
        const QRectF flying(
            pos.x() - from.width() / 2, pos.y() - from.height() / 2, from.width(), from.height());
        p.setPen(QPen(ink, 1));
        p.setBrush(chunkColour(send.chunk, n));
        p.drawRect(flying);
    }

    // In the middle: which phase, and the legend of the shading.
    QFont bold = font();
    bold.setBold(true);
    p.setPen(ink);
    const QString phase = m_step == 0    ? tr("start")
        : m_ring.isReduceScatter(m_step) ? tr("reduce-scatter %1/%2").arg(m_ring.phaseStep(m_step)).arg(n - 1)
                                         : tr("all-gather %1/%2").arg(m_ring.phaseStep(m_step)).arg(n - 1);
    // Inside the ring, clear of the GPU boxes on its left and right (two GPUs sit at the top and the bottom only,
    // which leaves most of the diameter).
    const double half = n == 2 ? radius * 0.8 : std::max(40.0, radius - boxW / 2 - 10);
    const QRectF middle(centre.x() - half, centre.y() - radius * 0.55, 2 * half, radius * 1.1);
    p.setFont(bold);
    p.drawText(middle.adjusted(0, 0, 0, -middle.height() * 0.55), Qt::AlignHCenter | Qt::AlignBottom, phase);
    const QString legend = tr("A number is how many GPUs' inputs that copy of the chunk sums; Σ and full colour: fully reduced. "
                              "Solid frame: the chunk a GPU sends now; dotted: where it arrives.");
    if (toolTip() != legend) setToolTip(legend); // always there, whether or not the ring has room to write it
    // The legend shrinks until it fits the space under the phase, so it is never cut off.
    const QRectF below = middle.adjusted(0, middle.height() * 0.5, 0, 0);
    QFont legendFont = small;
    while (legendFont.pointSizeF() > 5.5
        && QFontMetricsF(legendFont).boundingRect(below, Qt::AlignHCenter | Qt::AlignTop | Qt::TextWordWrap, legend).height()
            > below.height())
        legendFont.setPointSizeF(legendFont.pointSizeF() - 0.5);
    p.setFont(legendFont);
    p.setPen(Theme::pick(QColor(0x40, 0x40, 0x40), Theme::mutedText()));
    const auto needed = [&](const QRectF& r) {
        return QFontMetricsF(legendFont).boundingRect(r, Qt::AlignHCenter | Qt::AlignTop | Qt::TextWordWrap, legend).height();
    };
    if (needed(below) <= below.height()) {
        p.drawText(below, Qt::AlignHCenter | Qt::AlignTop | Qt::TextWordWrap, legend);
        return;
    }
    // A ring too small for it (a narrow window): under the lowest GPU box, across the whole width, where it fits;
    // otherwise only in the tool tip, never cut.
    const QRectF under(rect().left() + 8, centre.y() + radius + boxH / 2 + 4, rect().width() - 16,
        rect().bottom() - (centre.y() + radius + boxH / 2 + 4));
    legendFont = small;
    if (under.height() > 0 && needed(under) > under.height()) legendFont.setPointSizeF(5.5);
    if (under.height() > 0 && needed(under) <= under.height()) {
        p.setFont(legendFont);
        p.drawText(under, Qt::AlignHCenter | Qt::AlignTop | Qt::TextWordWrap, legend);
    }
}

} // namespace planscope
