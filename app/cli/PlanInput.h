// How every planscope-cli verb that takes a PLAN gets its numbers: load the file, then the one core analysis
// (core/analysis/Analysis.h), exactly as the app's document does.
#pragma once

#include "analysis/Analysis.h"
#include "io/PlanJson.h"
#include "util/Result.h"

#include <iosfwd>
#include <memory>
#include <optional>
#include <string>

namespace planscope::cli {

// "error at PATH (byte offset N): message" lines.
void printIssues(const Issues& issues, std::ostream& err);

// Loads PLAN. Returns nothing with `code` 1 when the file cannot be opened, 2 when it does not parse (the JSON
// error document on `out` when jsonErrors, the readable errors on `err`).
std::optional<LoadedPlan> loadPlanArg(const std::string& path, std::ostream& out, std::ostream& err, int& code,
    bool jsonErrors = true);

// Loads PLAN and analyses it (the file's warnings go first in the prediction's warnings). Returns null with
// `code` 1 when the file cannot be opened, 2 when it does not parse (the JSON error document is printed on `out`
// when jsonErrors, the readable errors on `err`). A file that parses but describes an invalid plan is analysed:
// the Analysis says !valid() and the caller reports it (exitInvalid).
std::shared_ptr<const Analysis> analysePlanFile(const std::string& path, AnalysisOptions options, std::ostream& out,
    std::ostream& err, int& code, bool jsonErrors = true);

// For an invalid analysis: prints {"valid": false, "errors"} (when json) and the errors; returns exit code 2.
int exitInvalid(const Analysis& analysis, std::ostream& out, std::ostream& err, bool json = true);

} // namespace planscope::cli
