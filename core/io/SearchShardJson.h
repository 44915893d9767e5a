// A search shard as JSON (core/search/SearchShard.h): what `planscope-cli search --shard I/N` writes inside its shard
// file and `search --merge` reads back (docs/FORMATS.md section 7). Every double keeps its exact value (the shortest
// text that reads back to the same bits; a non-finite one as the string "inf", "-inf" or "nan"), so that merged shards
// equal one process value for value. An entry's knobs are not written: they are the space's candidate at its index
// (candidateAt), which the reader recomputes.
#pragma once

#include "search/SearchShard.h"
#include "util/Result.h"

#include <nlohmann/json.hpp>

namespace planscope {

nlohmann::json searchShardToJson(const SearchShard& shard);
// Errors name the field ("top.3.stepSeconds: ..."); an index outside the space is refused.
Result<SearchShard> searchShardFromJson(const nlohmann::json& j, const SearchSpace& space);

} // namespace planscope
