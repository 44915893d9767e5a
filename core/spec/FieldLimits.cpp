#include "spec/FieldLimits.h"

#include <stdexcept>
#include <string>

namespace planscope {

namespace {

// Bounds: what the model can describe, not what is sensible (validate() warns about that). Counts of layers,
// experts and heads stop at a million, widths at 1e7-1e8, degrees at 1e5 (the GPU count at 1e7 x 1e6 nodes), byte
// sizes at 10 TB per GPU and 1 PB of device memory.
#define PS_FIELD(path, lo, hi, expr)                                                                               \
    { path, lo, hi, [](const Plan& p) -> std::int64_t { return std::int64_t(p.expr); },                              \
        [](Plan& p, std::int64_t v) { p.expr = decltype(p.expr)(v); } }
constexpr FieldLimit kLimits[] = {
    PS_FIELD("model.layers", 1, 1e6, model.layers),
    PS_FIELD("model.hidden", 1, 1e7, model.hidden),
    PS_FIELD("model.heads", 1, 1e5, model.heads),
    PS_FIELD("model.kvHeads", 1, 1e5, model.kvHeads),
    PS_FIELD("model.ffnHidden", 1, 1e8, model.ffnHidden),
    PS_FIELD("model.vocab", 1, 1e8, model.vocab),
    PS_FIELD("model.seqLength", 1, 1e9, model.seqLength),
    PS_FIELD("model.headDim", 0, 1e6, model.headDim),
    PS_FIELD("model.mtpLayers", 0, 64, model.mtpLayers),
    PS_FIELD("model.moe.experts", 0, 1e6, model.moe.experts),
    PS_FIELD("model.moe.topK", 0, 1e6, model.moe.topK),
    PS_FIELD("model.moe.expertFfnHidden", 0, 1e8, model.moe.expertFfnHidden),
    PS_FIELD("model.moe.sharedExperts", 0, 1e6, model.moe.sharedExperts),
    PS_FIELD("model.moe.sharedExpertFfnHidden", 0, 1e8, model.moe.sharedExpertFfnHidden),
    PS_FIELD("model.moe.denseLayers", 0, 1e6, model.moe.denseLayers),
    PS_FIELD("model.mla.qLoraRank", 0, 1e6, model.mla.qLoraRank),
    PS_FIELD("model.mla.kvLoraRank", 0, 1e6, model.mla.kvLoraRank),
    PS_FIELD("model.mla.qkNopeHeadDim", 0, 1e5, model.mla.qkNopeHeadDim),
    PS_FIELD("model.mla.qkRopeHeadDim", 0, 1e5, model.mla.qkRopeHeadDim),
    PS_FIELD("model.mla.vHeadDim", 0, 1e5, model.mla.vHeadDim),
    PS_FIELD("cluster.gpu.memory", 1, 1e15, cluster.gpu.memoryBytes),
    PS_FIELD("cluster.gpu.sms", 0, 1e5, cluster.gpu.sms),
    PS_FIELD("cluster.nodes", 1, 1e6, cluster.nodes),
    PS_FIELD("cluster.gpusPerNode", 1, 1024, cluster.gpusPerNode),
    PS_FIELD("cluster.nvlinkDomainNodes", 1, 1024, cluster.nvlinkDomainNodes),
    PS_FIELD("cluster.podNodes", 0, 1e6, cluster.podNodes),
    PS_FIELD("parallel.dp", 1, 1e7, parallel.dp),
    PS_FIELD("parallel.tp", 1, 1e5, parallel.tp),
    PS_FIELD("parallel.pp", 1, 1e5, parallel.pp),
    PS_FIELD("parallel.cp", 1, 1e5, parallel.cp),
    PS_FIELD("parallel.ep", 1, 1e5, parallel.ep),
    PS_FIELD("parallel.etp", 0, 1e5, parallel.etp),
    PS_FIELD("parallel.vpp", 1, 1e4, parallel.vpp),
    PS_FIELD("parallel.zero", 0, 3, parallel.zero),
    PS_FIELD("parallel.firstStageLayers", 0, 1e6, parallel.firstStageLayers),
    PS_FIELD("parallel.lastStageLayers", 0, 1e6, parallel.lastStageLayers),
    PS_FIELD("training.microBatch", 1, 1e7, training.microBatch),
    PS_FIELD("training.globalBatch", 1, 1e12, training.globalBatch),
    PS_FIELD("training.recomputeLayers", 0, 1e6, training.recomputeLayers),
    PS_FIELD("training.offload.activationLayers", 0, 1e6, training.offload.activationLayers),
    PS_FIELD("training.host.launchQueue", 0, 1e7, training.host.launchQueue),
    PS_FIELD("memoryOverheads.cudaContextBytes", 0, 1e13, overheads.cudaContextBytes),
    PS_FIELD("memoryOverheads.ncclBufferBytesPerGroup", 0, 1e13, overheads.ncclBufferBytesPerGroup),
    PS_FIELD("memoryOverheads.workspaceBytes", 0, 1e13, overheads.workspaceBytes),
    PS_FIELD("memoryOverheads.ncclBuffSize", 0, 1e13, overheads.ncclBuffSize),
    PS_FIELD("memoryOverheads.ncclChannels", 1, 1024, overheads.ncclChannels),
};
#undef PS_FIELD

} // namespace

std::span<const FieldLimit> fieldLimits() { return kLimits; }

const FieldLimit& fieldLimit(std::string_view path)
{
    for (const FieldLimit& f : kLimits)
        if (f.path == path) return f;
    throw std::logic_error("no field limit for " + std::string(path) + " (core/spec/FieldLimits.cpp)");
}

} // namespace planscope
