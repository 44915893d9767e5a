// Play, pause and scrub the step: the playhead of the shared ViewState, moved by a ~30 fps timer while
// playing at a speed relative to "the whole step in 10 s", stepped to the previous or next span boundary on
// any lane, or dragged with the slider. Every view that follows the ViewState moves with it.
#pragma once

#include "document/AnalysisFeed.h"

#include <QElapsedTimer>
#include <QPointer>
#include <QTimer>
#include <QWidget>
#include <memory>
#include <vector>

class QComboBox;
class QLabel;
class QSlider;
class QToolButton;

namespace planscope {

struct Timeline;

class PlanDocument;
class ViewState;

class PlaybackBar : public QWidget {
    Q_OBJECT
public:
    explicit PlaybackBar(QWidget* parent = nullptr);
    ~PlaybackBar() override;

    void setViewState(ViewState* state);
    // The analysis's timeline gives the span boundaries that the step buttons go to (null: none).
    void setAnalysis(std::shared_ptr<const Analysis> analysis);
    // Another plan takes the place of the one shown (PlanDocument::planReplaced: a file loaded, not an edit): when
    // the next analysis with a timeline arrives, playback stops and the playhead goes to the end of its step, so the
    // new plan opens whole, not faded from where the last one was left.
    void replacePlan();
    // Follows the document: its analyses (setAnalysis()) and its plan replacements (replacePlan()).
    void setDocument(PlanDocument* document);

    // Speed factors offered, 1 = the whole step in 10 s of wall time.
    static const std::vector<double>& speedFactors();
    double speedFactor() const;
    void setSpeedFactor(double factor);

    // The playhead moves to the next (direction > 0) or previous span start or end on any lane.
    void stepToBoundary(int direction);

    QToolButton* playButton() const { return m_play; }
    QSlider* slider() const { return m_slider; }
    QLabel* timeLabel() const { return m_time; }
    QComboBox* speedCombo() const { return m_speed; }

protected:
    void changeEvent(QEvent* event) override;

private:
    void tick();
    void syncFromState();
    void applySpeed();
    void retranslate();

    QPointer<ViewState> m_state;
    AnalysisFeed m_feed;
    QMetaObject::Connection m_replaced; // the followed document's planReplaced
    std::shared_ptr<const Timeline> m_timeline;
    std::vector<double> m_boundaries;
    std::weak_ptr<const Timeline> m_boundariesOf; // the timeline m_boundaries were taken from
    bool m_planLoaded = false; // another plan was loaded whose timeline has not arrived yet
    QToolButton* m_play = nullptr;
    QToolButton* m_back = nullptr;
    QToolButton* m_forward = nullptr;
    QToolButton* m_start = nullptr;
    QComboBox* m_speed = nullptr;
    QLabel* m_speedLabel = nullptr;
    QSlider* m_slider = nullptr;
    QLabel* m_time = nullptr;
    QTimer m_timer;
    QElapsedTimer m_clock;
};

} // namespace planscope
