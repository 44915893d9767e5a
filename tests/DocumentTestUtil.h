// Waiting on a PlanDocument's analysis, once for every widget and app suite: load a plan or set one, and return when
// its prediction is published. One time budget for all of them: an analysis of the largest sample under the
// sanitizers takes seconds, and a wait that succeeds returns at the signal, so the budget costs nothing.
// A view test needs no document: analyseSample() is the analysis a view draws (Page::setAnalysis), made here.
#pragma once

#include "TestUtil.h"
#include "analysis/Analysis.h"
#include "document/PlanDocument.h"

#include <memory>

#include <QSignalSpy>
#include <QString>

namespace planscope::test {

inline constexpr int kAnalysisWaitMs = 120000;

inline QString samplePlanPath(const char* name)
{
    return QStringLiteral(PLANSCOPE_SAMPLES_DIR "/plans/") + QLatin1String(name);
}

// The analysis of samples/plans/<name> with the options the app's document uses, on the calling thread: what a view
// is given, without a document, a thread or a wait.
inline std::shared_ptr<const Analysis> analyseSample(const char* name)
{
    return analyse(loadSample(name), PlanDocument::analysisOptions({}));
}

// True once `spy` (on PlanDocument::predictionChanged) has fired, waiting for it if it has not yet.
inline bool waitForPrediction(QSignalSpy& spy)
{
    return spy.count() > 0 || spy.wait(kAnalysisWaitMs);
}

// Loads the plan file at `path` and waits for its first prediction.
inline bool loadAndWait(PlanDocument& doc, const QString& path)
{
    QSignalSpy spy(&doc, &PlanDocument::predictionChanged);
    return doc.load(path) && waitForPrediction(spy);
}

// Loads samples/plans/<name> and waits for its first prediction.
inline bool loadSampleAndWait(PlanDocument& doc, const char* name)
{
    return loadAndWait(doc, samplePlanPath(name));
}

// Replaces the plan and waits for its prediction.
inline bool setPlanAndWait(PlanDocument& doc, const Plan& plan)
{
    QSignalSpy spy(&doc, &PlanDocument::predictionChanged);
    doc.setPlan(plan);
    return waitForPrediction(spy);
}

// Waits until the published prediction is the one of the plan as it stands now (edits re-run the analysis; a late
// result of an older edit is dropped).
inline bool waitForCurrentPrediction(PlanDocument& doc)
{
    QSignalSpy spy(&doc, &PlanDocument::predictionChanged);
    for (int i = 0; i < 10 && (doc.isEvaluating() || !doc.prediction() || !(doc.predictedPlan() == doc.plan())); ++i)
        if (!spy.wait(kAnalysisWaitMs)) return false;
    return doc.prediction() && doc.predictedPlan() == doc.plan();
}

} // namespace planscope::test
