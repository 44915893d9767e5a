// planscope-cli verbs about measured traces: `import` (SCHEMA.md section 5).
#pragma once

#include "Args.h"

#include <iosfwd>

namespace planscope::cli {

// import TRACE... [--json]: Kineto traces (.json, .json.gz), one per rank. Exit 0 when at least one rank
// imported, 2 when none did, 1 on usage errors.
int cmdImport(const Args& a, std::ostream& out, std::ostream& err);

} // namespace planscope::cli
