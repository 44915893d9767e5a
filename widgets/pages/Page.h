// What every page of the main window offers, so the window, --view NAME --screenshot and the tests treat them
// alike: a stable name, a translated title, the open document and the shared view state to follow, and an export
// of what it shows through the one exporter (WidgetExporter: PNG, SVG, PDF). Pages never call each other: they
// meet in the document (numbers) and the view state (playhead, selection).
#pragma once

#include <QSize>
#include <QString>
#include <memory>

namespace planscope {

struct Analysis;
class PlanDocument;
class ViewState;

class Page {
public:
    virtual ~Page() = default;
    virtual QString pageName() const = 0;  // "timeline", "grid", ...: what --view takes
    virtual QString pageTitle() const = 0; // the tab's title, in the interface's language
    virtual void setDocument(PlanDocument* document) = 0;
    // The analysis a view page draws: the timeline, grid, memory, communication, metrics and anatomy pages draw
    // nothing else, and their setDocument() only feeds them the document's newest analysis (document/AnalysisFeed.h).
    // The report and the tests give it directly. Pages that edit, search or measure ignore it.
    virtual void setAnalysis(std::shared_ptr<const Analysis>) { }
    // Pages without a time axis or selection ignore it.
    virtual void setViewState(ViewState*) { }
    // `size` empty: as on screen; otherwise laid out at that size. False and *error say why it failed.
    virtual bool exportTo(const QString& path, QSize size = {}, QString* error = nullptr) = 0;
};

} // namespace planscope
