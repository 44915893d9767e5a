#include "PredictionJson.h"

#include <nlohmann/json.hpp>

namespace planscope {

using nlohmann::json;

json issuesToJson(const Issues& issues)
{
    json a = json::array();
    for (const Issue& i : issues) {
        json e = { { "path", i.path }, { "message", i.message } };
        if (i.offset >= 0) e["offset"] = i.offset;
        if (i.severity == Severity::Warning) e["severity"] = "warning";
        a.push_back(e);
    }
    return a;
}

json invalidToJson(const Issues& errors)
{
    return { { "schema", kPredictionSchema }, { "valid", false }, { "errors", issuesToJson(errors) } };
}

json predictionToJson(const Prediction& p)
{
    if (!p.valid) return invalidToJson(p.errors);
    json j;
    j["schema"] = kPredictionSchema;
    j["valid"] = true;
    j["errors"] = json::array();
    j["warnings"] = issueLines(p.warnings);
    j["params"] = { { "total", p.paramsTotal }, { "active", p.paramsActive }, { "perStage", p.paramsPerStage } };
    json stages = json::array();
    json perGpu = json::array();
    for (const StageMemory& s : p.stages) {
        perGpu.push_back(s.parameters);
        // The terms the bars fold into their five segments, and what offload moves to the host.
        const json extra = { { "denseLayers", s.denseLayers }, { "mtpLayers", s.mtpLayers },
            { "denseActivationsPerLayerBytes", s.denseActivationsPerLayerBytes }, { "mtpActivationBytes", s.mtpActivationBytes },
            { "fp8WeightCacheBytes", s.fp8WeightCacheBytes }, { "fp8ScalingBytes", s.fp8ScalingBytes },
            { "offloadedOptimizerBytes", s.offloadedOptimizerBytes },
            { "offloadedActivationBytes", s.offloadedActivationBytes }, { "hostBytes", s.hostBytes },
            { "chunkActivationBytes", s.chunkActivationBytes } };
        stages.push_back({ { "stage", s.stage }, { "layers", s.layers }, { "embedding", s.embedding }, { "output", s.output },
            { "parameters", s.parameters }, { "weightsBytes", s.weightsBytes }, { "gradientsBytes", s.gradientsBytes },
            { "optimizerBytes", s.optimizerBytes }, { "activationsBytes", s.activationsBytes },
            { "buffersBytes", s.buffersBytes }, { "totalBytes", s.totalBytes },
            { "inFlightMicrobatches", s.inFlightMicrobatches }, { "activationsPerLayerBytes", s.activationsPerLayerBytes },
            { "embeddingActivationBytes", s.embeddingActivationBytes }, { "outputActivationBytes", s.outputActivationBytes },
            { "recomputeWorkspaceBytes", s.recomputeWorkspaceBytes }, { "allocatedBytes", s.allocatedBytes },
            { "reservedBytes", s.reservedBytes }, { "steadyBytes", s.steadyBytes },
            { "simulatedPeakBytes", s.simulatedPeakBytes > 0 ? json(s.simulatedPeakBytes) : json(nullptr) },
            { "buffers",
                { { "cudaContextBytes", s.buffers.cudaContextBytes }, { "cublasWorkspaceBytes", s.buffers.cublasWorkspaceBytes },
                    { "teWorkspaceBytes", s.buffers.teWorkspaceBytes }, { "ncclBytes", s.buffers.ncclBytes },
                    { "ncclCommunicators", s.buffers.ncclCommunicators }, { "zeroBucketBytes", s.buffers.zeroBucketBytes },
                    { "zeroGatherBytes", s.buffers.zeroGatherBytes }, { "logitsBytes", s.buffers.logitsBytes },
                    { "fragmentationBytes", s.buffers.fragmentationBytes }, { "runtimeBytes", s.buffers.runtimeBytes() },
                    { "communicationBytes", s.buffers.communicationBytes() },
                    { "temporaryBytes", s.buffers.temporaryBytes() } } } });
        stages.back().update(extra);
    }
    j["params"]["perGpu"] = perGpu;
    j["memory"] = { { "capacityBytes", p.capacityBytes }, { "stages", stages }, { "peakBytes", p.peakBytes },
        { "peakStage", p.peakStage }, { "fits", p.fits }, { "usableBytes", p.usableBytes }, { "fitsWithHeadroom", p.fitsWithHeadroom },
        { "hostBytesPerNode", p.hostBytesPerNode },
        { "simulatedPeakBytes", p.simulatedPeakBytes > 0 ? json(p.simulatedPeakBytes) : json(nullptr) } };
    j["flops"] = { { "modelPerStep", p.modelFlopsPerStep }, { "hardwarePerStep", p.hardwareFlopsPerStep },
        { "modelPerToken", p.modelFlopsPerToken } };
    json times = json::array();
    for (const StageTime& t : p.stageTimes)
        times.push_back({ { "stage", t.stage }, { "forwardSeconds", t.forwardSeconds },
            { "backwardSeconds", t.backwardSeconds }, { "weightGradSeconds", t.weightGradSeconds },
            { "p2pSeconds", t.p2pSeconds }, { "p2pTransferSeconds", t.p2pTransferSeconds }, { "p2pSendSeconds", t.p2pSendSeconds }, { "layerCommSeconds", t.layerCommSeconds }, { "zeroExposedSeconds", t.zeroExposedSeconds }, { "dpSeconds", t.dpSeconds }, { "dpReduceSeconds", t.dpReduceSeconds }, { "dpGatherSeconds", t.dpGatherSeconds }, { "zeroGatherSeconds", t.zeroGatherSeconds },
            { "dpExposedSeconds", t.dpExposedSeconds }, { "contentionSeconds", t.contentionSeconds }, { "zeroContentionSeconds", t.zeroContentionSeconds }, { "optimizerSeconds", t.optimizerSeconds },
            { "newtonSchulzSeconds", t.newtonSchulzSeconds },
            { "offloadTransferSeconds", t.offloadTransferSeconds }, { "hostOptimizerSeconds", t.hostOptimizerSeconds },
            { "offloadExposedSeconds", t.offloadExposedSeconds } });
    auto opsJson = [](const std::vector<KernelOp>& ops) {
        json arr = json::array();
        for (const KernelOp& op : ops) {
            json o = { { "name", op.name }, { "kind", std::string(toString(op.kind)) }, { "pass", std::string(toString(op.pass)) },
                { "flops", op.flops }, { "bytes", op.bytes }, { "seconds", op.seconds }, { "exposedSeconds", op.exposedSeconds },
                { "computeSeconds", op.computeSeconds }, { "memorySeconds", op.memorySeconds }, { "efficiency", op.efficiency },
                { "bound", std::string(toString(op.bound)) },
                { "host", { { "launches", op.launches }, { "seconds", op.hostSeconds }, { "start", op.hostStart },
                              { "gpuWaitSeconds", op.hostWaitSeconds }, { "graphed", op.graphed }, { "syncAfter", op.syncAfter } } } };
            if (op.kind == KernelKind::Gemm) {
                o["shape"] = { { "m", op.m }, { "n", op.n }, { "k", op.k }, { "batch", op.batch } };
                o["measured"] = op.measured;
                if (op.splits > 1) o["splits"] = op.splits;
                if (op.reservedSms > 0) o["reservedSms"] = op.reservedSms;
            }
            if (op.contentionSeconds > 0) o["contentionSeconds"] = op.contentionSeconds;
            if (op.kind == KernelKind::Collective) {
                o["collective"] = std::string(toString(op.collective));
                o["group"] = std::string(toString(op.group));
                o["groupSize"] = op.groupSize;
                o["repeat"] = op.repeat;
                if (op.hiddenBy >= 0) o["overlapsWith"] = ops[std::size_t(op.hiddenBy)].name;
            }
            arr.push_back(std::move(o));
        }
        return arr;
    };
    const PassTotals lt = sumPasses(p.layerOps);
    j["time"] = { { "stepSeconds", p.stepSeconds }, { "bubbleFraction", p.bubbleFraction },
        { "bubbleOverhead", p.bubbleOverhead }, { "mfu", p.mfu }, { "hfu", p.hfu }, { "tokensPerSecond", p.tokensPerSecond },
        { "trainingDays", p.trainingDays }, { "computeSeconds", p.computeSeconds }, { "bubbleSeconds", p.bubbleSeconds },
        { "idleFraction", p.idleFraction }, { "idleSeconds", p.idleSeconds }, { "imbalanceIdleFraction", p.imbalanceIdleFraction },
        { "exposedCommSeconds", p.exposedCommSeconds }, { "optimizerSeconds", p.optimizerSeconds },
        { "microbatches", p.microbatches }, { "source", p.timeSource }, { "analyticStepSeconds", p.analyticStepSeconds },
        { "stages", times },
        { "layer", { { "forwardSeconds", lt.forward }, { "backwardSeconds", lt.backward() },
                       { "weightGradSeconds", lt.backwardWeight }, { "recomputeSeconds", lt.recompute } } },
        { "layerOps", opsJson(p.layerOps) }, { "outputOps", opsJson(p.outputOps) } };
    json groups = json::array();
    for (const CommGroup& g : p.comm)
        groups.push_back({ { "kind", std::string(toString(g.kind)) }, { "size", g.size }, { "crossesNodes", g.crossesNodes },
            { "nodesSpanned", g.nodesSpanned }, { "perNode", g.perNode }, { "crossesDomains", g.crossesDomains },
            { "domainsSpanned", g.domainsSpanned }, { "perDomain", g.perDomain }, { "collective", g.collective.english() },
            { "algorithm", g.algorithm.english() }, { "linkBandwidth", g.linkBandwidth }, { "bytesPerStep", g.bytesPerStep },
            { "seconds", g.seconds }, { "exposedSeconds", g.exposedSeconds } });
    j["comm"] = { { "groups", groups } };
    return j;
}

json explanationToJson(const Explainer& ex, const std::string& field, int maxDepth)
{
    const Explanation* e = ex.find(field);
    if (!e) return nullptr;
    json inputs = json::object();
    for (const auto& [k, v] : e->inputs) inputs[k] = v;
    json children = json::array();
    if (maxDepth > 0)
        for (const auto& c : e->children) {
            json cj = explanationToJson(ex, c, maxDepth - 1);
            if (!cj.is_null()) children.push_back(cj);
        }
    json j = { { "field", e->field }, { "value", e->value }, { "unit", e->unit }, { "formula", e->formula },
        { "inputs", inputs }, { "substituted", substitute(*e) }, { "source", e->source.english() }, { "children", children } };
    if (!e->note.empty()) j["note"] = e->note.english();
    return j;
}

json realityCheckToJson(const RealityCheck& rc)
{
    return { { "possible", rc.possible }, { "requiredFlops", rc.requiredFlops }, { "requiredFlops6NT", rc.requiredFlops6NT },
        { "availableFlops", rc.availableFlops }, { "shortBy", rc.shortBy }, { "days", rc.days }, { "tokens", rc.tokens },
        { "mfu", rc.mfu }, { "daysNeeded", rc.daysNeeded }, { "message", rc.message.english() } };
}

} // namespace planscope
