// The predicted timeline of one step: one lane per pipeline rank with sub-lanes per stream, spans coloured by
// kind (TimelinePalette), idle time hatched with each rank's idle share at the right, microbatch labels where
// they fit, the time axis, and the playhead. It follows the ViewState (visible range, playhead, selection)
// and sets it: wheel zooms around the pointer, dragging pans, Shift+drag zooms to a box, a double-click or F
// fits, a click selects the microbatch under the pointer (every lane then shows that microbatch, the rest
// dimmed). Spans that end after the playhead are drawn pending (a pale neutral fill outlined in their kind's
// colour), so playing shows the step being done.
// Layout is TimelineLayout's pure layoutTimeline() (the one timeline engine, LaneEngine.h), redone when the
// range, size, scroll or selection changes; a playhead move only repaints; paintEvent only paints.
#pragma once

#include "document/AnalysisFeed.h"
#include "timeline/TimelineLayout.h"

#include <QPointer>
#include <QStringList>
#include <QVector>
#include <QWidget>
#include <array>
#include <memory>

class QScrollBar;

namespace planscope {

class PlanDocument;
class ViewState;

class TimelineView : public QWidget {
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
    QString emptyText() const;
    // The shared state to follow and set; without one the view keeps a private one.
    void setViewState(ViewState* state);
    ViewState* viewState() const;
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

    // Saves the view by the file's extension (.png, .svg, .pdf); size empty: the widget's size.
    bool exportTo(const QString& path, QSize size = {}, QString* error = nullptr);

    // Fits the whole step into the view (also double-click and F).
    void zoomToFit();
    // Several timelines stacked on one time axis (the compare page): `span` > 0 shows [0, span] whatever the view
    // state's range, so a shorter step ends short of the right edge; `headerWidth` is the least width of the rank
    // column, so the time areas of the stacked views line up. 0, 0: the view's own range and column.
    void setFixedTimeAxis(double span, int headerWidth = 0);
    // The width of the rank column now (the time area starts there).
    int headerWidth() const { return m_headerWidth; }
    // Squeezes every lane into the view instead of scrolling, as exports do (a picture has no scroll bar); the page
    // sets it while it is saved.
    void setFitAllLanes(bool fit);
    // Draws the step as done, whatever the playhead: nothing pending, no playhead line. Exports set it, so a
    // picture shows the whole step and never a moment of playback.
    void setFinalState(bool final);
    bool isFinalState() const { return m_finalState; }

    // What is drawn now, for tests: the layout, its viewport, and where a span is in widget coordinates.
    // The layout's flags carry no DrawPending: playback repaints without a new layout, and paintFlags() adds
    // DrawPending to an item ending after the playhead (not before playing or scrubbing) as it is painted.
    const DrawList& drawList() const { return m_draw; }
    std::uint8_t paintFlags(std::uint8_t flags, double end) const;
    // Layouts done so far (a playhead move adds none).
    std::size_t layoutCount() const { return m_layoutCount; }
    const TimeViewport& viewport() const { return m_viewport; }
    QRect timeArea() const;
    QRectF spanRect(std::size_t span) const;
    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;

protected:
    void paintEvent(QPaintEvent* event) override;
    void resizeEvent(QResizeEvent* event) override;
    void changeEvent(QEvent* event) override;
    bool event(QEvent* event) override;
    void wheelEvent(QWheelEvent* event) override;
    void mousePressEvent(QMouseEvent* event) override;
    void mouseMoveEvent(QMouseEvent* event) override;
    void mouseReleaseEvent(QMouseEvent* event) override;
    void mouseDoubleClickEvent(QMouseEvent* event) override;
    void keyPressEvent(QKeyEvent* event) override;

private:
    enum class Drag { None, Pending, Pan, Band };

    void relayout();
    double pendingFrom() const; // items ending after this are pending; +inf before playing or scrubbing
    void updateMetrics();
    void prepareBrushes();
    void setRange(double start, double end);
    void zoomAround(double x, double factor);
    void setScroll(double y);
    QString toolTipAt(const QPoint& pos) const;
    QString headerText(int rank) const;
    QString headerToolTip(double y) const;
    // Where a rank's layers line goes: under its name on its first stream lane, or after its name when that lane
    // is too low for text (or absent).
    bool layersOnOwnLine(std::size_t laneIndex) const;
    QString formatTime(double seconds, double step) const;

    // The size painted: the widget's, or the export's while exporting.
    QSize canvasSize() const { return m_exportSize.isEmpty() ? size() : m_exportSize; }
    void paintAll(QPainter& p);
    void paintAxis(QPainter& p, const QRect& area);
    void paintLanes(QPainter& p, const QRect& area);
    void paintHeaders(QPainter& p, const QRect& area);

    AnalysisFeed m_feed;
    std::shared_ptr<const Analysis> m_analysis;
    ViewState* m_ownState = nullptr;
    QPointer<ViewState> m_state;
    std::shared_ptr<const Timeline> m_timeline;
    std::shared_ptr<const TimelineIndex> m_index = std::make_shared<const TimelineIndex>();
    QStringList m_rankLayers;
    QStringList m_rankLayerIndices;

    TimeViewport m_viewport;
    LaneGeometry m_geometry;
    Selection m_selection;
    DrawList m_draw;
    TimeViewport m_laidOutViewport;
    LaneGeometry m_laidOutGeometry;
    bool m_layoutValid = false;
    std::size_t m_layoutCount = 0;
    double m_scrollY = 0;
    QScrollBar* m_scrollBar = nullptr;
    QSize m_exportSize;

    // Metrics from the font, set on font changes.
    int m_axisHeight = 24;
    int m_headerWidth = 150;
    int m_idleWidth = 70;
    QFont m_labelFont;
    QFont m_headerFont;
    QFont m_smallFont;

    // Brushes per kind: normal, pending (after the playhead), dimmed (not the selected microbatch).
    std::array<QBrush, 30> m_brushes;
    std::array<QColor, 30> m_textColors;
    bool m_fitAllLanes = false;
    double m_fixedSpan = 0;     // setFixedTimeAxis()
    int m_minHeaderWidth = 0;
    bool m_finalState = false;
    // Per-frame scratch, kept to avoid allocating in paintEvent.
    std::array<QVector<QRectF>, 30> m_buckets;
    QVector<QRectF> m_scratch;

    Drag m_drag = Drag::None;
    QPoint m_pressPos;
    QPoint m_lastPos;
    double m_pressStart = 0, m_pressEnd = 0;
};

} // namespace planscope
