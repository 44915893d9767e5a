// The planner: every plan of a template's space, evaluated on all cores, the best K by an objective and the Pareto
// front of step time and peak memory (and GPUs), with each rejected plan counted under its reason (docs/SEARCH.md).
//
// The space is the product of each knob's values, enumerated as one mixed-radix index (the knobs the cost model's
// cache is keyed on vary slowest). A plan is rejected by the first check it fails, in a fixed order: the divisibility
// rules of validate() on integers (no strings built), knob values the plan would ignore (sp with tp 1, vpp under a
// schedule with one chunk: the same plan as the first value, counted once), then evaluate() itself (its errors by
// field, and "out of memory"). Everything kept per thread is bounded (top K, the front, a fixed-size sample of points
// for the scatter), so memory does not grow with the space. Results do not depend on the number of threads: ties
// are broken by the enumeration index.
#pragma once

#include "cost/Prediction.h"
#include "search/Evidence.h"
#include "spec/Plan.h"
#include "util/Result.h"

#include <atomic>
#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <span>
#include <vector>

namespace planscope {

enum class Knob { Gpus, TP, CP, EP, SP, MicroBatch, Recompute, Overlap, Schedule, PP, DP, VPP, Zero, Offload };
inline constexpr int kKnobCount = 14;

// "tp", "pp", "dp", "cp", "ep", "vpp", "sp", "zero", "microBatch", "recompute", "schedule", "overlap", "offload",
// "gpus" (the names of --vary and --fix).
const char* knobName(Knob k);
std::optional<Knob> knobFromName(std::string_view name);
// The knobs varied when none are named: SCHEMA's list (tp, pp, dp, cp, ep, vpp, sp, zero, microBatch, recompute,
// schedule). overlap and offload are varied only when named; gpus only with a list of GPU counts.
std::vector<Knob> defaultKnobs();

// One value of the recompute knob: a mode and, for selective, Megatron-Core's --recompute-modules as a set (bit i:
// kRecomputeModules[i]; 0 = the default, core_attn). No allocation to copy.
inline constexpr const char* kRecomputeModules[] = { "core_attn", "mlp", "moe", "moe_act", "layernorm", "mla_up_proj",
    "shared_experts" };
struct RecomputeChoice {
    Recompute mode = Recompute::None;
    std::uint8_t modules = 0;
    bool operator==(const RecomputeChoice&) const = default;
    std::vector<std::string> moduleNames() const;
    std::string label() const; // "none", "selective", "selective:core_attn,mlp", "full"
};

// Bits of the overlap knob.
enum OverlapBits : int { kOverlapGradReduce = 1, kOverlapTpComm = 2, kOverlapP2p = 4 };

// The values of every knob. A knob with one value is fixed.
struct SearchSpace {
    std::vector<int> gpus, tp, cp, ep, pp, dp, vpp, zero, microBatch;
    std::vector<bool> sp;
    std::vector<RecomputeChoice> recompute;
    std::vector<int> overlap;             // OverlapBits masks
    std::vector<ScheduleKind> schedule;
    std::vector<double> offload;          // training.offload.optimizerFraction
    bool dpDerived = true;                // dp = gpus/(tp*pp*cp) (dp varied); else the one value in `dp`
    Plan templ;                           // the template the space belongs to (custom pipeline splits dropped where
                                          // pp or vpp varies)
    Plan original;                        // the plan as given (the "given" entry of the result)
    std::vector<Text> notes;              // what buildSpace changed in the template

    // Plans in the space: the product of the knobs' value counts.
    double size() const;
    std::vector<std::int64_t> radices() const; // per Knob, in enumeration order (Knob's order)
};

// The values each knob takes when varied (docs/SEARCH.md): divisors of the GPU count for tp, pp, cp (ep for MoE
// models), divisors of the layers for vpp, divisors of the global batch up to 64 for the microbatch, and so on.
// Knobs not in `vary` keep the template's value. `gpus` (may be empty) sizes the cluster.
Result<SearchSpace> buildSpace(const Plan& templ, const std::vector<Knob>& vary, const std::vector<int>& gpus = {});

// Sets one knob from text ("tp=8", "recompute=selective:core_attn,mlp", "schedule=zb-h1", "sp=true") on the template
// (and so fixes it); false and a message naming the key when the key or the value is not known.
bool applyFix(Plan& templ, const std::string& keyEqualsValue, std::string& message, std::vector<Knob>* fixed = nullptr);

enum class Objective { Time, Cost, Memory };
const char* toString(Objective);
bool fromString(std::string_view, Objective&);

// How a candidate splits its layers over the pipeline stages: the template's own split (kept where the stages do not
// vary), even, even with the embedding and the loss counted as one layer each (Megatron-Core's
// account_for_embedding_in_pipeline_split and account_for_loss_in_pipeline_split) where only that divides, or else a
// layout string (parallel.layout) that gives the middle stages one layer more than the end stages hold
// (balancedLayout; DeepSeek-V3's 61 layers over 8 stages: 7 | 7 | 8 x 5 | 7 + MTP).
enum class SplitChoice { Template, Even, EmbeddingAndLossInSplit, Balanced };

// The layout string of the Balanced split of `layers` transformer layers (and `mtp` MTP layers before the loss) over
// `stages` virtual stages: each stage floor(layers/stages), the remainder one each to the middle stages, the
// embedding first and the loss last, runs of equal middle stages as (...)*N ("Et*7|t*7|(t*8|)*5t*7mL").
std::string balancedLayout(int layers, int stages, int mtp);

// The searched knobs of one plan (enough to write it back into the template).
struct Candidate {
    SplitChoice split = SplitChoice::Template;
    std::string layout;            // the Balanced split's layout string (set on listed entries and by candidateAt)
    int gpus = 0, tp = 1, cp = 1, ep = 1, pp = 1, dp = 1, vpp = 1, zero = 0, microBatch = 1;
    Fsdp fsdp = Fsdp::None;        // the template's with ZeRO-3, none otherwise
    bool sp = false;
    int overlap = 0;
    double offload = 0;
    RecomputeChoice recompute;
    ScheduleKind schedule = ScheduleKind::OneFOneB;
    bool operator==(const Candidate&) const = default;
};
// The template with the candidate's values (cluster nodes from its GPU count).
Plan applyCandidate(const Plan& templ, const Candidate& c);

// One row per knob, in the command line's order (--vary): its name, whether it is varied when none are named, and a
// number that orders a candidate's value of it. The search, the CLI, the planner page and its scatter read this table.
struct KnobInfo {
    Knob knob;
    const char* name;
    bool byDefault;
    double (*key)(const Candidate&);
};
std::span<const KnobInfo> knobTable();
const KnobInfo& knobInfo(Knob k);

// A candidate in a few words, the one way the CLI and the planner page write it: "dp16 tp2 pp32 cp4 vpp1 sp zero1 mb3
// none zb-h2". Compact leaves out cp, vpp and zero at their defaults (1, 1, 0), for narrow table columns; ep and sp
// appear only where set.
std::string candidateText(const Candidate& c, bool compact = false);

// One ranked plan with the figures the objective reads.
struct SearchEntry {
    std::int64_t index = -1;   // in the space's enumeration
    Candidate candidate;
    double stepSeconds = 0;
    double tokensPerSecond = 0;
    double mfu = 0;
    std::int64_t peakBytes = 0;
    std::int64_t capacityBytes = 0;
    std::int64_t usableBytes = 0; // capacity less the headroom: the planner's fit (Prediction::usableBytes)
    double gpuHoursPerToken = 0;
    double trainingDays = 0;
    std::string source = "analytic"; // "simulation" after the re-rank
    unsigned beyond = 0;          // BeyondEvidence bits: figures beyond what published runs reached (search/Evidence.h)
};

// A point of the scatter (a deterministic sample of the fitting plans, the same for any thread count).
struct SearchPoint {
    std::int64_t index = -1;
    double stepSeconds = 0;
    std::int64_t peakBytes = 0;
};

struct SearchOptions {
    Objective objective = Objective::Time;
    int top = 10;
    int simulateTop = 0;           // re-rank the best this many with the schedule simulation
    int threads = 0;               // 0: std::thread::hardware_concurrency()
    int samplePoints = 20000;      // fitting plans kept for the scatter
    const std::atomic<bool>* cancel = nullptr;
    // Called from the worker threads now and then (at most every ~20 ms per thread) with plans done and in all.
    std::function<void(double done, double total)> progress;
};

struct SearchResult {
    SearchSpace space;
    double plans = 0, valid = 0, fit = 0, evaluated = 0; // evaluated: plans that reached evaluate()
    double seconds = 0;
    int threads = 1;
    bool cancelled = false;
    std::map<std::string, double> rejected;   // reason -> plans
    std::vector<SearchEntry> best;            // by the objective
    std::vector<SearchEntry> pareto;          // by step time
    std::vector<SearchPoint> points;          // by index
    std::int64_t cacheHits = 0, cacheMisses = 0;
    std::vector<Text> notes;                  // what the search changed in the template, and why
    PublishedEvidence evidence;               // what the entries' `beyond` holds them to (the template's GPU, precision, model)
    // Per GPU count (one row without --gpus): plans that fit and the fastest of them.
    struct PerGpus {
        int gpus = 0;
        double valid = 0, fit = 0;
        std::optional<SearchEntry> fastest;
    };
    std::vector<PerGpus> byGpus;
    // The template itself, as a plan of the space.
    struct Given {
        bool valid = false, fits = false;
        Text reason; // why it is rejected (util/Text.h: English in the JSON, translated in the GUI); empty when it fits
        SearchEntry entry;                     // its figures (where valid)
        double rankAmongValid = 0;             // 1 + valid plans with a better objective
        double rankAmongFit = 0;               // 1 + fitting plans with a better objective
    } given;
};

// The objective's value of an entry (smaller is better): step seconds, GPU-hours per token, or peak bytes.
double objectiveValue(Objective o, const SearchEntry& e);

// Every plan of space.templ's space.
SearchResult search(const SearchSpace& space, const SearchOptions& options = {});

// The knobs of the enumeration index `index` of `space` (with the split the search gives it).
Candidate candidateAt(const SearchSpace& space, std::int64_t index);

// The reason search() turns the candidate away before evaluating it (the first check it fails), or null. Reasons
// that start with "same plan:" mark a knob value the plan ignores (the plan is counted under the first listed value);
// every other reason is an error validate() reports too.
// It sets the candidate's split (SplitChoice) the way the search does.
const char* rejectionBeforeEvaluation(const SearchSpace& space, Candidate& c);

// The sentence of a key of SearchResult::rejected (its English), as the template it was written from: a reason
// above, or "invalid: field" for a plan evaluate() finds invalid at that field.
Text rejectionText(const std::string& key);

// Why a plan loses to another: the terms of the step and of the peak stage's memory, each with both values, sorted by
// how much of the difference they explain.
struct TermDifference {
    std::string field;   // prediction field ("time.computeSeconds", "memory.peak.activationsBytes", ...)
    Text label;          // in words (util/Text.h: English for the CLI, translated by the GUI)
    bool part = false;   // a part of the line above it ("of which tp" under the exposed communication), indented
    double mine = 0, best = 0;
    std::string unit;    // "s" or "B"
};
std::vector<TermDifference> compareTerms(const Prediction& mine, const Prediction& best);
// The label as the CLI and the JSON write it: a part indented by two blanks ("  of which tp").
inline std::string termLabelText(const TermDifference& t) { return (t.part ? "  " : "") + t.label.english(); }

// Sizing: for each GPU count, the best plan (objective time) and the days it takes to train `tokens`; `answer` is the
// fewest GPUs that finish within `days`, `cheapest` the count with the fewest GPU-hours for the tokens among those
// with a fitting plan.
struct SizingRow {
    int gpus = 0;
    double fit = 0;
    std::optional<SearchEntry> best;
    double days = 0;       // to train the tokens with the best plan
    double gpuHours = 0;
};
struct Sizing {
    double tokens = 0, days = 0;
    std::vector<SizingRow> rows;
    int answer = -1;       // index into rows; -1: none finishes in time
    int cheapest = -1;     // index into rows; -1: nothing fits
    int smallest = -1;     // index into rows: the fewest GPUs with a plan that fits; -1: nothing fits
};
Sizing sizeCluster(const SearchResult& result, double tokens, double days);

// The GPU counts a sizing question searches when none are given: the plan's count times 1/4, 1/2, 1, 2, 4, 8 and 16,
// kept where they are whole nodes (or divide one node).
std::vector<int> sizingGpuCounts(const Plan& plan);

// What a search's report adds to its result, for `planscope-cli search` and the Python module's search() alike:
// `whyNot`, compareTerms() of evaluate(space.original) and evaluate() of the best plan (empty when no plan fits or the
// plan as given is invalid); with `days`, sizeCluster() for `tokens` (default: space.original's training.tokens).
struct SearchVerdict {
    std::vector<TermDifference> whyNot;
    std::optional<Sizing> sizing;
};
SearchVerdict searchVerdict(const SearchSpace& space, const SearchResult& result, std::optional<double> days,
    std::optional<double> tokens);

} // namespace planscope
