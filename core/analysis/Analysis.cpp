#include "Analysis.h"

#include "spec/ScheduleTraits.h"
#include "cost/Evaluate.h"
#include "schedule/Schedule.h"

#include <algorithm>
#include <cmath>

namespace planscope {

std::vector<std::string> issueLines(const Issues& issues)
{
    std::vector<std::string> lines;
    lines.reserve(issues.size());
    for (const Issue& i : issues) lines.push_back(i.path.empty() ? i.message : i.path + ": " + i.message);
    return lines;
}

double simulatedOpCount(const Plan& plan, std::int64_t microbatches)
{
    // The schedule simulate() asks for (sim/Simulate.cpp): interleaved 1F1B with one chunk per rank runs as 1F1B.
    ScheduleKind kind = plan.training.schedule;
    kind = effectiveSchedule(kind, plan.chunksPerRank());
    return scheduleOpCount(kind, plan.parallel.pp, plan.chunksPerRank(), double(std::max<std::int64_t>(0, microbatches)));
}

std::shared_ptr<const Analysis> analyse(const Plan& plan, const AnalysisOptions& options)
{
    auto a = std::make_shared<Analysis>();
    a->plan = plan;
    a->evaluatedPlan = options.calibration ? applyCalibration(plan, *options.calibration) : plan;
    std::shared_ptr<Explainer> explainer = options.explain ? std::make_shared<Explainer>() : nullptr;

    Prediction predicted = evaluate(a->evaluatedPlan, explainer.get());
    a->inputWarnings = options.inputWarnings;
    // The front of the model's warnings: what the calibration did.
    std::vector<std::string> front;
    if (options.calibration) {
        const Calibration& c = *options.calibration;
        a->calibration = c;
        for (const std::string& term : c.terms) a->calibrationNotes.push_back("calibrated: " + term);
        if (c.terms.empty())
            a->calibrationNotes.push_back("calibration: the profile measured nothing this plan uses; preset values kept");
        for (const std::string& w : c.warnings) a->calibrationNotes.push_back("calibration: " + w);
        front.insert(front.end(), a->calibrationNotes.begin(), a->calibrationNotes.end());
    }
    predicted.warnings.insert(predicted.warnings.begin(), front.begin(), front.end());
    a->analytic = predicted;

    const double ops = simulatedOpCount(a->evaluatedPlan, predicted.microbatches);
    if (predicted.valid && options.simulate && ops > double(kMaxSimulatedOps)) {
        // Laying out every op of such a step would take gigabytes for a picture no screen can show: the closed form
        // stands, and the timeline says why it is missing.
        a->timelineErrors.push_back({ Severity::Warning, "training.globalBatch",
            "the schedule has " + std::to_string(std::llround(ops)) + " ops (pp*microbatches*chunks*passes), more than the "
                + std::to_string(kMaxSimulatedOps) + " the simulation lays out; the step time is the closed form's",
            -1 });
        predicted.warnings.push_back("not simulated: " + a->timelineErrors.back().message);
    } else if (predicted.valid && options.simulate) {
        const std::atomic<bool>* cancel = options.cancel.get();
        auto simulated = simulate(a->evaluatedPlan, predicted, cancel);
        auto stopped = [&] { return cancel && cancel->load(); };
        std::shared_ptr<const Timeline> timeline;
        std::shared_ptr<const TimelineIndex> index;
        if (simulated && !stopped()) {
            timeline = std::make_shared<const Timeline>(std::move(simulated).value());
            index = std::make_shared<const TimelineIndex>(*timeline);
        }
        // A Cancel while the index was built still counts: the simulation's result is dropped as a whole.
        if (timeline && !stopped()) {
            a->timeline = std::move(timeline);
            a->timelineIndex = std::move(index);
            applySimulation(predicted, a->evaluatedPlan, *a->timeline, explainer.get());
        } else if (!simulated && simulated.errors().front().message != kSimulationCancelled) {
            a->timelineErrors = simulated.errors();
        } else {
            // Stopped: the closed form stands, and the timeline says why it is missing.
            a->timelineErrors.push_back({ Severity::Warning, "", std::string(kSimulationCancelled)
                    + "; the step time is the closed form's", -1 });
            predicted.warnings.push_back("not simulated: " + a->timelineErrors.back().message);
        }
    }
    a->prediction = std::move(predicted);
    a->explainer = explainer ? std::shared_ptr<const Explainer>(std::move(explainer)) : std::make_shared<const Explainer>();
    return a;
}

} // namespace planscope
