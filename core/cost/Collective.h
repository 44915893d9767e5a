// Alpha-beta costs of collectives (docs/MODEL.md section 6) and nccl-tests' bandwidth conventions.
// S is the buffer size in bytes as nccl-tests counts it (the full, unsharded buffer for all-gather and
// reduce-scatter); bandwidths are bytes/s per GPU per direction, scaled by the link's measured efficiency
// (achieved nccl-tests bus bandwidth over the wire speed); alpha is seconds per step.
#pragma once

#include "spec/Plan.h"

#include <string_view>

namespace planscope {

enum class Collective { AllReduce, AllGather, ReduceScatter, AllToAll, Broadcast, Reduce, SendRecv };

std::string_view toString(Collective c);
bool fromString(std::string_view s, Collective& c);

// busBw = algBw * factor (nccl-tests doc/PERFORMANCE.md): 2(n-1)/n all-reduce; (n-1)/n all-gather,
// reduce-scatter, all-to-all; 1 broadcast, reduce, send/recv.
double busBandwidthFactor(Collective c, int n);

// Bytes each rank sends on the wire for one collective with a ring algorithm.
double ringBytesPerRank(Collective c, int n, double bytes);

// The bus bandwidth a collective reaches on a link for large messages: bandwidth * efficiency, or the all-reduce's
// own share where the link has one (NVLink SHARP reduces in the switch).
double collectiveBandwidth(Collective c, const LinkSpec& link);
// The share of its large-message bus bandwidth a collective of `bytes` (the whole buffer, as nccl-tests sizes it)
// reaches on the link: the link's published curve (docs/HARDWARE.md) interpolated log-log in size and share, clamped at
// its ends; 1 without a curve. A collective takes max(alpha-beta time, wire time / share): the measured curve where
// it is slower, the latency terms for messages below its first point.
double sizeShare(double bytes, const LinkSpec& link);

// Flat ring over one link class: latency steps * alpha + bytes on the wire / bandwidth.
double ringSeconds(Collective c, int n, double bytes, const LinkSpec& link);
// Tree all-reduce: ~2*log2(n) latency steps instead of 2(n-1), same bandwidth term.
double treeAllReduceSeconds(int n, double bytes, const LinkSpec& link);
// Two-level: intra-node reduce-scatter (g ranks), inter-node collective of S/g over the NICs
// (n/g ranks), intra-node all-gather, pipelined: the slower tier's phases set the time. For
// reduce-scatter/all-gather only the matching half runs; an all-to-all sends the remote share over the NICs
// beside the local share on NVLink.
double hierarchicalSeconds(Collective c, int n, int perNode, double bytes, const LinkSpec& intra,
    const LinkSpec& inter);
// Parameter server: every worker sends S to and receives S from the servers; with `servers` servers each
// server link carries n*S/servers each way.
double parameterServerSeconds(int workers, int servers, double bytes, const LinkSpec& link);

} // namespace planscope
