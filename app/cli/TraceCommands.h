// planscope-cli verbs about measured runs: `import` (docs/FORMATS.md section 5), `memory-check` (section 12).
#pragma once

#include "Args.h"

#include <iosfwd>

namespace planscope::cli {

// import TRACE_OR_FOLDER... [--json]: Kineto traces (.json, .json.gz; a folder stands for such files in it), one
// per rank, imported in parallel and ordered by rank; a second file of a rank is skipped; then per-collective
// bandwidth and cross-rank alignment. Exit 0 when at least one rank imported, 2 when none did, 1 on usage errors.
int cmdImport(const Args& a, std::ostream& out, std::ostream& err);

// memory-check PLAN SNAPSHOT [--stage S] [--device D] [--json]: a PyTorch CUDA memory snapshot's allocated and reserved
// peaks beside the plan's predicted memory of one pipeline stage (core/trace/MemorySnapshot.h). Exit 1 on usage or a
// file that cannot be read, 2 on a plan or snapshot that does not read.
int cmdMemoryCheck(const Args& a, std::ostream& out, std::ostream& err);

} // namespace planscope::cli
