// Whether a plan can run, with reasons naming the field (docs/FORMATS.md section 1). Errors make a plan invalid;
// warnings flag what is valid in principle but refused by a named framework or likely unintended.
#pragma once

#include "Plan.h"
#include "util/Result.h"

namespace planscope {

Issues validate(const Plan& plan);

} // namespace planscope
