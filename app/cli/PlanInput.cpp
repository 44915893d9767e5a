#include "PlanInput.h"

#include "io/PlanJson.h"
#include "io/PredictionJson.h"

#include <nlohmann/json.hpp>
#include <ostream>

namespace planscope::cli {

void printIssues(const Issues& issues, std::ostream& err)
{
    for (const Issue& i : issues) {
        err << (i.severity == Severity::Error ? "error" : "warning");
        if (!i.path.empty()) err << " at " << i.path;
        if (i.offset >= 0) err << " (byte offset " << i.offset << ")";
        err << ": " << i.message << "\n";
    }
}

std::optional<LoadedPlan> loadPlanArg(const std::string& path, std::ostream& out, std::ostream& err, int& code,
    bool jsonErrors)
{
    auto loaded = loadPlanFile(path);
    if (loaded) return std::move(loaded).value();
    const Issues& errors = loaded.errors();
    // A file that cannot be opened, or that is no file (a FIFO, a device, a folder: core/util/InputFile.h), is an
    // I/O problem, not an invalid plan.
    if (errors.size() == 1 && errors[0].path == path) {
        const std::string& m = errors[0].message;
        if (m == "cannot open file") {
            err << "planscope-cli: cannot open " << path << "\n";
            code = 1;
            return std::nullopt;
        }
        if (m.starts_with("cannot open file: ") || m.ends_with(", not a regular file; not read")
            || m == "is a folder, not a file; not read") {
            err << "planscope-cli: " << path << ": " << m << "\n";
            code = 1;
            return std::nullopt;
        }
    }
    if (jsonErrors) out << invalidToJson(errors).dump(2) << "\n";
    printIssues(errors, err);
    code = 2;
    return std::nullopt;
}

std::shared_ptr<const Analysis> analysePlanFile(const std::string& path, AnalysisOptions options, std::ostream& out,
    std::ostream& err, int& code, bool jsonErrors)
{
    auto loaded = loadPlanArg(path, out, err, code, jsonErrors);
    if (!loaded) return nullptr;
    options.inputWarnings = std::move(loaded->warnings);
    return analyse(loaded->plan, options);
}

int exitInvalid(const Analysis& analysis, std::ostream& out, std::ostream& err, bool json)
{
    if (json) out << invalidToJson(analysis.prediction.errors).dump(2) << "\n";
    printIssues(analysis.prediction.errors, err);
    return 2;
}

} // namespace planscope::cli
