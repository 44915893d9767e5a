#include "document/PlanDocument.h"
#include "CoreText.h"

#include "WriteFailure.h"
#include "document/RunThen.h"
#include "io/PlanJson.h"
#include "document/PlanRead.h"

#include <QCoreApplication>
#include <QCryptographicHash>
#include <QDir>
#include <QPointer>
#include <QFuture>
#include <QFileInfo>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRegularExpression>
#include <QStandardPaths>
#include <QtConcurrent/QtConcurrentRun>
#include <atomic>
#include <new>

namespace planscope {

namespace {

// Beside each autosaved X.plan.json: X.meta.json, the file it belongs to, the plan's name and when it was written.
QString autosaveMetaPath(const QString& autosave)
{
    return autosave.chopped(int(qstrlen(".plan.json"))) + QStringLiteral(".meta.json");
}

QJsonObject readAutosaveMeta(const QString& autosave)
{
    QFile meta(autosaveMetaPath(autosave));
    return meta.open(QIODevice::ReadOnly) ? QJsonDocument::fromJson(meta.readAll()).object() : QJsonObject();
}

} // namespace

PlanDocument::PlanDocument(QObject* parent)
    : QObject(parent)
{
    static std::atomic<int> untitled { 0 };
    m_untitledSlot = QStringLiteral("untitled-%1-%2").arg(QCoreApplication::applicationPid()).arg(++untitled);
    m_autosaveTimer.setSingleShot(true);
    m_autosaveTimer.setInterval(2000);
    connect(&m_autosaveTimer, &QTimer::timeout, this, [this] { autosaveNow(); });
}

// The read loadWithoutBlocking() waits for (document/PlanRead.h).
struct PlanDocument::LoadJob : PlanRead {
    // Another plan takes the document's place while a file is still being read (load, recover, a lesson's plan): the
    // read is cancelled and forgotten at once, so the document is no longer loading and the waiting
    // loadWithoutBlocking() sees it was replaced and says nothing of its own.
    static void abandon(PlanDocument& d)
    {
        if (!d.m_loadJob) return;
        d.m_loadJob->cancel();
        d.m_loadJob.reset();
        d.m_loadingPath.clear();
        Q_EMIT d.loadingChanged(false);
    }
};

PlanDocument::~PlanDocument()
{
    cancelLoad();
    // A pending change is written before the document goes, so quitting right after an edit loses nothing; an
    // unmodified plan leaves no autosave behind to be offered at the next start.
    if (m_autosaveTimer.isActive() || (m_modified && m_hasPlan)) autosaveNow();
    if (!m_modified) discardAutosave();
    m_autosaveLock.reset(); // unlocked: a later session may offer what is left
    m_autosaveTimer.stop();
}

QString PlanDocument::describe(const Issues& issues)
{
    QStringList lines;
    for (const Issue& i : issues) {
        QString where = QString::fromStdString(i.path);
        // Text inputs (nccl-tests output) name a line: "line 12".
        static const QRegularExpression lineRef(QStringLiteral("^line (\\d+)$"));
        if (const auto m = lineRef.match(where); m.hasMatch()) where = tr("line %1").arg(m.captured(1));
        if (i.offset >= 0)
            where
                = where.isEmpty() ? tr("byte %1").arg(i.offset) : tr("%1 (byte %2)").arg(where).arg(i.offset);
        lines << (where.isEmpty() ? CoreText::text(i) : QStringLiteral("%1: %2").arg(where, CoreText::text(i)));
    }
    return lines.join(QLatin1Char('\n'));
}

void PlanDocument::publishFailure(const Issues& issues)
{
    // The reasons as an invalid analysis: the views show errors in one place, whatever their source.
    auto failed = std::make_shared<Analysis>();
    failed->prediction.errors = issues;
    failed->analytic = failed->prediction;
    failed->explainer = std::make_shared<const Explainer>();
    m_analysis = std::move(failed);
    ++m_generation; // a result still on its way belongs to the plan before
    if (m_pending > 0) {
        m_pending = 0;
        Q_EMIT evaluatingChanged(false);
    }
    Q_EMIT predictionChanged();
}

bool PlanDocument::failLoad(const QString& message, const Issues& issues)
{
    m_error = message;
    // A plan that is open stays as it is, with everything shown of it; only the message is new.
    if (m_hasPlan)
        Q_EMIT loadFailed(m_error);
    else
        publishFailure(issues);
    return false;
}

void PlanDocument::adopt(LoadedPlan&& loaded, const QString& filePath, const QString& recoveredAutosave)
{
    m_error.clear();
    // The plan being replaced was saved or discarded by the caller's choice: its autosave goes with it.
    if (!m_modified) discardAutosave();
    m_plan = std::move(loaded.plan);
    m_loadWarnings = std::move(loaded.warnings);
    m_hasPlan = true;
    m_filePath = filePath;
    m_autosaveTimer.stop();
    m_autosaveLock.reset();
    m_autosavePath.clear();
    if (recoveredAutosave.isEmpty()) {
        m_savedPlan = m_plan;
        setModified(false);
    } else {
        m_savedPlan.reset();
        // The recovered autosave becomes this document's (its next autosave replaces it, a save removes it).
        claimAutosave(recoveredAutosave);
        m_modified = false;
        setModified(true);
    }
    watchFile();
    claimOpenLock(m_filePath);
    Q_EMIT filePathChanged(m_filePath);
    Q_EMIT planReplaced();
    evaluateAsync();
}

bool PlanDocument::load(const QString& path)
{
    LoadJob::abandon(*this); // this plan, not the one still being read
    return finishLoad(path, loadPlanFile(QFile::encodeName(path).toStdString()));
}

bool PlanDocument::finishLoad(const QString& path, Result<LoadedPlan>&& loaded)
{
    if (!loaded)
        return failLoad(tr("Cannot load %1:\n%2").arg(QDir::toNativeSeparators(path), describe(loaded.errors())), loaded.errors());
    adopt(std::move(loaded.value()), QFileInfo(path).absoluteFilePath(), QString());
    return true;
}

bool PlanDocument::loadWithoutBlocking(const QString& path)
{
    cancelLoad(); // a newer load replaces the one in flight
    auto job = std::make_shared<LoadJob>();
    m_loadJob = job;
    m_loadingPath = path;
    Q_EMIT loadingChanged(true);
    QPointer<PlanDocument> self(this);
    const bool read = readPlanWaiting(job, path, [job, self] {
        if (self)
            Q_EMIT self->loadProgress(job->control.bytesRead.load(), job->control.bytesTotal.load(), job->control.parsing.load());
    });
    if (!self) return false; // the document went while it waited
    const bool superseded = m_loadJob != job; // a newer load took over: it says what happened
    if (!superseded) {
        m_loadJob.reset();
        m_loadingPath.clear();
        Q_EMIT loadingChanged(false);
    }
    if (!read) {
        if (!superseded) m_error = tr("Opening %1 was cancelled; nothing was changed.").arg(QDir::toNativeSeparators(path));
        return false;
    }
    return finishLoad(path, std::move(*job->result));
}

void PlanDocument::cancelLoad()
{
    if (m_loadJob) m_loadJob->cancel();
}

bool PlanDocument::recover(const QString& autosavePath)
{
    LoadJob::abandon(*this);
    Result<LoadedPlan> loaded = loadPlanFile(QFile::encodeName(autosavePath).toStdString());
    if (!loaded)
        return failLoad(tr("Cannot recover %1:\n%2").arg(QDir::toNativeSeparators(autosavePath), describe(loaded.errors())),
            loaded.errors());
    adopt(std::move(loaded.value()), readAutosaveMeta(autosavePath).value(QStringLiteral("original")).toString(), autosavePath);
    return true;
}

namespace {
QByteArray hashOfFile(const QString& path);
}

bool PlanDocument::save(const QString& path, SaveMode mode)
{
    m_saveRefusedAsChanged = false;
    if (!m_hasPlan) {
        m_error = tr("There is no plan to save.");
        return false;
    }
    const QString absolute = QFileInfo(path).absoluteFilePath();
    if (mode == SaveMode::RefuseIfChanged && absolute == m_filePath && !m_baseHash.isEmpty() && QFileInfo::exists(absolute)) {
        const QByteArray now = hashOfFile(absolute);
        if (!now.isEmpty() && now != m_baseHash) {
            m_saveRefusedAsChanged = true;
            m_error = tr("%1 was changed by another program or another PlanScope window since this window read it; "
                         "saving would replace those changes with yours.")
                          .arg(QDir::toNativeSeparators(absolute));
            return false;
        }
    }
    if (!writeAtomically(path, QByteArray::fromStdString(serializePlan(m_plan)))) return false;
    // Saved: nothing is left to recover.
    m_autosaveTimer.stop();
    discardAutosave();
    if (absolute != m_filePath) {
        m_filePath = absolute;
        claimOpenLock(m_filePath);
        Q_EMIT filePathChanged(m_filePath);
    }
    watchFile();
    m_savedPlan = m_plan;
    setModified(false);
    return true;
}

void PlanDocument::claimOpenLock(const QString& path)
{
    m_openLock.reset();
    if (path.isEmpty()) return;
    const QString dir = QStandardPaths::writableLocation(QStandardPaths::AppDataLocation) + QStringLiteral("/open");
    if (!QDir().mkpath(dir)) return; // nowhere to say it: the check at save time still guards the file
    const QString key = QString::fromLatin1(QCryptographicHash::hash(path.toUtf8(), QCryptographicHash::Sha1).toHex().left(16));
    auto lock = std::make_unique<QLockFile>(dir + QLatin1Char('/') + key + QStringLiteral(".lock"));
    lock->setStaleLockTime(0); // held while the file is open here; a dead holder's lock is stale whatever its age
    if (lock->tryLock(0) || (lock->error() == QLockFile::LockFailedError && lock->removeStaleLockFile() && lock->tryLock(0))) {
        m_openLock = std::move(lock);
        return;
    }
    qint64 pid = 0;
    QString host, app;
    if (lock->error() == QLockFile::LockFailedError && lock->getLockInfo(&pid, &host, &app)) Q_EMIT openElsewhere(path, pid);
}

namespace {
QByteArray hashOfFile(const QString& path)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly)) return {};
    QCryptographicHash hash(QCryptographicHash::Sha1);
    hash.addData(&file);
    return hash.result();
}
} // namespace

void PlanDocument::watchFile()
{
    if (!m_watcher) {
        m_watcher = new QFileSystemWatcher(this);
        connect(m_watcher, &QFileSystemWatcher::fileChanged, this, &PlanDocument::fileChanged);
    }
    if (!m_watcher->files().isEmpty()) m_watcher->removePaths(m_watcher->files());
    m_diskHash.clear();
    m_baseHash.clear();
    if (m_filePath.isEmpty() || !QFileInfo::exists(m_filePath)) return;
    m_diskHash = hashOfFile(m_filePath);
    m_baseHash = m_diskHash;
    m_watcher->addPath(m_filePath);
}

void PlanDocument::fileChanged(const QString& path)
{
    if (path != m_filePath) return;
    // An atomic write (QSaveFile here, and most editors) replaces the file, and the watcher drops a replaced path:
    // it is watched again.
    if (QFileInfo::exists(path) && !m_watcher->files().contains(path)) m_watcher->addPath(path);
    const QByteArray now = hashOfFile(path);
    if (now.isEmpty() || now == m_diskHash) return; // gone for now (a rename in progress), or our own bytes
    m_diskHash = now;
    Q_EMIT changedOnDisk(path);
}

void PlanDocument::showUntitledPlan(const Plan& plan)
{
    LoadJob::abandon(*this);
    adopt(LoadedPlan { plan, {} }, QString(), QString());
}

void PlanDocument::setPlan(const Plan& plan)
{
    m_plan = plan;
    m_hasPlan = true;
    m_loadWarnings.clear();
    // Back to the plan the file holds (undone to it): nothing to save, nothing to recover.
    const bool modified = !m_savedPlan || !(m_plan == *m_savedPlan);
    setModified(modified);
    if (modified) {
        m_autosaveTimer.start();
    } else {
        m_autosaveTimer.stop();
        discardAutosave();
    }
    Q_EMIT planEdited();
    evaluateAsync();
}

std::shared_ptr<const Prediction> PlanDocument::prediction() const
{
    return m_analysis ? std::shared_ptr<const Prediction>(m_analysis, &m_analysis->prediction) : nullptr;
}

std::shared_ptr<const Explainer> PlanDocument::explainer() const
{
    return m_analysis ? m_analysis->explainer : nullptr;
}

QString PlanDocument::timelineError() const
{
    return m_analysis ? describe(m_analysis->timelineErrors) : QString();
}

const Plan& PlanDocument::predictedPlan() const
{
    static const Plan none;
    return m_analysis ? m_analysis->plan : none;
}

void PlanDocument::cancelEvaluation()
{
    if (m_cancel) m_cancel->store(true);
}

AnalysisOptions PlanDocument::analysisOptions(const Issues& loadWarnings, const Calibration* calibration)
{
    AnalysisOptions options;
    options.explain = true;
    options.inputWarnings = loadWarnings;
    if (calibration) options.calibration = *calibration;
    return options;
}

void PlanDocument::evaluateAsync()
{
    const quint64 generation = ++m_generation;
    // The analysis still running is of a plan gone: it stops at its simulation, and publish() drops its result.
    cancelEvaluation();
    m_cancel = std::make_shared<std::atomic<bool>>(false);
    AnalysisOptions options = analysisOptions(m_loadWarnings, m_calibration.get());
    options.cancel = m_cancel;
    // The one analysis (core), off the GUI thread: prediction, simulated timeline and explanations together.
    // The timeline's indexes come with it, so a new analysis costs the GUI thread no O(n log n) work.
    // The continuation takes the future itself, so a failure (an exception, memory exhausted) still ends the
    // "evaluating" state and is shown as an error instead of leaving the views waiting.
    if (m_pending++ == 0) Q_EMIT evaluatingChanged(true);
    runThen(
        this, [plan = m_plan, options = std::move(options)] { return analyse(plan, options); },
        [this, generation](QFuture<std::shared_ptr<const Analysis>> done) {
            if (m_pending > 0) --m_pending;
            // Only the newest request's failure is shown (publish() drops the older ones anyway).
            std::shared_ptr<const Analysis> analysis = generation == m_generation ? analysisOrFailure(done, m_plan, m_loadWarnings) : nullptr;
            if (m_pending == 0) Q_EMIT evaluatingChanged(false);
            if (analysis) publish(generation, std::move(analysis));
        });
}

void PlanDocument::publish(quint64 generation, std::shared_ptr<const Analysis> analysis)
{
    // Only the newest request is shown: an older one finishing late would show numbers of a plan gone.
    if (generation != m_generation) return;
    m_analysis = std::move(analysis);
    Q_EMIT predictionChanged();
}

void PlanDocument::setModified(bool modified)
{
    if (m_modified == modified) return;
    m_modified = modified;
    Q_EMIT modifiedChanged(modified);
}

QString PlanDocument::autosaveDirectory()
{
    return QStandardPaths::writableLocation(QStandardPaths::AppDataLocation) + QStringLiteral("/autosave");
}

QString PlanDocument::autosavePathFor(const QString& filePath) const
{
    // One file per plan file (a hash of its path, readable by its name), or per untitled document of this process.
    QString key;
    if (filePath.isEmpty()) {
        key = m_untitledSlot;
    } else {
        const QByteArray hash = QCryptographicHash::hash(QFile::encodeName(filePath), QCryptographicHash::Sha1).toHex().left(12);
        QString base = QFileInfo(filePath).fileName();
        base.replace(QRegularExpression(QStringLiteral("[^A-Za-z0-9._-]")), QStringLiteral("_"));
        if (base.endsWith(QLatin1String(".plan.json"))) base.chop(int(qstrlen(".plan.json")));
        else if (base.endsWith(QLatin1String(".json"))) base.chop(int(qstrlen(".json")));
        key = base.left(48) + QLatin1Char('-') + QString::fromLatin1(hash);
    }
    return autosaveDirectory() + QLatin1Char('/') + key + QStringLiteral(".plan.json");
}

QString PlanDocument::autosavePath() const
{
    return m_autosavePath.isEmpty() ? autosavePathFor(m_filePath) : m_autosavePath;
}

bool PlanDocument::claimAutosave(const QString& path)
{
    if (m_autosavePath == path && m_autosaveLock) return true;
    auto lock = std::make_unique<QLockFile>(path + QStringLiteral(".lock"));
    lock->setStaleLockTime(0); // held for the document's life; a dead holder's lock is stale whatever its age
    if (!lock->tryLock(0)) {
        // Another running PlanScope holds it (the same file open twice): keep a slot of this process instead.
        if (lock->error() == QLockFile::LockFailedError && lock->removeStaleLockFile() && lock->tryLock(0)) {
            // the holder was dead after all
        } else {
            return false;
        }
    }
    m_autosaveLock = std::move(lock);
    m_autosavePath = path;
    return true;
}

bool PlanDocument::autosaveNow()
{
    m_autosaveTimer.stop();
    if (!m_hasPlan) return false;
    const bool ok = writeAutosave();
    if (!ok && !m_autosaveFailing) {
        m_autosaveFailing = true;
        Q_EMIT autosaveFailed(m_error);
    } else if (ok && m_autosaveFailing) {
        m_autosaveFailing = false;
        Q_EMIT autosaveRestored();
    }
    // Still failing: try again later, so the edits reach the disk once there is room.
    if (!ok && m_modified) m_autosaveTimer.start();
    return ok;
}

bool PlanDocument::writeAutosave()
{
    if (!QDir().mkpath(autosaveDirectory())) {
        m_error = tr("Cannot create the folder %1: %2")
                      .arg(QDir::toNativeSeparators(autosaveDirectory()), whyWriteFailed(autosaveDirectory(), QString()));
        return false;
    }
    QString path = m_autosavePath.isEmpty() ? autosavePathFor(m_filePath) : m_autosavePath;
    if (!claimAutosave(path)) {
        path = autosavePathFor(QString()); // held by another instance: this process's untitled slot
        if (!claimAutosave(path)) {
            m_error = tr("Cannot lock %1: %2").arg(QDir::toNativeSeparators(path), whyWriteFailed(path, tr("the lock file cannot be created")));
            return false;
        }
    }
    if (!writeAtomically(path, QByteArray::fromStdString(serializePlan(m_plan)))) return false;
    QJsonObject meta;
    meta.insert(QStringLiteral("original"), m_filePath);
    meta.insert(QStringLiteral("name"), QString::fromStdString(m_plan.name));
    meta.insert(QStringLiteral("savedAt"), QDateTime::currentDateTimeUtc().toString(Qt::ISODateWithMs));
    if (!writeAtomically(autosaveMetaPath(path), QJsonDocument(meta).toJson())) return false;
    Q_EMIT autosaved(path);
    return true;
}

void PlanDocument::discardAutosave()
{
    if (m_autosavePath.isEmpty()) return;
    QFile::remove(m_autosavePath);
    QFile::remove(autosaveMetaPath(m_autosavePath));
    m_autosaveLock.reset();
    m_autosavePath.clear();
}

void PlanDocument::discardChanges()
{
    m_autosaveTimer.stop();
    discardAutosave();
    setModified(false);
}

QList<PlanDocument::Recovery> PlanDocument::pendingRecoveries()
{
    QList<Recovery> out;
    const QDir dir(autosaveDirectory());
    for (const QFileInfo& fi : dir.entryInfoList({ QStringLiteral("*.plan.json") }, QDir::Files, QDir::Time)) {
        // Held by a running PlanScope (this one included): not left behind.
        QLockFile lock(fi.absoluteFilePath() + QStringLiteral(".lock"));
        lock.setStaleLockTime(0);
        if (!lock.tryLock(0)) {
            if (!(lock.error() == QLockFile::LockFailedError && lock.removeStaleLockFile() && lock.tryLock(0))) continue;
        }
        lock.unlock();
        Recovery r;
        r.autosavePath = fi.absoluteFilePath();
        r.savedAt = fi.lastModified();
        const QJsonObject o = readAutosaveMeta(fi.absoluteFilePath());
        r.originalPath = o.value(QStringLiteral("original")).toString();
        r.planName = o.value(QStringLiteral("name")).toString();
        const QDateTime at = QDateTime::fromString(o.value(QStringLiteral("savedAt")).toString(), Qt::ISODateWithMs);
        if (at.isValid()) r.savedAt = at.toLocalTime();
        out.push_back(r);
    }
    return out;
}

void PlanDocument::discardRecovery(const Recovery& recovery)
{
    QFile::remove(recovery.autosavePath);
    QFile::remove(autosaveMetaPath(recovery.autosavePath));
    QFile::remove(recovery.autosavePath + QStringLiteral(".lock"));
}

bool PlanDocument::writeAtomically(const QString& path, const QByteArray& bytes)
{
    QString why;
    if (saveBytes(path, bytes, &why)) return true;
    m_error = tr("Cannot write %1: %2").arg(QDir::toNativeSeparators(path), why);
    return false;
}

void PlanDocument::setCalibration(std::shared_ptr<const Calibration> calibration)
{
    m_calibration = std::move(calibration);
    Q_EMIT calibrationChanged();
    if (m_hasPlan) evaluateAsync();
}

std::shared_ptr<const Analysis> PlanDocument::analysisOrFailure(
    QFuture<std::shared_ptr<const Analysis>>& done, const Plan& plan, const Issues& inputWarnings)
{
    // Sentences of core's kind (util/Text.h), so the views show them as they show core's errors.
    Text failure(PS_TEXT("CoreText", "the analysis failed"));
    try {
        if (auto analysis = done.result()) return analysis;
    } catch (const std::bad_alloc&) {
        failure = Text(PS_TEXT("CoreText", "the analysis ran out of memory"));
    } catch (const std::exception& e) {
        failure = Text(PS_TEXT("CoreText", "the analysis failed: %1"), std::string(e.what()));
    } catch (...) {
    }
    auto failed = std::make_shared<Analysis>();
    failed->plan = plan;
    failed->inputWarnings = inputWarnings;
    failed->prediction.errors.push_back(issue(Severity::Error, "", std::move(failure)));
    failed->analytic = failed->prediction;
    failed->explainer = std::make_shared<const Explainer>();
    return failed;
}

} // namespace planscope
