// Presentation mode (View > Present, F5): the main window full screen with nothing but the current view in large type,
// for a meeting room. Right/Left (and Page Down/Page Up, as presenter remotes send) step through the views; Down/Up
// move the playhead to the next or previous moment an operation starts on some GPU, so the pipeline can be walked
// through op by op (from the step's end, Down starts again at 0); Space plays and pauses; L turns a laser pointer on and off (a red dot with a short trail that
// follows the mouse); Escape (or F5 again) puts the window back as it was.
#pragma once

#include <QObject>
#include <QPointer>
#include <QFont>
#include <QList>
#include <QPoint>
#include <QWidget>
#include <memory>
#include <vector>

class QMainWindow;
class QTabWidget;
class QLabel;
class QTimer;

namespace planscope {

class PlanDocument;
class ViewState;
struct Timeline;

// The red dot drawn over the pages; transparent for the mouse, so everything under it still works.
class LaserPointer : public QWidget {
    Q_OBJECT
public:
    explicit LaserPointer(QWidget* parent);
    // Starts (or stops) following the mouse.
    void setActive(bool active);
    bool isActive() const { return m_active; }
    // Where the dot is, in this widget's coordinates (the newest point of the trail).
    QPoint position() const { return m_trail.empty() ? QPoint(-1, -1) : m_trail.back(); }
    // Moves the dot (the mouse's position, polled while active; tests call it).
    void moveTo(QPoint position);

protected:
    void paintEvent(QPaintEvent* event) override;

private:
    void poll();
    QTimer* m_timer;
    std::vector<QPoint> m_trail; // oldest first
    bool m_active = false;
};

class PresentationMode : public QObject {
    Q_OBJECT
public:
    // `tabs` holds the views. Presenting hides the window's menu bar, status bar and docks.
    PresentationMode(QMainWindow* window, QTabWidget* tabs, ViewState* state, PlanDocument* document);
    ~PresentationMode() override;

    bool isActive() const { return m_active; }
    void setActive(bool active);
    LaserPointer* laser() const { return m_laser; }

    // What the keys do, callable directly.
    void nextView(int direction);
    void stepPlayhead(int direction);
    // The moments the playhead stops at: every distinct start of a compute op in the simulated step, and its end.
    // Sorted once per timeline (a million-op step takes a noticeable moment), not at every key press.
    const std::vector<double>& playheadStops() const;

    // How much larger the type is while presenting.
    static constexpr double kFontScale = 1.45;

Q_SIGNALS:
    void activeChanged(bool active);

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    void showCaption();
    void placeOverlays();

    QMainWindow* m_window;
    QTabWidget* m_tabs;
    ViewState* m_state;
    PlanDocument* m_document;
    QList<QWidget*> m_hidden; // what presenting hid, to be shown again
    LaserPointer* m_laser;
    QLabel* m_caption;
    QTimer* m_captionTimer;
    bool m_active = false;
    // playheadStops() and the timeline they were taken from (not kept alive by them).
    mutable std::weak_ptr<const Timeline> m_stopsTimeline;
    mutable std::vector<double> m_stops;

    // What setActive(false) puts back.
    bool m_tabBarVisible = true;
    Qt::WindowStates m_windowState;
    QFont m_font;
};

} // namespace planscope
