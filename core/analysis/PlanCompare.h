// Plans side by side (docs/FORMATS.md section 8): one row per headline figure of the analyses, the better plan of each
// row and every value relative to it. The figures are the analyses' own (what each plan's `evaluate` prints); nothing
// is recomputed here.
#pragma once

#include "cost/Prediction.h"

#include <optional>
#include <string>
#include <vector>

namespace planscope {

// One figure a plan is judged by: its prediction field, its name (a template of util/Text.h, so the app shows it in
// its language), its unit, which way is better, and whether plans are ranked on it (the Compare page, `planscope-cli
// compare`) or it stands only in a plan's own summary (the report's headline table).
struct HeadlineFigure {
    const char* field;
    TextTemplate label;
    const char* unit; // "s", "B", "tokens/s", "" (a share), "days"
    bool lowerIsBetter;
    bool compared;
    double (*value)(const Prediction&);
};
// Every headline figure, in the order every summary lists them: the one list of them.
const std::vector<HeadlineFigure>& headlineFigures();

struct CompareRow {
    std::string field;                         // prediction field, e.g. "time.stepSeconds", "memory.stages.0.totalBytes"
    Text label;                                // in words
    std::string unit;                          // "s", "B", "tokens/s", "", "days"
    bool lowerIsBetter = true;
    std::vector<std::optional<double>> values; // one per plan; empty where the plan has no such figure (fewer stages,
                                               // an invalid plan)
    int best = -1;                             // the plan with the better value (the first of equals); -1: none
    std::vector<std::optional<double>> relative; // value / best value; empty where either is missing or the best is 0
};

// Rows: the compared headline figures in their order, each stage's peak memory after the peak memory per GPU.
// Invalid plans (prediction.valid false) have no values.
std::vector<CompareRow> compareRows(const std::vector<const Prediction*>& predictions);

} // namespace planscope
