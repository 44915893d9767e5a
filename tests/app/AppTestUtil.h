// What the app's tests share: the samples, waiting for the document's analysis of its current plan, and the autosave
// folder (QStandardPaths test mode, so a test never touches a user's autosaves).
#pragma once

#include "TestUtil.h"

#include "document/PlanDocument.h"

#include <QDir>
#include <QStandardPaths>
#include <QString>
#include <QTest>

namespace planscope::test {

inline QString samplePlan(const char* name)
{
    return QString::fromStdString(samplePath(name));
}

// Polled, not waited on a signal: with several evaluations in flight (a lesson's steps one after another) the newest
// result may be published while the test is between waits.
inline bool waitForCurrentPrediction(PlanDocument& doc)
{
    const auto current = [&doc] { return !doc.isEvaluating() && doc.prediction() && doc.predictedPlan() == doc.plan(); };
    return QTest::qWaitFor(current, 120000);
}

inline void clearAutosaves()
{
    QDir(PlanDocument::autosaveDirectory()).removeRecursively();
}

// For initTestCase(): settings and autosaves in the test's own folders, and none left from an earlier run.
inline void isolateFromTheUser()
{
    QStandardPaths::setTestModeEnabled(true);
    clearAutosaves();
}

} // namespace planscope::test
