// The one state every view follows (docs/ARCHITECTURE.md section 2, hotspot's FilterAndZoomStack): the playhead time,
// the visible time range, and the selection. Views set it and react to its signals; none calls another.
#pragma once

#include <QObject>

namespace planscope {

class ViewState : public QObject {
    Q_OBJECT
public:
    explicit ViewState(QObject* parent = nullptr);

    // Seconds from the start of the step; clamped to [0, duration()].
    double playhead() const { return m_playhead; }
    void setPlayhead(double seconds);
    // Length of the current step (the timeline's end); set when a new timeline is published.
    double duration() const { return m_duration; }
    void setDuration(double seconds);

    // Visible time range of the timeline views, in seconds of the step (the measured run's may start before 0,
    // where its CPU work does; each view keeps the range inside its own limits).
    double viewStart() const { return m_viewStart; }
    double viewEnd() const { return m_viewEnd; }
    void setViewRange(double start, double end);
    void zoomToFit() { setViewRange(0.0, m_duration); }

    // Selection: -1 = none.
    int selectedRank() const { return m_rank; }
    int selectedMicrobatch() const { return m_microbatch; }
    int selectedStage() const { return m_stage; }
    void select(int rank, int stage, int microbatch);
    void clearSelection() { select(-1, -1, -1); }
    // A GPU hovered or chosen in the grid (global rank), -1 = none.
    int highlightedGpu() const { return m_gpu; }
    void setHighlightedGpu(int gpu);

    // Playback: the playhead advances by speed x wall time while playing.
    bool isPlaying() const { return m_playing; }
    void setPlaying(bool playing);
    // Step seconds per wall second.
    double speed() const { return m_speed; }
    void setSpeed(double speed);

Q_SIGNALS:
    void playheadChanged(double seconds);
    void durationChanged(double seconds);
    void viewRangeChanged(double start, double end);
    void selectionChanged();
    void highlightedGpuChanged(int gpu);
    void playingChanged(bool playing);
    void speedChanged(double speed);

private:
    double m_playhead = 0;
    double m_duration = 0;
    double m_viewStart = 0;
    double m_viewEnd = 0;
    int m_rank = -1, m_stage = -1, m_microbatch = -1;
    int m_gpu = -1;
    bool m_playing = false;
    double m_speed = 1.0;
};

} // namespace planscope
