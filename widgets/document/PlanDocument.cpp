#include "document/PlanDocument.h"

#include "io/PlanJson.h"

#include <QDir>
#include <QFileInfo>
#include <QSaveFile>
#include <QStandardPaths>
#include <QtConcurrent/QtConcurrentRun>

namespace planscope {

PlanDocument::PlanDocument(QObject* parent)
    : QObject(parent)
{
    m_autosaveTimer.setSingleShot(true);
    m_autosaveTimer.setInterval(2000);
    connect(&m_autosaveTimer, &QTimer::timeout, this, [this] { autosaveNow(); });
}

PlanDocument::~PlanDocument()
{
    // A pending change is written before the document goes, so quitting right after an edit loses nothing.
    if (m_autosaveTimer.isActive()) autosaveNow();
}

QString PlanDocument::describe(const Issues& issues)
{
    QStringList lines;
    for (const Issue& i : issues) {
        QString where = QString::fromStdString(i.path);
        if (i.offset >= 0)
            where
                = where.isEmpty() ? tr("byte %1").arg(i.offset) : tr("%1 (byte %2)").arg(where).arg(i.offset);
        lines << (where.isEmpty() ? QString::fromStdString(i.message)
                                  : QStringLiteral("%1: %2").arg(where, QString::fromStdString(i.message)));
    }
    return lines.join(QLatin1Char('\n'));
}

bool PlanDocument::load(const QString& path)
{
    Result<LoadedPlan> loaded = loadPlanFile(QFile::encodeName(path).toStdString());
    if (!loaded) {
        m_error = tr("Cannot load %1:\n%2").arg(QDir::toNativeSeparators(path), describe(loaded.errors()));
        // Publish the reasons as an invalid analysis: the views show errors in one place, whatever their source.
        auto failed = std::make_shared<Analysis>();
        failed->prediction.errors = loaded.errors();
        failed->analytic = failed->prediction;
        failed->explainer = std::make_shared<const Explainer>();
        m_analysis = std::move(failed);
        ++m_generation; // a result still on its way belongs to the plan before
        Q_EMIT predictionChanged();
        return false;
    }
    m_error.clear();
    m_plan = std::move(loaded.value().plan);
    m_loadWarnings = std::move(loaded.value().warnings);
    m_hasPlan = true;
    m_filePath = QFileInfo(path).absoluteFilePath();
    m_autosaveTimer.stop();
    setModified(false);
    Q_EMIT filePathChanged(m_filePath);
    Q_EMIT planChanged();
    evaluateAsync();
    return true;
}

bool PlanDocument::save(const QString& path)
{
    if (!m_hasPlan) {
        m_error = tr("There is no plan to save.");
        return false;
    }
    if (!writeAtomically(path, QByteArray::fromStdString(serializePlan(m_plan)))) return false;
    const QString absolute = QFileInfo(path).absoluteFilePath();
    if (absolute != m_filePath) {
        m_filePath = absolute;
        Q_EMIT filePathChanged(m_filePath);
    }
    setModified(false);
    return true;
}

void PlanDocument::setPlan(const Plan& plan)
{
    m_plan = plan;
    m_hasPlan = true;
    m_loadWarnings.clear();
    setModified(true);
    m_autosaveTimer.start();
    Q_EMIT planChanged();
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

void PlanDocument::evaluateAsync()
{
    const quint64 generation = ++m_generation;
    ++m_pending;
    AnalysisOptions options;
    options.explain = true;
    options.inputWarnings = m_loadWarnings;
    if (m_calibration) options.calibration = *m_calibration;
    // The one analysis (core), off the GUI thread: prediction, simulated timeline and explanations together.
    // The timeline's indexes come with it, so a new analysis costs the GUI thread no O(n log n) work.
    QtConcurrent::run([plan = m_plan, options = std::move(options)] { return analyse(plan, options); })
        .then(this, [this, generation](std::shared_ptr<const Analysis> analysis) {
            --m_pending;
            publish(generation, std::move(analysis));
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

QString PlanDocument::autosavePath() const
{
    return QStandardPaths::writableLocation(QStandardPaths::AppDataLocation)
        + QStringLiteral("/autosave.plan.json");
}

bool PlanDocument::autosaveNow()
{
    m_autosaveTimer.stop();
    if (!m_hasPlan) return false;
    const QString path = autosavePath();
    if (!QDir().mkpath(QFileInfo(path).absolutePath())) {
        m_error = tr("Cannot create the folder for %1").arg(QDir::toNativeSeparators(path));
        return false;
    }
    if (!writeAtomically(path, QByteArray::fromStdString(serializePlan(m_plan)))) return false;
    Q_EMIT autosaved(path);
    return true;
}

bool PlanDocument::writeAtomically(const QString& path, const QByteArray& bytes)
{
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly) || file.write(bytes) != bytes.size() || !file.commit()) {
        m_error = tr("Cannot write %1: %2").arg(QDir::toNativeSeparators(path), file.errorString());
        return false;
    }
    return true;
}

void PlanDocument::setCalibration(std::shared_ptr<const Calibration> calibration)
{
    m_calibration = std::move(calibration);
    Q_EMIT calibrationChanged();
    if (m_hasPlan) evaluateAsync();
}

} // namespace planscope
