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
    m.steps = r.steps.empty() ? 1 : static_cast<int>(r.steps.size());
    m.method = r.steps.empty() ? "kernelSpan" : "kernelSpanOverSteps";
    const double n = m.steps;
    const MeasuredBreakdown& b = r.breakdown;
    m.stepSeconds = b.spanSeconds / n;
    m.computeSeconds = b.computeSeconds / n;
    m.commSeconds = b.commSeconds / n;
    m.exposedCommSeconds = (b.commSeconds - b.overlapSeconds) / n;
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
