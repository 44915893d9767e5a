// Draws ring all-reduce on n GPUs (CommRingAllReduce): GPUs on a circle, each buffer as n chunks whose
// shade says how many GPUs' inputs the copy sums (full colour = fully reduced), the chunks in flight moving
// along the ring to the next GPU. Play animates step by step; the caption lives in CommView.
#pragma once

#include "charts/CommRingAllReduce.h"

#include <QTimer>
#include <QWidget>

namespace planscope {

class CommRingWidget : public QWidget {
    Q_OBJECT
public:
    // Above this many GPUs the chunks are not drawn one by one (the steps still run).
    static constexpr int kMaxDrawnChunks = 16;

    explicit CommRingWidget(QWidget* parent = nullptr);

    void setGpus(int n);
    int gpus() const { return m_ring.gpus(); }
    const CommRingAllReduce& ring() const { return m_ring; }
    int step() const { return m_step; }
    int stepCount() const { return m_ring.stepCount(); }
    // Completes the step in flight, or moves to the next one; false at the end.
    bool stepForward();
    void reset();
    void setPlaying(bool playing);
    bool isPlaying() const { return m_timer.isActive(); }

    QSize sizeHint() const override { return { 460, 420 }; }

Q_SIGNALS:
    void stepChanged(int step);
    void playingChanged(bool playing);

protected:
    void paintEvent(QPaintEvent* event) override;

private:
    void advance();

    CommRingAllReduce m_ring;
    int m_step = 0;
    double m_phase = 1.0; // progress of the step in flight: < 1 while the chunks move
    QTimer m_timer;
};

} // namespace planscope
