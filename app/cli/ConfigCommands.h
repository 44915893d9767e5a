// planscope-cli import-config and export-config: plans from and to launch configurations (docs/FORMATS.md section 11).
#pragma once

#include "Args.h"

#include <iosfwd>

namespace planscope::cli {

int cmdImportConfig(const Args& a, std::ostream& out, std::ostream& err);
// planscope-cli export-config PLAN --as megatron [--out FILE]: the launch line that runs the plan.
int cmdExportConfig(const Args& a, std::ostream& out, std::ostream& err);

} // namespace planscope::cli
