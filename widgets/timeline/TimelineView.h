// The predicted timeline of one step: one lane per pipeline rank with sub-lanes per stream, spans coloured by
// kind (TimelinePalette), idle time hatched with each rank's idle share at the right, microbatch labels where
// they fit, the time axis, and the playhead. A LaneView (its viewport, axis, gestures and keys, and the shared
// ViewState); what is its own: a click selects the microbatch under the pointer (every lane then shows that
// microbatch, the rest dimmed). Spans that end after the playhead are drawn pending (a pale neutral fill
// outlined in their kind's colour), so playing shows the step being done.
// Layout is TimelineLayout's pure layoutTimeline() (the one timeline engine, LaneEngine.h), redone when the
// range, size, scroll or selection changes; a playhead move only repaints.
#pragma once

#include "document/AnalysisFeed.h"
#include "timeline/LaneView.h"
#include "timeline/TimelineLayout.h"

#include <QStringList>
#include <QVector>
#include <array>
#include <memory>

namespace planscope {

class PlanDocument;

class TimelineView : public LaneView {
    Q_OBJECT
public:
    explicit TimelineView(QWidget* parent = nullptr);
    ~TimelineView() override;

    // Draws the analysis's simulated step (its timeline and the indexes built with it, so nothing O(n log n) runs
    // here), each rank's layers written from its plan, and sets the ViewState's duration to the step. Null: nothing.
    void setAnalysis(std::shared_ptr<const Analysis> analysis);
    std::shared_ptr<const Analysis> analysis() const { return m_analysis; }
    // Follows the document: each analysis it publishes is drawn (setAnalysis(); document/AnalysisFeed.h).
    void setDocument(PlanDocument* document);
    // What the view says instead of a timeline (empty when it draws one), from the analysis: no plan yet, the reasons
    // the plan cannot run, or why the schedule was not simulated (analysis->timelineErrors).
    QString emptyText() const override;
    // Shows a timeline that comes from no analysis (tests, benchmarks, the compare page); `index` is built here when
    // not given (O(n log n)). The analysis, if any, stays the one emptyText() speaks of.
    void setTimeline(std::shared_ptr<const Timeline> timeline, std::shared_ptr<const TimelineIndex> index = nullptr);
    std::shared_ptr<const Timeline> timeline() const { return m_timeline; }
    // The indexes of timeline() (never null; empty without a timeline).
    std::shared_ptr<const TimelineIndex> timelineIndex() const { return m_index; }
    // What each pipeline rank holds, one entry per rank in the notation of rankSplitTexts() (core/spec/SplitText.h,
    // "E1|2|2"): written under the rank's name as "layers E1|2|2"; `indices` (rankLayerRanges(), "0-7") go in the
    // name's tool tip. The analysis's plan sets them; empty: not written.
    void setRankLayers(const QStringList& perRank, const QStringList& indices = {});
    // The line written under rank r's name ("layers E8"), empty where there is none.
    QString rankLayersLabel(int rank) const;

    // The layout's flags carry no DrawPending: playback repaints without a new layout, and paintFlags() adds
    // DrawPending to an item ending after the playhead (not before playing or scrubbing) as it is painted.
    std::uint8_t paintFlags(std::uint8_t flags, double end) const;
    // Where a span is in widget coordinates.
    QRectF spanRect(std::size_t span) const;
    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;

protected:
    bool hasLanes() const override { return m_timeline != nullptr; }
    Range fitRange() const override;
    Range timeLimits() const override { return fitRange(); }
    double arrangeLanes(double available, bool squeeze) override;
    DrawList layoutLanes(const TimeViewport& viewport, double scrollY, double viewHeight) const override;
    void paintLanes(QPainter& p, const QRect& area) override;
    void paintHeaders(QPainter& p, const QRect& area) override;
    QString toolTipAt(const QPoint& pos) const override;
    void clickAt(const QPoint& pos) override;
    void selectionChanged() override;
    void themeChanged() override;
    void stateAttached() override;
    QColor background() const override;

private:
    // The geometry the layout and hit tests use now (the lane heights and the view's scroll and height).
    LaneGeometry geometryNow() const;
    double pendingFrom() const; // items ending after this are pending; +inf before playing or scrubbing
    void updateMetrics();
    void prepareBrushes();
    QString headerText(int rank) const;
    QString headerToolTip(double y) const;
    // Where a rank's layers line goes: under its name on its first stream lane, or after its name when that lane
    // is too low for text (or absent).
    bool layersOnOwnLine(std::size_t laneIndex) const;

    AnalysisFeed m_feed;
    std::shared_ptr<const Analysis> m_analysis;
    std::shared_ptr<const Timeline> m_timeline;
    std::shared_ptr<const TimelineIndex> m_index = std::make_shared<const TimelineIndex>();
    QStringList m_rankLayers;
    QStringList m_rankLayerIndices;

    LaneGeometry m_geometry; // lane heights for the room there is (its scroll fields are the layout's)

    // Metrics from the font, set on font changes.
    QFont m_labelFont;
    QFont m_headerFont;
    QFont m_smallFont;
    int m_idleWidth = 70;

    // Brushes per kind: normal, pending (after the playhead), dimmed (not the selected microbatch).
    std::array<QBrush, 30> m_brushes;
    std::array<QColor, 30> m_textColors;
    // Per-frame scratch, kept to avoid allocating in paintEvent.
    std::array<QVector<QRectF>, 30> m_buckets;
    QVector<QRectF> m_scratch;
};

} // namespace planscope
