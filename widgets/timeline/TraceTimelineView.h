// Measured lanes against predicted ones on one time axis (issue 6): for every overlaid rank, the prediction of
// its pipeline rank as ghost bars, then its annotations, GPU streams and (optionally) CPU threads from the trace,
// all aligned at the chosen ProfilerStep (time 0 = the step's first GPU work on the earliest rank). Wheel zooms
// around the pointer, dragging pans, a double-click fits; hovering a bar says what it is, and for a matched
// PP: action how far it is from its predicted span, which is outlined. Keys: F fits, + and - zoom, the arrows pan.
// The rows are lanes of the one timeline engine (timeline/LaneEngine.h, as the predicted timeline's): culled by
// binary search, items under a few pixels folded, labelled where the text fits; a new layout only when the
// rows, the viewport, the scroll or the size change (hovering repaints), and paintEvent paints its DrawList.
#pragma once

#include "timeline/TraceRows.h"
#include "timeline/LaneEngine.h"

#include <QVector>
#include <QWidget>
#include <array>
#include <memory>

class QScrollBar;

namespace planscope {

struct TraceImport;

class TraceTimelineView : public QWidget {
    Q_OBJECT
public:
    explicit TraceTimelineView(QWidget* parent = nullptr);

    // Shows the traces over the overlay (the prediction may be null: measured lanes only).
    void setData(std::shared_ptr<const TraceImport> traces, std::shared_ptr<const Overlay> overlay,
        std::shared_ptr<const Timeline> predicted);
    void setShowCpu(bool show);
    bool showCpu() const { return m_showCpu; }
    void zoomToFit();
    // Shows [start, end] seconds from the origin.
    void setRange(double start, double end);
    // The colour of an item (measured kinds; predicted and phase items by their SpanKind), in the current theme.
    static QColor colorOf(const TraceItem& item);
    static QColor colorOf(TraceColor color, SpanKind kind);

    const std::vector<TraceRow>& rows() const { return m_rows; }
    const TimeViewport& viewport() const { return m_viewport; } // seconds from the origin
    // The tooltip text for a point in widget coordinates (empty where there is nothing).
    QString describeAt(QPoint pos) const;
    QSize sizeHint() const override { return { 900, 420 }; }
    QRect timeArea() const; // where time is drawn, in widget coordinates
    int preferredHeight() const; // all rows and the axis, without scrolling
    double rowTop(std::size_t row) const { return m_lanes[row].y; } // content y (add timeArea().top() - scroll)
    // What the last paint drew (y relative to the scroll position, x to timeArea()), and how many layouts were
    // done so far; layoutNow() brings the layout up to date without painting.
    const DrawList& drawList() const { return m_draw; }
    std::size_t layoutCount() const { return m_layoutCount; }
    void layoutNow();

protected:
    void paintEvent(QPaintEvent* event) override;
    void resizeEvent(QResizeEvent* event) override;
    bool event(QEvent* event) override;
    void wheelEvent(QWheelEvent* event) override;
    void mousePressEvent(QMouseEvent* event) override;
    void mouseMoveEvent(QMouseEvent* event) override;
    void mouseReleaseEvent(QMouseEvent* event) override;
    void mouseDoubleClickEvent(QMouseEvent* event) override;
    void keyPressEvent(QKeyEvent* event) override;

private:
    struct Hit {
        int row = -1;
        int item = -1;
    };
    void rebuild();
    void updateScroll();
    void zoomAround(double x, double factor); // x in time-area pixels; factor < 1 zooms in
    double contentHeight() const;
    QString rowLabel(const TraceRow& row) const;
    Hit hitAt(QPoint pos) const;
    TraceLanes lanes() const;
    void paintItems(QPainter& p, const QRect& area);

    std::shared_ptr<const TraceImport> m_traces;
    std::shared_ptr<const Overlay> m_overlay;
    std::shared_ptr<const Timeline> m_predicted;
    std::vector<TraceRow> m_rows;
    std::vector<LaneItem> m_lanes; // each row's place, content y
    LaneIndex m_index; // over m_rows
    LaneMetrics m_metrics;
    DrawList m_draw;
    bool m_layoutValid = false;
    TimeViewport m_laidOutViewport;
    LaneMetrics m_laidOutMetrics;
    std::size_t m_layoutCount = 0;
    // Per-frame scratch: rects by colour bucket ((style x 16 + kind) x 2 + ghost).
    std::array<QVector<QRectF>, 512> m_buckets;
    bool m_showCpu = false;
    TimeViewport m_viewport;
    QScrollBar* m_scroll;
    QPoint m_dragFrom;
    TimeViewport m_dragViewport;
    bool m_dragging = false;
    Hit m_hover;
};

} // namespace planscope
