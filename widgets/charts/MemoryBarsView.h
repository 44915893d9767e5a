// Memory per GPU as stacked bars, one per pipeline stage: weights, gradients, optimizer states, activations, the
// CUDA context and workspaces, NCCL and ZeRO buffers, the temporaries and the allocator's slack (bottom to top; the
// bar is the analytic peak inside the step), a solid mark across each bar at the simulated peak and a dotted one at
// the steady state, the GPU capacity as a dashed line named on the right axis (outside the
// bars, so an overflowing bar never runs under it), and the overflow of any stage over capacity written in red
// above its bar. The labels above the bars are laid out at every replot for the width they get: level, turned
// upright where they would touch, thinned where even that does not fit. QCustomPlot stays out of this header.
#pragma once

#include "charts/MemorySegments.h"
#include "cost/Prediction.h"
#include "document/AnalysisFeed.h"

#include <QPointer>
#include <QStringList>
#include <QWidget>
#include <memory>

class QCustomPlot;
class QCPBars;
class QCPGraph;
class QCPItemText;
class QCPTextElement;
class QMouseEvent;

namespace planscope {

struct Analysis;
class PlanDocument;
class ViewState;

class MemoryBarsView : public QWidget {
    Q_OBJECT
public:
    explicit MemoryBarsView(QWidget* parent = nullptr);
    ~MemoryBarsView() override;

    // The analysis drawn: its prediction's stages, its plan's layers under the ticks and, at the playhead, its
    // simulated timeline (null: "No plan loaded").
    void setAnalysis(std::shared_ptr<const Analysis> analysis);
    // Feeds it `document`'s newest analysis, now and at each one it publishes (document/AnalysisFeed.h).
    void setDocument(PlanDocument* document);
    // A prediction alone (no plan, no timeline): the bars at the peak, without the layers under the ticks.
    void setPrediction(std::shared_ptr<const Prediction> prediction);

    // Peak: each stage's peak (the analytic in-flight rule). AtPlayhead: the activations each stage holds at
    // the ViewState's playhead in the simulated step, so the bars grow and shrink as the playhead moves.
    enum class Mode { Peak, AtPlayhead };
    void setMode(Mode mode);
    Mode mode() const { return m_mode; }
    void setViewState(ViewState* state);

    // Charts side by side (the compare page) share one y scale: `gib` > 0 is the least top of the axis (the highest
    // of their naturalMaximumGiB()), and the axis is the same for every chart given the same value; 0: its own.
    void setSharedMaximumGiB(double gib);
    // The tallest bar, simulated peak or capacity of this chart alone, in GiB.
    double naturalMaximumGiB() const { return m_naturalHighest; }
    // Without the legend, with a short title and axis label: for charts side by side under one legend.
    void setCompact(bool compact);

    // Saves the chart by the file's extension: .png, .svg or .pdf. width/height <= 0: the widget's size
    // (or 1400 x 900 when it has none yet).
    bool exportTo(const QString& path, int width = 0, int height = 0);

    // What is plotted, read back from the chart (for tests): bars per segment, value in GiB.
    int stageCount() const;
    double plottedGiB(MemorySegment segment, int stage) const;
    double capacityGiB() const;
    // The simulated peak inside the step marked across each stage's bar (GiB), -1 where there is none.
    QList<double> simulatedPeakMarks() const { return m_simulatedPeaks; }
    QStringList overflowLabels() const;
    // The capacity's name and size, as written on the right axis at the capacity line.
    QString capacityLabel() const { return m_capacityLabel; }
    // Where the labels above the bars are drawn now (widget pixels, the ones shown), and where the bars are.
    QList<QRectF> barLabelRects() const;
    QList<QRectF> barRects() const;
    QCustomPlot* plot() const { return m_plot; }
    // The layers line under stage s's tick, in the notation of rankSplitTexts() (core/spec/SplitText.h, "E1|2|2"),
    // from the analysis's plan; empty without an analysis (a prediction given alone). Whether the ticks carry it now (they do while it fits
    // the width a stage gets), and the tick's whole text.
    QString stageLayersLabel(int stage) const;
    bool tickLayersShown() const { return m_tickLayersShown; }
    QString tickLabel(int stage) const;

protected:
    void changeEvent(QEvent* event) override;

private:
    void rebuild();
    void showToolTip(QMouseEvent* event);
    void placeBarLabels();
    // The stage ticks, with or without each stage's layers line (built again when forced); true when built.
    bool setStageTicks(bool withLayers, bool force = false);
    // Whether the layers lines fit under the ticks at the chart's present width.
    bool layersFitTicks() const;

    QCustomPlot* m_plot = nullptr;
    AnalysisFeed m_feed;
    QPointer<ViewState> m_viewState;
    Mode m_mode = Mode::Peak;
    std::shared_ptr<const Analysis> m_analysis; // null where a prediction was given alone
    std::shared_ptr<const Prediction> m_prediction; // m_analysis's (aliasing), or the one given alone
    QCPTextElement* m_title = nullptr;
    QList<QCPBars*> m_bars; // one per MemorySegment, in kMemorySegments order
    QCPGraph* m_capacity = nullptr;
    QCPGraph* m_usable = nullptr; // capacity less the headroom: the planner's fit
    QCPGraph* m_simulatedPeakKey = nullptr; // legend entries of the marks across the bars
    QCPGraph* m_steadyKey = nullptr;
    QList<double> m_simulatedPeaks;         // GiB per stage, -1 where not simulated
    QStringList m_overflowLabels;
    QString m_capacityLabel;
    QList<QCPItemText*> m_barLabels; // one per stage with a label, in stage order
    QList<bool> m_barLabelAlarm;           // the label says the stage is over capacity
    double m_capacityGiB = 0;
    double m_highest = 0; // GiB: the tallest bar or the capacity, whichever is higher
    double m_naturalHighest = 0; // the same without the shared maximum
    double m_sharedMaximumGiB = 0;
    bool m_compact = false;
    QStringList m_stageLayers;       // per stage: rankSplitTexts() of the analysis's plan
    QStringList m_stageLayerIndices; // per stage: rankLayerRanges()
    bool m_tickLayersShown = false;
};

} // namespace planscope
