// The GPU grid: every GPU of the plan as a cell in its node's box (an NVLink domain), placed by the rank
// order, coloured by one parallel dimension. Hovering a GPU outlines all its groups and highlights it in
// every view (ViewState::highlightedGpu); groups whose per-layer collectives cross nodes (TP, CP, EP) turn
// red with a warning at the top; GPUs computing at the playhead are lit and idle ones dimmed, so the grid
// animates with the timeline. 16K GPUs stay cheap: coordinates are arithmetic (RankGrid), only visible
// nodes are painted, and when cells get smaller than ~6 px each node is drawn as one cell. A cluster whose
// NVLink domains hold several nodes (GB200/GB300 NVL72: 18 trays of 4 GPUs) is drawn by domain: a framed,
// labelled block per domain with its trays inside; a group that crosses trays inside a domain stays on
// NVLink (a calm line), one that crosses domains goes over the network (red, with a warning).
#pragma once

#include "pages/Page.h"
#include "cost/RankGrid.h"
#include "charts/GridGeometry.h"
#include "document/AnalysisFeed.h"

#include <QPen>
#include <QPointer>
#include <QSize>
#include <QStringList>
#include <QWidget>
#include <memory>
#include <utility>
#include <vector>

class QComboBox;
class QLabel;
class QPainter;
class QPushButton;

namespace planscope {

class PlanDocument;
class ViewState;
class GpuGridCanvas;
struct Timeline;
struct Analysis;

enum class GridColour { TP, PP, DP, CP, EP, Node };

class GpuGridView : public QWidget, public Page {
    Q_OBJECT
public:
    explicit GpuGridView(QWidget* parent = nullptr);
    ~GpuGridView() override;

    static constexpr const char* kPageName = "grid";
    QString pageName() const override { return QLatin1String(kPageName); }
    QString pageTitle() const override;
    // Follows the document: each analysis it publishes is drawn (setAnalysis()).
    void setDocument(PlanDocument* document) override;
    void setViewState(ViewState* state) override;
    // Saves the grid by the file's extension: .png, .svg or .pdf. An empty size: the view's own size (what
    // is on screen, or 1400 x 900 when it has none); another size shows the whole grid fitted to it.
    bool exportTo(const QString& path, QSize size = {}, QString* error = nullptr) override;

    // Draws this analysis (null: no plan): the document's newest, or one given directly (the compare page's
    // columns, the report).
    void setAnalysis(std::shared_ptr<const Analysis> analysis) override;
    // Grid and colour key only: no controls, no playhead line, no key of outlines and links (small grids side by side).
    void setCompact(bool compact);

    // The dimension the cells' colours show; by default tp, or pp for grids of more than 4,096 GPUs.
    void setColourBy(GridColour colour);
    GridColour colourBy() const { return m_colour; }
    void zoomToFit();
    // Zooms about the centre of the grid area; 1 = the whole grid fits.
    void setZoom(double zoom);
    double zoom() const { return m_geometry.zoom(); }

    // What is drawn, read back (for tests and MainWindow's status bar).
    const RankGrid& rankGrid() const { return m_grid; }
    long long gpuCount() const { return m_hasGrid ? m_grid.gpus() : 0; }
    // One line per group kind whose groups cross nodes, e.g. "TP group of 16 spans 2 nodes: ...".
    QStringList warnings() const { return m_warnings; }
    QWidget* canvas() const;
    // A GPU's cell in canvas coordinates (empty when there is no grid).
    QRect cellRect(int rank) const;
    bool isAggregated() const { return m_geometry.aggregated(); }
    // The layout on screen: nodes, and with NVLink domains of several nodes, the domain frames.
    const GridGeometry& geometry() const { return m_geometry; }
    // Nodes per NVLink domain in the shown plan (1: the node is the domain).
    int domainNodes() const { return m_domainNodes; }
    // Domain frames painted by the last paint (0 without a domain tier).
    int paintedDomainFrames() const { return m_paintedDomains; }
    // Node pairs joined by a TP/CP/EP group: across NVLink domains (the network; red) and, with domains of
    // several nodes, across trays inside one domain (NVLink).
    const std::vector<std::pair<int, int>>& networkCrossings() const { return m_alarmLinks; }
    // A TP, CP or EP group kind whose groups cross nodes (NVLink domains): the node pairs they join, drawn in the
    // kind's dash pattern and as thick as its traffic, and that traffic (the prediction's group of that kind).
    struct Crossing {
        GroupKind kind = GroupKind::TP;
        std::vector<std::pair<int, int>> links;
        double bytesPerStep = 0, seconds = 0, exposedSeconds = 0;
    };
    const std::vector<Crossing>& crossings() const { return m_crossings; }
    // The moment the grid lights (seconds into the step): the playhead, or where it stands at the end of the step
    // (where no stage computes), the first moment the most stages compute. -1 without a timeline.
    double shownTime() const { return m_shownTime; }
    const std::vector<std::pair<int, int>>& nvlinkCrossings() const { return m_trayLinks; }
    // Computing (a compute span of its pipeline rank covers the playhead); false without a timeline.
    bool isBusy(int rank) const;
    int busyGpuCount() const;
    bool hasTimeline() const { return !m_compute.empty(); }
    // The GPU whose groups are outlined: ViewState's highlighted GPU (or the hovered one without a state).
    int highlightedGpu() const;
    QString statusText() const { return m_status; }
    // The header lines the last paint of the canvas had to shorten (in full): hovering one shows it whole.
    QStringList cutHeaderLines() const;
    // The tooltip the canvas shows at a point: a shortened header line in full, else empty.
    QString headerToolTipAt(const QPointF& pos) const;

protected:
    void changeEvent(QEvent* event) override;

private:
    friend class GpuGridCanvas;
    struct Interval {
        double start, end;
        int kind; // SpanKind
        int microbatch;
    };
    struct SceneParts {
        QRectF header, grid, footer;
    };

    void rebuild();
    void retranslate();
    void applyColour(GridColour colour);
    void updateBusy();
    void refit();
    SceneParts sceneParts(const QRectF& rect) const;
    void paintScene(QPainter& painter, const QRectF& rect, const GridGeometry& geometry) const;
    // The pen of the k-th crossing kind at a scale (its dash pattern, thickness by traffic) and its offset from the
    // line between two nodes, so kinds joining the same nodes lie side by side.
    std::pair<QPen, double> crossingPen(std::size_t k, double scale) const;
    // The footer's legend of lines and shades, in order; legendRows() is how many lines it wraps to in a width.
    struct LegendEntry {
        QString text;
        enum Swatch { Group, Busy, Idle, NvLink, Crossing, Bus } swatch = Group;
        int index = 0; // Group: the GroupKind; Crossing: the index in m_crossings
    };
    std::vector<LegendEntry> legendEntries() const;
    int legendRows(double width) const;
    // The lines the colour key wraps to in a width (one value after another under its title); where that is more
    // than two, it is drawn as one strip of swatches instead.
    int colourRows(double width) const;
    int colourValue(int rank) const;
    int colourCount() const;
    QColor valueColour(int value) const;
    QString colourName(GridColour colour) const;
    QString groupName(GroupKind kind) const;
    QString hoverText() const;
    // The header lines cut to the canvas's width at the last paint, with their places: hovering one shows it whole.
    mutable std::vector<std::pair<QRectF, QString>> m_cutLines;
    void hoverAt(const QPointF& pos);
    void clickAt(const QPointF& pos);
    void leave();

    AnalysisFeed m_feed;
    std::shared_ptr<const Analysis> m_analysis; // what is drawn
    bool m_compact = false;
    QPointer<ViewState> m_state;
    QComboBox* m_colourCombo = nullptr;
    QLabel* m_colourLabel = nullptr;
    QPushButton* m_fitButton = nullptr;
    QLabel* m_hint = nullptr;
    GpuGridCanvas* m_canvas = nullptr;

    RankGrid m_grid;
    bool m_hasGrid = false;
    QString m_emptyReason;
    QString m_title;
    QStringList m_warnings;
    QString m_status;
    QString m_linkText;
    GridColour m_colour = GridColour::TP;
    bool m_colourChosen = false;
    GridGeometry m_geometry;
    bool m_zoomed = false;
    int m_localHighlight = -1;

    std::vector<char> m_alarmNode; // a node holding a TP/CP/EP group that crosses nodes
    std::vector<std::pair<int, int>> m_alarmLinks; // node pairs joined by such a group
    std::vector<Crossing> m_crossings;             // the same per group kind, with its traffic
    // With NVLink domains: node pairs of one domain joined by a TP/CP/EP group (NVLink, no alarm).
    std::vector<std::pair<int, int>> m_trayLinks;
    int m_domainNodes = 1;
    mutable int m_paintedDomains = 0;
    std::vector<std::vector<Interval>> m_compute; // per pipeline rank, sorted by start
    std::vector<char> m_busyStage;
    double m_duration = 0;
    double m_busiest = -1;  // the first moment the most pipeline stages compute
    double m_shownTime = -1;
};

} // namespace planscope
