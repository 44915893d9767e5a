#include "Analysis.h"

#include "spec/ScheduleTraits.h"
#include "cost/Evaluate.h"
#include "schedule/Schedule.h"

#include <algorithm>
#include <cmath>

namespace planscope {

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
    // A term or warning keeps its path inside the line ("calibrated: cluster.intraNode: ..."), as printed.
    const auto note = [](TextTemplate t, const Issue& i) {
        return issue(Severity::Warning, "",
            i.path.empty() ? Text(t, issueText(i)) : Text(t, Text(PS_TEXT("CoreText", "%1: %2"), i.path, issueText(i))));
    };
    if (options.calibration) {
        const Calibration& c = *options.calibration;
        a->calibration = c;
        for (const Issue& why : c.refused) a->calibrationNotes.push_back(note(PS_TEXT("CoreText", "calibration: %1"), why));
        for (const Issue& term : c.terms) a->calibrationNotes.push_back(note(PS_TEXT("CoreText", "calibrated: %1"), term));
        const bool changes = c.intraNode || c.interNode || c.gemmEfficiency || c.hbmBandwidth || !c.gemms.empty();
        if (c.refused.empty() && !changes)
            a->calibrationNotes.push_back(issue(Severity::Warning, "",
                Text(PS_TEXT("CoreText", "calibration: the profile measured nothing this plan uses; preset values kept"))));
        for (const Issue& w : c.warnings) a->calibrationNotes.push_back(note(PS_TEXT("CoreText", "calibration: %1"), w));
    }
    predicted.warnings.insert(predicted.warnings.begin(), a->calibrationNotes.begin(), a->calibrationNotes.end());
    a->analytic = predicted;

    const double ops = simulatedOpCount(a->evaluatedPlan, predicted.microbatches);
    if (predicted.valid && options.simulate && ops > double(kMaxSimulatedOps)) {
        // Laying out every op of such a step would take gigabytes for a picture no screen can show: the closed form
        // stands, and the timeline says why it is missing.
        a->timelineErrors.push_back(issue(Severity::Warning, "training.globalBatch",
            Text(PS_TEXT("CoreText", "the schedule has %1 ops (pp*microbatches*chunks*passes), more than the %2 the "
                                     "simulation lays out; the step time is the closed form's"),
                std::llround(ops), kMaxSimulatedOps)));
        predicted.warnings.push_back(
            issue(Severity::Warning, "", Text(PS_TEXT("CoreText", "not simulated: %1"), a->timelineErrors.back().text)));
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
            a->timelineErrors.push_back(issue(Severity::Warning, "",
                Text(PS_TEXT("CoreText", "the simulation was cancelled; the step time is the closed form's"))));
            predicted.warnings.push_back(
                issue(Severity::Warning, "", Text(PS_TEXT("CoreText", "not simulated: %1"), a->timelineErrors.back().text)));
        }
    }
    a->prediction = std::move(predicted);
    a->explainer = explainer ? std::shared_ptr<const Explainer>(std::move(explainer)) : std::make_shared<const Explainer>();
    return a;
}

} // namespace planscope
