// The memory page: stacked bars per stage (peak, or at the playhead) over the memory-over-time plot; with a PyTorch
// CUDA memory snapshot opened, its allocated and reserved peaks beside the predicted memory of a stage (core's
// checkMemory, as planscope-cli memory-check computes it).
#pragma once

#include "document/AnalysisFeed.h"
#include "pages/Page.h"
#include <QWidget>
#include <memory>
#include <optional>

class QComboBox;
class QLabel;
class QPushButton;
class QSpinBox;
class QTableWidget;

namespace planscope {

class MemoryBarsView;
class MemoryTimelineView;
struct MemorySnapshot;
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
    // Reads a snapshot (torch.cuda.memory._dump_snapshot's pickle) and sets its peaks beside the prediction; false and
    // *error (naming the byte offset of what is wrong) when it cannot be read.
    bool openSnapshot(const QString& path, QString* error = nullptr);
    // For tests: the comparison's rows ("figure | predicted | measured | difference | %") and its note.
    QStringList measuredRows() const;
    QString measuredNote() const;
    QSpinBox* stagePicker() const { return m_stage; }

protected:
    void changeEvent(QEvent* event) override;

private:
    void retranslate();
    void rebuildMeasured();

    QComboBox* m_mode;
    MemoryBarsView* m_bars;
    MemoryTimelineView* m_overTime;
    AnalysisFeed m_feed;
    std::shared_ptr<const Analysis> m_analysis;
    std::shared_ptr<const MemorySnapshot> m_snapshot;
    QString m_snapshotPath;
    QPushButton* m_openSnapshot = nullptr;
    QLabel* m_stageLabel = nullptr;
    QSpinBox* m_stage = nullptr;
    QTableWidget* m_measured = nullptr;
    QLabel* m_note = nullptr;
};

} // namespace planscope
