// Measured Kineto ranks against a plan's prediction (planscope-cli import --against, docs/FORMATS.md section 5):
// the measured step time and per-step compute / exposed communication, the relative error of each predicted
// phase and which phase is furthest off.
#pragma once

#include "cost/Prediction.h"
#include "trace/KinetoImport.h"

#include <string>
#include <vector>

namespace planscope {

// One rank's per-step numbers. With ProfilerStep spans (method "profilerStep") the step time is the median
// ProfilerStep duration, and compute, communication and exposed communication are medians over the steps of
// each step's kernel breakdown (stepBreakdowns). Without them the whole kernel span counts as one step
// ("kernelSpan") with the whole-trace breakdown.
struct RankStepMeasure {
    int rank = -1;
    int steps = 0;
    std::string method;
    double stepSeconds = 0;
    double computeSeconds = 0;
    double commSeconds = 0;
    double exposedCommSeconds = 0; // communication not overlapped by compute
};
RankStepMeasure measureSteps(const MeasuredRank& r);

struct PhaseComparison {
    std::string phase; // "compute", "exposedComm", "step"
    double predictedSeconds = 0;
    double measuredSeconds = 0;
    double error = 0; // predicted / measured - 1; NaN when nothing was measured
};

struct Comparison {
    std::string plan;
    std::string method; // the ranks' method (they share one unless some lack ProfilerStep spans: "mixed")
    double predictedStepSeconds = 0;
    double measuredStepSeconds = 0; // median over ranks
    double stepError = 0; // predicted / measured - 1: positive = pessimistic, negative = optimistic; NaN if unmeasured
    std::string reading; // "prediction 9% optimistic"
    std::vector<RankStepMeasure> ranks;
    std::vector<PhaseComparison> phases; // compute, exposedComm, step; measured values are medians over ranks
    std::string biggestGap; // the phase with the largest |predicted - measured| seconds
};

// The prediction's compute, exposed communication and step time against the medians over the ranks.
Comparison compare(const std::vector<MeasuredRank>& ranks, const Prediction& prediction, const std::string& planName);

} // namespace planscope
