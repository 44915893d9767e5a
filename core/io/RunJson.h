// The JSON of a measured run's reading and of two runs compared: `planscope-cli run-summary --json` (schema
// planscope/run-summary/v1) and `compare-runs --json` (planscope/run-compare/v1), docs/FORMATS.md section 14. Every
// time is integer nanoseconds, as in the run file.
#pragma once

#include "trace/RunAnalysis.h"

#include <nlohmann/json.hpp>

namespace planscope {

// The run's counts, the median rank, the `top` slowest ranks with why, and every group with its scope and straggler.
nlohmann::json runSummaryJson(const MeasuredRun& run, std::size_t top);
nlohmann::json runComparisonJson(const RunComparison& c);

} // namespace planscope
