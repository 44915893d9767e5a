// Measured lanes against predicted ones on one time axis (issue 6): for every overlaid rank, the prediction of
// its pipeline rank as ghost bars, then its annotations, GPU streams and (optionally) CPU threads from the trace,
// all aligned at the chosen ProfilerStep (time 0 = the step's first GPU work on the earliest rank, the predicted
// step's 0). A LaneView: the viewport, axis, gestures and keys are the predicted timeline's, and in the window
// both follow one ViewState, so the measured run shows the seconds of the step the timeline page shows. What is
// its own: hovering a bar says what it is, and for a matched PP: action how far it is from its predicted span,
// which is outlined. The rows are lanes of the one timeline engine (timeline/LaneEngine.h): culled by binary
// search, items under a few pixels folded, labelled where the text fits.
#pragma once

#include "timeline/LaneView.h"
#include "timeline/TraceRows.h"

#include <QVector>
#include <array>
#include <memory>

namespace planscope {

struct TraceImport;

class TraceTimelineView : public LaneView {
    Q_OBJECT
public:
    explicit TraceTimelineView(QWidget* parent = nullptr);

    // Shows the traces over the overlay (the prediction may be null: measured lanes only); new traces are fitted.
    void setData(std::shared_ptr<const TraceImport> traces, std::shared_ptr<const Overlay> overlay,
        std::shared_ptr<const Timeline> predicted);
    void setShowCpu(bool show);
    bool showCpu() const { return m_showCpu; }
    // The colour of an item (measured kinds; predicted and phase items by their SpanKind), in the current theme.
    static QColor colorOf(const TraceItem& item);
    static QColor colorOf(TraceColor color, SpanKind kind);

    const std::vector<TraceRow>& rows() const { return m_rows; }
    // The tooltip text for a point in widget coordinates (empty where there is nothing).
    QString describeAt(QPoint pos) const;
    QSize sizeHint() const override { return { 900, 420 }; }
    int preferredHeight() const; // all rows and the axis, without scrolling
    double rowTop(std::size_t row) const { return m_lanes[row].y; } // content y (add timeArea().top() - scroll)

protected:
    bool hasLanes() const override { return !m_rows.empty(); }
    Range fitRange() const override;
    Range timeLimits() const override { return m_limits; }
    double arrangeLanes(double available, bool squeeze) override;
    DrawList layoutLanes(const TimeViewport& viewport, double scrollY, double viewHeight) const override;
    void paintLanes(QPainter& p, const QRect& area) override;
    void paintHeaders(QPainter& p, const QRect& area) override;
    QString emptyText() const override;
    QString toolTipAt(const QPoint& pos) const override { return describeAt(pos); }
    void hoverAt(const QPoint& pos) override;
    // The shared playhead is drawn while it plays or stands inside the step (not at its ends: fitted, the view is
    // about the measured run).
    bool playheadShown() const override;

private:
    struct Hit {
        int row = -1;
        int item = -1;
    };
    void rebuild();
    double contentHeight() const;
    QString rowLabel(const TraceRow& row) const;
    Hit hitAt(QPoint pos) const;
    TraceLanes lanes(const LaneMetrics& metrics = {}) const;
    LaneMetrics metricsFor(double scrollY, double viewHeight) const;
    void paintItems(QPainter& p, const QRect& area);

    std::shared_ptr<const TraceImport> m_traces;
    std::shared_ptr<const Overlay> m_overlay;
    std::shared_ptr<const Timeline> m_predicted;
    std::vector<TraceRow> m_rows;
    std::vector<LaneItem> m_lanes; // each row's place, content y
    LaneIndex m_index; // over m_rows
    Range m_limits; // the fitted window and every item
    // Per-frame scratch: rects by colour bucket ((style x 16 + kind) x 2 + ghost).
    std::array<QVector<QRectF>, 512> m_buckets;
    bool m_showCpu = false;
    Hit m_hover;
};

} // namespace planscope
