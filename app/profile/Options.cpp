#include "Options.h"

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstdlib>

namespace planscope::profile {

namespace {
std::string lower(std::string s)
{
    std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return char(std::tolower(c)); });
    return s;
}

std::string withoutSeparators(std::string s)
{
    s.erase(std::remove_if(s.begin(), s.end(), [](char c) { return c == '_' || c == '-'; }), s.end());
    return s;
}

bool parsePositiveInt(const std::string& text, int& value)
{
    if (text.empty() || !std::all_of(text.begin(), text.end(), [](unsigned char c) { return std::isdigit(c); }))
        return false;
    errno = 0;
    const long v = std::strtol(text.c_str(), nullptr, 10);
    if (errno || v < 1 || v > 1 << 20) return false;
    value = int(v);
    return true;
}
} // namespace

std::vector<Collective> defaultOps()
{
    return { Collective::AllReduce, Collective::AllGather, Collective::ReduceScatter, Collective::Broadcast,
        Collective::AllToAll, Collective::SendRecv };
}

std::string opOptionName(Collective c)
{
    return lower(std::string(toString(c)));
}

bool parseSize(const std::string& text, std::uint64_t& bytes)
{
    std::size_t i = 0;
    while (i < text.size() && std::isdigit(static_cast<unsigned char>(text[i]))) ++i;
    if (i == 0 || i > 15) return false;
    std::uint64_t value = std::strtoull(text.substr(0, i).c_str(), nullptr, 10);
    const std::string unit = lower(text.substr(i));
    int shift = 0;
    if (unit.empty() || unit == "b") shift = 0;
    else if (unit == "k" || unit == "kb" || unit == "kib") shift = 10;
    else if (unit == "m" || unit == "mb" || unit == "mib") shift = 20;
    else if (unit == "g" || unit == "gb" || unit == "gib") shift = 30;
    else return false;
    if (value > (std::uint64_t(1) << (50 - shift))) return false;
    bytes = value << shift;
    return true;
}

std::string helpText()
{
    return R"(Usage: planscope-profile [--quick] [--out FILE.profile.json] [--sizes MIN:MAX] [--ops LIST]
                         [--plan FILE.plan.json] [--gpus N] [--timeout SECONDS] [--help] [--version]

Measures this machine for PlanScope (schema planscope/profile/v1): bf16 GEMM (and fp8 on sm >= 89) with
cuBLASLt, HBM bandwidth (a 1 GiB device-to-device copy), NCCL collectives over groups of 2..N GPUs with
alpha-beta fits, the GPUs, their NVLink/PCIe links (NVML, where a driver provides it) and the versions.

Options:
  --quick              fewer sizes, shapes and iterations (under a minute on one node)
  --out FILE           where to write the profile (default: <hostname>.profile.json)
  --plan FILE          also time every GEMM shape of this plan's layers (planscope-cli explain FILE --ops);
                       evaluate --calibration then uses the measured time for exactly those operators
  --sizes MIN:MAX      collective buffer sizes, e.g. 8:1G or 1K:256M (units B, K, M, G; binary;
                       default 8:1G, x2 apart, x8 with --quick)
  --ops LIST           comma-separated collectives: allreduce, allgather, reducescatter, broadcast,
                       alltoall, sendrecv (default all), or none
  --gpus N             local GPUs to use without a launcher (default: all visible)
  --timeout SECONDS    longest any one NCCL step (rendezvous, set-up, a collective) may take before the
                       communicators are aborted (default 300)
  --help, --version

Launchers: without one, a single process drives every local GPU. Under torchrun (RANK, WORLD_SIZE,
LOCAL_RANK), srun (SLURM_PROCID, SLURM_STEP_NUM_TASKS or SLURM_NTASKS, SLURM_LOCALID) or mpirun
(OMPI_COMM_WORLD_RANK, _SIZE, _LOCAL_RANK) each process drives one GPU. The NCCL id comes from
NCCL_COMM_ID where set, else from rank 0 over TCP at MASTER_ADDR:MASTER_PORT (PLANSCOPE_PORT overrides the
port; under torchrun, whose own store holds MASTER_PORT, MASTER_PORT+1). Rank 0 writes the profile.

Output: progress on stderr as "progress <fraction 0..1> <message>", then "wrote FILE".

Exit codes:
  0  the profile was written
  1  an unexpected internal error
  2  usage error
  3  no usable GPU (no driver, no device, or a CUDA failure)
  4  NCCL failure or timeout (communicators aborted; never hangs past --timeout)
  5  the output file cannot be written
)";
}

std::optional<Options> parseOptions(int argc, char** argv, std::string& error)
{
    Options o;
    o.ops = defaultOps();
    auto value = [&](int& i, const std::string& name, std::string& out) {
        const std::string arg = argv[i];
        const std::string prefix = name + "=";
        if (arg.rfind(prefix, 0) == 0) {
            out = arg.substr(prefix.size());
            return true;
        }
        if (i + 1 >= argc) {
            error = name + " needs a value";
            return false;
        }
        out = argv[++i];
        return true;
    };
    auto is = [](const std::string& arg, const std::string& name) {
        return arg == name || arg.rfind(name + "=", 0) == 0;
    };
    for (int i = 1; i < argc; ++i) {
        const std::string arg = argv[i];
        std::string v;
        if (arg == "--help" || arg == "-h") {
            o.help = true;
        } else if (arg == "--version") {
            o.version = true;
        } else if (arg == "--quick") {
            o.quick = true;
        } else if (is(arg, "--out")) {
            if (!value(i, "--out", v)) return std::nullopt;
            if (v.empty()) {
                error = "--out needs a file name";
                return std::nullopt;
            }
            o.out = v;
        } else if (is(arg, "--plan")) {
            if (!value(i, "--plan", v)) return std::nullopt;
            if (v.empty()) {
                error = "--plan needs a plan file";
                return std::nullopt;
            }
            o.plan = v;
        } else if (is(arg, "--sizes")) {
            if (!value(i, "--sizes", v)) return std::nullopt;
            const auto colon = v.find(':');
            std::uint64_t lo = 0, hi = 0;
            if (colon == std::string::npos || !parseSize(v.substr(0, colon), lo) || !parseSize(v.substr(colon + 1), hi)) {
                error = "--sizes wants MIN:MAX, e.g. 8:1G, not '" + v + "'";
                return std::nullopt;
            }
            if (lo < 1 || lo > hi) {
                error = "--sizes: MIN must be at least 1 byte and not above MAX";
                return std::nullopt;
            }
            if (hi > (std::uint64_t(8) << 30)) {
                error = "--sizes: MAX above 8G";
                return std::nullopt;
            }
            o.minBytes = lo;
            o.maxBytes = hi;
            o.sizesGiven = true;
        } else if (is(arg, "--ops")) {
            if (!value(i, "--ops", v)) return std::nullopt;
            o.ops.clear();
            if (lower(v) != "none") {
                std::size_t start = 0;
                while (start <= v.size()) {
                    const auto comma = v.find(',', start);
                    const std::string name = withoutSeparators(lower(v.substr(start, comma - start)));
                    start = comma == std::string::npos ? v.size() + 1 : comma + 1;
                    if (name.empty()) continue;
                    bool found = false;
                    for (Collective c : defaultOps())
                        if (opOptionName(c) == name) {
                            if (std::find(o.ops.begin(), o.ops.end(), c) == o.ops.end()) o.ops.push_back(c);
                            found = true;
                        }
                    if (!found) {
                        error = "--ops: unknown collective '" + name
                            + "' (allreduce, allgather, reducescatter, broadcast, alltoall, sendrecv, none)";
                        return std::nullopt;
                    }
                }
                if (o.ops.empty()) {
                    error = "--ops: no collective named";
                    return std::nullopt;
                }
            }
        } else if (is(arg, "--gpus")) {
            if (!value(i, "--gpus", v)) return std::nullopt;
            int n = 0;
            if (!parsePositiveInt(v, n)) {
                error = "--gpus wants a positive count, not '" + v + "'";
                return std::nullopt;
            }
            o.gpus = n;
        } else if (is(arg, "--timeout")) {
            if (!value(i, "--timeout", v)) return std::nullopt;
            char* end = nullptr;
            errno = 0;
            const double t = std::strtod(v.c_str(), &end);
            if (v.empty() || errno || *end || !(t > 0) || t > 86400) {
                error = "--timeout wants seconds (0 < t <= 86400), not '" + v + "'";
                return std::nullopt;
            }
            o.timeoutSeconds = t;
        } else {
            error = "unknown argument '" + arg + "'";
            return std::nullopt;
        }
    }
    return o;
}

} // namespace planscope::profile
