// NCCL collectives as nccl-tests measures them: AllReduce, AllGather, ReduceScatter, Broadcast, AllToAll
// (grouped send/recv) and SendRecv (ring neighbours), over groups of the first g ranks (g = 2, 4, .. up to
// the GPUs of one node, and that count; across nodes also the multiples up to the world), buffer sizes S
// from MIN to MAX. Time = median over the iterations of the slowest rank's event-timed iteration; algBw =
// S/t; busBw = algBw * busBandwidthFactor (nccl-tests doc/PERFORMANCE.md). Each (op, group) first checks
// its result once (rank-valued buffers); a wrong result is an NCCL failure (exit 4).
#pragma once

#include "Nccl.h"
#include "calib/Profile.h"
#include "cost/Collective.h"

#include <cstdint>
#include <vector>

namespace planscope::profile {

struct CollectivePlan {
    std::vector<Collective> ops;
    std::vector<std::uint64_t> sizes;
    bool quick = false;
};

// Sizes from min to max by x2 (x8 with quick; the max always included).
std::vector<std::uint64_t> collectiveSizes(std::uint64_t minBytes, std::uint64_t maxBytes, bool quick);
// The group sizes measured for this world (see above); {1} for a world of one GPU.
std::vector<int> groupSizes(const World& world);
// Warm-up and timed iterations for one size.
int warmupIterations(bool quick);
int timedIterations(std::uint64_t bytes, bool quick);

std::vector<CollectiveSample> measureCollectives(World& world, const CollectivePlan& plan, double p0, double p1);

} // namespace planscope::profile
