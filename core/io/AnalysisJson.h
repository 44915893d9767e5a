// An Analysis as JSON: the prediction document of `planscope-cli evaluate` and `simulate` (docs/FORMATS.md
// sections 2 and 4), written from the one analysis every consumer shares.
#pragma once

#include "analysis/Analysis.h"

#include <nlohmann/json_fwd.hpp>
#include <string>

namespace planscope {

enum class StepFigure {
    Simulated, // time.* from the schedule simulation where it ran (what the app shows); the default
    Analytic,  // the closed form (evaluate --analytic)
};

// The prediction JSON (schema planscope/prediction/v1). Both step figures are always present:
// time.analyticStepSeconds, and time.simulatedStepSeconds where the simulation ran (null where it did not, with
// time.simulationErrors saying why). With a calibration, a "calibration" object names its source and terms.
nlohmann::json analysisToJson(const Analysis& analysis, StepFigure figure = StepFigure::Simulated);

// The simulated step's summary: schedule, per-rank busy/idle/peaks, the critical path (docs/FORMATS.md section 4).
nlohmann::json timelineSummaryToJson(const Timeline& timeline);

} // namespace planscope
