// planscope-cli verbs about measured runs of many ranks (docs/TRACES.md, "Large runs"; docs/FORMATS.md section 14).
#pragma once

#include "Args.h"

#include <iosfwd>

namespace planscope::cli {

// reduce TRACE_OR_FOLDER... --out RUN.planscope-run [--gpus-per-node G] [--threads N]
// reduce TRACE_OR_FOLDER... --shard I/N --out SHARD.jsonl [--threads N]
// reduce --merge SHARD... --out RUN.planscope-run [--gpus-per-node G]
// Exit 0 when the run has at least one rank (a shard: whatever it read), 2 when none, 1 on usage or a file not written.
int cmdReduce(const Args& a, std::ostream& out, std::ostream& err);

// run-summary RUN.planscope-run [--top K] [--json]: the slowest ranks with why, the groups with their scope and
// straggler (schema planscope/run-summary/v1).
int cmdRunSummary(const Args& a, std::ostream& out, std::ostream& err);

// compare-runs A B [--json]: two runs (run files, shard files or trace folders) per phase, collective and rank
// (schema planscope/run-compare/v1).
int cmdCompareRuns(const Args& a, std::ostream& out, std::ostream& err);

} // namespace planscope::cli
