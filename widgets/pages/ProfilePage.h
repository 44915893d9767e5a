// Measure this machine: runs planscope-profile through QProcess (progress, cancel), or opens a profile file;
// shows measured bus bandwidth against message size next to the fitted model and the preset's default, the
// GEMM table, and applies the calibration to the document with default vs calibrated numbers side by side.
#pragma once

#include "pages/Page.h"
#include "analysis/Analysis.h"
#include "calib/Profile.h"

#include <QPointer>
#include <QProcess>
#include <QWidget>
#include <memory>
#include <optional>
#include <utility>

class QCheckBox;
class QCustomPlot;
class QLabel;
class QProgressBar;
class QPushButton;
class QTableWidget;

namespace planscope {

class PlanDocument;

class ProfilePage : public QWidget, public Page {
    Q_OBJECT
public:
    explicit ProfilePage(QWidget* parent = nullptr);
    ~ProfilePage() override;

    static constexpr const char* kPageName = "profile";
    QString pageName() const override { return QLatin1String(kPageName); }
    QString pageTitle() const override;
    void setDocument(PlanDocument* document) override;
    bool exportTo(const QString& path, QSize size = {}, QString* error = nullptr) override;

    // Loads a profile (planscope/profile/v1 JSON, or nccl-tests output); false and statusText() says why.
    bool openProfile(const QString& path);
    void setProfile(std::shared_ptr<const Profile> profile);
    std::shared_ptr<const Profile> profile() const { return m_profile; }

    // Where planscope-profile is looked for: next to this executable, then on PATH.
    static QString profilerPath();
    // Starts the profiling pass; the page shows why when it cannot (no binary, no GPU).
    void startProfiling(bool quick = true);
    void cancelProfiling();
    bool isProfiling() const { return m_process.state() != QProcess::NotRunning; }

    QString statusText() const;
    // For tests: "Use this calibration", and "Apply to another GPU" (shown where the profile measured another GPU).
    QCheckBox* useBox() const { return m_use; }
    QCheckBox* anyGpuBox() const { return m_anyGpu; }
    // For tests: the rows of the comparison table (default vs calibrated), once comparisonReady() was emitted.
    QStringList comparisonRows() const;
    // The two analyses of the open plan the table shows (preset defaults, calibrated); null until computed.
    std::shared_ptr<const Analysis> defaultAnalysis() const { return m_before; }
    std::shared_ptr<const Analysis> calibratedAnalysis() const { return m_after; }
    int curveCount() const;

Q_SIGNALS:
    void profileChanged();
    void profilingFinished(bool ok);
    void comparisonReady();

protected:
    void changeEvent(QEvent* event) override;

private:
    void retranslate();
    void rebuild();
    void readProgress();
    void processFinished(int exitCode, QProcess::ExitStatus status);
    void applyCalibration(bool on);
    // The rule for a profile of another GPU: refused unless "apply anyway" is ticked.
    OtherGpu otherGpuRule() const;
    // Analyses the open plan with and without the profile's calibration off the GUI thread; the newest request
    // wins.
    void compareAsync();
    void fillComparison();
    void fitTablesWidth();

    QPointer<PlanDocument> m_document;
    std::shared_ptr<const Profile> m_profile;
    QProcess m_process;
    QString m_outputPath;
    QString m_lastError;
    std::shared_ptr<const Analysis> m_before, m_after;
    quint64 m_compareGeneration = 0;

    QLabel* m_title;
    QLabel* m_status;
    QPushButton* m_run;
    QPushButton* m_open;
    QPushButton* m_cancel;
    QProgressBar* m_progress;
    QCheckBox* m_use;
    // The cluster and precision the document's calibration was fitted to: an edit of either fits it again (a plan
    // switched to another GPU must not keep the last GPU's calibration).
    std::optional<std::pair<ClusterSpec, Precision>> m_calibratedFor;
    QCheckBox* m_anyGpu; // apply a profile of another GPU than the plan's anyway (a warning in every prediction)
    QCustomPlot* m_plot;
    QTableWidget* m_gemm;
    QTableWidget* m_compare;
    QWidget* m_tablesBox = nullptr;
};

} // namespace planscope
