#include "document/ViewState.h"

#include <algorithm>

namespace planscope {

ViewState::ViewState(QObject* parent)
    : QObject(parent)
{
}

void ViewState::setPlayhead(double seconds)
{
    seconds = std::clamp(seconds, 0.0, std::max(0.0, m_duration));
    if (seconds == m_playhead) return;
    m_playhead = seconds;
    Q_EMIT playheadChanged(m_playhead);
}

void ViewState::setDuration(double seconds)
{
    seconds = std::max(0.0, seconds);
    if (seconds == m_duration) return;
    const bool wasFitted = m_viewStart == 0.0 && (m_viewEnd == m_duration || m_viewEnd == 0.0);
    // A playhead at the end (the whole step shown) stays at the end of the new step: an edit or another plan
    // must not open with most of the step faded as "not yet played".
    const bool atEnd = m_duration <= 0.0 || m_playhead >= m_duration * (1 - 1e-12);
    m_duration = seconds;
    Q_EMIT durationChanged(m_duration);
    if (wasFitted || m_viewEnd > m_duration) zoomToFit();
    if (atEnd || m_playhead > m_duration) setPlayhead(m_duration);
}

void ViewState::setViewRange(double start, double end)
{
    if (end < start) std::swap(start, end);
    if (end <= start) end = start + 1e-9;
    if (start == m_viewStart && end == m_viewEnd) return;
    m_viewStart = start;
    m_viewEnd = end;
    Q_EMIT viewRangeChanged(m_viewStart, m_viewEnd);
}

void ViewState::select(int rank, int stage, int microbatch)
{
    if (rank == m_rank && stage == m_stage && microbatch == m_microbatch) return;
    m_rank = rank;
    m_stage = stage;
    m_microbatch = microbatch;
    Q_EMIT selectionChanged();
}

void ViewState::setHighlightedGpu(int gpu)
{
    if (gpu == m_gpu) return;
    m_gpu = gpu;
    Q_EMIT highlightedGpuChanged(m_gpu);
}

void ViewState::setPlaying(bool playing)
{
    if (playing == m_playing) return;
    m_playing = playing;
    Q_EMIT playingChanged(m_playing);
}

void ViewState::setSpeed(double speed)
{
    speed = std::max(1e-6, speed);
    if (speed == m_speed) return;
    m_speed = speed;
    Q_EMIT speedChanged(m_speed);
}

} // namespace planscope
