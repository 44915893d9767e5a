// Internals shared by the profile reader, the nccl-tests importer and the fits (not part of the API).
#pragma once

#include "Profile.h"
#include "cost/Collective.h"

#include <nlohmann/json_fwd.hpp>
#include <string>

namespace planscope::detail {

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
