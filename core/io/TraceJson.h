// Measured runs as JSON: the document of `planscope-cli import` (docs/FORMATS.md section 5, additions in
// docs/TRACES.md): ranks, collective statistics, alignment, the comparison with a plan and the overlay.
#pragma once

#include "trace/Compare.h"
#include "trace/LayoutInference.h"
#include "trace/Overlay.h"
#include "trace/TraceAnalysis.h"
#include "trace/TraceFiles.h"

#include <nlohmann/json_fwd.hpp>

namespace planscope {

inline constexpr const char* kImportSchema = "planscope/import/v1";

nlohmann::json measuredRankToJson(const MeasuredRank& rank);
nlohmann::json alignmentToJson(const Alignment& alignment);
nlohmann::json comparisonToJson(const Comparison& comparison);
// The overlay as the Measured Run page shows it: per-rank decompositions, phases, matched PP: actions (the 20
// furthest off by duration; counts for all), the summary and its caveats.
nlohmann::json overlayToJson(const Overlay& overlay, const std::vector<MeasuredRank>& ranks);
nlohmann::json skippedToJson(const std::vector<SkippedRegion>& skipped);
// The jobs found among the files (the kept one marked) and the files left out with their reasons.
nlohmann::json jobsToJson(const TraceImport& traces);
nlohmann::json excludedToJson(const std::vector<ExcludedTrace>& excluded);
// The files counted by what became of them, with every distinct reason, its count and first files ("files").
nlohmann::json tallyToJson(const TraceFileTally& tally);

// The "inferredPlan" object (docs/TRACES.md, "The plan the traces imply"): worldSize; fields, each field's value (the
// order as its string), basis and evidence ("from"); notInferred with the reason of each; issues and notes as
// sentences; the distinct groups read (desc, role, size, stride, traces, members where listed); plan (null without a
// base).
nlohmann::json inferredLayoutToJson(const InferredLayout& layout);

// The whole import document; comparison and overlay may be null (no plan, or no simulated timeline).
nlohmann::json importToJson(const TraceImport& traces, const Alignment& alignment, const Comparison* comparison,
    const Overlay* overlay);

} // namespace planscope
