// Memory per GPU over the simulated step, one line per pipeline stage, with the GPU capacity and the
// ViewState's playhead. QCustomPlot stays out of this header.
#pragma once

#include <QPointer>
#include <QWidget>

class QCustomPlot;
class QCPItemStraightLine;

namespace planscope {

class PlanDocument;
class ViewState;

class MemoryTimelineView : public QWidget {
    Q_OBJECT
public:
    explicit MemoryTimelineView(QWidget* parent = nullptr);
    ~MemoryTimelineView() override;

    void setDocument(PlanDocument* document);
    void setViewState(ViewState* state);
    bool exportTo(const QString& path, QSize size = {}, QString* error = nullptr);

    // For tests: the plotted lines (one per stage) and the playhead's x in seconds.
    int lineCount() const;
    double valueAt(int stage, double seconds) const; // GiB on the stage's line at that time
    double playheadSeconds() const;

private:
    void rebuild();
    void movePlayhead();

    QCustomPlot* m_plot = nullptr;
    QCPItemStraightLine* m_playhead = nullptr;
    QPointer<PlanDocument> m_document;
    QPointer<ViewState> m_viewState;
};

} // namespace planscope
