// planscope-cli compare: plans side by side (docs/FORMATS.md section 8).
#pragma once

#include "Args.h"

#include <iosfwd>

namespace planscope::cli {

int cmdCompare(const Args& a, std::ostream& out, std::ostream& err);


} // namespace planscope::cli
