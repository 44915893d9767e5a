// One rule for splitting work into shards, shared by the reduce of a measured run (io/RunFile.h) and the plan search
// (search/SearchShard.h), under any launcher (`--shard I/N`) or MPI (process p of P).
#pragma once

#include <algorithm>
#include <charconv>
#include <cstdint>
#include <string_view>
#include <utility>

namespace planscope {

// The items [first, last) of shard `shard` (0-based) of `shards` over `count` items: contiguous, sizes differing by at
// most one, the larger ones first; empty for a shard out of range.
inline std::pair<std::int64_t, std::int64_t> shardRange(std::int64_t count, int shard, int shards)
{
    if (shards <= 0 || shard < 0 || shard >= shards || count <= 0) return { 0, 0 };
    const std::int64_t n = shards, i = shard, base = count / n, extra = count % n;
    const std::int64_t first = i * base + std::min(i, extra);
    return { first, first + base + (i < extra ? 1 : 0) };
}

// "I/N" with 0 <= I < N (srun: $SLURM_PROCID/$SLURM_NTASKS); false for anything else.
inline bool parseShardSpec(std::string_view spec, int& shard, int& shards)
{
    const std::size_t slash = spec.find('/');
    if (slash == std::string_view::npos) return false;
    const char* mid = spec.data() + slash;
    const char* end = spec.data() + spec.size();
    auto [p1, e1] = std::from_chars(spec.data(), mid, shard);
    auto [p2, e2] = std::from_chars(mid + 1, end, shards);
    return e1 == std::errc() && p1 == mid && e2 == std::errc() && p2 == end && shards >= 1 && shard >= 0 && shard < shards;
}

} // namespace planscope
