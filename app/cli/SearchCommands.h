// planscope-cli search: the best plans of a template's space (docs/FORMATS.md section 7, docs/SEARCH.md).
#pragma once

#include <iosfwd>
#include <string>
#include <vector>

namespace planscope::cli {

int cmdSearch(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);

} // namespace planscope::cli
