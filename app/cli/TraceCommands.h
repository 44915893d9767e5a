// planscope-cli verbs about measured traces: `import` (docs/FORMATS.md section 5).
#pragma once

#include "Args.h"

#include <iosfwd>

namespace planscope::cli {

// import TRACE_OR_FOLDER... [--json]: Kineto traces (.json, .json.gz; a folder stands for such files in it), one
// per rank, imported in parallel and ordered by rank; a second file of a rank is skipped; then per-collective
// bandwidth and cross-rank alignment. Exit 0 when at least one rank imported, 2 when none did, 1 on usage errors.
int cmdImport(const Args& a, std::ostream& out, std::ostream& err);

} // namespace planscope::cli
