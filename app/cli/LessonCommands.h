// planscope-cli lessons: the guided lessons with their computed answers (docs/FORMATS.md section 10).
#pragma once

#include "Args.h"

#include <iosfwd>

namespace planscope::cli {

int cmdLessons(const Args& a, std::ostream& out, std::ostream& err);

} // namespace planscope::cli
