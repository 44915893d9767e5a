// planscope-cli verbs about pipeline schedules: `schedule` (docs/FORMATS.md section 3), `simulate` (section 4).
#pragma once

#include "Args.h"

#include <iosfwd>

namespace planscope::cli {

int cmdSchedule(const Args& a, std::ostream& out, std::ostream& err);
int cmdSimulate(const Args& a, std::ostream& out, std::ostream& err);

} // namespace planscope::cli
