// The planner's results as JSON (schema planscope/search/v1, docs/FORMATS.md section 7) and CSV.
#pragma once

#include "search/Search.h"

#include <nlohmann/json_fwd.hpp>
#include <optional>
#include <string>

namespace planscope {

inline constexpr const char* kSearchSchema = "planscope/search/v1";

// {"parallel": {...}, "training": {...}} of a candidate: the fields to write into the template.
nlohmann::json candidateToJson(const Candidate& c);
nlohmann::json searchEntryToJson(const SearchEntry& e);
// The whole document. `whyNot` (may be empty) are the terms by which the template loses to the best plan.
nlohmann::json searchToJson(const SearchResult& r, Objective objective, const std::vector<TermDifference>& whyNot = {},
    const Sizing* sizing = nullptr);
// The document of `planscope-cli search --json` and of the Python module's search(): searchToJson() with
// searchVerdict()'s terms and sizing (search/Search.h).
nlohmann::json searchDocument(const SearchSpace& space, const SearchResult& r, Objective objective,
    std::optional<double> days, std::optional<double> tokens);
// One row per best plan, then one per Pareto plan ("list" column: best or pareto).
std::string searchToCsv(const SearchResult& r);

} // namespace planscope
