// The planner's scatter: every sampled fitting plan of a search (SearchResult::points) as step time against peak
// memory per GPU, coloured by the value of one knob, with the Pareto front as a step line, the open plan, the best
// plan and the selected plan marked, and the GPU's memory as a horizontal line. A click picks the nearest plan
// within a few pixels (pointClicked), a double click on one asks to open it (pointActivated). QCustomPlot stays
// out of this header.
#pragma once

#include "search/Search.h"

#include <QString>
#include <QStringList>
#include <QWidget>
#include <cstdint>
#include <memory>
#include <optional>
#include <vector>

class QCustomPlot;
class QCPGraph;
class QCPLayoutGrid;
class QMouseEvent;
class QResizeEvent;

namespace planscope {

// A knob's value in a candidate as the planner's views write it ("4", "on", "selective:core_attn,mlp", "zb-h1",
// "grad+p2p" for an overlap mask, "50 %" for an offload share), and a key that sorts the values the natural way.
QString knobValueText(Knob knob, const Candidate& c);
double knobValueKey(Knob knob, const Candidate& c);

// What the scatter draws of a search: the sampled points' knobs decoded (candidateAt) and the points in step-time
// order. prepareScatter() touches no widget, so the planner's worker thread does it after the search and the GUI
// thread only builds the graphs.
struct ScatterPoints {
    std::shared_ptr<const SearchResult> result;
    std::vector<Candidate> candidates; // of result->points, in the same order
    std::vector<std::uint32_t> byTime; // indexes into result->points, by step time
};
std::shared_ptr<const ScatterPoints> prepareScatter(std::shared_ptr<const SearchResult> result);

class PlannerScatter : public QWidget {
    Q_OBJECT
public:
    explicit PlannerScatter(QWidget* parent = nullptr);
    ~PlannerScatter() override;

    // The search to draw (null: an empty chart), prepared by prepareScatter() (setResult() prepares it here).
    void setPoints(std::shared_ptr<const ScatterPoints> points);
    void setResult(std::shared_ptr<const SearchResult> result) { setPoints(prepareScatter(std::move(result))); }
    // The knob whose values colour the points; the legend names each value.
    void setColourKnob(Knob knob);
    Knob colourKnob() const { return m_colourKnob; }
    // The plan marked as selected (null: none), at its figures.
    void setSelected(std::optional<std::int64_t> index, double stepSeconds = 0, std::int64_t peakBytes = 0);
    // Whether the open plan (SearchResult::given) is marked: only a plan that is valid and fits has a place.
    bool marksOpenPlan() const { return m_marksOpenPlan; }

    // For tests: the sampled points drawn (all colour groups together), the colour key's names in legend order,
    // and the index of the plan nearest to a pixel of the chart (within `radius` pixels), if any.
    int pointCount() const;
    QStringList colourKey() const;
    std::optional<std::int64_t> planAt(const QPointF& pixel, double radius = 6.0) const;
    // The pixel of a plan's figures on the chart (after a replot).
    QPointF pixelOf(double stepSeconds, std::int64_t peakBytes) const;
    // The regions beyond published evidence (search/Evidence.h), shaded: per GPU count the step time below which a
    // plan's MFU is above the best published on its GPU and precision (none without a ceiling); and the legend names
    // of the shaded regions (the MFU band, the memory band).
    struct MfuBand {
        int gpus = 0;
        double stepSeconds = 0;
    };
    std::vector<MfuBand> mfuBands() const;
    QStringList evidenceRegions() const { return m_evidenceBands; }
    QCustomPlot* plot() const { return m_plot; }
    // Where the legend is: right of the chart, or under it where the chart would be narrower than 380 px.
    bool legendBelow() const { return m_legendBelow; }

Q_SIGNALS:
    void pointClicked(qint64 index);
    void pointActivated(qint64 index);

protected:
    void changeEvent(QEvent* event) override;
    void resizeEvent(QResizeEvent* event) override;

private:
    struct Pick {
        double seconds = 0, gib = 0;
        std::int64_t index = -1;
    };
    void rebuild();
    void addEvidenceRegions();
    void addColourGroups();
    void addFront();
    void addMarkers();
    void addCapacity(double xLow, double xHigh);
    void fitRanges();
    void placeLegend();
    void fitTickCount();
    void moveSelection();
    void onRelease(QMouseEvent* event);
    void onDoubleClick(QMouseEvent* event);

    QCustomPlot* m_plot = nullptr;
    QCPLayoutGrid* m_legendBox = nullptr; // the legend and the room under it: right of the chart, or under it
    bool m_legendBelow = false;
    QCPGraph* m_selection = nullptr;
    std::shared_ptr<const ScatterPoints> m_points;
    const SearchResult* m_result = nullptr; // m_points->result
    std::vector<Pick> m_picks;           // points, the front and the best plans: what a click can pick
    Knob m_colourKnob = Knob::TP;
    int m_pointCount = 0;
    QStringList m_colourKey;
    QStringList m_evidenceBands;
    bool m_marksOpenPlan = false;
    std::optional<std::int64_t> m_selectedIndex;
    double m_selectedSeconds = 0;
    std::int64_t m_selectedBytes = 0;
    QPoint m_pressAt;
};

} // namespace planscope
