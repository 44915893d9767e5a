// Internals shared by the profile reader, the nccl-tests importer and the fits (not part of the API).
#pragma once

#include "Profile.h"
#include "cost/Collective.h"

#include <nlohmann/json_fwd.hpp>
#include <string>

namespace planscope::detail {

// What a measurement can be. Past these bounds a number is a damaged or hand-edited file, never a machine, and a
// calibration would carry it into every prediction; the readers refuse it naming the field.
// Seconds of one timed operation: the nccl-tests importer's bound on a printed time (1e15 us, NcclTestsImport.cpp).
inline constexpr double kMaxSeconds = 1e9;
// TFLOP/s of one GEMM: 22 times the fastest dense peak of the presets (b200 fp8, 4,500 TFLOP/s,
// resources/presets/gpus.json).
inline constexpr double kMaxTflops = 1e5;
// Bytes/s of a bandwidth: 13 times the fastest HBM of the presets (b200, 7.7 TB/s, resources/presets/gpus.json) and
// 111 times the fastest link (900 GB/s per direction, resources/presets/nodes.json).
inline constexpr double kMaxBandwidth = 1e14;
// Bytes of a buffer: 2^53, the largest count a double holds exactly (IEEE 754 binary64).
inline constexpr double kMaxBytes = 9007199254740992.0;
// Seconds of one latency step (fits.alpha): 200,000 times the 4.5 us a step of an 8-byte all-reduce over 16 H100s
// takes (135.8 us over 2 x 15 steps, tests/data/nccl-tests/a3mega-h100-2x8-all_reduce_perf.txt).
inline constexpr double kMaxAlpha = 1.0;

// Reads one collective row (the profile's keys, or an nccl-tests -J result row) into `c`; false on an error.
bool readCollectiveRow(const nlohmann::json& j, const std::string& path, Issues& issues, CollectiveSample& c);

// Latency steps of the ring algorithm, taken from ringSeconds (unit latency, unlimited bandwidth) so that the fit
// and the cost model can never disagree on them.
inline double latencySteps(Collective c, int n)
{
    LinkSpec unit;
    unit.bandwidth = 1e300;
    unit.latency = 1.0;
    return ringSeconds(c, n, 1.0, unit);
}

// nodes 0: the measurement did not tell how many nodes its ranks spanned.
inline const char* linkClassFor(int nodes) { return nodes > 1 ? "inter" : nodes == 1 ? "intra" : "unknown"; }

} // namespace planscope::detail
