// The plan search split over processes (docs/SEARCH.md, "Splitting a search"; issue 34): a shard searches one
// contiguous part of the space's enumeration index and keeps what the merge needs (its counts, top K, Pareto front,
// sample of points and per-GPU-count rows); merging every shard gives exactly the result of one process, because the
// merge is the one search() itself runs over its threads (sums of counts, the K best by the objective with ties by
// index, the front under a strict order, the sampled points with the smallest hash of their index).
#pragma once

#include "search/Search.h"
#include "util/Shards.h"

#include <cstdint>
#include <map>
#include <string>
#include <utility>
#include <vector>

namespace planscope {

struct SearchShard {
    std::int64_t first = 0; // the index range scanned, [first, last)
    std::int64_t last = 0;
    double valid = 0, fit = 0, evaluated = 0;
    double betterValid = 0, betterFit = 0; // plans with a better objective than the template (its rank)
    std::map<std::string, double> rejected;
    std::vector<SearchEntry> top; // by the objective, at most options.top
    std::vector<SearchEntry> front; // the shard's Pareto front
    std::vector<SearchPoint> sample; // at most options.samplePoints: those with the smallest hash of their index
    std::vector<SearchResult::PerGpus> byGpus; // one per space.gpus entry
    std::int64_t cacheHits = 0, cacheMisses = 0;
    int threads = 1;
    double seconds = 0;
    bool cancelled = false;
};

// Searches the indexes [first, last) of the space on options.threads threads (options.progress counts within it).
SearchShard searchShard(const SearchSpace& space, const SearchOptions& options, std::int64_t first, std::int64_t last);

// The result of the shards together: as search(space, options) gives it when they cover the space once (the caller
// checks that), the simulated re-ranking of the best and the evidence marks included. `seconds` is the longest shard's.
SearchResult mergeSearchShards(const SearchSpace& space, const SearchOptions& options, std::vector<SearchShard> shards);

} // namespace planscope
