// Memory per GPU over the simulated step, one line per pipeline stage, with the GPU capacity and the
// ViewState's playhead. QCustomPlot stays out of this header.
#pragma once

#include "document/AnalysisFeed.h"
#include "sim/Timeline.h"

#include <QPointer>
#include <QWidget>
#include <memory>
#include <vector>

class QCustomPlot;
class QCPItemStraightLine;
class QCPLayer;

namespace planscope {

struct Analysis;
class PlanDocument;
class ViewState;

// A memory step function thinned for drawing: over `buckets` equal slices of [start, end], a slice with more
// than four points keeps its first, lowest, highest and last (in time order), so every peak and trough a pixel
// column can show is kept. Series of at most 4 * buckets points come back unchanged.
std::vector<MemoryPoint> memoryEnvelope(const std::vector<MemoryPoint>& points, double start, double end, int buckets);

class MemoryTimelineView : public QWidget {
    Q_OBJECT
public:
    explicit MemoryTimelineView(QWidget* parent = nullptr);
    ~MemoryTimelineView() override;

    // The analysis drawn: its simulated timeline's memory and its prediction's capacity (null, invalid or without
    // a timeline: an empty chart).
    void setAnalysis(std::shared_ptr<const Analysis> analysis);
    // Feeds it `document`'s newest analysis, now and at each one it publishes (document/AnalysisFeed.h).
    void setDocument(PlanDocument* document);
    void setViewState(ViewState* state);
    bool exportTo(const QString& path, QSize size = {}, QString* error = nullptr);

    // For tests: the plotted lines (one per stage) and the playhead's x in seconds.
    int lineCount() const;
    double valueAt(int stage, double seconds) const; // GiB on the stage's line at that time
    int pointCount(int stage) const;                  // points the stage's line is drawn from
    double playheadSeconds() const;

private:
    void rebuild();
    void movePlayhead();

    QCustomPlot* m_plot = nullptr;
    QCPItemStraightLine* m_playhead = nullptr;
    QCPLayer* m_playheadLayer = nullptr; // buffered on its own: moving the playhead redraws only this layer
    AnalysisFeed m_feed;
    std::shared_ptr<const Analysis> m_analysis;
    QPointer<ViewState> m_viewState;
};

} // namespace planscope
