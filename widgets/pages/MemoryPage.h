// The memory page: stacked bars per stage (peak, or at the playhead) over the memory-over-time plot.
#pragma once

#include "document/AnalysisFeed.h"
#include "pages/Page.h"
#include <QWidget>
#include <memory>

class QComboBox;

namespace planscope {

class MemoryBarsView;
class MemoryTimelineView;
class PlanDocument;
class ViewState;

class MemoryPage : public QWidget, public Page {
    Q_OBJECT
public:
    explicit MemoryPage(QWidget* parent = nullptr);

    static constexpr const char* kPageName = "memory";
    QString pageName() const override { return QLatin1String(kPageName); }
    QString pageTitle() const override;
    // Feeds setAnalysis() the document's newest analysis (document/AnalysisFeed.h).
    void setDocument(PlanDocument* document) override;
    // Both charts draw it.
    void setAnalysis(std::shared_ptr<const Analysis> analysis) override;
    void setViewState(ViewState* state) override;
    bool exportTo(const QString& path, QSize size = {}, QString* error = nullptr) override;

    MemoryBarsView* bars() const { return m_bars; }
    MemoryTimelineView* overTime() const { return m_overTime; }

protected:
    void changeEvent(QEvent* event) override;

private:
    void retranslate();

    QComboBox* m_mode;
    MemoryBarsView* m_bars;
    MemoryTimelineView* m_overTime;
    AnalysisFeed m_feed;
};

} // namespace planscope
