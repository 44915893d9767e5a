// Where a plan lies beyond what published runs reached (docs/SEARCH.md, "Beyond published evidence"). The planner's
// best plans are predictions; two figures say when a prediction has left the ground that measurements cover:
// - its MFU is above the highest a published run reached on the same GPU and precision (samples/published/
//   mfu-ceilings.json, built into the program: the best of any size, or for a model of 100B parameters or more the
//   best at that size), and
// - its peak memory is within kDefaultMemoryHeadroom of the GPU's memory: the memory model's largest shortfall
//   measured on published runs (docs/MEMORY-ACCURACY.md, "The headroom"), whatever headroom the plan itself asks for.
// A GPU and precision no published run covers has no MFU ceiling: its plans are marked as unchecked, not as beyond.
#pragma once

#include "spec/Plan.h"
#include "util/Result.h"
#include "util/Text.h"

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace planscope {

// One published best: its MFU (model FLOPs / (step x GPUs x the precision's dense peak)) and where it comes from.
struct PublishedBest {
    double mfu = 0;
    std::string run, source, configuration;
    bool operator==(const PublishedBest&) const = default;
};

// The bests of one GPU (its preset id) and precision ("bf16", "fp8").
struct MfuCeiling {
    std::string gpu, precision;
    PublishedBest any, largeModel;
    bool operator==(const MfuCeiling&) const = default;
};

// The ceilings of a planscope/mfu-ceilings/v1 document; an error names the field ("ceilings[2].any.mfu").
Result<std::vector<MfuCeiling>> parseMfuCeilings(std::string_view json);
// The ceilings built into the program (samples/published/mfu-ceilings.json), parsed once.
const std::vector<MfuCeiling>& mfuCeilings();

// Models with at least this many parameters (all experts counted) are held to the large-model best.
inline constexpr double kLargeModelParameters = 100e9;

// What a plan's figures are held to: it depends on the plan's GPU, precision and model only, so a search computes it
// once for its template.
struct PublishedEvidence {
    bool hasCeiling = false;
    std::string gpu;           // the plan's GPU id
    std::string precision;     // the ceiling's precision: the plan's, or one with the same dense peak on this GPU
    bool largeModel = false;   // the model has kLargeModelParameters or more: the large-model best applies
    PublishedBest best;        // the best that applies (hasCeiling)
    double memoryMargin = kDefaultMemoryHeadroom; // share of the capacity a plan must leave free to be within evidence
    bool operator==(const PublishedEvidence&) const = default;
};
PublishedEvidence publishedEvidence(const Plan& plan, const std::vector<MfuCeiling>& ceilings = mfuCeilings());

// Bits of a plan's figures beyond the evidence.
enum BeyondEvidence : unsigned { kBeyondMfu = 1u, kBeyondMemory = 2u };
unsigned beyondEvidence(const PublishedEvidence& ev, double mfu, std::int64_t peakBytes, std::int64_t capacityBytes);
// The flags as the JSON writes them: "mfu", "memory".
std::vector<std::string> beyondEvidenceNames(unsigned flags);

// The step time at which a plan reaches the ceiling's MFU, from any plan of the same GPU count and global batch
// (step x MFU is the model FLOPs over G x peak, the same for all of them): plans faster than this are beyond. 0 without
// a ceiling.
double stepAtCeiling(const PublishedEvidence& ev, double stepSeconds, double mfu);

// Why a plan is marked, one sentence per flag (util/Text.h: English for the CLI, translated by the GUI); empty when
// it is within the evidence.
Text beyondEvidenceText(const PublishedEvidence& ev, unsigned flags, double mfu, std::int64_t peakBytes,
    std::int64_t capacityBytes);
// What the plans are held to: "the best published MFU on h100-sxm5-80gb in bf16 at 100B parameters or more: 58.6 %
// (run; source)", or that no published run covers the GPU and precision.
Text evidenceText(const PublishedEvidence& ev);

} // namespace planscope
