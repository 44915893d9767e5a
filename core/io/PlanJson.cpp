#include "PlanJson.h"
#include "ReadControl.h"

#include "JsonReader.h"
#include "spec/FieldLimits.h"
#include "spec/ScheduleTraits.h"
#include "spec/Validate.h"
#include "util/InputFile.h"
#include "util/Units.h"

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdint>
#include <limits>
#include <nlohmann/json.hpp>
#include <type_traits>
#include <vector>

namespace planscope {

using nlohmann::json;
using jsonio::join;
using jsonio::ObjectReader;

namespace {
// Training tokens beyond any run: 1e18 is about 30,000 times Llama 3's 15.6e12 (Llama 3 report, 2024). Larger
// values only print days with hundreds of digits.
constexpr double kMaxTokens = 1e18;

// An integer field of the plan, in the range its row of core/spec/FieldLimits.cpp gives.
template <class Int>
bool limited(ObjectReader& r, std::string_view path, Int& out)
{
    const FieldLimit& f = fieldLimit(path);
    return r.integer(f.key(), out, f.min, f.max);
}
} // namespace

namespace {

Result<std::string> readText(const std::string& path, std::int64_t maxBytes, ReadControl* control)
{
    // Only a regular file is read, and opening it never waits (util/InputFile.h): a FIFO, /dev/zero or a folder is
    // refused by its type.
    auto file = openInputFile(path);
    if (!file) return Result<std::string>(file.errors());
    const std::int64_t onDisk = file->size();
    if (onDisk > maxBytes)
        return Result<std::string>::failure(path,
            Text(PS_TEXT("CoreText", "is %1 bytes (%2), more than the %3 this kind of file may have; not read"), onDisk,
                units::formatBytes(double(onDisk)), units::formatBytes(double(maxBytes))));
    if (control) control->bytesTotal.store(onDisk, std::memory_order_relaxed);
    // Read in pieces up to the limit: a file that grows as it is read, or one whose size the system does not know
    // (procfs reports 0, proc(5)), has no size to check first.
    std::string text;
    text.reserve(std::size_t(onDisk));
    std::vector<char> piece(std::size_t(1) << 16);
    for (;;) {
        if (control && control->cancel.load(std::memory_order_relaxed))
            return Result<std::string>::failure(path, Text(PS_TEXT("CoreText", "cancelled")));
        const std::int64_t got = file.value().read(piece.data(), piece.size());
        if (got < 0)
            return Result<std::string>::failure(path, Text(PS_TEXT("CoreText", "read error: %1"), errorText(errno)));
        if (got == 0) break;
        text.append(piece.data(), std::size_t(got));
        if (control) control->bytesRead.store(std::int64_t(text.size()), std::memory_order_relaxed);
        if (std::int64_t(text.size()) > maxBytes)
            return Result<std::string>::failure(path,
                Text(PS_TEXT("CoreText", "has more than %1 bytes (%2), the most this kind of file may have; not read"),
                    maxBytes, units::formatBytes(double(maxBytes))));
    }
    return text;
}

} // namespace

Result<std::string> readTextFile(const std::string& path, std::int64_t maxBytes)
{
    return readText(path, maxBytes, nullptr);
}

Result<std::string> readTextFile(const std::string& path, std::int64_t maxBytes, ReadControl& control)
{
    return readText(path, maxBytes, &control);
}

void readModel(const json& j, const std::string& path, ModelSpec& m, Issues& issues)
{
    ObjectReader r(j, path, issues);
    if (!r.ok()) return;
    r.string("name", m.name);
    limited(r, "model.layers", m.layers);
    limited(r, "model.hidden", m.hidden);
    limited(r, "model.heads", m.heads);
    limited(r, "model.kvHeads", m.kvHeads);
    limited(r, "model.ffnHidden", m.ffnHidden);
    limited(r, "model.vocab", m.vocab);
    limited(r, "model.seqLength", m.seqLength);
    r.boolean("gatedMlp", m.gatedMlp);
    r.boolean("tiedEmbeddings", m.tiedEmbeddings);
    r.enumeration("positionEmbedding", m.positionEmbedding,
        { PositionEmbedding::None, PositionEmbedding::Learned, PositionEmbedding::Rope, PositionEmbedding::Alibi });
    r.enumeration("norm", m.norm, { NormKind::LayerNorm, NormKind::RMSNorm });
    r.boolean("bias", m.bias);
    r.boolean("embeddingNorm", m.embeddingNorm);
    r.boolean("dropout", m.dropout);
    r.number("paramsReported", m.paramsReported, 0);
    if (const auto* moe = r.find("moe")) {
        ObjectReader mr(*moe, join(path, "moe"), issues);
        limited(mr, "model.moe.experts", m.moe.experts);
        limited(mr, "model.moe.topK", m.moe.topK);
        limited(mr, "model.moe.expertFfnHidden", m.moe.expertFfnHidden);
        limited(mr, "model.moe.sharedExperts", m.moe.sharedExperts);
        limited(mr, "model.moe.sharedExpertFfnHidden", m.moe.sharedExpertFfnHidden);
        limited(mr, "model.moe.denseLayers", m.moe.denseLayers);
        mr.boolean("routerBias", m.moe.routerBias);
        double cf = m.moe.capacityFactor;
        if (mr.number("capacityFactor", cf, 0)) {
            if (cf != 0 && cf < 1.0 / 64)
                mr.error(join(path, "moe.capacityFactor"),
                    Text(PS_TEXT("CoreText", "must be 0 (dropless) or a factor of the balanced share, e.g. 1.25")));
            else
                m.moe.capacityFactor = cf;
        }
        mr.enumeration("dispatcher", m.moe.dispatcher, { MoeDispatcher::AllToAll, MoeDispatcher::AllGather });
        mr.boolean("groupedGemm", m.moe.groupedGemm);
        mr.boolean("syncFree", m.moe.syncFree);
        double imbalance = m.moe.imbalance;
        if (mr.number("imbalance", imbalance, 0, 1e6)) {
            if (imbalance != 0 && imbalance < 1)
                mr.error(join(path, "moe.imbalance"),
                    Text(PS_TEXT("CoreText", "must be at least 1 (the busiest rank's tokens over the balanced share; "
                                             "1 = balanced)")));
            else
                m.moe.imbalance = imbalance == 0 ? 1.0 : imbalance;
        }
        mr.rejectUnknown({ "experts", "topK", "expertFfnHidden", "sharedExperts", "sharedExpertFfnHidden", "denseLayers",
            "routerBias", "capacityFactor", "dispatcher", "groupedGemm", "syncFree", "imbalance" });
    }
    limited(r, "model.headDim", m.headDim);
    r.boolean("qkNorm", m.qkNorm);
    r.boolean("attentionSinks", m.attentionSinks);
    limited(r, "model.mtpLayers", m.mtpLayers);
    if (const auto* mla = r.find("mla")) {
        ObjectReader lr(*mla, join(path, "mla"), issues);
        limited(lr, "model.mla.qLoraRank", m.mla.qLoraRank);
        limited(lr, "model.mla.kvLoraRank", m.mla.kvLoraRank);
        limited(lr, "model.mla.qkNopeHeadDim", m.mla.qkNopeHeadDim);
        limited(lr, "model.mla.qkRopeHeadDim", m.mla.qkRopeHeadDim);
        limited(lr, "model.mla.vHeadDim", m.mla.vHeadDim);
        lr.rejectUnknown({ "qLoraRank", "kvLoraRank", "qkNopeHeadDim", "qkRopeHeadDim", "vHeadDim" });
    }
    r.rejectUnknown({ "preset", "name", "layers", "hidden", "heads", "kvHeads", "ffnHidden", "vocab", "seqLength",
        "gatedMlp", "tiedEmbeddings", "positionEmbedding", "norm", "bias", "embeddingNorm", "dropout", "moe",
        "paramsReported", "sources", "id", "source", "hfConfig", "headDim", "qkNorm", "attentionSinks", "mtpLayers",
        "mla" });
}

namespace {

// An array of [x, y] pairs, both > 0 (y at most maxY when maxY > 0), sorted by x; errors name the row and say
// what a pair holds (`what`, a phrase of its own).
void readPairs(ObjectReader& r, std::string_view key, const Text& what, double maxY,
    std::vector<std::pair<double, double>>& out)
{
    const auto* v = r.find(key);
    if (!v) return;
    const std::string at = join(r.path(), key);
    if (!v->is_array()) {
        r.error(at, Text(PS_TEXT("CoreText", "must be an array of %1 pairs"), what));
        return;
    }
    std::vector<std::pair<double, double>> rows;
    for (std::size_t i = 0; i < v->size(); ++i) {
        const auto& row = (*v)[i];
        if (!row.is_array() || row.size() != 2 || !row[0].is_number() || !row[1].is_number() || row[0].get<double>() <= 0
            || row[1].get<double>() <= 0 || (maxY > 0 && row[1].get<double>() > maxY)) {
            r.error(at + "[" + std::to_string(i) + "]", Text(PS_TEXT("CoreText", "must be %1"), what));
            return;
        }
        rows.emplace_back(row[0].get<double>(), row[1].get<double>());
    }
    std::sort(rows.begin(), rows.end());
    out = std::move(rows);
}

json pairsToJson(const std::vector<std::pair<double, double>>& rows)
{
    json arr = json::array();
    for (const auto& [x, y] : rows) arr.push_back({ x, y });
    return arr;
}

} // namespace

void readGpu(const json& j, const std::string& path, GpuSpec& g, Issues& issues)
{
    ObjectReader r(j, path, issues);
    if (!r.ok()) return;
    r.string("name", g.name);
    if (g.id.empty()) g.id = g.name;
    limited(r, "cluster.gpu.memory", g.memoryBytes);
    if (const auto* pf = r.find("peakFlops")) {
        ObjectReader pr(*pf, join(path, "peakFlops"), issues);
        pr.number("fp32", g.peakFlops.fp32, 0);
        pr.number("tf32", g.peakFlops.tf32, 0);
        pr.number("bf16", g.peakFlops.bf16, 0);
        pr.number("fp16", g.peakFlops.fp16, 0);
        pr.number("fp8", g.peakFlops.fp8, 0);
        pr.rejectUnknown({ "fp32", "tf32", "bf16", "fp16", "fp8" });
    }
    r.number("hbmBandwidth", g.hbmBandwidth, 0);
    r.number("nvlinkBandwidth", g.nvlinkBandwidth, 0);
    double eff = g.gemmEfficiency;
    if (r.number("gemmEfficiency", eff, 0)) {
        // 0 means "not measured": evaluation falls back to a named default and warns.
        if (eff < 0 || eff > 1)
            r.error(join(path, "gemmEfficiency"), Text(PS_TEXT("CoreText", "must be in [0, 1] (0 = not measured)")));
        else
            g.gemmEfficiency = eff;
    }
    double eff8 = g.gemmEfficiencyFp8;
    if (r.number("gemmEfficiencyFp8", eff8, 0)) {
        if (eff8 > 1)
            r.error(join(path, "gemmEfficiencyFp8"),
                Text(PS_TEXT("CoreText", "must be in [0, 1] (0 = same as gemmEfficiency)")));
        else
            g.gemmEfficiencyFp8 = eff8;
    }
    limited(r, "cluster.gpu.sms", g.sms);
    double hbmEff = g.hbmEfficiency;
    if (r.number("hbmEfficiency", hbmEff, 0)) {
        if (hbmEff > 1)
            r.error(join(path, "hbmEfficiency"),
                Text(PS_TEXT("CoreText", "must be in [0, 1] (achieved copy bandwidth / datasheet; 0 = not measured)")));
        else
            g.hbmEfficiency = hbmEff;
    }
    // [[sequence, FLOP/s], ...]: flash-attention forward+backward throughput by sequence length.
    readPairs(r, "attentionFlops", Text(PS_TEXT("CoreText", "[sequence length, FLOP/s], both > 0")), 0,
        g.attentionFlops);
    r.string("defaultNode", g.defaultNode);
    r.rejectUnknown({ "id", "preset", "name", "vendor", "memory", "peakFlops", "hbmBandwidth", "nvlinkBandwidth",
        "gemmEfficiency", "gemmEfficiencyFp8", "sms", "hbmEfficiency", "attentionFlops", "defaultNode", "sources", "source" });
}

namespace {

void readLink(ObjectReader& parent, std::string_view key, LinkSpec& link, Issues& issues)
{
    if (const auto* v = parent.find(key)) readLinkSpec(*v, join(parent.path(), key), link, issues);
}

} // namespace

void readLinkSpec(const json& j, const std::string& path, LinkSpec& link, Issues& issues)
{
    ObjectReader r(j, path, issues);
    if (!r.ok()) return;
    double bw = link.bandwidth;
    if (r.number("bandwidth", bw, 0)) {
        if (bw <= 0)
            r.error(join(r.path(), "bandwidth"),
                Text(PS_TEXT("CoreText", "must be > 0 (bytes per second per GPU per direction)")));
        else
            link.bandwidth = bw;
    }
    r.number("latency", link.latency, 0);
    double eff = link.efficiency;
    if (r.number("efficiency", eff, 0)) {
        if (eff <= 0 || eff > 1.5)
            r.error(join(r.path(), "efficiency"),
                Text(PS_TEXT("CoreText", "must be in (0, 1.5] (achieved bus bandwidth / link bandwidth)")));
        else
            link.efficiency = eff;
    }
    // A collective's own share of the link, where it differs from the others'.
    for (auto [key, share] : { std::pair { "allReduceEfficiency", &link.allReduceEfficiency },
             std::pair { "allToAllEfficiency", &link.allToAllEfficiency } }) {
        double e = *share;
        if (!r.number(key, e, 0)) continue;
        if (e > 1.5)
            r.error(join(r.path(), key), Text(PS_TEXT("CoreText", "must be in [0, 1.5] (0 = same as efficiency)")));
        else
            *share = e;
    }
    readPairs(r, "busBandwidthCurve",
        Text(PS_TEXT("CoreText", "[buffer bytes, share of the large-message bus bandwidth in (0, 1]]")), 1.0,
        link.busBandwidthCurve);
    r.rejectUnknown({ "bandwidth", "latency", "efficiency", "allReduceEfficiency", "allToAllEfficiency", "busBandwidthCurve" });
}

namespace {

void readCluster(const json& j, Plan& plan, const PresetCatalog& presets, Issues& issues)
{
    ObjectReader r(j, "cluster", issues);
    if (!r.ok()) return;
    ClusterSpec& c = plan.cluster;
    const auto* gpu = r.find("gpu");
    if (!gpu) {
        r.error("cluster.gpu",
            Text(PS_TEXT("CoreText", "missing: name a GPU preset (e.g. \"a100-sxm4-80gb\") or give a GPU object")));
    } else if (gpu->is_string()) {
        const std::string id = gpu->get<std::string>();
        if (const auto* p = presets.gpu(id)) {
            c.gpu = p->spec;
        } else {
            std::string names;
            for (const auto& g : presets.gpus()) names += (names.empty() ? "" : ", ") + g.spec.id;
            r.error("cluster.gpu", Text(PS_TEXT("CoreText", "unknown GPU preset \"%1\"; known: %2"), id, names));
        }
    } else if (gpu->is_object()) {
        if (gpu->contains("preset") && (*gpu)["preset"].is_string()) {
            if (const auto* p = presets.gpu((*gpu)["preset"].get<std::string>()))
                c.gpu = p->spec;
            else
                r.error("cluster.gpu.preset",
                    Text(PS_TEXT("CoreText", "unknown GPU preset \"%1\""), (*gpu)["preset"].get<std::string>()));
        }
        readGpu(*gpu, "cluster.gpu", c.gpu, issues);
        if (c.gpu.memoryBytes <= 0)
            r.error("cluster.gpu.memory", Text(PS_TEXT("CoreText", "missing: GPU memory in bytes")));
        if (c.gpu.peakFlops.forPrecision(plan.training.precision) <= 0 && c.gpu.peakFlops.bf16 <= 0
            && c.gpu.peakFlops.fp16 <= 0)
            r.error("cluster.gpu.peakFlops", Text(PS_TEXT("CoreText", "missing: dense peak FLOP/s per dtype")));
    } else {
        r.error("cluster.gpu",
            Text(PS_TEXT("CoreText", "must be a preset name or an object, found %1"), gpu->type_name()));
    }

    // Links default from the GPU's usual node: NVLink inside, the matching InfiniBand across.
    std::string nodeId = c.gpu.defaultNode;
    if (r.string("node", nodeId) && !presets.node(nodeId))
        r.error("cluster.node", Text(PS_TEXT("CoreText", "unknown node preset \"%1\""), nodeId));
    if (const auto* n = presets.node(nodeId)) {
        c.nodePreset = n->id;
        c.gpusPerNode = n->gpusPerNode;
        c.nvlinkDomainNodes = n->nvlinkDomainNodes;
        c.podNodes = n->podNodes;
        c.intraNode = n->intraNode;
        c.interNode = n->interNode;
    } else {
        if (c.gpu.nvlinkBandwidth > 0) c.intraNode = { c.gpu.nvlinkBandwidth, 5e-6 };
    }
    if (!limited(r, "cluster.nodes", c.nodes))
        if (!r.has("nodes")) r.error("cluster.nodes", Text(PS_TEXT("CoreText", "missing: number of nodes")));
    limited(r, "cluster.gpusPerNode", c.gpusPerNode);
    limited(r, "cluster.nvlinkDomainNodes", c.nvlinkDomainNodes);
    limited(r, "cluster.podNodes", c.podNodes);
    readLink(r, "intraNode", c.intraNode, issues);
    readLink(r, "interNode", c.interNode, issues);
    if (c.intraNode.bandwidth <= 0)
        r.error("cluster.intraNode.bandwidth",
            Text(PS_TEXT("CoreText", "missing: no node preset gives it; set bytes/s per direction")));
    if (c.interNode.bandwidth <= 0 && c.nodes > 1)
        r.error("cluster.interNode.bandwidth",
            Text(PS_TEXT("CoreText", "missing: no node preset gives it; set bytes/s per direction")));
    r.rejectUnknown({ "gpu", "node", "nodes", "gpusPerNode", "nvlinkDomainNodes", "podNodes", "intraNode", "interNode" });
}

void readParallel(const json& j, Plan& plan, Issues& issues, bool& dpGiven)
{
    ObjectReader r(j, "parallel", issues);
    if (!r.ok()) return;
    ParallelSpec& p = plan.parallel;
    dpGiven = limited(r, "parallel.dp", p.dp);
    limited(r, "parallel.tp", p.tp);
    limited(r, "parallel.pp", p.pp);
    limited(r, "parallel.cp", p.cp);
    limited(r, "parallel.ep", p.ep);
    limited(r, "parallel.vpp", p.vpp);
    r.boolean("sp", p.sp);
    limited(r, "parallel.zero", p.zero);
    if (r.enumeration("fsdp", p.fsdp, { Fsdp::None, Fsdp::Full, Fsdp::Hybrid }) && p.fsdp != Fsdp::None) {
        if (r.has("zero") && p.zero != 3)
            r.warning("parallel.zero",
                Text(PS_TEXT("CoreText", "fsdp shards weights, gradients and optimizer states: zero stage set to 3")));
        p.zero = 3;
    }
    r.string("order", p.order);
    limited(r, "parallel.firstStageLayers", p.firstStageLayers);
    limited(r, "parallel.lastStageLayers", p.lastStageLayers);
    r.string("layout", p.layout);
    r.boolean("embeddingInSplit", p.embeddingInSplit);
    r.boolean("lossInSplit", p.lossInSplit);
    limited(r, "parallel.etp", p.etp);
    r.rejectUnknown({ "dp", "tp", "pp", "cp", "ep", "vpp", "sp", "zero", "fsdp", "order", "firstStageLayers",
        "lastStageLayers", "layout", "embeddingInSplit", "lossInSplit", "etp" });
}

void readTraining(const json& j, Plan& plan, Issues& issues, bool& batchGiven)
{
    ObjectReader r(j, "training", issues);
    if (!r.ok()) return;
    TrainingSpec& t = plan.training;
    limited(r, "training.microBatch", t.microBatch);
    // Present but invalid is an error of its own; only an absent batch takes the documented default.
    batchGiven = r.has("globalBatch");
    limited(r, "training.globalBatch", t.globalBatch);
    const std::initializer_list<Precision> precisions { Precision::FP32, Precision::FP16, Precision::BF16,
        Precision::FP8 };
    r.enumeration("precision", t.precision, precisions);
    if (t.precision == Precision::FP32) t.gradDtype = Precision::FP32;
    r.enumeration("gradDtype", t.gradDtype, precisions);
    r.enumeration("optimizer", t.optimizer, { Optimizer::Adam, Optimizer::SGD, Optimizer::Muon });
    r.enumeration("recompute", t.recompute, { Recompute::None, Recompute::Selective, Recompute::Full });
    std::vector<ScheduleKind> schedules;
    for (const ScheduleTraits& st : scheduleTraits()) schedules.push_back(st.kind);
    r.enumeration("schedule", t.schedule, schedules);
    r.boolean("flashAttention", t.flashAttention);
    r.boolean("overlapGradReduce", t.overlapGradReduce);
    r.boolean("tpCommOverlap", t.tpCommOverlap);
    r.boolean("overlapP2pComm", t.overlapP2pComm);
    r.number("tokens", t.tokens, 0, kMaxTokens);
    r.enumeration("fp8Recipe", t.fp8Recipe, { Fp8Recipe::Delayed, Fp8Recipe::Current, Fp8Recipe::MxFp8, Fp8Recipe::Blockwise });
    r.boolean("fp8ParamGather", t.fp8ParamGather);
    if (r.enumeration("optimizerStateDtype", t.optimizerStateDtype, precisions) && t.optimizerStateDtype == Precision::FP8)
        r.error("training.optimizerStateDtype",
            Text(PS_TEXT("CoreText", "must be fp32, bf16 or fp16 (Megatron's precision-aware optimizer)")));
    if (const auto* off = r.find("offload")) {
        ObjectReader orr(*off, "training.offload", issues);
        double fr = t.offload.optimizerFraction;
        if (orr.number("optimizerFraction", fr, 0)) {
            if (fr > 1)
                orr.error("training.offload.optimizerFraction", Text(PS_TEXT("CoreText", "must be a share in [0, 1]")));
            else
                t.offload.optimizerFraction = fr;
        }
        limited(orr, "training.offload.activationLayers", t.offload.activationLayers);
        orr.number("pcieBandwidth", t.offload.pcieBandwidth, 0);
        orr.number("hostBandwidth", t.offload.hostBandwidth, 0);
        orr.rejectUnknown({ "optimizerFraction", "activationLayers", "pcieBandwidth", "hostBandwidth" });
    }
    if (const auto* mods = r.find("recomputeModules")) {
        static const char* const known[] = { "core_attn", "mlp", "moe", "moe_act", "layernorm", "mla_up_proj",
            "shared_experts" };
        if (!mods->is_array()) {
            r.error("training.recomputeModules",
                Text(PS_TEXT("CoreText", "must be an array of module names (core_attn, mlp, moe, moe_act, layernorm, "
                                         "mla_up_proj, shared_experts)")));
        } else {
            t.recomputeModules.clear();
            for (std::size_t i = 0; i < mods->size(); ++i) {
                const auto& v = (*mods)[i];
                const std::string at = "training.recomputeModules[" + std::to_string(i) + "]";
                if (!v.is_string()) {
                    r.error(at, Text(PS_TEXT("CoreText", "must be a module name")));
                    continue;
                }
                const std::string name = v.get<std::string>();
                if (std::find_if(std::begin(known), std::end(known), [&](const char* k) { return name == k; })
                    == std::end(known)) {
                    r.error(at,
                        Text(PS_TEXT("CoreText", "unknown module \"%1\"; expected one of: core_attn, mlp, moe, "
                                                 "moe_act, layernorm, mla_up_proj, shared_experts"),
                            name));
                    continue;
                }
                if (std::find(t.recomputeModules.begin(), t.recomputeModules.end(), name) == t.recomputeModules.end())
                    t.recomputeModules.push_back(name);
            }
        }
    }
    limited(r, "training.recomputeLayers", t.recomputeLayers);
    r.boolean("overlapMoeComm", t.overlapMoeComm);
    if (const auto* host = r.find("host")) {
        ObjectReader hr(*host, "training.host", issues);
        hr.enumeration("cudaGraphs", t.host.cudaGraphs, { CudaGraphs::None, CudaGraphs::PerLayer, CudaGraphs::FullIteration });
        hr.number("kernelSeconds", t.host.kernelSeconds, 0, 1);
        hr.number("syncSeconds", t.host.syncSeconds, 0, 1);
        hr.number("graphLaunchSeconds", t.host.graphLaunchSeconds, 0, 1);
        limited(hr, "training.host.launchQueue", t.host.launchQueue);
        hr.rejectUnknown({ "cudaGraphs", "kernelSeconds", "syncSeconds", "graphLaunchSeconds", "launchQueue" });
    }
    std::string method;
    if (r.string("recomputeMethod", method)) {
        if (method == "block" || method == "uniform")
            t.recomputeBlock = method == "block";
        else
            r.error("training.recomputeMethod",
                Text(PS_TEXT("CoreText", "unknown value \"%1\"; expected one of: %2"), method, "uniform, block"));
    }
    r.rejectUnknown({ "microBatch", "globalBatch", "precision", "gradDtype", "optimizer", "recompute", "schedule",
        "flashAttention", "overlapGradReduce", "tpCommOverlap", "overlapP2pComm", "tokens", "fp8Recipe", "fp8ParamGather",
        "optimizerStateDtype", "offload", "recomputeModules", "recomputeLayers", "recomputeMethod", "overlapMoeComm", "host" });
}

void readOverheads(const json& j, Plan& plan, Issues& issues)
{
    ObjectReader r(j, "memoryOverheads", issues);
    if (!r.ok()) return;
    MemoryOverheads& o = plan.overheads;
    limited(r, "memoryOverheads.cudaContextBytes", o.cudaContextBytes);
    limited(r, "memoryOverheads.ncclBufferBytesPerGroup", o.ncclBufferBytesPerGroup);
    limited(r, "memoryOverheads.workspaceBytes", o.workspaceBytes);
    limited(r, "memoryOverheads.ncclBuffSize", o.ncclBuffSize);
    limited(r, "memoryOverheads.ncclChannels", o.ncclChannels);
    for (auto [key, share] : { std::pair { "fragmentation", &o.fragmentation }, std::pair { "allocatorSlack", &o.allocatorSlack },
             std::pair { "headroom", &o.headroom } }) {
        double f = *share;
        if (!r.number(key, f, 0)) continue;
        if (f >= 1)
            r.error(std::string("memoryOverheads.") + key, Text(PS_TEXT("CoreText", "must be a share in [0, 1)")));
        else
            *share = f;
    }
    r.rejectUnknown({ "cudaContextBytes", "workspaceBytes", "ncclBufferBytesPerGroup", "ncclBuffSize", "ncclChannels",
        "fragmentation", "allocatorSlack", "headroom" });
}

} // namespace

Result<LoadedPlan> planFromJson(const json& j, const PresetCatalog& presets)
{
    Issues issues;
    LoadedPlan out;
    Plan& plan = out.plan;
    ObjectReader top(j, "", issues);
    if (!top.ok()) return Result<LoadedPlan>(issues);

    std::string schema;
    if (top.string("schema", schema)) {
        if (schema != kPlanSchema)
            top.error("schema",
                Text(PS_TEXT("CoreText", "unsupported schema \"%1\"; this build reads %2"), schema, kPlanSchema));
    } else if (!top.has("schema")) {
        top.warning("schema", Text(PS_TEXT("CoreText", "missing; read as %1"), kPlanSchema));
    }
    top.string("name", plan.name);
    top.string("description", plan.description);
    top.string("source", plan.source);

    // Training first: the GPU check needs the precision.
    bool batchGiven = false;
    if (const auto* t = top.find("training")) readTraining(*t, plan, issues, batchGiven);

    if (const auto* m = top.find("model")) {
        ObjectReader mr(*m, "model", issues);
        if (mr.ok()) {
            std::string preset;
            if (mr.string("preset", preset)) {
                if (const auto* p = presets.model(preset)) {
                    plan.model = p->spec;
                } else {
                    std::string names;
                    for (const auto& mp : presets.models()) names += (names.empty() ? "" : ", ") + mp.spec.preset;
                    mr.error("model.preset",
                        Text(PS_TEXT("CoreText", "unknown model preset \"%1\"; known: %2"), preset, names));
                }
            }
            readModel(*m, "model", plan.model, issues);
            plan.model.preset = preset.empty() ? plan.model.preset : preset;
        }
    } else {
        top.error("model", Text(PS_TEXT("CoreText", "missing: a model object (a \"preset\" or its shape)")));
    }
    ModelSpec& model = plan.model;
    if (top.has("model")) {
        applyModelDefaults(model);
        const std::pair<const char*, bool> required[] = { { "layers", model.layers > 0 },
            { "hidden", model.hidden > 0 }, { "heads", model.heads > 0 }, { "vocab", model.vocab > 0 },
            { "seqLength", model.seqLength > 0 } };
        for (const auto& [key, present] : required)
            if (!present && !top.find("model")->contains(key))
                top.error(std::string("model.") + key,
                    Text(PS_TEXT("CoreText", "missing: give it or name a model \"preset\"")));
    }

    if (const auto* c = top.find("cluster"))
        readCluster(*c, plan, presets, issues);
    else
        top.error("cluster", Text(PS_TEXT("CoreText", "missing: a cluster object with \"gpu\" and \"nodes\"")));

    bool dpGiven = false;
    if (const auto* p = top.find("parallel")) readParallel(*p, plan, issues, dpGiven);
    ParallelSpec& par = plan.parallel;
    if (!dpGiven) par.dp = impliedDp(plan);
    if (!batchGiven) {
        // Documented default: 4*pp microbatches per step, so a pipelined plan keeps its bubble small.
        plan.training.globalBatch = std::int64_t(plan.training.microBatch) * par.dp * 4 * par.pp;
        top.warning("training.globalBatch",
            Text(PS_TEXT("CoreText", "missing; using microBatch*dp*4*pp = %1"), plan.training.globalBatch));
    }
    if (const auto* o = top.find("memoryOverheads")) readOverheads(*o, plan, issues);
    if (const auto* cl = top.find("claim")) {
        ObjectReader cr(*cl, "claim", issues);
        cr.number("days", plan.claim.days, 0);
        cr.number("tokens", plan.claim.tokens, 0, kMaxTokens);
        cr.number("mfu", plan.claim.mfu, 0);
        cr.string("source", plan.claim.source);
        cr.rejectUnknown({ "days", "tokens", "mfu", "source" });
    }
    top.rejectUnknown({ "schema", "name", "description", "source", "model", "cluster", "parallel", "training",
        "memoryOverheads", "claim" });

    // 10,000 unknown fields are a hundred warnings and one count of the rest (JsonReader.h).
    jsonio::capIssues(issues);
    if (hasErrors(issues)) return Result<LoadedPlan>(issues);
    out.warnings = std::move(issues);
    return out;
}

Result<LoadedPlan> parsePlan(std::string_view text, const PresetCatalog& presets)
{
    auto j = jsonio::parseText(text);
    if (!j) return Result<LoadedPlan>(j.errors());
    return planFromJson(j.value(), presets);
}

Result<LoadedPlan> loadPlanFile(const std::string& path, const PresetCatalog& presets)
{
    auto text = readTextFile(path, kMaxPlanFileBytes);
    if (!text) return Result<LoadedPlan>(text.errors());
    return parsePlan(text.value(), presets);
}

Result<LoadedPlan> loadPlanFile(const std::string& path, ReadControl& control, const PresetCatalog& presets)
{
    auto text = readTextFile(path, kMaxPlanFileBytes, control);
    if (!text) return Result<LoadedPlan>(text.errors());
    control.parsing.store(true, std::memory_order_relaxed);
    return parsePlan(text.value(), presets);
}

PlanIssues planIssues(const Result<LoadedPlan>& loaded)
{
    Issues all;
    if (!loaded) {
        all = loaded.errors();
    } else {
        all = loaded->warnings;
        for (const Issue& i : validate(loaded->plan)) all.push_back(i);
    }
    PlanIssues out;
    for (const Issue& i : all) (i.severity == Severity::Error ? out.errors : out.warnings).push_back(i);
    return out;
}

json modelToJson(const ModelSpec& m)
{
    json j;
    if (!m.preset.empty()) j["preset"] = m.preset;
    if (!m.name.empty()) j["name"] = m.name;
    j["layers"] = m.layers;
    j["hidden"] = m.hidden;
    j["heads"] = m.heads;
    j["kvHeads"] = m.kvHeads;
    j["ffnHidden"] = m.ffnHidden;
    j["vocab"] = m.vocab;
    j["seqLength"] = m.seqLength;
    j["gatedMlp"] = m.gatedMlp;
    j["tiedEmbeddings"] = m.tiedEmbeddings;
    j["positionEmbedding"] = toString(m.positionEmbedding);
    j["norm"] = toString(m.norm);
    j["bias"] = m.bias;
    j["embeddingNorm"] = m.embeddingNorm;
    j["dropout"] = m.dropout;
    j["moe"] = { { "experts", m.moe.experts }, { "topK", m.moe.topK }, { "expertFfnHidden", m.moe.expertFfnHidden },
        { "sharedExperts", m.moe.sharedExperts } };
    if (m.isMoe()) {
        json& moe = j["moe"];
        if (m.moe.sharedExpertFfnHidden > 0) moe["sharedExpertFfnHidden"] = m.moe.sharedExpertFfnHidden; // kept with 0 shared experts too
        moe["denseLayers"] = m.moe.denseLayers;
        moe["routerBias"] = m.moe.routerBias;
        moe["capacityFactor"] = m.moe.capacityFactor;
        moe["dispatcher"] = toString(m.moe.dispatcher);
        moe["groupedGemm"] = m.moe.groupedGemm;
        moe["syncFree"] = m.moe.syncFree;
        moe["imbalance"] = m.moe.imbalance;
    }
    if (m.headDim > 0) j["headDim"] = m.headDim;
    if (m.qkNorm) j["qkNorm"] = true;
    if (m.attentionSinks) j["attentionSinks"] = true;
    if (m.mtpLayers > 0) j["mtpLayers"] = m.mtpLayers;
    if (m.mla.enabled())
        j["mla"] = { { "qLoraRank", m.mla.qLoraRank }, { "kvLoraRank", m.mla.kvLoraRank },
            { "qkNopeHeadDim", m.mla.qkNopeHeadDim }, { "qkRopeHeadDim", m.mla.qkRopeHeadDim }, { "vHeadDim", m.mla.vHeadDim } };
    if (m.paramsReported > 0) j["paramsReported"] = m.paramsReported;
    return j;
}

json gpuToJson(const GpuSpec& g)
{
    json j;
    j["name"] = g.name;
    j["memory"] = g.memoryBytes;
    j["peakFlops"] = { { "fp32", g.peakFlops.fp32 }, { "tf32", g.peakFlops.tf32 }, { "bf16", g.peakFlops.bf16 },
        { "fp16", g.peakFlops.fp16 }, { "fp8", g.peakFlops.fp8 } };
    j["hbmBandwidth"] = g.hbmBandwidth;
    j["nvlinkBandwidth"] = g.nvlinkBandwidth;
    j["gemmEfficiency"] = g.gemmEfficiency;
    if (g.gemmEfficiencyFp8 > 0) j["gemmEfficiencyFp8"] = g.gemmEfficiencyFp8;
    if (g.sms > 0) j["sms"] = g.sms;
    if (g.hbmEfficiency > 0) j["hbmEfficiency"] = g.hbmEfficiency;
    if (!g.attentionFlops.empty()) j["attentionFlops"] = pairsToJson(g.attentionFlops);
    if (!g.defaultNode.empty()) j["defaultNode"] = g.defaultNode;
    return j;
}

json planToJson(const Plan& p)
{
    json j;
    j["schema"] = kPlanSchema;
    j["name"] = p.name;
    if (!p.description.empty()) j["description"] = p.description;
    if (!p.source.empty()) j["source"] = p.source;
    j["model"] = modelToJson(p.model);
    json gpu = gpuToJson(p.cluster.gpu);
    if (PresetCatalog::builtin().gpu(p.cluster.gpu.id)) gpu["preset"] = p.cluster.gpu.id;
    auto link = [](const LinkSpec& l) {
        json o = { { "bandwidth", l.bandwidth }, { "latency", l.latency }, { "efficiency", l.efficiency } };
        if (l.allReduceEfficiency > 0) o["allReduceEfficiency"] = l.allReduceEfficiency;
        if (l.allToAllEfficiency > 0) o["allToAllEfficiency"] = l.allToAllEfficiency;
        if (!l.busBandwidthCurve.empty()) o["busBandwidthCurve"] = pairsToJson(l.busBandwidthCurve);
        return o;
    };
    j["cluster"] = { { "gpu", gpu }, { "nodes", p.cluster.nodes }, { "gpusPerNode", p.cluster.gpusPerNode },
        { "intraNode", link(p.cluster.intraNode) }, { "interNode", link(p.cluster.interNode) } };
    if (p.cluster.nvlinkDomainNodes > 1) j["cluster"]["nvlinkDomainNodes"] = p.cluster.nvlinkDomainNodes;
    if (p.cluster.podNodes > 0) j["cluster"]["podNodes"] = p.cluster.podNodes;
    if (!p.cluster.nodePreset.empty()) j["cluster"]["node"] = p.cluster.nodePreset;
    const ParallelSpec& q = p.parallel;
    j["parallel"] = { { "dp", q.dp }, { "tp", q.tp }, { "pp", q.pp }, { "cp", q.cp }, { "ep", q.ep }, { "vpp", q.vpp },
        { "sp", q.sp }, { "zero", q.zero }, { "fsdp", toString(q.fsdp) }, { "order", q.order } };
    if (q.firstStageLayers) j["parallel"]["firstStageLayers"] = q.firstStageLayers;
    if (q.lastStageLayers) j["parallel"]["lastStageLayers"] = q.lastStageLayers;
    if (!q.layout.empty()) j["parallel"]["layout"] = q.layout;
    if (q.embeddingInSplit) j["parallel"]["embeddingInSplit"] = true;
    if (q.lossInSplit) j["parallel"]["lossInSplit"] = true;
    if (q.etp > 0) j["parallel"]["etp"] = q.etp;
    const TrainingSpec& t = p.training;
    j["training"] = { { "microBatch", t.microBatch }, { "globalBatch", t.globalBatch },
        { "precision", toString(t.precision) }, { "gradDtype", toString(t.gradDtype) },
        { "optimizer", toString(t.optimizer) }, { "recompute", toString(t.recompute) },
        { "schedule", toString(t.schedule) }, { "flashAttention", t.flashAttention },
        { "overlapGradReduce", t.overlapGradReduce }, { "tpCommOverlap", t.tpCommOverlap },
        { "overlapP2pComm", t.overlapP2pComm }, { "tokens", t.tokens } };
    json& tj = j["training"];
    // Also when set under another precision (validate() warns it is ignored): the file must read back the same plan.
    if (t.precision == Precision::FP8 || t.fp8Recipe != Fp8Recipe::Delayed || t.fp8ParamGather) {
        tj["fp8Recipe"] = toString(t.fp8Recipe);
        tj["fp8ParamGather"] = t.fp8ParamGather;
    }
    if (t.optimizerStateDtype != Precision::FP32) tj["optimizerStateDtype"] = toString(t.optimizerStateDtype);
    if (t.offload.optimizerFraction > 0 || t.offload.activationLayers > 0)
        tj["offload"] = { { "optimizerFraction", t.offload.optimizerFraction },
            { "activationLayers", t.offload.activationLayers } };
    if (t.offload.pcieBandwidth > 0) tj["offload"]["pcieBandwidth"] = t.offload.pcieBandwidth;
    if (t.offload.hostBandwidth > 0) tj["offload"]["hostBandwidth"] = t.offload.hostBandwidth;
    if (!t.recomputeModules.empty()) tj["recomputeModules"] = t.recomputeModules;
    if (t.recomputeLayers > 0) {
        tj["recomputeLayers"] = t.recomputeLayers;
        tj["recomputeMethod"] = t.recomputeBlock ? "block" : "uniform";
    }
    if (t.overlapMoeComm) tj["overlapMoeComm"] = true;
    tj["host"] = { { "cudaGraphs", toString(t.host.cudaGraphs) } };
    if (t.host.kernelSeconds > 0) tj["host"]["kernelSeconds"] = t.host.kernelSeconds;
    if (t.host.syncSeconds > 0) tj["host"]["syncSeconds"] = t.host.syncSeconds;
    if (t.host.graphLaunchSeconds > 0) tj["host"]["graphLaunchSeconds"] = t.host.graphLaunchSeconds;
    if (t.host.launchQueue > 0) tj["host"]["launchQueue"] = t.host.launchQueue;
    const MemoryOverheads& mo = p.overheads;
    j["memoryOverheads"] = { { "cudaContextBytes", mo.cudaContextBytes }, { "workspaceBytes", mo.workspaceBytes },
        { "ncclBufferBytesPerGroup", mo.ncclBufferBytesPerGroup }, { "ncclBuffSize", mo.ncclBuffSize },
        { "ncclChannels", mo.ncclChannels }, { "fragmentation", mo.fragmentation }, { "allocatorSlack", mo.allocatorSlack },
        { "headroom", mo.headroom } };
    if (p.claim.days > 0 || p.claim.tokens > 0 || p.claim.mfu > 0) {
        j["claim"] = { { "days", p.claim.days }, { "tokens", p.claim.tokens }, { "mfu", p.claim.mfu } };
        if (!p.claim.source.empty()) j["claim"]["source"] = p.claim.source;
    }
    return j;
}

std::string serializePlan(const Plan& plan)
{
    return planToJson(plan).dump(2) + "\n";
}

Result<ModelSpec> modelFromHuggingFaceConfig(std::string_view text)
{
    json j = json::parse(text, nullptr, false);
    if (j.is_discarded() || !j.is_object())
        return Result<ModelSpec>::failure("", Text(PS_TEXT("CoreText", "config.json is not a JSON object")));
    // Counts and sizes: whole numbers from 0 up to what the field's type holds. A value outside (3.7e62, -2^63, 1.5)
    // is named as such, never converted (a double beyond int64 is undefined behaviour) and then called missing.
    Issues outOfRange;
    auto num = [&](std::initializer_list<const char*> keys, std::int64_t fallback) -> std::int64_t {
        for (const char* k : keys) {
            if (!j.contains(k) || !j[k].is_number()) continue;
            const json& v = j[k];
            if (v.is_number_unsigned() && v.get<std::uint64_t>() <= std::uint64_t(std::numeric_limits<int>::max()))
                return std::int64_t(v.get<std::uint64_t>());
            if (v.is_number_integer() && !v.is_number_unsigned() && v.get<std::int64_t>() >= 0
                && v.get<std::int64_t>() <= std::numeric_limits<int>::max())
                return v.get<std::int64_t>();
            if (v.is_number_float()) {
                const double d = v.get<double>();
                if (d >= 0 && d <= double(std::numeric_limits<int>::max()) && d == std::floor(d)) return std::int64_t(d);
            }
            outOfRange.push_back(issue(Severity::Error, k,
                Text(PS_TEXT("CoreText", "is %1: expected a whole number from 0 to %2"), v.dump(),
                    std::numeric_limits<int>::max())));
            return fallback;
        }
        return fallback;
    };
    // Flags, names and ratios: a value of another type ("model_type": 32, "multi_query": "yes") is named, not thrown.
    auto typed = [&](const char* k, auto fallback) {
        using T = decltype(fallback);
        if (!j.contains(k) || j[k].is_null()) return fallback;
        const json& v = j[k];
        const bool ok = std::is_same_v<T, bool> ? v.is_boolean() : std::is_same_v<T, std::string> ? v.is_string() : v.is_number();
        if (ok) return v.get<T>();
        std::string found = v.dump();
        if (found.size() > 40) found = found.substr(0, 40) + "...";
        outOfRange.push_back(issue(Severity::Error, k,
            std::is_same_v<T, bool>              ? Text(PS_TEXT("CoreText", "is %1: expected true or false"), found)
                : std::is_same_v<T, std::string> ? Text(PS_TEXT("CoreText", "is %1: expected a string"), found)
                                                 : Text(PS_TEXT("CoreText", "is %1: expected a number"), found)));
        return fallback;
    };
    ModelSpec m;
    const std::string type = typed("model_type", std::string());
    m.name = j.contains("_name_or_path") && j["_name_or_path"].is_string() ? j["_name_or_path"].get<std::string>()
                                                                          : (type.empty() ? "imported" : type);
    m.layers = int(num({ "num_hidden_layers", "n_layer", "num_layers" }, 0));
    m.hidden = num({ "hidden_size", "n_embd", "d_model" }, 0);
    m.heads = int(num({ "num_attention_heads", "n_head" }, 0));
    m.kvHeads = int(num({ "num_key_value_heads", "num_kv_heads", "multi_query_group_num" }, m.heads));
    if (typed("multi_query", false)) m.kvHeads = 1;
    m.vocab = num({ "vocab_size", "padded_vocab_size" }, 0);
    m.seqLength = num({ "max_position_embeddings", "n_positions", "seq_length", "max_sequence_length" }, 2048);
    m.tiedEmbeddings = typed("tie_word_embeddings", true);
    m.dropout = false;
    const bool llamaLike = type == "llama" || type == "mistral" || type == "mixtral" || type == "qwen2"
        || type == "qwen2_moe" || type == "qwen3" || type == "qwen3_moe" || type == "gemma" || type == "deepseek_v2"
        || type == "deepseek_v3" || type == "olmo2" || type == "gpt_oss";
    if (llamaLike) {
        m.gatedMlp = true;
        m.norm = NormKind::RMSNorm;
        // Qwen2 keeps QKV biases (counted as all-biases, approximately); GPT-OSS has biased linears throughout.
        m.bias = type == "qwen2" || type == "qwen2_moe" || (type == "gpt_oss" && typed("attention_bias", true));
        m.qkNorm = type == "qwen3" || type == "qwen3_moe";
        m.attentionSinks = type == "gpt_oss";
        m.headDim = num({ "head_dim" }, 0);
        m.positionEmbedding = PositionEmbedding::Rope;
        m.ffnHidden = num({ "intermediate_size" }, 0);
        if (!j.contains("tie_word_embeddings")) m.tiedEmbeddings = false;
    } else if (type == "gpt2") {
        m.positionEmbedding = PositionEmbedding::Learned;
        m.ffnHidden = num({ "n_inner" }, 0);
        m.dropout = typed("resid_pdrop", 0.0) > 0;
    } else if (type == "bloom") {
        m.positionEmbedding = PositionEmbedding::Alibi;
        m.embeddingNorm = true;
    } else if (type == "gpt_neox" || type == "falcon") {
        m.positionEmbedding = PositionEmbedding::Rope;
        m.ffnHidden = num({ "intermediate_size", "ffn_hidden_size" }, 0);
        m.tiedEmbeddings = typed("tie_word_embeddings", false);
    } else if (type == "opt") {
        m.ffnHidden = num({ "ffn_dim" }, 0);
    } else {
        m.ffnHidden = num({ "intermediate_size", "ffn_hidden_size", "n_inner" }, 0);
    }
    const std::int64_t experts = num({ "num_local_experts", "num_experts", "n_routed_experts" }, 0);
    if (experts > 0) {
        m.moe.experts = int(experts);
        m.moe.topK = int(num({ "num_experts_per_tok", "top_k", "moe_top_k" }, 2));
        m.moe.expertFfnHidden = num({ "moe_intermediate_size" }, m.ffnHidden);
        m.moe.sharedExperts = int(num({ "n_shared_experts" }, 0));
        // Qwen2-MoE: one shared expert of shared_expert_intermediate_size.
        if (const std::int64_t shared = num({ "shared_expert_intermediate_size" }, 0); shared > 0) {
            m.moe.sharedExperts = std::max(1, m.moe.sharedExperts);
            m.moe.sharedExpertFfnHidden = shared;
        }
        m.moe.denseLayers = int(num({ "first_k_dense_replace" }, 0));
        m.moe.routerBias = type == "gpt_oss" || typed("topk_method", std::string()) == "noaux_tc";
    }
    if (num({ "kv_lora_rank" }, 0) > 0) {
        m.mla.qLoraRank = int(num({ "q_lora_rank" }, 0));
        m.mla.kvLoraRank = int(num({ "kv_lora_rank" }, 0));
        m.mla.qkNopeHeadDim = int(num({ "qk_nope_head_dim" }, 0));
        m.mla.qkRopeHeadDim = int(num({ "qk_rope_head_dim" }, 0));
        m.mla.vHeadDim = int(num({ "v_head_dim" }, 0));
    }
    m.mtpLayers = int(num({ "num_nextn_predict_layers" }, 0));
    applyModelDefaults(m);
    if (!outOfRange.empty()) return Result<ModelSpec>(outOfRange);
    Issues missing;
    const Text absent(PS_TEXT("CoreText", "missing in config.json"));
    if (m.layers <= 0) missing.push_back(issue(Severity::Error, "num_hidden_layers", absent));
    if (m.hidden <= 0) missing.push_back(issue(Severity::Error, "hidden_size", absent));
    if (m.heads <= 0) missing.push_back(issue(Severity::Error, "num_attention_heads", absent));
    if (m.vocab <= 0) missing.push_back(issue(Severity::Error, "vocab_size", absent));
    if (!missing.empty()) return Result<ModelSpec>(missing);
    return m;
}

} // namespace planscope
