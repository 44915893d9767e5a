// Measure this machine: runs planscope-profile through QProcess (progress, cancel), or opens a profile file;
// shows measured bus bandwidth against message size next to the fitted model and the preset's default, the
// GEMM table, and applies the calibration to the document with default vs calibrated numbers side by side.
#pragma once

#include "calib/Profile.h"

#include <QPointer>
#include <QProcess>
#include <QWidget>
#include <memory>

class QCheckBox;
class QCustomPlot;
class QLabel;
class QProgressBar;
class QPushButton;
class QTableWidget;

namespace planscope {

class PlanDocument;

class ProfilePage : public QWidget {
    Q_OBJECT
public:
    explicit ProfilePage(QWidget* parent = nullptr);
    ~ProfilePage() override;

    void setDocument(PlanDocument* document);
    bool exportTo(const QString& path, QSize size = {}, QString* error = nullptr);

    // Loads a profile (planscope/profile/v1 JSON, or nccl-tests output); false and statusText() says why.
    bool openProfile(const QString& path);
    void setProfile(std::shared_ptr<const Profile> profile);
    std::shared_ptr<const Profile> profile() const { return m_profile; }

    // A dropped file that is a profile or nccl-tests output rather than a plan: JSON with the profile schema or
    // nccl-tests' -J keys, or text with nccl-tests' "# nThread" header.
    static bool looksLikeProfile(const QString& path);
    // Where planscope-profile is looked for: next to this executable, then on PATH.
    static QString profilerPath();
    // Starts the profiling pass; the page shows why when it cannot (no binary, no GPU).
    void startProfiling(bool quick = true);
    void cancelProfiling();
    bool isProfiling() const { return m_process.state() != QProcess::NotRunning; }

    QString statusText() const;
    // For tests: the rows of the comparison table (default vs calibrated).
    QStringList comparisonRows() const;
    int curveCount() const;

Q_SIGNALS:
    void profileChanged();
    void profilingFinished(bool ok);

protected:
    void changeEvent(QEvent* event) override;

private:
    void retranslate();
    void rebuild();
    void readProgress();
    void processFinished(int exitCode, QProcess::ExitStatus status);
    void applyCalibration(bool on);

    QPointer<PlanDocument> m_document;
    std::shared_ptr<const Profile> m_profile;
    QProcess m_process;
    QString m_outputPath;
    QString m_lastError;

    QLabel* m_title;
    QLabel* m_status;
    QPushButton* m_run;
    QPushButton* m_open;
    QPushButton* m_cancel;
    QProgressBar* m_progress;
    QCheckBox* m_use;
    QCustomPlot* m_plot;
    QTableWidget* m_gemm;
    QTableWidget* m_compare;
};

} // namespace planscope
