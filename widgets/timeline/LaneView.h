// The one view of lanes over time that the predicted timeline (TimelineView) and the measured run
// (TraceTimelineView) both are: a header column of lane names on the left, a time axis on top with one label
// formatter, the time area between, and a vertical scroll bar when the lanes are taller than the view. It owns
// the viewport and every gesture, after Tracy's one mouse handler (wolfpld/tracy, TimelineController) and
// Perfetto UI's one pan-and-zoom handler: the wheel zooms around the pointer (a horizontal wheel pans, Shift or
// the header column scrolls), dragging pans both ways, Shift+drag zooms to a box, a click goes to the lane under
// it, a double-click or F fits; + and - zoom, the arrows pan, Space plays, Escape clears the selection.
// The visible range, the playhead and the selection live in a ViewState, shared by every view of the window
// (the predicted and the measured timelines show the same seconds of the step), or a private one.
// A subclass says what it has (lanes, their heights, the range that fits) and paints the DrawList of the one
// lane engine (LaneEngine.h); the layout is redone only when the viewport, the scroll or the subclass's own
// inputs change, and lazily, when something asks for it (a paint, a hit test, drawList()).
#pragma once

#include "timeline/LaneEngine.h"

#include <QPointer>
#include <QWidget>
#include <cstddef>

class QScrollBar;

namespace planscope {

class ViewState;

class LaneView : public QWidget {
    Q_OBJECT
public:
    explicit LaneView(QWidget* parent = nullptr);
    ~LaneView() override;

    // The shared state to follow and set; null: the view keeps a private one.
    void setViewState(ViewState* state);
    ViewState* viewState() const;
    // Shows fitRange() (also F and a double-click).
    void zoomToFit();
    // Shows [start, end] seconds, kept inside timeLimits() (a window wider than them is cut to them).
    void setRange(double start, double end);
    // Several views stacked on one time axis (the compare page): span > 0 shows [0, span] whatever the view
    // state's range, so a shorter step ends short of the right edge; headerWidth is the least width of the header
    // column, so the time areas of the stacked views line up. 0, 0: the view's own range and column.
    void setFixedTimeAxis(double span, int headerWidth = 0);
    // Squeezes every lane into the view instead of scrolling, as exports do (a picture has no scroll bar).
    void setFitAllLanes(bool fit);
    // Draws what is shown as done, whatever the playhead (no playhead line); exports set it.
    void setFinalState(bool final);
    bool isFinalState() const { return m_finalState; }

    // Saves the view by the file's extension (.png, .svg, .pdf), painted by the screen's code at `size` without
    // touching the widget's geometry; size empty: the widget's size (or 1400 x 800 for a widget not yet shown).
    bool exportTo(const QString& path, QSize size = {}, QString* error = nullptr);

    // What is drawn now: the viewport (seconds and the time area's width), where time is drawn in widget
    // coordinates, the width of the header column, and the layout (brought up to date first).
    const TimeViewport& viewport() const { return m_viewport; }
    QRect timeArea() const;
    int headerWidth() const { return m_headerWidth; }
    const DrawList& drawList() const;
    // Brings the layout up to date now; layoutCount() counts the layouts done so far (hovering, playing and
    // repainting add none).
    void layoutNow() const;
    std::size_t layoutCount() const { return m_layoutCount; }

    // An axis label, the one formatter of both views: the unit (s, ms, µs) is that of the window's largest time
    // (magnitude), the decimals those the tick step needs, so ticks 100 µs apart at 1.6 s read 1.6312 s, 1.6313 s.
    static QString axisLabel(double seconds, double step, double magnitude);

protected:
    struct Range {
        double start = 0, end = 1;
    };

    // What the subclass has and draws. -------------------------------------------------------------------
    virtual bool hasLanes() const = 0;
    // What zoomToFit() shows, and where panning and zooming may go.
    virtual Range fitRange() const = 0;
    virtual Range timeLimits() const = 0;
    // Sets the lanes' heights for `available` pixels of lane area (squeeze: every lane must fit, as in an export)
    // and returns the content's height; calls invalidateLayout() when a height changed.
    virtual double arrangeLanes(double available, bool squeeze) = 0;
    // The layout of the lanes meeting [scrollY, scrollY + viewHeight] over the viewport.
    virtual DrawList layoutLanes(const TimeViewport& viewport, double scrollY, double viewHeight) const = 0;
    // Paints the time area (area in canvas coordinates; the DrawList's y are relative to its top) and the
    // header column beside it.
    virtual void paintLanes(QPainter& p, const QRect& area) = 0;
    virtual void paintHeaders(QPainter& p, const QRect& area) = 0;
    // What the view says when it has no lanes.
    virtual QString emptyText() const = 0;
    // The tool tip at a point of the widget ("" for none); a click that did not drag; the pointer moving with no
    // button pressed (mouse tracking on).
    virtual QString toolTipAt(const QPoint& pos) const = 0;
    virtual void clickAt(const QPoint&) { }
    virtual void hoverAt(const QPoint&) { }
    // Whether the playhead is drawn (the base draws it, line and axis marker, unless isFinalState()).
    virtual bool playheadShown() const { return true; }
    // The shared state's selection changed; the theme's colours changed; the state was attached.
    virtual void selectionChanged() { }
    virtual void themeChanged() { update(); }
    virtual void stateAttached() { }
    virtual QString axisCaption() const;
    virtual QColor background() const;

    // For subclasses. ----------------------------------------------------------------------------------------
    void invalidateLayout() { m_layoutValid = false; }
    // Re-arranges the lanes, the scroll bar and the viewport, and repaints; the layout follows lazily.
    void relayout();
    // The header column and the column right of the time area (0: none), in pixels.
    void setColumns(int header, int right);
    // The axis's height: its labels' font and room for the ticks.
    int axisHeight() const;
    // The font of the axis's labels, one point under the widget's (at least 7 pt): the views' label font too.
    QFont axisFont() const;
    double scrollY() const { return m_scrollY; }
    void setScroll(double y);
    double singleScrollStep() const { return m_scrollStep; }
    void setScrollStep(double pixels) { m_scrollStep = pixels; }
    // The size painted: the widget's, or the export's while exporting.
    QSize canvasSize() const { return m_exportSize.isEmpty() ? size() : m_exportSize; }
    bool exporting() const { return !m_exportSize.isEmpty(); }
    ViewState& state() const;
    // Grid lines at the axis ticks through the time area (painter in time-area coordinates).
    void paintGrid(QPainter& p, const QRect& area) const;

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

    void connectState();
    void zoomAround(double x, double factor); // x in time-area pixels; factor < 1 zooms in
    void paintAll(QPainter& p);
    void paintAxis(QPainter& p, const QRect& area);
    void paintOverlay(QPainter& p, const QRect& area); // the playhead and the zoom box

    ViewState* m_ownState = nullptr;
    QPointer<ViewState> m_state;
    QScrollBar* m_scrollBar = nullptr;
    TimeViewport m_viewport;
    double m_scrollY = 0;
    double m_scrollStep = 18;
    int m_headerWidth = 150, m_rightWidth = 0;
    double m_fixedSpan = 0;
    int m_minHeaderWidth = 0;
    bool m_fitAllLanes = false;
    bool m_finalState = false;
    QSize m_exportSize;

    // The layout, redone lazily when its viewport, scroll or view height moved or a subclass invalidated it.
    mutable DrawList m_draw;
    mutable bool m_layoutValid = false;
    mutable TimeViewport m_laidOutViewport;
    mutable double m_laidOutScroll = -1, m_laidOutHeight = -1;
    mutable std::size_t m_layoutCount = 0;

    Drag m_drag = Drag::None;
    QPoint m_pressPos, m_lastPos;
    TimeViewport m_pressViewport;
};

} // namespace planscope
