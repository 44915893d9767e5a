// planscope-cli compare: plans side by side (docs/FORMATS.md section 8); lessons (section 10).
#pragma once

#include "Args.h"

#include <iosfwd>

namespace planscope::cli {

int cmdCompare(const Args& a, std::ostream& out, std::ostream& err);
// planscope-cli lessons [--json] [--lang zh_CN]: the guided lessons with their computed answers (section 10).
int cmdLessons(const Args& a, std::ostream& out, std::ostream& err);

} // namespace planscope::cli
