#include "trace/Compare.h"

#include "trace/TraceAnalysis.h"

#include <cmath>
#include <cstdio>
#include <limits>

namespace planscope {

RankStepMeasure measureSteps(const MeasuredRank& r)
{
    RankStepMeasure m;
    m.rank = r.rank;
    if (r.stepSpans.empty()) {
        const MeasuredBreakdown& b = r.breakdown;
        m.steps = 1;
        m.method = "kernelSpan";
        m.stepSeconds = b.spanSeconds;
        m.computeSeconds = b.computeSeconds;
        m.commSeconds = b.commSeconds;
        m.exposedCommSeconds = b.commSeconds - b.overlapSeconds;
        return m;
    }
    // Medians, not means: a warm-up step or one with a checkpoint would pull a mean away from the typical
    // step.
    std::vector<double> step, compute, comm, exposed;
    for (const StepBreakdown& s : stepBreakdowns(r)) {
        step.push_back(double(s.durNs) * 1e-9);
        compute.push_back(s.computeSeconds);
        comm.push_back(s.commSeconds);
        exposed.push_back(s.commSeconds - s.overlapSeconds);
    }
    m.steps = static_cast<int>(r.stepSpans.size());
    m.method = "profilerStep";
    m.stepSeconds = medianOf(step);
    m.computeSeconds = medianOf(compute);
    m.commSeconds = medianOf(comm);
    m.exposedCommSeconds = medianOf(exposed);
    return m;
}

namespace {

double relError(double predicted, double measured)
{
    return measured > 0 ? predicted / measured - 1 : std::numeric_limits<double>::quiet_NaN();
}

} // namespace

Comparison compare(const std::vector<MeasuredRank>& ranks, const Prediction& prediction, const std::string& planName)
{
    Comparison c;
    c.plan = planName;
    std::vector<double> step, compute, exposed;
    for (const MeasuredRank& r : ranks) {
        RankStepMeasure m = measureSteps(r);
        step.push_back(m.stepSeconds);
        compute.push_back(m.computeSeconds);
        exposed.push_back(m.exposedCommSeconds);
        if (c.method.empty())
            c.method = m.method;
        else if (c.method != m.method)
            c.method = "mixed";
        c.ranks.push_back(std::move(m));
    }
    c.predictedStepSeconds = prediction.stepSeconds;
    c.measuredStepSeconds = medianOf(step);
    c.stepError = relError(c.predictedStepSeconds, c.measuredStepSeconds);
    if (std::isnan(c.stepError)) {
        c.reading = "nothing measured";
    } else {
        char buf[64];
        std::snprintf(buf, sizeof buf, "prediction %.0f%% %s", std::abs(c.stepError) * 100,
            c.stepError < 0 ? "optimistic" : "pessimistic");
        c.reading = buf;
    }
    auto row = [&](const char* phase, double predicted, double measured) {
        c.phases.push_back(PhaseComparison { phase, predicted, measured, relError(predicted, measured) });
    };
    row("compute", prediction.computeSeconds, medianOf(compute));
    row("exposedComm", prediction.exposedCommSeconds, medianOf(exposed));
    row("step", c.predictedStepSeconds, c.measuredStepSeconds);
    double worst = -1;
    for (const PhaseComparison& p : c.phases) {
        const double gap = std::abs(p.predictedSeconds - p.measuredSeconds);
        if (gap > worst) {
            worst = gap;
            c.biggestGap = p.phase;
        }
    }
    return c;
}

} // namespace planscope
