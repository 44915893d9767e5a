// The open plan: its file and the latest Analysis of it (core/analysis/Analysis.h: prediction, simulated
// timeline, explanations). Analysis runs off the GUI thread and is published with predictionChanged(); the newest
// edit wins, a result of an older plan arriving late is dropped. Results are immutable shared_ptr<const> values.
// Saving is atomic (QSaveFile) and a timer autosaves every change.
#pragma once

#include "analysis/Analysis.h"
#include "calib/Profile.h"
#include "io/PlanJson.h"
#include "spec/Plan.h"
#include "util/Result.h"

#include <QDateTime>
#include <QFileSystemWatcher>
#include <QFuture>
#include <QList>
#include <QLockFile>
#include <QObject>
#include <QString>
#include <QTimer>
#include <atomic>
#include <memory>
#include <optional>

namespace planscope {

class PlanDocument : public QObject {
    Q_OBJECT
public:
    explicit PlanDocument(QObject* parent = nullptr);
    ~PlanDocument() override;

    // Reads a plan file. On failure returns false and errorString() says why (field path or byte offset). A
    // document that already holds a plan keeps it untouched: its plan, file, analysis and views stay as they were,
    // and loadFailed() carries the reason. An empty document publishes the failure as an invalid analysis so the
    // views say why there is nothing to show.
    bool load(const QString& path);
    // load() with the reading and the parsing on a thread of their own while this thread's event loop runs: the
    // window repaints and answers, loadProgress() reports the bytes read, and cancelLoad() (a newer load, or the
    // document's end) stops the wait at once, leaving the document as it was (errorString() says it was cancelled).
    // A read the file system never finishes (a stalled network mount) is left on its thread and its result dropped.
    // Returns as load() does.
    bool loadWithoutBlocking(const QString& path);
    void cancelLoad();
    bool isLoading() const { return m_loadJob != nullptr; }
    // The file being read by loadWithoutBlocking() (empty when none).
    QString loadingPath() const { return m_loadingPath; }
    // Opens an autosave left by a session that ended without saving (pendingRecoveries()): the plan as it was
    // typed, modified, named after its original file (or untitled), and that autosave becomes this document's.
    bool recover(const QString& autosavePath);
    // Writes the plan atomically; on success the document takes the path and is no longer modified. Saving over the
    // document's own file when that file no longer holds the bytes this document last read or wrote (another program,
    // or another PlanScope window, saved it meanwhile) is refused unless `mode` is Overwrite: saveRefusedAsChanged()
    // is then true and errorString() says so, so that nobody's save is overwritten without being asked.
    enum class SaveMode { RefuseIfChanged, Overwrite };
    bool save(const QString& path, SaveMode mode = SaveMode::RefuseIfChanged);
    bool saveRefusedAsChanged() const { return m_saveRefusedAsChanged; }
    // Replaces the plan (an edit): marks the document modified, schedules an autosave, re-evaluates.
    void setPlan(const Plan& plan);
    // Shows a plan that belongs to no file (a lesson's step): untitled, unmodified, evaluated at once. The caller has
    // had the changes to the plan before saved or discarded (MainWindow::maybeSave()).
    void showUntitledPlan(const Plan& plan);
    // Measured efficiencies applied to every evaluation (null: the presets' defaults). The plan itself, as
    // edited and saved, is not changed; predictions say which terms were measured.
    void setCalibration(std::shared_ptr<const Calibration> calibration);
    std::shared_ptr<const Calibration> calibration() const { return m_calibration; }

    const Plan& plan() const { return m_plan; }
    bool hasPlan() const { return m_hasPlan; }
    QString filePath() const { return m_filePath; }
    bool isModified() const { return m_modified; }
    QString errorString() const { return m_error; }
    // Warnings met while reading the file (unknown fields, defaults applied).
    const Issues& loadWarnings() const { return m_loadWarnings; }

    // The latest published analysis (null before the first one). Everything below is a view into it.
    std::shared_ptr<const Analysis> analysis() const { return m_analysis; }
    // Its prediction (the simulated step time where simulated) and explanations; aliasing pointers that keep the
    // whole analysis alive.
    std::shared_ptr<const Prediction> prediction() const;
    std::shared_ptr<const Explainer> explainer() const;
    // The simulated timeline of one step (null when the plan is invalid or cannot be simulated);
    // timelineError() says why it is missing.
    std::shared_ptr<const Timeline> timeline() const { return m_analysis ? m_analysis->timeline : nullptr; }
    // Its indexes (lanes, running maxima, microbatch lists), built with the analysis on the worker; null without
    // a timeline.
    std::shared_ptr<const TimelineIndex> timelineIndex() const { return m_analysis ? m_analysis->timelineIndex : nullptr; }
    QString timelineError() const;
    // The plan the published analysis was computed from (as edited; without calibration).
    const Plan& predictedPlan() const;
    bool isEvaluating() const { return m_pending > 0; }
    // Stops the analysis in flight at its simulation: it ends with the closed form's step and no timeline (the
    // timeline's error says it was cancelled). A newer edit cancels the older analysis the same way.
    void cancelEvaluation();

    // Each document autosaves to a file of its own under autosaveDirectory(), named after its file (or an untitled
    // slot of this process), beside a .meta.json saying which file it belongs to. The file is locked while the
    // document lives; a clean save, a load or closing without changes removes it. One left behind by a session
    // that was killed is listed by pendingRecoveries() at the next start.
    QString autosavePath() const;
    static QString autosaveDirectory();
    void setAutosaveInterval(int milliseconds) { m_autosaveTimer.setInterval(milliseconds); }
    // Writes the plan to autosavePath() now; returns false (and sets errorString()) if it could not.
    bool autosaveNow();
    // Removes this document's autosave (after a save, or when the user discards the changes).
    void discardAutosave();
    // The user chose to throw the changes away (before opening another plan or quitting): no autosave is kept
    // and the document counts as unmodified.
    void discardChanges();

    struct Recovery {
        QString autosavePath;  // the autosaved plan
        QString originalPath;  // the file it was opened from or last saved to; empty for an untitled plan
        QString planName;
        QDateTime savedAt;
    };
    // Autosaves no running PlanScope holds (their session ended without saving), newest first.
    static QList<Recovery> pendingRecoveries();
    // Deletes an autosave and its metadata (the user chose not to recover it).
    static void discardRecovery(const Recovery& recovery);

    // How the app analyses a plan it shows (explanations on, the file's warnings kept, the measured calibration
    // where one is applied): the document's analyses and the report's of a plan file both use it.
    static AnalysisOptions analysisOptions(const Issues& loadWarnings, const Calibration* calibration = nullptr);

    // "path: message" or "byte N: message" for each issue, one a line.
    static QString describe(const Issues& issues);

    // The result of an analysis run on a worker (QtConcurrent), or, where it threw (memory exhausted, a bug), an
    // invalid analysis of `plan` whose error says so: a failure is shown, never left as views waiting forever.
    static std::shared_ptr<const Analysis> analysisOrFailure(QFuture<std::shared_ptr<const Analysis>>& done, const Plan& plan,
        const Issues& inputWarnings = {});

Q_SIGNALS:
    // The plan was edited (setPlan): the same plan, changed; the document is modified.
    void planEdited();
    // Another plan took this one's place (load, recover, showUntitledPlan): what was typed for the old plan (a claim,
    // a playhead, the editor's fields) no longer applies.
    void planReplaced();
    void calibrationChanged();
    void predictionChanged();
    void filePathChanged(const QString& path);
    void modifiedChanged(bool modified);
    void autosaved(const QString& path);
    // A load that failed while the document kept its plan: the one place that says why.
    void loadFailed(const QString& message);
    // loadWithoutBlocking() began or ended, and how far it is: bytes read of the file's size (0: not known yet), and
    // whether the text is being parsed.
    void loadingChanged(bool loading);
    void loadProgress(qint64 bytesRead, qint64 bytesTotal, bool parsing);
    // The document's file was written by someone else (its bytes differ from what this document last read or
    // wrote; a save of its own, or a touch, is not a change). The plan in memory is untouched: the window decides.
    void changedOnDisk(const QString& path);
    // Evaluation started (true) or the newest result arrived (false); views mark what they show as stale meanwhile.
    void evaluatingChanged(bool evaluating);
    // The file just opened is open in another running PlanScope as well (process `pid`): both may edit it, and
    // save() asks before either overwrites the other's save.
    void openElsewhere(const QString& path, qint64 pid);
    // An autosave could not be written (a full disk, a folder that cannot be written): the edits are only in memory
    // until one succeeds or the plan is saved. autosaveRestored() follows the next autosave that succeeds.
    void autosaveFailed(const QString& message);
    void autosaveRestored();

private:
    void evaluateAsync();
    void publish(quint64 generation, std::shared_ptr<const Analysis> analysis);
    void setModified(bool modified);
    void publishFailure(const Issues& issues);
    // A file that could not be read: the reason in errorString(), and loadFailed() or, with no plan open, an
    // invalid analysis. Returns false.
    bool failLoad(const QString& message, const Issues& issues);
    // A plan file read: adopted, or failLoad() with the reader's errors.
    bool finishLoad(const QString& path, Result<LoadedPlan>&& loaded);
    // Takes a read plan as the document's: from filePath, or recovered from an autosave (then modified).
    void adopt(LoadedPlan&& loaded, const QString& filePath, const QString& recoveredAutosave);
    QString autosavePathFor(const QString& filePath) const;
    bool claimAutosave(const QString& path);
    bool writeAtomically(const QString& path, const QByteArray& bytes);
    bool writeAutosave();
    // Holds, while this document has `path` open, a lock that tells another PlanScope opening it that it is open here.
    void claimOpenLock(const QString& path);
    // Watches the document's file from now on, taking its bytes as they are as the ones this document knows.
    void watchFile();
    void fileChanged(const QString& path);

    Plan m_plan;
    bool m_hasPlan = false;
    QString m_filePath;
    QString m_error;
    Issues m_loadWarnings;
    struct LoadJob;
    std::shared_ptr<LoadJob> m_loadJob;   // the loadWithoutBlocking() in flight (shared with its thread)
    QString m_loadingPath;
    bool m_modified = false;
    // The plan as its file holds it (after a load or a save; an untitled plan as it was shown): an edit that comes
    // back to it (undo) leaves the document unmodified. None after recovering an autosave (the file differs).
    std::optional<Plan> m_savedPlan;

    std::shared_ptr<const Analysis> m_analysis;
    quint64 m_generation = 0;
    std::shared_ptr<std::atomic<bool>> m_cancel; // the newest analysis's
    int m_pending = 0;

    QTimer m_autosaveTimer;
    QString m_untitledSlot;                 // this document's autosave name while it has no file
    QString m_autosavePath;                 // the autosave this document owns now (empty: none written)
    std::unique_ptr<QLockFile> m_autosaveLock;
    std::shared_ptr<const Calibration> m_calibration;
    QFileSystemWatcher* m_watcher = nullptr;
    QByteArray m_diskHash; // of the file's bytes as last seen (read, written here, or noticed changed)
    QByteArray m_baseHash; // of the file's bytes as last read or written here: what a save may replace unasked
    bool m_saveRefusedAsChanged = false;
    bool m_autosaveFailing = false;
    std::unique_ptr<QLockFile> m_openLock;
};

} // namespace planscope
