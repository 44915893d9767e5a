// Measurements of a machine (docs/FORMATS.md section 6, schema planscope/profile/v1), written by planscope-profile
// or imported from nccl-tests output, and the calibration fitted from them that replaces the presets'
// default efficiencies in a plan.
#pragma once

#include "spec/Plan.h"
#include "util/Result.h"

#include <cstdint>
#include <nlohmann/json_fwd.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace planscope {

inline constexpr std::string_view kProfileSchema = "planscope/profile/v1";

struct ProfileGpu {
    int index = 0;
    std::string name;
    std::int64_t memory = 0; // bytes
    std::string busId;
    bool operator==(const ProfileGpu&) const = default;
};

// A measured link between two GPUs (NVML topology): kind "nvlink", "pcie", "net"; bandwidth bytes/s per direction.
struct ProfileLink {
    int from = 0;
    int to = 0;
    std::string kind;
    int count = 0;          // NVLink lanes
    double bandwidth = 0;   // bytes/s per direction, where known
    bool operator==(const ProfileLink&) const = default;
};

struct GemmSample {
    std::int64_t m = 0, n = 0, k = 0;
    std::string dtype;      // "bf16", "fp16", "fp8", "fp32"
    double seconds = 0;     // median of the timed iterations
    double tflops = 0;      // 2*m*n*k / seconds / 1e12
    bool operator==(const GemmSample&) const = default;
};

// One half of an nccl-tests row as printed: the in-place run (the out-of-place half is the sample itself).
struct CollectiveHalf {
    double seconds = 0;
    double algBandwidth = 0;  // bytes/s
    double busBandwidth = 0;  // bytes/s
    std::int64_t wrong = -1;  // "#wrong": elements that failed validation; -1 where not printed (N/A, older versions)
    double error = -1;        // older versions' "error" column (largest deviation found); -1 where not printed
    bool operator==(const CollectiveHalf&) const = default;
};

// One row as nccl-tests prints it (a superset: nccl-tests' JSON rows load through the same reader). The bandwidths
// are the printed ones; `derived` names those the file did not print and PlanScope computed (algBw = S / t, busBw =
// algBw * factor). ranks 0 and nodes 0 mean the file could not tell them (such rows are kept but not fitted).
struct CollectiveSample {
    std::string op;         // "AllReduce", "AllGather", "ReduceScatter", "Broadcast", "Reduce", "AllToAll", "SendRecv"
    int ranks = 0;
    int nodes = 1;
    double bytes = 0;       // nccl-tests "size": the buffer size S
    double seconds = 0;     // out-of-place time
    double algBandwidth = 0; // bytes/s = S / t
    double busBandwidth = 0; // bytes/s = algBw * factor (nccl-tests doc/PERFORMANCE.md)
    std::string dtype;      // nccl-tests "type" (float, half, bfloat16, ...), where printed
    std::int64_t wrong = -1; // out-of-place "#wrong", -1 where not printed
    double error = -1;      // out-of-place "error" (older versions), -1 where not printed
    std::optional<CollectiveHalf> inPlace;
    // "algBandwidth", "busBandwidth", "inPlace.algBandwidth", "inPlace.busBandwidth": computed, not printed in the file
    std::vector<std::string> derived;
    bool operator==(const CollectiveSample&) const = default;
};

// alpha (seconds per latency step) and the bus bandwidth fitted for one (op, ranks, link class).
struct LinkFit {
    std::string op;
    int ranks = 0;
    std::string linkClass;  // "intra" (one node), "inter" (across nodes), "unknown" (the node count was not told)
    double alpha = 0;
    double busBandwidth = 0; // bytes/s
    int points = 0;         // samples used
    int nodes = 1;          // nodes the ranks spanned (ranks / nodes GPUs per node)
    bool operator==(const LinkFit&) const = default;
};

struct Profile {
    std::string host;
    std::string cuda, nccl, driver;
    std::vector<ProfileGpu> gpus;
    std::vector<ProfileLink> links;
    std::vector<GemmSample> gemm;
    double hbmBandwidth = 0; // bytes/s from a large device-to-device copy (read + write counted once each)
    std::vector<CollectiveSample> collectives;
    std::vector<LinkFit> fits;
    std::string source;      // "planscope-profile", "nccl-tests", or a file name
    Issues warnings;         // met while reading (unknown fields, skipped rows); never written back
    bool operator==(const Profile&) const = default;
};

nlohmann::json profileToJson(const Profile& profile);
Result<Profile> profileFromJson(const nlohmann::json& j);
Result<Profile> parseProfile(std::string_view text);
Result<Profile> loadProfileFile(const std::string& path);
// What a user opens as measurements: a profile file, or nccl-tests output (text or -J JSON) imported as one; the
// fits are computed where the file has none and the source defaults to the file name. One rule for the app's
// profile page and planscope-cli (--calibration, profile-fit).
Result<Profile> loadMeasurements(const std::string& path);

// What the user knows that an nccl-tests output may not say: the collective (a name like "AllReduce" or
// "all_reduce", or a file name such as "all_reduce_perf.txt" used only where the text names no binary), the rank
// count and the node count (0: from the file). Given values win over the file's.
struct NcclTestsHints {
    std::string op;
    int ranks = 0;
    int nodes = 0;
};

// nccl-tests output: the text table (columns found by their header row) or the -J JSON, read as published
// (docs/FORMATS.md, import-nccl-tests). The op comes from the hints' explicit op, the binary's name in the output
// ("# Collective test starting: all_reduce_perf"), the hints' file name, or what the rows decide.
Result<Profile> importNcclTests(std::string_view text, const NcclTestsHints& hints);
Result<Profile> importNcclTests(std::string_view text, std::string_view opHint = {});

// Fits alpha and bus bandwidth per (op, ranks, link class) from the samples: t = steps(op, n)*alpha +
// factor(op, n)*S/busBw, robust to outliers (iteratively reweighted / trimmed least squares).
std::vector<LinkFit> fitCollectives(const std::vector<CollectiveSample>& samples);

// What a profile changes in a plan: link latency and efficiency per link class (from the AllReduce fit of
// the largest group), the GEMM efficiency (the best achieved/peak over the large shapes in the plan's dtype, as the
// presets' maximum-achievable figure), the timed GEMMs themselves (each op of that exact shape takes its measured
// time), the HBM bandwidth (as measured: its efficiency becomes 1). `terms` names what was measured, for the prediction's provenance.
// The GPU a profile was measured on (its gpus[].name, as NVML or nccl-tests print it) against the plan's. GPUs are
// told apart by their model token (A100, H100, H800, H200, B200, GB200, MI300X, ...: the first word of the name
// that is a letter or two and three digits) and, where both say it, their memory (a 40 GB and an 80 GB A100 differ).
struct GpuIdentity {
    enum class Match { Same, Different, Unknown };
    Match match = Match::Unknown; // Unknown: the profile names no GPU, or a name has no model token
    std::string measured;         // the profile's GPU ("" where it names none; the first that differs if any)
    std::string planned;          // the plan's GPU (its name, else its id)
};
GpuIdentity compareProfileGpu(const Profile& profile, const GpuSpec& gpu);
// The model token of a GPU name or preset id, upper-case ("NVIDIA H100 80GB HBM3" and "h100-sxm5-80gb": "H100");
// "" where there is none.
std::string gpuModelToken(std::string_view name);

// What to do with a profile measured on another GPU than the plan's: refuse it (the default), or apply it anyway
// (planscope-cli --calibration-any-gpu, the Profile page's "apply anyway"), with a warning in every prediction.
enum class OtherGpu { Refuse, Apply };

// The physical bounds a measurement is held to, against the plan's GPU and links (what the profile claims to
// measure once its GPU is the plan's): a device copy reaches at most the datasheet HBM bandwidth x kHbmMargin, a
// GEMM at most the dense peak, a collective's bus bandwidth at most the link's wire speed x kLinkMargin (across
// nodes: the NICs of the group's GPUs on a node), and an all-reduce at most kInSwitchAllReduce x that where it need
// not move the ring's 2(n-1)/n x S per GPU: inside a node whose switch reduces (NVLink SHARP, a link with its own
// all-reduce share), each GPU sends its data once and receives the sum once; across nodes, NCCL's tree and NVLS-tree
// algorithms carry each byte over the network once in each direction, so busBw = 2(n-1)/n x algBw approaches twice
// the wire. Beyond them a number is refused by name and never applied.
inline constexpr double kHbmMargin = 1.10;
inline constexpr double kLinkMargin = 1.05;
inline constexpr double kInSwitchAllReduce = 2.0;

struct Calibration {
    std::optional<LinkSpec> intraNode;
    std::optional<LinkSpec> interNode;
    std::optional<double> gemmEfficiency;
    std::optional<double> hbmBandwidth;
    std::vector<MeasuredGemm> gemms;  // every GEMM timed in the plan's dtype: used for exactly those shapes
    Issues terms;    // what each measured field became: path "cluster.intraNode", text "AllReduce on 8 GPUs, ... -> ..."
    Issues warnings; // what reading the profile met, carried to the prediction
    std::string source;
    GpuIdentity gpu;  // the profile's GPU against the plan's
    // Why nothing was applied (the profile's GPU is not the plan's); empty when the calibration applies.
    Issues refused;
};
Calibration calibrationFromProfile(const Profile& profile, const Plan& plan, OtherGpu otherGpu = OtherGpu::Refuse);
Plan applyCalibration(const Plan& plan, const Calibration& calibration);

} // namespace planscope
