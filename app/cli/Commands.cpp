#include "Commands.h"
#include "ConfigCommands.h"

#include "Args.h"
#include "CompareCommands.h"
#include "ReportCommand.h"
#include "RunCommands.h"
#include "LessonCommands.h"
#include "PlanInput.h"
#include "ScheduleCommands.h"
#include "SearchCommands.h"
#include "TraceCommands.h"

#include "calib/Profile.h"
#include "cost/AutoBalance.h"
#include "cost/Evaluate.h"
#include "cost/Parameters.h"
#include "cost/Placement.h"
#include "io/PlacementJson.h"
#include "cost/RealityCheck.h"
#include "io/AnalysisJson.h"
#include "io/TableExport.h"
#include "io/PlanJson.h"
#include "spec/PlanText.h"
#include "io/PredictionJson.h"
#include "sim/Timeline.h"
#include "spec/SplitText.h"
#include "spec/Validate.h"
#include "util/AtomicFile.h"
#include "util/Units.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cstdio>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <ostream>
#include <set>
#include <sstream>
#include <cstdio>
#include <iostream>
#include <unistd.h>

namespace planscope::cli {

using nlohmann::json;

namespace {

constexpr const char* kUsage = R"(planscope-cli: the numbers of a parallel training plan, headless.

usage:
  planscope-cli evaluate PLAN [--analytic] [--calibration PROFILE.profile.json]
                                                   prediction JSON (schema planscope/prediction/v1): time.stepSeconds
                                                   is the simulated step, the figure the app shows; --analytic gives
                                                   the closed form (both are always in time.analyticStepSeconds and
                                                   time.simulatedStepSeconds); --calibration
                                                   replaces link latency/efficiency, GEMM efficiency and HBM
                                                   bandwidth with a profile's measurements ("calibration" object);
                                                   a profile measured on another GPU than the plan's is refused
                                                   (exit 1) unless --calibration-any-gpu is given
  planscope-cli validate PLAN                      {"valid", "errors", "warnings"}
  planscope-cli summary PLAN                       the prediction as readable text
  planscope-cli explain PLAN [--field PATH] [--json] [--depth N] [--list] [--analytic] [--ops]
                                                   how a number was computed (default field time.stepSeconds)
  planscope-cli placement PLAN [--json]            each group kind on the cluster's tiers: the nodes, NVLink domains
                                                   and pods one group spans (fewest, most, and the fewest its size
                                                   needs), the slowest tier it crosses, whether another rank order
                                                   would keep it faster (schema planscope/placement/v1)
  planscope-cli check PLAN [--days D] [--tokens T] [--mfu X] [--json]
                                                   is a claimed run possible, and by what factor is it short
  planscope-cli balance PLAN [--json] [--write OUT.plan.json]
                                                   the pipeline split (parallel.layout) that makes the slowest
                                                   rank fastest while every stage fits in memory; --write saves
                                                   the plan with it (JSON schema planscope/balance/v1)
  planscope-cli search PLAN [--objective time|cost|memory] [--top K] [--json | --csv OUT.csv]
                [--vary tp,pp,dp,cp,ep,vpp,sp,zero,microBatch,recompute,schedule,overlap,offload]
                [--fix KEY=VALUE ...] [--gpus N1,N2,...] [--simulate-top K] [--threads N] [--days D [--tokens T]]
                [--shard I/N --out SHARD.json]   |   planscope-cli search --merge SHARD.json... [--json | --csv OUT]
                                                   every plan of the template's space (knobs in --vary, default all
                                                   but overlap and offload) on all cores: the best K by the objective,
                                                   the Pareto front of step time and peak memory (and GPUs), each
                                                   rejected plan counted under its reason, the template's rank and
                                                   why the best beats it; --gpus sizes the cluster too, --days D
                                                   answers how many GPUs train T tokens (default training.tokens)
                                                   in D days (JSON schema planscope/search/v1); --shard searches
                                                   one part of the space, --merge joins the parts into the result
                                                   of one process (docs/SEARCH.md, "Splitting a search")
  planscope-cli compare A.plan.json B.plan.json [...] [--json]
                                                   plans side by side: step time, tokens/s, MFU, peak memory (and per
                                                   stage), bubble, exposed communication, days; the better plan of
                                                   each row and every value over it (schema planscope/compare/v1)
  planscope-cli report PLAN [PLAN2 ...] --out FILE.pdf|FILE.html [--lang zh_CN]
                                                   one document to hand out: for several plans the comparison
                                                   first; for each plan its settings, headline figures with their
                                                   derivations, warnings, and a page per view (timeline, GPU grid,
                                                   memory, communication, layer anatomy), drawn offscreen
  planscope-cli lessons [--json] [--lang zh_CN]     the guided lessons (data and tensor parallelism, ZeRO, the ring
                                                   all-reduce, pipeline bubbles, GPipe vs 1F1B, interleaving, zero
                                                   bubble, a 3D plan for 175B), each question's answer computed by
                                                   the model from the step's plan (schema planscope/lessons/v1)
  planscope-cli lessons --interview TOPIC [--seed N] [--json] [--lang zh_CN]
                                                   a generated interview question (pipeline-bubble, zero-memory,
                                                   ring-allreduce, data-parallel, tensor-parallel): a plan drawn
                                                   from the seed, the question, the model's answer and the worked
                                                   solution (schema planscope/interview/v1)
  planscope-cli presets [models|gpus|nodes] [--json]
  planscope-cli model-from-hf CONFIG.json          a Hugging Face config.json as a plan "model" object
  planscope-cli import-config FILE|- [--format F] [--base PLAN] [--gpu ID] [--nodes N] [--gpus-per-node G]
                                [--hf-config CONFIG.json] [--out OUT] [--json]
                                                   a plan from a Megatron-LM launch line or script (torchrun/srun in
                                                   front), a DeepSpeed JSON, a torchtitan TOML or a Megatron-Bridge /
                                                   NeMo YAML: every argument it models becomes a plan field, every other
                                                   one is listed by name; conflicts exit 2 (planscope/import-config/v1)
  planscope-cli export-config PLAN --as megatron|torchtitan [--out FILE]
                                                   the torchrun line with the Megatron-LM arguments, or the torchtitan
                                                   job config, that run the plan
  planscope-cli simulate PLAN [--chrome-trace OUT.json] [--kineto-traces DIR]
                                                   the prediction with the simulated step, plus a timeline summary;
                                                   the trace opens in Perfetto (one process per pipeline rank);
                                                   --kineto-traces writes DIR/rank<r>.json, PyTorch-profiler traces of
                                                   the predicted step (import DIR --against PLAN reads them back)
  planscope-cli schedule --kind K --stages P --microbatches M [--vpp V] [--variant megatron|megatron-legacy|torch]
                [--group G] [--forward F] [--backward B] [--weight W] [--overlap FB] [--comm C]
                [--import SCHEDULE.csv] [--json|--csv|--csv-comms]
                                                   one pipeline schedule: op order per rank, makespan, idle, peaks
                                                   (durations per chunk; defaults F=1, B=2, W=1, FB=F+B, C=0);
                                                   CSV = PyTorch pipelining's compute_only / compute_comms format
  planscope-cli import-nccl-tests FILE... [--op OP] [--ranks N] [--nodes N] [--out PROFILE.profile.json]
                                                   nccl-tests output (text table or -J JSON) as a profile with
                                                   alpha-beta fits; the op comes from the binary's name in the output
                                                   or the file name (all_reduce_perf.txt), or --op AllReduce; --ranks
                                                   and --nodes give what the output does not print
  planscope-cli import TRACE... [--against PLAN [--step N]] [--job N] [--infer-plan [--base PLAN] [--out OUT]] [--json]
                                                   PyTorch-profiler (Kineto) traces (.json, .json.gz, or folders of
                                                   them), one per rank: events, kernels, NCCL collectives with algBw/
                                                   busBw, steps and the GPU compute / communication / overlap / idle
                                                   breakdown, cross-rank skew; --against: the measured step against
                                                   the plan's simulated one, and the overlay (step N, default the
                                                   median, aligned; PP: actions matched); files of several jobs:
                                                   the one with the most ranks, or --job N (exit 2: none imported);
                                                   --infer-plan: tp, pp, dp, cp, ep, etp and the rank order from the
                                                   traces' process groups (Megatron-Core's names), each with its
                                                   evidence, and what could not be inferred; over --base PLAN (or the
                                                   --against plan) as a plan, written to --out (json: inferredPlan)
  planscope-cli memory-check PLAN SNAPSHOT [--stage S] [--device D] [--json]
                                                   a PyTorch CUDA memory snapshot (the pickle of
                                                   torch.cuda.memory._dump_snapshot) beside the plan: its allocated
                                                   and reserved peaks over the trace against the predicted memory of
                                                   stage S (default the stage of rank 0) on device D (default the
                                                   first); the pickle is read as plain data, never run
                                                   (schema planscope/memory-check/v1)
  planscope-cli reduce TRACE_OR_FOLDER... --out RUN.planscope-run [--gpus-per-node G] [--threads N]
  planscope-cli reduce TRACE_OR_FOLDER... --shard I/N --out SHARD.jsonl [--threads N]
  planscope-cli reduce --merge SHARD... --out RUN.planscope-run [--gpus-per-node G]
                                                   a measured run of thousands of ranks in one small file: each
                                                   rank's trace summarized (steps and their compute / exposed
                                                   communication / idle, top kernels, memory peaks, PP: actions, one
                                                   record per collective), collectives matched across each process
                                                   group's members (skew, wait, who arrives last); --shard does the
                                                   files [I*F/N, (I+1)*F/N) under any launcher, --merge joins the
                                                   shards into the same bytes as one process or planscope-reduce
                                                   under MPI (docs/TRACES.md, "Large runs")
  planscope-cli run-summary RUN [--top K] [--json] the slowest ranks and why, the process groups with their scope
                                                   (intra-/inter-node), straggler and all-to-all imbalance
                                                   (schema planscope/run-summary/v1)
  planscope-cli compare-runs A B [--json]          two measured runs (run files or trace folders) per phase,
                                                   collective and rank, the biggest difference named
                                                   (schema planscope/run-compare/v1)
  planscope-cli profile-fit PROFILE [--json]       the alpha and bus bandwidth fitted per (op, ranks, link class)
  planscope-cli --version | --help

Exit codes: 0 ok, 1 usage or file error, 2 invalid plan (errors name the field or byte offset).
Units: bytes, seconds, FLOP; GB = 1e9 bytes, GiB = 2^30 bytes; link bandwidths per direction.
)";

int cmdEvaluate(const Args& a, std::ostream& out, std::ostream& err)
{
    if (a.positional.empty()) {
        err << "usage: planscope-cli evaluate PLAN [--analytic] [--calibration PROFILE [--calibration-any-gpu]]\n";
        return 1;
    }
    if (a.has("--calibration") && !a.options.count("--calibration")) {
        err << "planscope-cli: --calibration needs a profile file\n";
        return 1;
    }
    int code = 0;
    auto plan = loadPlanArg(a.positional[0], out, err, code);
    if (!plan) return code;
    AnalysisOptions options;
    options.inputWarnings = plan->warnings;
    if (a.options.count("--calibration")) {
        // The profile's measurements replace the presets' link and GEMM efficiencies, fitted to this plan.
        const std::string& path = a.options.at("--calibration");
        auto profile = loadMeasurements(path);
        if (!profile) {
            err << "planscope-cli: " << path << ":\n";
            printIssues(profile.errors(), err);
            return 1;
        }
        // Measured on another GPU than the plan's: refused with both names, unless --calibration-any-gpu says to
        // apply it anyway (the prediction's warnings then say so).
        Calibration c = calibrationFromProfile(profile.value(), plan->plan,
            a.has("--calibration-any-gpu") ? OtherGpu::Apply : OtherGpu::Refuse);
        if (!c.refused.empty()) {
            err << "planscope-cli: " << path << ":\n";
            printIssues(c.refused, err);
            err << "planscope-cli: --calibration-any-gpu applies it anyway\n";
            return 1;
        }
        if (c.source.empty()) c.source = path;
        options.calibration = std::move(c);
    }
    const auto analysis = analyse(plan->plan, options);
    if (!analysis->valid()) return exitInvalid(*analysis, out, err);
    // The simulated step, as the app shows it; --analytic: the closed form. Both figures are in time.*.
    const bool analytic = a.has("--analytic");
    if (!analytic && !analysis->timeline) {
        err << "planscope-cli: the schedule cannot be simulated; time.stepSeconds is the analytic estimate:\n";
        printIssues(analysis->timelineErrors, err);
    }
    json doc = analysisToJson(*analysis, analytic ? StepFigure::Analytic : StepFigure::Simulated);
    if (options.calibration) doc["calibration"]["file"] = a.options.at("--calibration");
    out << doc.dump(2) << "\n";
    return 0;
}

int cmdValidate(const Args& a, std::ostream& out, std::ostream& err)
{
    if (a.positional.empty()) {
        err << "usage: planscope-cli validate PLAN\n";
        return 1;
    }
    // The reader's issues and validate()'s, by severity: core's planIssues(), as in the Python module.
    const auto [errors, warnings] = planIssues(loadPlanFile(a.positional[0]));
    out << json { { "valid", errors.empty() }, { "errors", issuesToJson(errors) }, { "warnings", issuesToJson(warnings) } }
               .dump(2)
        << "\n";
    printIssues(errors, err);
    return errors.empty() ? 0 : 2;
}

int cmdExplain(const Args& a, std::ostream& out, std::ostream& err)
{
    if (a.positional.empty()) {
        err << "usage: planscope-cli explain PLAN [--field PATH] [--depth N] [--json] [--list] [--ops]\n";
        return 1;
    }
    AnalysisOptions options;
    options.explain = true;
    // The explanations of the simulated figures, as the app shows them; --analytic: the closed form's.
    options.simulate = !a.has("--analytic");
    int code = 0;
    const auto analysis = analysePlanFile(a.positional[0], options, out, err, code);
    if (!analysis) return code;
    if (!analysis->valid()) return exitInvalid(*analysis, out, err);
    const Explainer& ex = *analysis->explainer;
    if (a.has("--ops")) {
        // One layer's operators (and the output layer's), as the Metrics page lists them.
        const Prediction& pr = analysis->prediction;
        out << "One transformer layer, one microbatch, one GPU (~op: overlapped with op; *: timed by the calibration):\n"
            << formatOperatorTable(pr.layerOps) << "\nOutput layer (last stage):\n" << formatOperatorTable(pr.outputOps);
        return 0;
    }
    if (a.has("--list")) {
        for (const auto& [field, e] : ex.entries()) out << field << "\n";
        return 0;
    }
    const std::string field = a.options.count("--field") ? a.options.at("--field") : "time.stepSeconds";
    int depth = 3;
    if (a.options.count("--depth")) depth = std::max(0, std::atoi(a.options.at("--depth").c_str()));
    if (!ex.find(field)) {
        err << "planscope-cli: no explanation for field \"" << field << "\"; try --list\n";
        return 1;
    }
    if (a.has("--json"))
        out << explanationToJson(ex, field, depth).dump(2) << "\n";
    else
        out << formatExplanation(ex, field, depth);
    return 0;
}

// placement PLAN [--json]: each group kind on the cluster's tiers (cost/Placement.h).
int cmdPlacement(const Args& a, std::ostream& out, std::ostream& err)
{
    if (a.positional.size() != 1) {
        err << "usage: planscope-cli placement PLAN [--json]\n";
        return 1;
    }
    int code = 0;
    const auto analysis = analysePlanFile(a.positional[0], {}, out, err, code, a.has("--json"));
    if (!analysis) return code;
    if (!analysis->valid()) return exitInvalid(*analysis, out, err, a.has("--json"));
    const Plan& plan = analysis->plan;
    const std::vector<KindPlacement> rows = placementOf(plan, analysis->prediction);
    if (a.has("--json")) {
        out << placementJson(plan, rows).dump(2) << "\n";
        return 0;
    }
    const ClusterSpec& c = plan.cluster;
    out << plan.name << ": " << c.gpus() << " GPUs, " << c.nodes << " nodes of " << c.gpusPerNode;
    if (c.nvlinkDomainNodes > 1) out << ", NVLink domains of " << c.nvlinkDomainNodes << " nodes";
    out << (c.podNodes > 0 ? ", pods of " + std::to_string(c.podNodes) + " nodes" : std::string(", one pod (cluster.podNodes not set)"))
        << "; order " << plan.parallel.order << "\n";
    char buf[256];
    std::snprintf(buf, sizeof buf, "  %-5s %6s %9s  %-20s %-20s %-20s %-8s %s\n", "kind", "size", "groups", "nodes (fewest..most)",
        "domains", "pods", "tier", "per GPU per step");
    out << buf;
    for (const KindPlacement& k : rows) {
        auto span = [](const TierSpan& t) {
            return std::to_string(t.fewest) + ".." + std::to_string(t.most) + " (needs " + std::to_string(t.needed) + ")";
        };
        std::snprintf(buf, sizeof buf, "  %-5s %6d %9lld  %-20s %-20s %-20s %-8s %s%s\n", std::string(toString(k.kind)).c_str(), k.size,
            k.groups, span(k.nodes).c_str(), span(k.domains).c_str(), span(k.pods).c_str(), std::string(toString(k.tier)).c_str(),
            units::formatBytes(k.bytesPerStep).c_str(),
            k.avoidable ? ("  [could stay on " + std::string(toString(k.neededTier)) + " under another order]").c_str() : "");
        out << buf;
    }
    return 0;
}

int cmdCheck(const Args& a, std::ostream& out, std::ostream& err)
{
    if (a.positional.empty()) {
        err << "usage: planscope-cli check PLAN [--days D] [--tokens T] [--mfu X] [--json]\n";
        return 1;
    }
    const auto days = number(a, "--days", err), tokens = number(a, "--tokens", err), mfu = number(a, "--mfu", err);
    if (!days || !tokens || !mfu) return 1;
    if (*mfu > 1) {
        err << "planscope-cli: --mfu is a fraction in (0, 1], e.g. 0.45\n";
        return 1;
    }
    int code = 0;
    const auto analysis = analysePlanFile(a.positional[0], {}, out, err, code);
    if (!analysis) return code;
    if (!analysis->valid()) return exitInvalid(*analysis, out, err);
    RealityCheck rc = realityCheck(analysis->plan, analysis->prediction, *days, *tokens, *mfu);
    if (a.has("--json"))
        out << realityCheckToJson(rc).dump(2) << "\n";
    else
        out << rc.message.english() << "\n";
    return 0;
}

int cmdSummary(const Args& a, std::ostream& out, std::ostream& err)
{
    if (a.positional.empty()) {
        err << "usage: planscope-cli summary PLAN\n";
        return 1;
    }
    int code = 0;
    const auto analysis = analysePlanFile(a.positional[0], {}, out, err, code, false);
    if (!analysis) return code;
    if (!analysis->valid()) return exitInvalid(*analysis, out, err, false);
    const Plan& pl = analysis->plan;
    const Prediction& p = analysis->prediction;
    char buf[512];
    out << (pl.name.empty() ? a.positional[0] : pl.name) << "\n";
    std::snprintf(buf, sizeof buf, "  %s on %d x %s (%d nodes); %s; %s, m=%lld\n", pl.model.name.c_str(),
        pl.cluster.gpus(), pl.cluster.gpu.id.c_str(), pl.cluster.nodes, degreesText(pl.parallel).english().c_str(),
        std::string(toString(pl.training.schedule)).c_str(), (long long)p.microbatches);
    out << buf;
    out << "  parameters " << units::formatCount(p.paramsTotal) << "\n\n";
    // Each rank's layers, and its virtual stages in the layout notation: E embedding, L loss, '|' between chunks.
    const std::vector<std::string> chunks = rankSplitTexts(pl);
    out << "  pipeline split: " << splitSource(pl) << "\n";
    std::snprintf(buf, sizeof buf, "  %-6s %-7s %12s %12s %12s %12s %12s %12s %9s  %s\n", "stage", "layers", "weights",
        "gradients", "optimizer", "activations", "buffers", "total", "inflight", "chunks");
    out << buf;
    for (const StageMemory& s : p.stages) {
        const std::string& c = std::size_t(s.stage) < chunks.size() ? chunks[std::size_t(s.stage)] : std::string();
        std::snprintf(buf, sizeof buf, "  %-6d %-7d %12s %12s %12s %12s %12s %12s %9.2f  %s\n", s.stage, s.layers,
            units::formatBytes(double(s.weightsBytes)).c_str(), units::formatBytes(double(s.gradientsBytes)).c_str(),
            units::formatBytes(double(s.optimizerBytes)).c_str(), units::formatBytes(double(s.activationsBytes)).c_str(),
            units::formatBytes(double(s.buffersBytes)).c_str(), units::formatBytes(double(s.totalBytes)).c_str(),
            s.inFlightMicrobatches, c.c_str());
        out << buf;
    }
    std::snprintf(buf, sizeof buf, "  peak %s of %s per GPU: %s\n\n", units::formatBytes(double(p.peakBytes)).c_str(),
        units::formatBytes(double(p.capacityBytes)).c_str(), p.fits ? "fits" : "DOES NOT FIT");
    out << buf;
    // The step the app shows: the simulated one where the schedule was simulated, the closed form beside it.
    if (p.timeSource == "simulation") {
        std::snprintf(buf, sizeof buf, "  step %s simulated (the closed form gives %s)\n",
            units::formatSeconds(p.stepSeconds).c_str(), units::formatSeconds(p.analyticStepSeconds).c_str());
        out << buf;
    }
    std::snprintf(buf, sizeof buf,
        "  %s %s (compute %s, bubble %s, exposed comm %s, optimizer %s)\n"
        "  schedule bubble %.1f%% of the pipeline [%s], overhead %.1f%% of compute [%s]\n"
        "  idle %.1f%% of all ranks' pipeline time: the bubble and %.1f%% waiting on slower stages and sends\n"
        "  MFU %.1f%%, HFU %.1f%%, %.0f tokens/s, %.1f days for %.3g tokens\n",
        p.timeSource == "simulation" ? "closed form" : "step",
        units::formatSeconds(p.timeSource == "simulation" ? p.analyticStepSeconds : p.stepSeconds).c_str(),
        units::formatSeconds(p.computeSeconds).c_str(),
        units::formatSeconds(p.bubbleSeconds).c_str(), units::formatSeconds(p.exposedCommSeconds).c_str(),
        units::formatSeconds(p.optimizerSeconds).c_str(), p.bubbleFraction * 100, bubbleFormulas(pl.training.schedule).share,
        p.bubbleOverhead * 100, bubbleFormulas(pl.training.schedule).overhead, p.idleFraction * 100,
        std::max(0.0, p.imbalanceIdleFraction) * 100, p.mfu * 100,
        p.hfu * 100, p.tokensPerSecond, p.trainingDays, pl.training.tokens);
    out << buf;
    // One layer, one microbatch, by what bounds each op (the Layer Anatomy page and `explain --ops` list them).
    double bound[4] = {};
    for (const KernelOp& op : p.layerOps) bound[int(op.bound)] += op.exposedSeconds;
    const PassTotals lt = sumPasses(p.layerOps);
    std::snprintf(buf, sizeof buf,
        "  one layer: forward %s, backward %s (recompute %s); compute-bound %s, memory-bound %s, exposed comm %s, "
        "latency-bound %s\n",
        units::formatSeconds(lt.forward).c_str(), units::formatSeconds(lt.backward()).c_str(),
        units::formatSeconds(lt.recompute).c_str(), units::formatSeconds(bound[int(OpBound::Compute)]).c_str(),
        units::formatSeconds(bound[int(OpBound::Memory)]).c_str(),
        units::formatSeconds(bound[int(OpBound::Communication)]).c_str(),
        units::formatSeconds(bound[int(OpBound::Latency)]).c_str());
    out << buf << "\n";
    for (const CommGroup& g : p.comm) {
        std::snprintf(buf, sizeof buf, "  %-3s size %-5d %-13s %-44s %10s/step  %10s  exposed %10s\n", toString(g.kind).data(),
            g.size, g.crossesNodes ? "crosses nodes" : "in one node", g.collective.english().c_str(),
            units::formatBytes(g.bytesPerStep).c_str(), units::formatSeconds(g.seconds).c_str(),
            units::formatSeconds(g.exposedSeconds).c_str());
        out << buf;
    }
    if (!p.warnings.empty()) out << "\n";
    for (const Issue& w : p.warnings) out << "  warning: " << issueLine(w) << "\n";
    return 0;
}

json splitFiguresToJson(const SplitFigures& f)
{
    if (!f.valid) return nullptr;
    return { { "split", f.split }, { "slowestRankSeconds", f.slowestRankSeconds }, { "slowestRank", f.slowestRank },
        { "peakBytes", f.peakBytes }, { "peakRank", f.peakRank }, { "fits", f.fits } };
}

json balanceToJson(const BalancedSplit& b)
{
    const std::vector<std::string> chunks = rankSplitTexts(b.plan), ranges = rankLayerRanges(b.plan);
    json stages = json::array(), ranks = json::array();
    const int pp = std::max(1, b.plan.parallel.pp);
    for (std::size_t k = 0; k < b.stageLayers.size(); ++k)
        stages.push_back({ { "stage", k }, { "rank", b.stageRanks[k] }, { "chunk", int(k) / pp }, { "layers", b.stageLayers[k] } });
    for (std::size_t r = 0; r < b.rankLayers.size(); ++r)
        ranks.push_back({ { "rank", r }, { "layers", b.rankLayers[r] }, { "chunks", r < chunks.size() ? chunks[r] : "" },
            { "layerRanges", r < ranges.size() ? ranges[r] : "" },
            { "seconds", r < b.rankSeconds.size() ? b.rankSeconds[r] : 0.0 },
            { "bytes", r < b.rankBytes.size() ? b.rankBytes[r] : 0 } });
    return { { "schema", "planscope/balance/v1" }, { "valid", true }, { "layout", b.layout }, { "fits", b.fits },
        { "capacityBytes", b.capacityBytes }, { "mtpLayers", b.mtpLayers }, { "stages", stages }, { "ranks", ranks },
        { "before", splitFiguresToJson(b.before) }, { "after", splitFiguresToJson(b.after) } };
}

void printBalance(const BalancedSplit& b, const std::string& name, std::ostream& out)
{
    const std::vector<std::string> chunks = rankSplitTexts(b.plan), ranges = rankLayerRanges(b.plan);
    char buf[512];
    out << name << "\n  layout " << b.layout << "\n";
    std::snprintf(buf, sizeof buf, "  %-5s %-7s %-24s %-24s %14s %12s\n", "rank", "layers", "chunks", "layer indices",
        "F+B/microbatch", "memory");
    out << buf;
    for (std::size_t r = 0; r < b.rankLayers.size(); ++r) {
        std::snprintf(buf, sizeof buf, "  %-5zu %-7d %-24s %-24s %14s %12s\n", r, b.rankLayers[r],
            r < chunks.size() ? chunks[r].c_str() : "", r < ranges.size() ? ranges[r].c_str() : "",
            units::formatSeconds(r < b.rankSeconds.size() ? b.rankSeconds[r] : 0.0).c_str(),
            units::formatBytes(double(r < b.rankBytes.size() ? b.rankBytes[r] : 0)).c_str());
        out << buf;
    }
    auto line = [&](const char* what, const SplitFigures& f) {
        if (!f.valid) {
            out << "  " << what << ": the plan as given does not evaluate\n";
            return;
        }
        std::snprintf(buf, sizeof buf, "  %-7s slowest rank %s (rank %d), peak %s (rank %d)%s  [split: %s]\n", what,
            units::formatSeconds(f.slowestRankSeconds).c_str(), f.slowestRank, units::formatBytes(double(f.peakBytes)).c_str(),
            f.peakRank, f.fits ? "" : " DOES NOT FIT", f.split.c_str());
        out << buf;
    };
    line("before", b.before);
    line("after", b.after);
    if (!b.fits)
        out << "  no split fits in " << units::formatBytes(double(b.capacityBytes))
            << " per GPU: the split above has the lowest peak any split reaches\n";
}

int cmdBalance(const Args& a, std::ostream& out, std::ostream& err)
{
    if (a.positional.empty() || (a.has("--write") && !a.options.count("--write"))) {
        err << "usage: planscope-cli balance PLAN [--json] [--write OUT.plan.json]\n";
        return 1;
    }
    int code = 0;
    auto plan = loadPlanArg(a.positional[0], out, err, code);
    if (!plan) return code;
    const auto balanced = autoBalance(plan->plan);
    if (!balanced) {
        out << json { { "schema", "planscope/balance/v1" }, { "valid", false }, { "errors", issuesToJson(balanced.errors()) } }
                   .dump(2)
            << "\n";
        printIssues(balanced.errors(), err);
        return 2;
    }
    const BalancedSplit& b = balanced.value();
    json doc = balanceToJson(b);
    int result = 0;
    if (a.options.count("--write")) {
        const std::string& path = a.options.at("--write");
        if (!b.fits) {
            err << "planscope-cli: no split fits in memory; " << path << " not written\n";
            result = 1;
        } else if (std::string error; !writeFileAtomically(path, serializePlan(b.plan), error)) {
            err << "planscope-cli: " << error << "\n";
            result = 1;
        } else {
            doc["written"] = path;
        }
    }
    if (a.has("--json"))
        out << doc.dump(2) << "\n";
    else
        printBalance(b, plan->plan.name.empty() ? a.positional[0] : plan->plan.name, out);
    return result;
}

int cmdPresets(const Args& a, std::ostream& out, std::ostream&)
{
    const PresetCatalog& c = PresetCatalog::builtin();
    const std::string what = a.positional.empty() ? "all" : a.positional[0];
    json j;
    if (what == "all" || what == "models") {
        json arr = json::array();
        for (const auto& m : c.models()) {
            json e = modelToJson(m.spec);
            e["id"] = m.spec.preset;
            e["parameters"] = countParameters(m.spec).total;
            e["sources"] = m.sources;
            arr.push_back(e);
        }
        j["models"] = arr;
    }
    if (what == "all" || what == "gpus") {
        json arr = json::array();
        for (const auto& g : c.gpus()) {
            json e = gpuToJson(g.spec);
            e["id"] = g.spec.id;
            e["sources"] = g.sources;
            arr.push_back(e);
        }
        j["gpus"] = arr;
    }
    if (what == "all" || what == "nodes") {
        json arr = json::array();
        for (const auto& n : c.nodes())
            arr.push_back({ { "id", n.id }, { "name", n.name }, { "gpu", n.gpu }, { "gpusPerNode", n.gpusPerNode },
                { "intraNode", { { "bandwidth", n.intraNode.bandwidth }, { "latency", n.intraNode.latency } } },
                { "interNode", { { "bandwidth", n.interNode.bandwidth }, { "latency", n.interNode.latency } } },
                { "sources", n.sources } });
        j["nodes"] = arr;
    }
    if (a.has("--json")) {
        out << j.dump(2) << "\n";
        return 0;
    }
    if (j.contains("models"))
        for (const auto& m : c.models())
            out << "model  " << m.spec.preset << "  " << m.spec.name << "  " << units::formatCount(countParameters(m.spec).total)
                << " parameters\n";
    if (j.contains("gpus"))
        for (const auto& g : c.gpus())
            out << "gpu    " << g.spec.id << "  " << g.spec.name << "  " << units::formatBytes(double(g.spec.memoryBytes))
                << ", bf16 " << units::formatFlops(g.spec.peakFlops.bf16) << "/s dense\n";
    if (j.contains("nodes"))
        for (const auto& n : c.nodes())
            out << "node   " << n.id << "  " << n.name << "\n";
    return 0;
}

int cmdModelFromHf(const Args& a, std::ostream& out, std::ostream& err)
{
    if (a.positional.empty()) {
        err << "usage: planscope-cli model-from-hf CONFIG.json\n";
        return 1;
    }
    auto text = readTextFile(a.positional[0]);
    if (!text) {
        err << "planscope-cli: " << a.positional[0] << " " << text.errors().front().message << "\n";
        return 1;
    }
    auto model = modelFromHuggingFaceConfig(text.value());
    if (!model) {
        printIssues(model.errors(), err);
        return 2;
    }
    json j = modelToJson(model.value());
    j["parameters"] = countParameters(model.value()).total;
    out << j.dump(2) << "\n";
    return 0;
}

int cmdImportNcclTests(const Args& a, std::ostream& out, std::ostream& err)
{
    if (a.positional.empty()) {
        err << "usage: planscope-cli import-nccl-tests FILE... [--op OP] [--ranks N] [--nodes N] [--out PROFILE.profile.json]\n";
        return 1;
    }
    // What the output may not say: the rank and node counts of the run (0: from the file).
    int ranks = 0, nodes = 0;
    for (auto [key, value] : { std::pair { "--ranks", &ranks }, std::pair { "--nodes", &nodes } }) {
        if (!a.options.count(key)) continue;
        const std::string& text = a.options.at(key);
        char* end = nullptr;
        const long n = std::strtol(text.c_str(), &end, 10);
        if (text.empty() || *end != '\0' || n < 1 || n > 10000000) {
            err << "planscope-cli: " << key << " must be a whole number from 1 to 10000000, found \"" << text << "\"\n";
            return 1;
        }
        *value = int(n);
    }
    if (ranks > 0 && nodes > ranks) {
        err << "planscope-cli: --nodes " << nodes << " is more than --ranks " << ranks << "\n";
        return 1;
    }
    Profile merged;
    std::string names;
    for (const std::string& path : a.positional) {
        auto text = readTextFile(path);
        if (!text) {
            err << "planscope-cli: " << path << " " << text.errors().front().message << "\n";
            return 1;
        }
        const std::string base = path.substr(path.find_last_of("/\\") + 1);
        NcclTestsHints hints;
        hints.op = a.options.count("--op") ? a.options.at("--op") : base;
        hints.ranks = ranks;
        hints.nodes = nodes;
        auto imported = importNcclTests(text.value(), hints);
        if (!imported) {
            err << "planscope-cli: " << path << ":\n";
            printIssues(imported.errors(), err);
            return 2;
        }
        Profile& p = imported.value();
        if (merged.host.empty()) merged.host = p.host;
        if (merged.gpus.empty()) merged.gpus = p.gpus;
        if (merged.nccl.empty()) merged.nccl = p.nccl;
        merged.collectives.insert(merged.collectives.end(), p.collectives.begin(), p.collectives.end());
        for (Issue w : p.warnings) {
            w.path = base + (w.path.empty() ? "" : ": " + w.path);
            merged.warnings.push_back(w);
        }
        names += (names.empty() ? "" : ", ") + base;
    }
    merged.source = "nccl-tests: " + names;
    merged.fits = fitCollectives(merged.collectives);
    printIssues(merged.warnings, err);
    const std::string text = profileToJson(merged).dump(2) + "\n";
    if (a.options.count("--out")) {
        if (std::string error; !writeFileAtomically(a.options.at("--out"), text, error)) {
            err << "planscope-cli: " << error << "\n";
            return 1;
        }
        err << "planscope-cli: wrote " << a.options.at("--out") << ": " << merged.collectives.size()
            << " measurements, " << merged.fits.size() << " fit(s)\n";
    } else {
        out << text;
    }
    return 0;
}

int cmdProfileFit(const Args& a, std::ostream& out, std::ostream& err)
{
    if (a.positional.empty()) {
        err << "usage: planscope-cli profile-fit PROFILE [--json]\n";
        return 1;
    }
    auto profile = loadMeasurements(a.positional[0]);
    if (!profile) {
        err << "planscope-cli: " << a.positional[0] << ":\n";
        printIssues(profile.errors(), err);
        return 1;
    }
    // What reading it inferred or left out (nccl-tests output: the rank and node counts), on stderr.
    printIssues(profile->warnings, err);
    // Fitted afresh from the measurements where there are any, else the fits the file carries.
    const std::vector<LinkFit> fits = profile->collectives.empty() ? profile->fits : fitCollectives(profile->collectives);
    if (a.has("--json")) {
        Profile only;
        only.fits = fits;
        out << json { { "source", profile->source }, { "host", profile->host }, { "fits", profileToJson(only)["fits"] } }.dump(2)
            << "\n";
        return 0;
    }
    if (fits.empty()) {
        out << "no collective measurements to fit\n";
        return 0;
    }
    char buf[256];
    std::snprintf(buf, sizeof buf, "%-14s %6s %6s %-7s %12s %14s %14s %7s\n", "op", "ranks", "nodes", "class", "alpha",
        "busBw (fit)", "busBw (max)", "points");
    out << buf;
    for (const LinkFit& f : fits) {
        double best = 0;
        for (const CollectiveSample& c : profile->collectives)
            if (c.op == f.op && c.ranks == f.ranks && c.nodes == f.nodes) best = std::max(best, c.busBandwidth);
        std::snprintf(buf, sizeof buf, "%-14s %6d %6d %-7s %9.2f us %9.1f GB/s %9.1f GB/s %7d\n", f.op.c_str(), f.ranks,
            f.nodes, f.linkClass.c_str(), f.alpha * 1e6, f.busBandwidth / 1e9, best / 1e9, f.points);
        out << buf;
    }
    out << "model: t = steps * alpha + factor * S / busBw (ring steps 2(n-1) all-reduce, n-1 all-gather/reduce-scatter/"
           "all-to-all/broadcast/reduce, 1 send/recv; factor as nccl-tests' busbw)\n";
    return 0;
}

} // namespace

namespace {

// The verb run with --json into a buffer, its tables written; then its own output as asked (the buffer itself where
// --json was asked, else a second run without it). Standard input is read once and given to both runs as a file; the
// JSON run writes no --out or --write file (the second run does).
int runWithTables(std::vector<std::string> args, const std::string& xlsx, const std::string& csv, std::ostream& out, std::ostream& err)
{
    std::string stdinCopy;
    if (std::find(args.begin(), args.end(), "-") != args.end()) {
        char name[] = "/tmp/planscope-stdin-XXXXXX";
        const int fd = ::mkstemp(name);
        if (fd < 0) {
            err << "planscope-cli: cannot keep standard input for --xlsx/--csv\n";
            return 1;
        }
        ::close(fd);
        stdinCopy = name;
        std::ofstream(stdinCopy, std::ios::binary) << std::cin.rdbuf();
        std::replace(args.begin(), args.end(), std::string("-"), stdinCopy);
    }
    struct Remove {
        std::string path;
        ~Remove()
        {
            if (!path.empty()) std::remove(path.c_str());
        }
    } removeCopy { stdinCopy };
    const bool asked = std::find(args.begin(), args.end(), "--json") != args.end();
    std::vector<std::string> withJson;
    for (std::size_t i = 0; i < args.size(); ++i) {
        if ((args[i] == "--out" || args[i] == "--write") && i + 1 < args.size()) {
            ++i;
            continue;
        }
        withJson.push_back(args[i]);
    }
    if (!asked) withJson.push_back("--json");
    std::ostringstream buffer, quiet;
    const int code = run(withJson, buffer, quiet);
    json document;
    try {
        document = json::parse(buffer.str());
    } catch (const json::exception&) {
        // No JSON: the verb says why (a usage error, a file that cannot be read), or it has none to give.
        const int own = run(args, out, err);
        err << "planscope-cli: " << args[0] << " wrote no JSON here; no tables written\n";
        return own != 0 ? own : 1;
    }
    const std::vector<Table> tables = tablesFromJson(document, args[0]);
    std::string error;
    if (!xlsx.empty() && !writeXlsx(xlsx, tables, error)) {
        err << "planscope-cli: " << error << "\n";
        return 1;
    }
    if (!csv.empty()) {
        // One table: the file named; several: one file each, the table's name before the extension (made unique).
        const std::size_t dot = csv.rfind('.');
        const std::size_t slash = csv.rfind('/');
        const bool hasExtension = dot != std::string::npos && (slash == std::string::npos || dot > slash);
        const std::string stem = hasExtension ? csv.substr(0, dot) : csv, extension = hasExtension ? csv.substr(dot) : ".csv";
        std::set<std::string> taken;
        for (const Table& t : tables) {
            std::string name = t.name;
            for (char& c : name)
                if (!std::isalnum(static_cast<unsigned char>(c)) && c != '-' && c != '_' && c != '.' && static_cast<unsigned char>(c) < 0x80) c = '_';
            std::string path = tables.size() == 1 ? csv : stem + "-" + name + extension;
            for (int n = 2; taken.count(path); ++n) path = stem + "-" + name + "-" + std::to_string(n) + extension;
            taken.insert(path);
            if (!writeFileAtomically(path, tableToCsv(t), error)) {
                err << "planscope-cli: " << error << "\n";
                return 1;
            }
        }
    }
    if (asked) {
        out << buffer.str();
        return code;
    }
    return run(args, out, err);
}

} // namespace

int run(const std::vector<std::string>& args, std::ostream& out, std::ostream& err)
{
    if (args.empty() || args[0] == "--help" || args[0] == "-h" || args[0] == "help") {
        (args.empty() ? err : out) << kUsage;
        return args.empty() ? 1 : 0;
    }
    if (args[0] == "--version") {
        out << "planscope-cli 0.1.0\n";
        return 0;
    }
    const std::string& verb = args[0];
    // --xlsx OUT (and --csv OUT where the verb has no --csv of its own): the tables of the verb's JSON written as a
    // spreadsheet, the verb's own output unchanged.
    static const std::set<std::string> kTableVerbs = { "evaluate", "import", "import-nccl-tests", "memory-check", "summary",
        "check", "balance", "search", "compare", "import-config", "explain", "presets" };
    if (kTableVerbs.count(verb)) {
        std::vector<std::string> rest;
        std::string xlsx, csv;
        for (std::size_t i = 0; i < args.size(); ++i) {
            const bool own = verb == "search" && args[i] == "--csv"; // search writes its own ranking as CSV
            if ((args[i] == "--xlsx" || (args[i] == "--csv" && !own)) && i + 1 < args.size()) {
                (args[i] == "--xlsx" ? xlsx : csv) = args[i + 1];
                ++i;
            } else if (args[i].rfind("--xlsx=", 0) == 0) {
                xlsx = args[i].substr(7);
            } else if (args[i].rfind("--csv=", 0) == 0 && verb != "search") {
                csv = args[i].substr(6);
            } else {
                rest.push_back(args[i]);
            }
        }
        if (!xlsx.empty() || !csv.empty()) return runWithTables(rest, xlsx, csv, out, err);
    }
    if (verb == "evaluate") return cmdEvaluate(parseArgs(args, 1, { "--calibration" }), out, err);
    if (verb == "import-nccl-tests") return cmdImportNcclTests(parseArgs(args, 1, { "--out", "--op", "--ranks", "--nodes" }), out, err);
    if (verb == "import") return cmdImport(parseArgs(args, 1, { "--against", "--step", "--job", "--base", "--out" }), out, err);
    if (verb == "memory-check") return cmdMemoryCheck(parseArgs(args, 1, { "--stage", "--device" }), out, err);
    if (verb == "reduce") return cmdReduce(parseArgs(args, 1, { "--out", "--shard", "--gpus-per-node", "--threads" }), out, err);
    if (verb == "run-summary") return cmdRunSummary(parseArgs(args, 1, { "--top" }), out, err);
    if (verb == "compare-runs") return cmdCompareRuns(parseArgs(args, 1, {}), out, err);
    if (verb == "profile-fit") return cmdProfileFit(parseArgs(args, 1, {}), out, err);
    if (verb == "validate") return cmdValidate(parseArgs(args, 1, {}), out, err);
    if (verb == "summary") return cmdSummary(parseArgs(args, 1, {}), out, err);
    if (verb == "placement") return cmdPlacement(parseArgs(args, 1, {}), out, err);
    if (verb == "explain") return cmdExplain(parseArgs(args, 1, { "--field", "--depth" }), out, err);
    if (verb == "check") return cmdCheck(parseArgs(args, 1, { "--days", "--tokens", "--mfu" }), out, err);
    if (verb == "balance") return cmdBalance(parseArgs(args, 1, { "--write" }), out, err);
    if (verb == "search") return cmdSearch(args, out, err);
    if (verb == "compare") return cmdCompare(parseArgs(args, 1, {}), out, err);
    if (verb == "report") return cmdReport(parseArgs(args, 1, { "--out", "--lang" }), out, err);
    if (verb == "lessons") return cmdLessons(parseArgs(args, 1, { "--lang", "--interview", "--seed" }), out, err);
    if (verb == "presets") return cmdPresets(parseArgs(args, 1, {}), out, err);
    if (verb == "model-from-hf") return cmdModelFromHf(parseArgs(args, 1, {}), out, err);
    if (verb == "import-config")
        return cmdImportConfig(
            parseArgs(args, 1, { "--base", "--gpu", "--nodes", "--gpus-per-node", "--out", "--format", "--hf-config" }), out, err);
    if (verb == "export-config") return cmdExportConfig(parseArgs(args, 1, { "--as", "--out" }), out, err);
    if (verb == "simulate") return cmdSimulate(parseArgs(args, 1, { "--chrome-trace", "--kineto-traces" }), out, err);
    if (verb == "schedule")
        return cmdSchedule(parseArgs(args, 1, { "--kind", "--stages", "--microbatches", "--vpp", "--group", "--variant",
                               "--forward", "--backward", "--weight", "--overlap", "--comm", "--import" }),
            out, err);
    err << "planscope-cli: unknown verb \"" << verb << "\"\n" << kUsage;
    return 1;
}

} // namespace planscope::cli
