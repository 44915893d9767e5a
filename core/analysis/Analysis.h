// analyse(plan, options) -> Analysis: the one computation every consumer reads (docs/ARCHITECTURE.md section 2).
// The app's document, every planscope-cli verb, the profile page's before/after and the trace overlay all take
// their numbers from here, so the same plan never shows two step times. The result is immutable and shared
// (std::shared_ptr<const Analysis>): hand it to any thread, keep it as long as a view needs it.
#pragma once

#include "calib/Profile.h"
#include "cost/Explain.h"
#include "cost/Prediction.h"
#include "sim/Timeline.h"
#include "sim/TimelineIndex.h"
#include "spec/Plan.h"
#include "util/Result.h"

#include <atomic>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace planscope {

struct AnalysisOptions {
    // Measured efficiencies (a profile fitted to this plan); they replace the presets' link, GEMM and HBM
    // figures for the numbers, while Analysis::plan keeps the plan as written.
    std::optional<Calibration> calibration;
    // Record, for every field, its formula, inputs and source (costs strings; the planner leaves it off).
    bool explain = false;
    // Run the schedule simulation: its step time is the one every consumer shows (time.stepSeconds); the closed
    // form stays in Analysis::analytic and time.analyticStepSeconds. Off only for ranking many plans quickly.
    bool simulate = true;
    // Warnings met while reading the plan file (unknown fields, defaults applied): kept in
    // Analysis::inputWarnings and listed first among the JSON document's warnings.
    Issues inputWarnings;
    // Set from another thread to stop the simulation (the user's Cancel, or a newer edit superseding this analysis):
    // the analysis then ends with the closed form's step and timelineErrors saying it was cancelled.
    std::shared_ptr<const std::atomic<bool>> cancel;
};

struct Analysis {
    Plan plan;          // as given (as edited and saved)
    Plan evaluatedPlan; // the plan the numbers come from: `plan` with the calibration applied
    // The closed-form prediction (time.stepSeconds is the analytic step). Equal to `prediction` where the
    // simulation did not run.
    Prediction analytic;
    // What everyone shows: the analytic prediction with the step time, bubble, MFU/HFU, tokens/s and days taken
    // from the simulated timeline where there is one (timeSource "simulation").
    Prediction prediction;
    // The simulated step (null: invalid plan, simulation off, or the schedule could not be simulated).
    std::shared_ptr<const Timeline> timeline;
    // Its indexes (lanes, running maxima of ends, spans by microbatch, stages by rank): built here, on the
    // analysing thread, so a view that draws the timeline only binary-searches. Null with the timeline.
    std::shared_ptr<const TimelineIndex> timelineIndex;
    Issues timelineErrors; // why there is no timeline for a valid plan with simulation on
    // Explanations of `prediction` (the simulated fields where simulated; the closed form under
    // time.analyticStepSeconds). Empty unless AnalysisOptions::explain.
    std::shared_ptr<const Explainer> explainer;
    // What the calibration changed ("calibrated: cluster.intraNode: ..."), or why it changed nothing
    // ("calibration: ..."). Also at the front of prediction.warnings.
    Issues calibrationNotes;
    std::optional<Calibration> calibration; // as given in the options
    Issues inputWarnings;                    // as given in the options

    bool valid() const { return prediction.valid; }
    // The simulated step where simulated, else the analytic one: the figure of time.stepSeconds.
    double stepSeconds() const { return prediction.stepSeconds; }
};

std::shared_ptr<const Analysis> analyse(const Plan& plan, const AnalysisOptions& options = {});

// Compute ops the schedule of a plan lays out (pp * microbatches * chunks per rank * passes per chunk), and the most
// analyse() simulates: about 250 bytes each in the timeline, so a million is a quarter of a gigabyte. Beyond it the
// step is the closed form's and timelineErrors says why.
double simulatedOpCount(const Plan& plan, std::int64_t microbatches);
inline constexpr std::int64_t kMaxSimulatedOps = 1'000'000;

} // namespace planscope
