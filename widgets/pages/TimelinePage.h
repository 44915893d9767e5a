// The timeline page: a title with the step's numbers, the playback bar, the timeline and its legend. All
// three follow one ViewState; export renders the page as a picture for a slide (PNG, SVG or PDF by the file's
// extension): the title, the whole step done (no playhead, nothing pending) and the legend, without the
// playback controls.
#pragma once

#include "document/AnalysisFeed.h"
#include "pages/Page.h"
#include <QMetaObject>
#include <QPointer>
#include <QWidget>
#include <memory>

class QLabel;

namespace planscope {

class PlaybackBar;
class PlanDocument;
class TimelineLegend;
class TimelineView;
class ViewState;

class TimelinePage : public QWidget, public Page {
    Q_OBJECT
public:
    explicit TimelinePage(QWidget* parent = nullptr);
    ~TimelinePage() override;

    static constexpr const char* kPageName = "timeline";
    QString pageName() const override { return QLatin1String(kPageName); }
    QString pageTitle() const override;
    // Follows the document: each analysis it publishes is shown (setAnalysis()), and a plan that replaces the one
    // shown (PlanDocument::planReplaced) opens at the end of its step (PlaybackBar::replacePlan()).
    void setDocument(PlanDocument* document) override;
    // The title, the playback bar and the timeline, from the analysis (null: no plan).
    void setAnalysis(std::shared_ptr<const Analysis> analysis) override;
    std::shared_ptr<const Analysis> analysis() const { return m_analysis; }
    // The shared state (playhead, view range, selection); without one the page keeps a private one.
    void setViewState(ViewState* state) override;
    ViewState* viewState() const;

    // Saves the page by extension (.png, .svg, .pdf) at its final state and without the playback bar; size
    // empty: the page's size (or 1600 x 900 for a page never shown). The picture is exportPage(size) rendered.
    bool exportTo(const QString& path, QSize size = {}, QString* error = nullptr) override;
    // The page an export renders, laid out at `size`: the same analysis (or timeline), state and zoom, the playback
    // bar hidden, the timeline in its final state with every lane fitted.
    std::unique_ptr<TimelinePage> exportPage(QSize size) const;

    TimelineView* view() const { return m_view; }
    PlaybackBar* playbackBar() const { return m_bar; }
    TimelineLegend* legend() const { return m_legend; }
    QLabel* titleLabel() const { return m_title; }

protected:
    void changeEvent(QEvent* event) override;

private:
    void updateTitle();
    void updateLegend();

    AnalysisFeed m_feed;
    QMetaObject::Connection m_replaced; // the followed document's planReplaced, to the playback bar
    std::shared_ptr<const Analysis> m_analysis;
    QPointer<ViewState> m_state;
    QLabel* m_title = nullptr;
    PlaybackBar* m_bar = nullptr;
    TimelineView* m_view = nullptr;
    TimelineLegend* m_legend = nullptr;
};

} // namespace planscope
