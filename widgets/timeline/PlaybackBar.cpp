#include "timeline/PlaybackBar.h"

#include "document/PlanDocument.h"
#include "timeline/TimelineLayout.h"
#include "document/ViewState.h"

#include <QComboBox>
#include <QEvent>
#include <QHBoxLayout>
#include <QLabel>
#include <QSlider>
#include <QStyle>
#include <QToolButton>
#include <algorithm>
#include <cmath>

namespace planscope {

namespace {
constexpr int kSliderSteps = 10000;
constexpr double kWallSecondsPerStep = 10.0; // speed 1x: the whole step in 10 s

QString formatMs(double seconds)
{
    return QString::number(seconds * 1e3, 'f', seconds < 0.1 ? 3 : 1);
}

// Playhead and step in one unit, the step's: milliseconds up to 10 s, then seconds, then hours (a step of a
// hundred thousand microbatches runs for hours, not for "20986110.6 ms").
QString playheadText(double playhead, double duration)
{
    if (duration < 10)
        return PlaybackBar::tr("%1 / %2 ms").arg(formatMs(playhead), formatMs(duration));
    if (duration < 36000)
        return PlaybackBar::tr("%1 / %2 s").arg(playhead, 0, 'f', 1).arg(duration, 0, 'f', 1);
    return PlaybackBar::tr("%1 / %2 h").arg(playhead / 3600, 0, 'f', 2).arg(duration / 3600, 0, 'f', 2);
}
} // namespace

const std::vector<double>& PlaybackBar::speedFactors()
{
    static const std::vector<double> factors { 0.25, 0.5, 1, 2, 4, 8 };
    return factors;
}

PlaybackBar::PlaybackBar(QWidget* parent)
    : QWidget(parent)
    , m_play(new QToolButton(this))
    , m_back(new QToolButton(this))
    , m_forward(new QToolButton(this))
    , m_start(new QToolButton(this))
    , m_speed(new QComboBox(this))
    , m_speedLabel(new QLabel(this))
    , m_slider(new QSlider(Qt::Horizontal, this))
    , m_time(new QLabel(this))
{
    auto* layout = new QHBoxLayout(this);
    layout->setContentsMargins(4, 2, 4, 2);
    layout->addWidget(m_start);
    layout->addWidget(m_back);
    layout->addWidget(m_play);
    layout->addWidget(m_forward);
    layout->addWidget(m_slider, 1);
    layout->addWidget(m_time);
    layout->addSpacing(8);
    layout->addWidget(m_speedLabel);
    layout->addWidget(m_speed);

    m_start->setIcon(style()->standardIcon(QStyle::SP_MediaSkipBackward));
    m_back->setIcon(style()->standardIcon(QStyle::SP_MediaSeekBackward));
    m_forward->setIcon(style()->standardIcon(QStyle::SP_MediaSeekForward));
    m_play->setIcon(style()->standardIcon(QStyle::SP_MediaPlay));
    m_play->setCheckable(true);
    m_slider->setRange(0, kSliderSteps);
    m_time->setMinimumWidth(
        m_time->fontMetrics().horizontalAdvance(QStringLiteral("000.000 / 000.000 ms")) + 8);
    m_time->setAlignment(Qt::AlignRight | Qt::AlignVCenter);
    for (double f : speedFactors())
        m_speed->addItem(QString(), f);
    m_speed->setCurrentIndex(2);
    m_timer.setInterval(33);
    m_timer.setTimerType(Qt::PreciseTimer);
    retranslate();

    connect(m_play, &QToolButton::toggled, this, [this](bool on) {
        if (!m_state) return;
        if (on && m_state->playhead() >= m_state->duration())
            m_state->setPlayhead(0); // play again from the start
        m_state->setPlaying(on);
    });
    connect(m_start, &QToolButton::clicked, this, [this] {
        if (m_state) m_state->setPlayhead(0);
    });
    connect(m_back, &QToolButton::clicked, this, [this] { stepToBoundary(-1); });
    connect(m_forward, &QToolButton::clicked, this, [this] { stepToBoundary(+1); });
    connect(m_speed, &QComboBox::currentIndexChanged, this, [this] { applySpeed(); });
    connect(m_slider, &QSlider::valueChanged, this, [this](int value) {
        if (!m_state) return; // programmatic moves are made with the signals blocked
        m_state->setPlayhead(m_state->duration() * value / kSliderSteps);
    });
    connect(&m_timer, &QTimer::timeout, this, &PlaybackBar::tick);
    setViewState(nullptr);
}

PlaybackBar::~PlaybackBar() = default;

void PlaybackBar::retranslate()
{
    m_start->setToolTip(tr("Back to the start of the step"));
    m_back->setToolTip(tr("Previous event (the start or end of an op on any lane)"));
    m_forward->setToolTip(tr("Next event (the start or end of an op on any lane)"));
    m_play->setToolTip(tr("Play or pause the step"));
    m_slider->setToolTip(tr("Drag to move the playhead through the step"));
    m_speedLabel->setText(tr("Speed"));
    m_speed->setToolTip(tr("1x plays the whole step in 10 s"));
    for (int i = 0; i < m_speed->count(); ++i)
        m_speed->setItemText(i, tr("%1x").arg(m_speed->itemData(i).toDouble()));
    syncFromState();
}

void PlaybackBar::changeEvent(QEvent* event)
{
    if (event->type() == QEvent::LanguageChange) retranslate();
    QWidget::changeEvent(event);
}

void PlaybackBar::setViewState(ViewState* state)
{
    if (m_state) disconnect(m_state, nullptr, this, nullptr);
    m_state = state;
    const bool enabled = state != nullptr;
    for (QWidget* w :
        std::initializer_list<QWidget*> { m_play, m_back, m_forward, m_start, m_slider, m_speed })
        w->setEnabled(enabled);
    if (!state) {
        m_timer.stop();
        return;
    }
    connect(state, &ViewState::playheadChanged, this, &PlaybackBar::syncFromState);
    connect(state, &ViewState::durationChanged, this, [this] {
        applySpeed();
        syncFromState();
    });
    connect(state, &ViewState::playingChanged, this, &PlaybackBar::syncFromState);
    connect(state, &ViewState::speedChanged, this, &PlaybackBar::syncFromState);
    // The speed combo adopts the state's speed (another bar may have set it); it sets it only when changed.
    syncFromState();
}

void PlaybackBar::setDocument(PlanDocument* document)
{
    disconnect(m_replaced);
    // Another plan: its timeline starts at its beginning; an edit keeps the playhead where it is.
    if (document) m_replaced = connect(document, &PlanDocument::planReplaced, this, &PlaybackBar::replacePlan);
    m_feed.follow(document, this, [this](std::shared_ptr<const Analysis> analysis) { setAnalysis(std::move(analysis)); });
}

void PlaybackBar::replacePlan()
{
    m_planLoaded = true;
}

void PlaybackBar::setAnalysis(std::shared_ptr<const Analysis> analysis)
{
    // Built when first stepped through (sorting every span's ends is O(n log n); most edits never step).
    m_boundaries.clear();
    m_boundariesOf.reset();
    m_timeline = analysis ? analysis->timeline : nullptr;
    if (m_planLoaded && m_timeline && m_state) {
        m_planLoaded = false;
        m_state->setPlaying(false);
        m_state->setDuration(m_timeline->stepSeconds);
        m_state->setPlayhead(m_timeline->stepSeconds);
    }
}

double PlaybackBar::speedFactor() const
{
    return m_speed->currentData().toDouble();
}

void PlaybackBar::setSpeedFactor(double factor)
{
    const auto& f = speedFactors();
    const auto nearest = std::min_element(f.begin(), f.end(), [factor](double a, double b) {
        return std::abs(std::log(a / factor)) < std::abs(std::log(b / factor));
    });
    m_speed->setCurrentIndex(int(nearest - f.begin()));
}

void PlaybackBar::applySpeed()
{
    if (!m_state || m_state->duration() <= 0) return;
    m_state->setSpeed(speedFactor() * m_state->duration() / kWallSecondsPerStep);
}

void PlaybackBar::stepToBoundary(int direction)
{
    if (!m_state) return;
    m_state->setPlaying(false);
    if (m_timeline != m_boundariesOf.lock()) {
        m_boundaries = m_timeline ? spanBoundaries(*m_timeline) : std::vector<double>();
        m_boundariesOf = m_timeline;
    }
    m_state->setPlayhead(stepBoundary(m_boundaries, m_state->playhead(), direction));
}

void PlaybackBar::tick()
{
    if (!m_state || !m_state->isPlaying()) return m_timer.stop();
    const double wall = m_clock.restart() / 1000.0;
    const double next = m_state->playhead() + m_state->speed() * wall;
    if (next >= m_state->duration()) {
        m_state->setPlayhead(m_state->duration());
        m_state->setPlaying(false); // stops at the end
        return;
    }
    m_state->setPlayhead(next);
}

void PlaybackBar::syncFromState()
{
    if (!m_state) {
        m_time->setText(QString());
        return;
    }
    const bool playing = m_state->isPlaying();
    if (playing && !m_timer.isActive()) {
        m_clock.start();
        m_timer.start();
    } else if (!playing) {
        m_timer.stop();
    }
    {
        const QSignalBlocker block(m_play);
        m_play->setChecked(playing);
        m_play->setIcon(style()->standardIcon(playing ? QStyle::SP_MediaPause : QStyle::SP_MediaPlay));
    }
    const double duration = m_state->duration();
    if (!m_slider->isSliderDown()) {
        const QSignalBlocker block(m_slider);
        m_slider->setValue(
            duration > 0 ? int(std::lround(m_state->playhead() / duration * kSliderSteps)) : 0);
    }
    m_time->setText(playheadText(m_state->playhead(), duration));
    // The combo follows a speed set elsewhere.
    if (duration > 0) {
        const QSignalBlocker block(m_speed);
        setSpeedFactor(m_state->speed() * kWallSecondsPerStep / duration);
    }
}

} // namespace planscope
