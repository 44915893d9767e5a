// Plans side by side (docs/FORMATS.md section 8): one row per headline figure of the analyses, the better plan of each
// row and every value relative to it. The figures are the analyses' own (what each plan's `evaluate` prints); nothing
// is recomputed here.
#pragma once

#include "cost/Prediction.h"

#include <optional>
#include <string>
#include <vector>

namespace planscope {

struct CompareRow {
    std::string field;                         // prediction field, e.g. "time.stepSeconds", "memory.stages.0.totalBytes"
    std::string label;                         // in words
    std::string unit;                          // "s", "B", "tokens/s", "", "days"
    bool lowerIsBetter = true;
    std::vector<std::optional<double>> values; // one per plan; empty where the plan has no such figure (fewer stages,
                                               // an invalid plan)
    int best = -1;                             // the plan with the better value (the first of equals); -1: none
    std::vector<std::optional<double>> relative; // value / best value; empty where either is missing or the best is 0
};

// Rows: step time, tokens per second, MFU, peak memory, each stage's peak memory, the schedule's bubble, exposed
// communication, training days. Invalid plans (prediction.valid false) have no values.
std::vector<CompareRow> compareRows(const std::vector<const Prediction*>& predictions);

} // namespace planscope
