// Memory per GPU as stacked bars, one per pipeline stage: weights, gradients, optimizer states,
// activations, buffers (bottom to top), the GPU capacity as a dashed line named on the right axis (outside the
// bars, so an overflowing bar never runs under it), and the overflow of any stage over capacity written in red
// above its bar. The labels above the bars are laid out at every replot for the width they get: level, turned
// upright where they would touch, thinned where even that does not fit. QCustomPlot stays out of this header.
#pragma once

#include "charts/MemorySegments.h"
#include "cost/Prediction.h"

#include <QPointer>
#include <QWidget>
#include <memory>

class QCustomPlot;
class QCPBars;
class QCPGraph;
class QCPItemText;
class QCPTextElement;
class QMouseEvent;

namespace planscope {

class PlanDocument;
class ViewState;

class MemoryBarsView : public QWidget {
    Q_OBJECT
public:
    explicit MemoryBarsView(QWidget* parent = nullptr);
    ~MemoryBarsView() override;

    void setDocument(PlanDocument* document);
    void setPrediction(std::shared_ptr<const Prediction> prediction);

    // Peak: each stage's peak (the analytic in-flight rule). AtPlayhead: the activations each stage holds at
    // the ViewState's playhead in the simulated step, so the bars grow and shrink as the playhead moves.
    enum class Mode { Peak, AtPlayhead };
    void setMode(Mode mode);
    Mode mode() const { return m_mode; }
    void setViewState(ViewState* state);

    // Saves the chart by the file's extension: .png, .svg or .pdf. width/height <= 0: the widget's size
    // (or 1400 x 900 when it has none yet).
    bool exportTo(const QString& path, int width = 0, int height = 0);

    // What is plotted, read back from the chart (for tests): bars per segment, value in GiB.
    int stageCount() const;
    double plottedGiB(MemorySegment segment, int stage) const;
    double capacityGiB() const;
    QStringList overflowLabels() const;
    // The capacity's name and size, as written on the right axis at the capacity line.
    QString capacityLabel() const { return m_capacityLabel; }
    // Where the labels above the bars are drawn now (widget pixels, the ones shown), and where the bars are.
    QList<QRectF> barLabelRects() const;
    QList<QRectF> barRects() const;
    QCustomPlot* plot() const { return m_plot; }

protected:
    void changeEvent(QEvent* event) override;

private:
    void rebuild();
    void showToolTip(QMouseEvent* event);
    void placeBarLabels();

    QCustomPlot* m_plot = nullptr;
    QPointer<PlanDocument> m_document;
    QPointer<ViewState> m_viewState;
    Mode m_mode = Mode::Peak;
    std::shared_ptr<const Prediction> m_prediction;
    QCPTextElement* m_title = nullptr;
    QList<QCPBars*> m_bars; // one per MemorySegment, in kMemorySegments order
    QCPGraph* m_capacity = nullptr;
    QStringList m_overflowLabels;
    QString m_capacityLabel;
    QList<QCPItemText*> m_barLabels; // one per stage with a label, in stage order
    QList<bool> m_barLabelAlarm;           // the label says the stage is over capacity
    double m_capacityGiB = 0;
    double m_highest = 0; // GiB: the tallest bar or the capacity, whichever is higher
};

} // namespace planscope
