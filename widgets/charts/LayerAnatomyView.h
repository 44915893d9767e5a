// One transformer layer (or the output layer) as a waterfall: one row per operator in execution order, a bar
// as long as the op takes, placed where it runs on the critical path (each op starts where the exposed time
// of the ops before it ends; a collective overlapped with a GEMM runs beside it, on that GEMM's time range),
// coloured by what bounds it, with the passes (forward | recompute | backward) marked, a legend and a time
// axis in ms. Under each pass's rows a CPU lane: the host issuing the pass's ops (hostStart, hostSeconds; a run
// of graphed ops as one CUDA graph launch), a tick where the CPU waits for the GPU (syncAfter), and where the
// GPU waits for the CPU (hostWaitSeconds) a grey gap before the op; a host-bound pass gets a caption. Every number is the Prediction's (Prediction::layerOps, outputOps): the view only places and
// paints them.
#pragma once

#include "cost/Prediction.h"

#include <QColor>
#include <QFont>
#include <QRectF>
#include <QString>
#include <QWidget>
#include <memory>
#include <vector>

class QPainter;
class QPaintDevice;

namespace planscope {

struct AnatomyBar {
    int op = -1; // index into the shown ops; also the row
    double start = 0; // seconds (opStartTimes, core/cost/Operators.h)
    double seconds = 0; // the op's seconds: the bar's length
    QRectF rect; // in the painted area's pixels; rect.width() = seconds × pixelsPerSecond
    QColor color; // OperatorText::boundColor(op.bound)
    bool hidden
        = false; // a collective overlapped with ops[hiddenBy]: drawn pale, its exposed remainder solid
};

// One bar of a CPU lane: the host issuing one op (or launching a CUDA graph that holds a run of ops).
struct AnatomyHostBar {
    int op = -1; // the op issued (a graph: the first op it holds)
    int lastOp = -1; // a graph: the last op it holds; else op
    double hostStart = 0; // the op's hostStart: seconds from its pass's start on the GPU (may be negative)
    double start = 0; // on the chart's time axis: the pass's start + hostStart
    double seconds = 0; // the op's hostSeconds (a graph: the launch)
    QRectF rect; // in pixels, not clipped to the chart (a negative start reaches left of it)
    QColor color; // the op's bound colour (a graph: neutral); painted light and hatched
    bool graph = false;
};

// Where the CPU waits for an op to finish (syncAfter): from the end of its issue to the op's end on the GPU.
struct AnatomySync {
    int op = -1;
    double cpuEnd = 0, gpuEnd = 0; // chart seconds
};

// The CPU lane under one pass's rows.
struct AnatomyHostLane {
    int row = 0; // the lane's row in the chart
    int phase = 0; // OperatorText::Phase of the pass, as an int
    QRectF rect; // the row across the chart's width
    std::vector<AnatomyHostBar> bars;
    std::vector<AnatomySync> syncs;
};

// The GPU idle before an op because the CPU had not issued it yet (hostWaitSeconds), in the op's row.
struct AnatomyWait {
    int op = -1;
    double start = 0, seconds = 0; // chart seconds: the gap before the op
    QRectF rect;
};

class LayerAnatomyView : public QWidget {
    Q_OBJECT
public:
    enum class Ops { Layer, Output };

    explicit LayerAnatomyView(QWidget* parent = nullptr);

    void setPrediction(std::shared_ptr<const Prediction> prediction);
    void setOps(Ops which);
    Ops shownOps() const { return m_which; }
    // What the plan is, for the title ("GPT-3 175B on A100, TP 8 · SP off"); empty: none.
    void setSubject(const QString& subject);
    // The ops shown: the prediction's layerOps or outputOps (empty without a valid prediction).
    const std::vector<KernelOp>& ops() const;
    QString title() const;
    // Empty unless a pass is host-bound (the GPU waits for the CPU more than 5 % of the pass): then one
    // sentence per such pass, "host-bound: the GPU waits X of Y for the CPU".
    QString hostBoundCaption() const;

    // The chart laid out in `rect`, text measured on `device` (null: this widget). Bars in op order.
    struct Layout {
        QRectF chart; // the time area: x = time, one row per op
        QRectF gutter; // op names, right-aligned, left of the chart
        double pixelsPerSecond = 0;
        double span = 0; // seconds the chart spans
        double rowHeight = 0;
        int rows = 0; // ops plus CPU lanes
        std::vector<AnatomyBar> bars; // in op order; bars[i].rect sits in row opRows[i]
        std::vector<int> opRows;
        std::vector<AnatomyHostLane> hostLanes; // one per pass, in pass order; none when no op has host data
        std::vector<AnatomyWait> waits; // the GPU waiting for the CPU, in op order
    };
    Layout layoutFor(const QRectF& rect, QPaintDevice* device = nullptr) const;
    // The layout of the last paint at the widget's size (or of its current size when not yet painted).
    Layout currentLayout() const { return layoutFor(QRectF(rect())); }
    // Paints the whole view (title, summary, legend, chart, axis) into rect; the exporter's painting
    // function.
    void paint(QPainter& painter, const QRectF& rect) const;
    // The height the view needs at `width` so that rows stay readable.
    int heightForWidth(int width) const override;
    bool hasHeightForWidth() const override { return true; }
    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;

protected:
    void paintEvent(QPaintEvent* event) override;
    void mouseMoveEvent(QMouseEvent* event) override;
    void leaveEvent(QEvent* event) override;
    void changeEvent(QEvent* event) override;

private:
    struct Header;
    Header header(const QRectF& rect, QPaintDevice* device) const;
    void paintHeader(QPainter& p, const Header& h) const;
    void paintChart(QPainter& p, const Layout& layout) const;
    QFont rowFont(double rowHeight, QPaintDevice* device) const;
    void paintHostLanes(QPainter& p, const Layout& layout) const;
    int rowAt(const QPointF& pos) const;
    QString hostToolTip(const QPointF& pos) const;
    void refresh();

    std::shared_ptr<const Prediction> m_prediction;
    Ops m_which = Ops::Layer;
    QString m_subject;
    int m_hoverRow = -1;
};

} // namespace planscope
