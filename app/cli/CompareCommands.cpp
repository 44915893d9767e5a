#include "CompareCommands.h"

#include "PlanInput.h"

#include "analysis/PlanCompare.h"
#include "io/AnalysisJson.h"
#include "util/Units.h"

#include <cstdio>
#include <nlohmann/json.hpp>
#include <ostream>

namespace planscope::cli {

using nlohmann::json;

namespace {

json optionalValues(const std::vector<std::optional<double>>& v)
{
    json a = json::array();
    for (const auto& x : v) a.push_back(x ? json(*x) : json(nullptr));
    return a;
}

std::string formatValue(const CompareRow& r, double v)
{
    if (r.unit == "s") return units::formatSeconds(v);
    if (r.unit == "B") return units::formatBytes(v);
    if (r.unit == "tokens/s") return units::formatCount(v);
    char buf[32];
    if (r.unit == "days") {
        std::snprintf(buf, sizeof buf, "%.1f days", v);
        return buf;
    }
    std::snprintf(buf, sizeof buf, "%.1f %%", v * 100);
    return buf;
}

void printTable(const std::vector<std::shared_ptr<const Analysis>>& as, const std::vector<std::string>& names,
    const std::vector<CompareRow>& rows, std::ostream& out)
{
    char buf[256];
    std::snprintf(buf, sizeof buf, "%-46s", "");
    out << buf;
    for (std::size_t i = 0; i < names.size(); ++i) {
        std::snprintf(buf, sizeof buf, " %20s", (std::string(1, char('A' + i % 26)) + ": " + names[i]).substr(0, 20).c_str());
        out << buf;
    }
    out << "\n";
    for (const CompareRow& r : rows) {
        std::snprintf(buf, sizeof buf, "%-46s", r.label.english().c_str());
        out << buf;
        for (std::size_t i = 0; i < r.values.size(); ++i) {
            std::string cell = r.values[i] ? formatValue(r, *r.values[i]) : "-";
            if (int(i) == r.best) cell = "*" + cell;
            else if (r.relative[i]) {
                char rel[32];
                std::snprintf(rel, sizeof rel, " (x%.2f)", *r.relative[i]);
                cell += rel;
            }
            std::snprintf(buf, sizeof buf, " %20s", cell.c_str());
            out << buf;
        }
        out << "\n";
    }
    out << "* the better value; (xN) the value over it\n";
    for (std::size_t i = 0; i < as.size(); ++i)
        if (!as[i]->valid()) out << char('A' + i % 26) << ": invalid plan\n";
}

} // namespace

int cmdCompare(const Args& a, std::ostream& out, std::ostream& err)
{
    if (a.positional.size() < 2) {
        err << "usage: planscope-cli compare A.plan.json B.plan.json [...] [--json]\n";
        return 1;
    }
    std::vector<std::shared_ptr<const Analysis>> analyses;
    std::vector<std::string> names;
    for (const std::string& path : a.positional) {
        int code = 0;
        auto plan = loadPlanArg(path, out, err, code, a.has("--json"));
        if (!plan) return code;
        AnalysisOptions options;
        options.inputWarnings = plan->warnings;
        analyses.push_back(analyse(plan->plan, options));
        names.push_back(plan->plan.name.empty() ? path : plan->plan.name);
    }
    std::vector<const Prediction*> predictions;
    for (const auto& an : analyses) predictions.push_back(&an->prediction);
    const std::vector<CompareRow> rows = compareRows(predictions);
    if (!a.has("--json")) {
        printTable(analyses, names, rows, out);
        return 0;
    }
    json plans = json::array();
    for (std::size_t i = 0; i < analyses.size(); ++i)
        plans.push_back({ { "file", a.positional[i] }, { "name", names[i] },
            { "prediction", analysisToJson(*analyses[i], StepFigure::Simulated) } });
    json jrows = json::array();
    for (const CompareRow& r : rows)
        jrows.push_back({ { "field", r.field }, { "label", r.label.english() }, { "unit", r.unit }, { "lowerIsBetter", r.lowerIsBetter },
            { "values", optionalValues(r.values) }, { "best", r.best >= 0 ? json(r.best) : json(nullptr) },
            { "relative", optionalValues(r.relative) } });
    out << json { { "schema", "planscope/compare/v1" }, { "plans", plans }, { "rows", jrows } }.dump(2) << "\n";
    return 0;
}

} // namespace planscope::cli
