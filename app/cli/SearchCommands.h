// planscope-cli search: the best plans of a template's space (docs/FORMATS.md section 7, docs/SEARCH.md).
#pragma once

#include <iosfwd>
#include <string>
#include <vector>

namespace planscope::cli {

int cmdSearch(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);

// The shard file of `search ARGS --shard I/N` (args as cmdSearch takes them) in `text`, for planscope-reduce's MPI
// processes and the CLI. Exit code as cmdSearch; a line on `out` says what the shard holds.
int searchShardFile(const std::vector<std::string>& args, int shard, int shards, std::string& text, std::ostream& out, std::ostream& err);

// `search --merge` over shard files' texts (`labels` name them in errors): the result printed as cmdSearch prints it
// (--json, --csv OUT where given). Exit 2 when they are not every shard of one search.
int mergeSearchShardTexts(const std::vector<std::string>& texts, const std::vector<std::string>& labels, bool asJson,
    const std::string& csv, std::ostream& out, std::ostream& err);

} // namespace planscope::cli
