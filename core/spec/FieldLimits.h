// The range every integer field of a plan accepts, in one table: the plan reader (core/io/PlanJson.cpp) rejects a
// file's value outside it, validate() a plan built in code, and the editor (widgets/pages/PlanEditorPage.cpp) sets
// its spin boxes from it. A new integer field gets its row here and nowhere else.
#pragma once

#include "spec/Plan.h"

#include <cstdint>
#include <span>
#include <string_view>

namespace planscope {

struct FieldLimit {
    std::string_view path; // the plan file's JSON path ("parallel.tp")
    double min = 0, max = 0;
    std::int64_t (*get)(const Plan&) = nullptr;
    void (*set)(Plan&, std::int64_t) = nullptr;

    // The key inside its object: the path's last component ("tp").
    std::string_view key() const { return path.substr(path.rfind('.') + 1); }
};

std::span<const FieldLimit> fieldLimits();

// The row of `path`; a path without one is a programming error (std::logic_error names it).
const FieldLimit& fieldLimit(std::string_view path);

} // namespace planscope
