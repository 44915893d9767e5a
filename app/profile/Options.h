// planscope-profile's command line.
#pragma once

#include "cost/Collective.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace planscope::profile {

struct Options {
    bool quick = false;
    bool help = false;
    bool version = false;
    std::string out;                       // empty: <host>.profile.json in the working directory
    std::uint64_t minBytes = 8;
    std::uint64_t maxBytes = std::uint64_t(1) << 30;
    bool sizesGiven = false;
    std::vector<Collective> ops;           // the collectives to measure, in the order run
    std::optional<int> gpus;               // local GPUs to use without a launcher (default: all)
    double timeoutSeconds = 300;           // longest any one NCCL wait may take
    std::string plan;                      // a plan file whose GEMM shapes are timed too (--plan)
};

// Parses argv; on a usage error returns the message in `error` (exit 2).
std::optional<Options> parseOptions(int argc, char** argv, std::string& error);

// "8", "64K", "1M", "1G", "512KiB" (binary units); false where not a size.
bool parseSize(const std::string& text, std::uint64_t& bytes);

std::string helpText();

// The collectives measured by default, and the --ops names ("allreduce", ...).
std::vector<Collective> defaultOps();
std::string opOptionName(Collective c);

} // namespace planscope::profile
