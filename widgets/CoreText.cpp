#include "CoreText.h"

#include "util/Units.h"

#include <QHash>
#include <QMutex>
#include <QMutexLocker>
#include <QRegularExpression>
#include <QSet>
#include <algorithm>
#include <vector>

namespace planscope {

namespace {

// The catalogue: one entry per English template of the core text not yet written as a template at its call site
// (util/Text.h; docs/ARCHITECTURE.md section 6), grouped by the core file that writes it.
// Message entries are whole messages, or single sentences of a note, or single references of a source; item
// entries are the elements of a "; " list captured inside a message (one op of an op list, a describe() of a
// fit) and never match on their own. Keep each template exactly as core builds the text, with %1..%n where
// core inserts a value; a template that no longer matches shows up in tests/widgets/tst_core_text.cpp as an
// English fallback.
struct Entry {
    const char* english;
    bool item;
};

// clang-format off
const Entry kCatalogue[] = {
    // core/search/Search.cpp: the rejection count of plans invalid at a field (SearchResult::rejected; the other
    // reasons are templates, util/Text.h)
    { QT_TRANSLATE_NOOP("CoreText", "invalid: %1"), false },

    // core/trace/KinetoImport.cpp: a trace file that stops being readable
    { QT_TRANSLATE_NOOP("CoreText", "read error"), false },

    // core/cost/Evaluate.cpp: explanation notes of params.*
    { QT_TRANSLATE_NOOP("CoreText", "%1; a dense layer's MLP is %2*h*f; an MoE layer holds E routed experts of %3*h*f_e each (sharded by ep x etp), shared experts as a dense MLP, the router h*E; an MTP module is two norms, the 2h x h projection, one layer and a norm (DeepSeek-V3 section 2.2; embedding and output head shared)."), false },
    { QT_TRANSLATE_NOOP("CoreText", "attn = h*a*d + 2*h*kv*d + a*d*h (Q, K, V, O; d = headDim, GQA shrinks K and V)"), false },
    { QT_TRANSLATE_NOOP("CoreText", "attn = h*a*d + 2*h*kv*d + a*d*h (Q, K, V, O; d = headDim, GQA shrinks K and V), attnRep = 2*d (the per-head q/k norms)"), false },
    { QT_TRANSLATE_NOOP("CoreText", "attn = q_up + kv_up + O = q*a*(dn + dr) + kv*a*(dn + dv) + a*dv*h and attnRep = the down projections h*q + h*(kv + dr) and their latent norms (MLA, DeepSeek-V2 section 2.1; q = qLoraRank, kv = kvLoraRank, dn/dr = qk nope/rope head dims, dv = v head dim)"), false },
    { QT_TRANSLATE_NOOP("CoreText", "embedding = V*h; outputLayer = V*h when untied."), false },
    { QT_TRANSLATE_NOOP("CoreText", "Megatron's GPT form N = 12*L*h^2*(1 + 13/(12h) + (V+s)/(12*L*h)) is the case f = 4h, LayerNorm with biases, learned positions, tied embeddings (plus the final norm, 2h)."), false },
    { QT_TRANSLATE_NOOP("CoreText", "Active per token: %1 (with the embedding)."), false },
    { QT_TRANSLATE_NOOP("CoreText", "All parameters of this pipeline stage across its tp ranks (first, last: 1 when the stage holds the embedding, the output layer); memory below is per GPU."), false },

    // core/cost/Evaluate.cpp: explanation notes of time.layer.* (one layer's operators)
    { QT_TRANSLATE_NOOP("CoreText", "The forward of one layer for one microbatch on one GPU."), false },
    { QT_TRANSLATE_NOOP("CoreText", "The backward of one layer: recomputed forward ops, input gradients, weight gradients."), false },
    { QT_TRANSLATE_NOOP("CoreText", "The weight-gradient GEMMs of one layer."), false },
    { QT_TRANSLATE_NOOP("CoreText", "Each op takes the slower of its FLOPs at the shape's achievable rate and its bytes at the achievable HBM bandwidth, plus a launch; comm counts only what overlap leaves exposed; host is the GPU's wait for the CPU to issue the next kernel (the CPU spends %1 issuing this pass; docs/MODEL.md section 7.4)."), false },
    { QT_TRANSLATE_NOOP("CoreText", "Ops: %1."), false },
    { QT_TRANSLATE_NOOP("CoreText", "recompute %1 %2 (compute, %3% of peak)"), true },
    { QT_TRANSLATE_NOOP("CoreText", "recompute %1 %2 (memory, %3% of peak)"), true },
    { QT_TRANSLATE_NOOP("CoreText", "recompute %1 %2 (compute)"), true },
    { QT_TRANSLATE_NOOP("CoreText", "recompute %1 %2 (memory)"), true },
    { QT_TRANSLATE_NOOP("CoreText", "recompute %1 %2 (communication)"), true },
    { QT_TRANSLATE_NOOP("CoreText", "recompute %1 %2 (latency)"), true },
    { QT_TRANSLATE_NOOP("CoreText", "%1 %2 (compute, %3% of peak)"), true },
    { QT_TRANSLATE_NOOP("CoreText", "%1 %2 (memory, %3% of peak)"), true },
    { QT_TRANSLATE_NOOP("CoreText", "%1 %2 (compute)"), true },
    { QT_TRANSLATE_NOOP("CoreText", "%1 %2 (memory)"), true },
    { QT_TRANSLATE_NOOP("CoreText", "%1 %2 (communication)"), true },
    { QT_TRANSLATE_NOOP("CoreText", "%1 %2 (latency)"), true },

    // core/cost/Evaluate.cpp: explanation notes of memory.*
    { QT_TRANSLATE_NOOP("CoreText", "w = %1 bytes per weight (%2)."), false },
    { QT_TRANSLATE_NOOP("CoreText", "w = %1 bytes per weight (%2: Transformer Engine keeps bf16 parameters unless fp8ParamGather, where the fp8 GEMMs' weights F8 are stored in fp8)."), false },
    { QT_TRANSLATE_NOOP("CoreText", "g = %1 bytes per gradient (gradDtype %2; Megatron keeps fp32 main grads under bf16)."), false },
    { QT_TRANSLATE_NOOP("CoreText", "o = %1 (fp32 master weights) + 2 Adam moments of %2 bytes (optimizerStateDtype %3); f = the share offloaded to the host (training.offload.optimizerFraction)."), false },
    { QT_TRANSLATE_NOOP("CoreText", "o = %1 (fp32 master weights) + 2 Adam moments of %2 bytes (optimizerStateDtype %3: Megatron-Core's precision-aware optimizer, --exp-avg-dtype); f = the share offloaded to the host (training.offload.optimizerFraction)."), false },
    { QT_TRANSLATE_NOOP("CoreText", "o = %1 (fp32 master weights) + 1 SGD momentum of %2 bytes (optimizerStateDtype %3); f = the share offloaded to the host (training.offload.optimizerFraction)."), false },
    { QT_TRANSLATE_NOOP("CoreText", "o = %1 (fp32 master weights) + 1 SGD momentum of %2 bytes (optimizerStateDtype %3: Megatron-Core's precision-aware optimizer, --exp-avg-dtype); f = the share offloaded to the host (training.offload.optimizerFraction)."), false },
    { QT_TRANSLATE_NOOP("CoreText", "ZeRO-%1 over n = %2 ranks (dp*cp, or the node under hybrid sharding): stage 1 shards optimizer states, 2 also gradients, 3 also weights; (w+g+o), w+g+o/n, w+(g+o)/n, (w+g+o)/n."), false },
    { QT_TRANSLATE_NOOP("CoreText", "P = dense parameters on this GPU after tp (%1), Pe = routed-expert parameters after ep*etp (%2*%3), ne = the expert data-parallel size tp*dp*cp/(etp*ep) (Megatron-Core shards expert optimizer states over that group, not the dense one)."), false },
    { QT_TRANSLATE_NOOP("CoreText", "F: weights of this GPU's fp8 GEMMs (attention projections, MLP, experts; not the embedding, output layer, router or norms); c: bytes of fp8 copies per weight (2: the forward cast and the transposed copy for dgrad; 1 with fp8ParamGather, where the parameter is the forward copy; MXFP8 adds 1/32 per copy for its block scales)."), false },
    { QT_TRANSLATE_NOOP("CoreText", "F: weights of this GPU's fp8 GEMMs (attention projections, MLP, experts; not the embedding, output layer, router or norms), for the two gathered layers under ZeRO-3; c: bytes of fp8 copies per weight (2: the forward cast and the transposed copy for dgrad; 1 with fp8ParamGather, where the parameter is the forward copy; MXFP8 adds 1/32 per copy for its block scales)."), false },
    { QT_TRANSLATE_NOOP("CoreText", "The copies live from the first microbatch to the optimizer step."), false },
    { QT_TRANSLATE_NOOP("CoreText", "G: fp8 GEMMs on this GPU (per layer the attention projections and fc1/fc2, per local expert its two GEMMs); each keeps the scale, the inverse scale and (delayed scaling) an amax history of H steps for its input, weight and gradient, fp32."), false },
    { QT_TRANSLATE_NOOP("CoreText", "Microbatch-equivalents of activations held at the peak; a chunk counts 1/v."), false },
    { QT_TRANSLATE_NOOP("CoreText", "GPipe holds all m, 1F1B holds p - r: the same bubble, less memory."), false },
    { QT_TRANSLATE_NOOP("CoreText", "Per layer, per microbatch, per GPU (s = seqLength/cp)."), false },
    { QT_TRANSLATE_NOOP("CoreText", "Per layer, per microbatch, per GPU (s = seqLength/cp), an MoE layer."), false },
    { QT_TRANSLATE_NOOP("CoreText", "Korthikanti's Table 2 has c1 = 10, c2 = 24, k = 5 for f = 4h with dropout; here each saved tensor is derived from the block: %1."), false },
    { QT_TRANSLATE_NOOP("CoreText", "%1 %2 B"), true },
    { QT_TRANSLATE_NOOP("CoreText", "%1 %2 KiB"), true },
    { QT_TRANSLATE_NOOP("CoreText", "%1 %2 MiB"), true },
    { QT_TRANSLATE_NOOP("CoreText", "%1 %2 GiB"), true },
    { QT_TRANSLATE_NOOP("CoreText", "%1 %2 (fp8)"), true },
    { QT_TRANSLATE_NOOP("CoreText", "%1 %2 (recomputed: %3)"), true },
    { QT_TRANSLATE_NOOP("CoreText", "%1 %2 (fp8) (recomputed: %3)"), true },
    { QT_TRANSLATE_NOOP("CoreText", "Flash attention keeps the fp32 logsumexp instead of the scores; selective recompute drops the tensors of the modules it re-runs (--recompute-modules, core_attn by default); under fp8 Transformer Engine saves GEMM inputs as fp8; full recompute keeps only the layer input (divided by t under sequence parallelism)."), false },
    { QT_TRANSLATE_NOOP("CoreText", "perLayer: one microbatch's bytes per layer, averaged over this rank's %1 layers (%2); mtp: MTP modules (a layer, the projection input and their own fp32 logits); firstExtra: embedding dropout mask and embedding norm input; lastExtra: final norm and output-layer inputs plus fp32 logits 4*s*b*V/t for the loss; workspace: the full activations of what is recomputed at once."), false },
    { QT_TRANSLATE_NOOP("CoreText", "%1 with the dense MLP at %2 each"), true },
    { QT_TRANSLATE_NOOP("CoreText", "full recompute in groups of N, N = %1"), true },
    { QT_TRANSLATE_NOOP("CoreText", "full recompute of the first N of each chunk, N = %1"), true },
    { QT_TRANSLATE_NOOP("CoreText", "less the offloaded layers"), true },
    { QT_TRANSLATE_NOOP("CoreText", "Host memory this GPU's offload takes: the offloaded optimizer share's master weights and moments (o bytes per parameter) and an fp32 copy of its gradients (4), and the activations waiting on the host."), false },
    { QT_TRANSLATE_NOOP("CoreText", "offloaded: the saved activations of min(activationLayers, layers - 1) layers of each chunk for one microbatch; they occupy host memory instead of the GPU."), false },
    { QT_TRANSLATE_NOOP("CoreText", "Only with ZeRO-2/3."), false },
    { QT_TRANSLATE_NOOP("CoreText", "Only with ZeRO-3 / FSDP, on a stage that holds layers."), false },
    { QT_TRANSLATE_NOOP("CoreText", "Every term has a default and is editable under memoryOverheads in the plan."), false },
    { QT_TRANSLATE_NOOP("CoreText", "Per GPU of stage %1; 1 GiB = 2^30 bytes, 1 GB = 1e9 bytes."), false },
    { QT_TRANSLATE_NOOP("CoreText", "The GPU's memory (cluster.gpu.memoryBytes)."), false },
    { QT_TRANSLATE_NOOP("CoreText", "stageN: totalBytes of pipeline stage N."), false },
    { QT_TRANSLATE_NOOP("CoreText", "Stage %1 holds the most."), false },

    // core/cost/Evaluate.cpp: explanation notes of time.stages.*, flops.*, time.*
    { QT_TRANSLATE_NOOP("CoreText", "layers: transformer layers one microbatch runs through on this rank (dense: those with the dense MLP of an MoE model); layer: one layer's forward ops; mtp: MTP modules, each a layer and an output head; output: the final norm, output projection and loss on the last stage."), false },
    { QT_TRANSLATE_NOOP("CoreText", "Input- and weight-gradient ops of one layer, with the forward ops recomputation repeats."), false },
    { QT_TRANSLATE_NOOP("CoreText", "The weight-gradient GEMMs (the W of the zero-bubble schedules)."), false },
    { QT_TRANSLATE_NOOP("CoreText", "The GPU steps its share while the host steps the offloaded one: gradients down and weights up over PCIe (pcie: bytes/s per direction, training.offload.pcieBandwidth), the update reading and writing master weights, moments and an fp32 gradient at host memory bandwidth (training.offload.hostBandwidth per GPU)."), false },
    { QT_TRANSLATE_NOOP("CoreText", "A roofline: CPU Adam may run below the memory bandwidth."), false },
    { QT_TRANSLATE_NOOP("CoreText", "Host memory the offloaded optimizer share (with its fp32 gradients) and offloaded activations take on one node, from the stage that offloads most."), false },
    { QT_TRANSLATE_NOOP("CoreText", "N counts the matrices a token multiplies with (layers, MTP modules and each output projection, active experts only); L counts layers and MTP modules; w = a*(d_qk + d_v)/2 (= h for multi-head attention with d = h/a)."), false },
    { QT_TRANSLATE_NOOP("CoreText", "For GPT this equals Megatron's 72*s*L*h^2*(1 + s/(6h) + V/(12*h*L)) per sequence / s."), false },
    { QT_TRANSLATE_NOOP("CoreText", "The rule of thumb 6*N*T ignores the attention term."), false },
    { QT_TRANSLATE_NOOP("CoreText", "Model FLOPs exclude recompute (for MFU)."), false },
    { QT_TRANSLATE_NOOP("CoreText", "Full recompute re-runs every layer's forward (Megatron: 96*B*s*L*h^2*(1 + s/(6h) + V/(16*h*L))); selective re-runs the attention scores (4*L*s*w per token; flash attention recomputes inside its kernel, counted as no extra) and the GEMMs of the other --recompute-modules (M weights per token: mlp, moe, shared_experts, mla_up_proj)."), false },
    { QT_TRANSLATE_NOOP("CoreText", "The schedule's bubble as a share of the pipeline time, every rank taken at the slowest rank's slot; F, B: the slowest rank's forward and backward of one microbatch with its p2p sends, Z: its exposed ZeRO communication."), false },
    { QT_TRANSLATE_NOOP("CoreText", "For GPipe/1F1B with equal stages (p-1)/(m+p-1) = %1."), false },
    { QT_TRANSLATE_NOOP("CoreText", "The other definition, idle over ideal compute, is bubbleOverhead = (p-1)/m = %1 (the Megatron-LM paper's 'bubble time fraction')."), false },
    { QT_TRANSLATE_NOOP("CoreText", "Papers disagree because they divide by different things."), false },
    { QT_TRANSLATE_NOOP("CoreText", "Idle of every cause, unequal stages included, is time.idleFraction."), false },
    { QT_TRANSLATE_NOOP("CoreText", "Idle share of all ranks, whatever the cause; busy: every rank's m slots (its forward, backward, sends and exposed ZeRO traffic per microbatch)."), false },
    { QT_TRANSLATE_NOOP("CoreText", "Ranks faster than the slowest wait for it in every slot on top of the schedule's bubble."), false },
    { QT_TRANSLATE_NOOP("CoreText", "The most idle rank's idle time: the schedule's bubble plus its waits on the slowest rank."), false },
    { QT_TRANSLATE_NOOP("CoreText", "Idle the schedule's bubble does not explain: stages of unequal time (uneven layers, the output layer on the last stage) leave the faster ranks waiting for the slowest in every slot."), false },
    { QT_TRANSLATE_NOOP("CoreText", "Idle time over ideal compute; (p-1)/m for GPipe/1F1B, (p-1)/(v*m) interleaved."), false },
    { QT_TRANSLATE_NOOP("CoreText", "F, B: forward and full backward of one microbatch on the slowest rank (%1), each with half its p2p sends; W: the weight-gradient part of B; Z: its exposed ZeRO-2/3 communication per microbatch."), false },
    { QT_TRANSLATE_NOOP("CoreText", "B here is the full backward; the Zero Bubble paper's B is the input-gradient part I = B - W; DualPipe's F&B (an overlapped forward and backward) is F + B."), false },
    { QT_TRANSLATE_NOOP("CoreText", "The slowest rank's microbatches back to back, without the TP/EP/CP collectives inside F and B."), false },
    { QT_TRANSLATE_NOOP("CoreText", "dpTail: the data-parallel communication not hidden, on the stage where it is largest (%1); gradient reduction overlaps the last backward when overlapGradReduce is on."), false },
    { QT_TRANSLATE_NOOP("CoreText", "On stage %1, the slowest; P, Pe: its dense and expert parameters per GPU, sharded over n and ne from ZeRO-1 on."), false },
    { QT_TRANSLATE_NOOP("CoreText", "Each GEMM at its own shape's efficiency (the operator table, time.layerOps), at most %1 of the dense %2 peak %3/s for large shapes."), false },
    { QT_TRANSLATE_NOOP("CoreText", "Peak is the dense datasheet number for the dtype (never the 'with sparsity' one)."), false },
    { QT_TRANSLATE_NOOP("CoreText", "HFU counts recomputed FLOPs too."), false },
    { QT_TRANSLATE_NOOP("CoreText", "Megatron's rule of thumb 8*T*N/(n*X) assumes full recompute."), false },

    // core/cost/Evaluate.cpp: explanation notes of comm.groups.*, and CommGroup::algorithm
    { QT_TRANSLATE_NOOP("CoreText", "Bytes one GPU sends per step on its %1 group of n = %2."), false },
    { QT_TRANSLATE_NOOP("CoreText", "Ring volumes: all-reduce sends 2(n-1)/n of the buffer, all-gather, reduce-scatter and all-to-all (n-1)/n."), false },
    { QT_TRANSLATE_NOOP("CoreText", "Algorithm: %1; the group crosses nodes."), false },
    { QT_TRANSLATE_NOOP("CoreText", "Algorithm: %1; inside one node."), false },
    { QT_TRANSLATE_NOOP("CoreText", "The ring volumes of the operator list's collectives on this group."), false },
    { QT_TRANSLATE_NOOP("CoreText", "Per layer: %1."), false },
    { QT_TRANSLATE_NOOP("CoreText", "Output layer: %1."), false },
    { QT_TRANSLATE_NOOP("CoreText", "none"), true },
    { QT_TRANSLATE_NOOP("CoreText", "%1 %2 of %3 %4 (overlapped, %5 exposed)"), true },
    { QT_TRANSLATE_NOOP("CoreText", "%1 %2 of %3 %4"), true },
    { QT_TRANSLATE_NOOP("CoreText", "layers: per microbatch on the slowest rank (%1)."), false },
    { QT_TRANSLATE_NOOP("CoreText", "What the GEMMs they overlap with do not hide (Megatron-Core overlaps the column-parallel backward's all-gather and input-gradient reduction with the GEMMs beside them; tpCommOverlap overlaps the rest; ring attention overlaps its K/V exchange with the block in hand)."), false },
    { QT_TRANSLATE_NOOP("CoreText", "Sends run beside the next op (overlapP2pComm); 1F1B's steady state still waits for each gradient's round trip."), false },
    { QT_TRANSLATE_NOOP("CoreText", "Every send holds its rank until it completes (Megatron-Core's default, overlap_p2p_comm off)."), false },
    { QT_TRANSLATE_NOOP("CoreText", "Per microbatch and chunk one activation forward and one gradient back; spDiv = t with sequence parallelism, else 1; bw: the link's bandwidth times its efficiency."), false },
    { QT_TRANSLATE_NOOP("CoreText", "n: the sends per microbatch of the slowest rank (%1), 2*v less one where it holds the first stage (no gradient to send) or the last (no activation); spDiv = t with sequence parallelism, else 1; bw: the link's bandwidth times its efficiency."), false },
    { QT_TRANSLATE_NOOP("CoreText", "P: parameters per GPU of stage %1 (dense and expert); ZeRO-%2."), false },
    { QT_TRANSLATE_NOOP("CoreText", "ZeRO-0/1 reduce once per step, ZeRO-2/3 every microbatch (u: the share of the rank's layers a microbatch passes, 1/2 for DualPipe's two copies); ZeRO-3 gathers the weights before every forward and every backward."), false },
    { QT_TRANSLATE_NOOP("CoreText", "S: the gradient (or weight) bytes of the dense parameters over dp*cp = n; nE, SE: the expert parameters over their expert-data-parallel group."), false },
    { QT_TRANSLATE_NOOP("CoreText", "F, B: stage %1's forward and backward of one microbatch."), false },
    { QT_TRANSLATE_NOOP("CoreText", "Gradient reduction overlaps the backward of the last microbatch bucket by bucket when overlapGradReduce is on, except the last bucket, q of the gradient (Megatron-Core DDP: buckets of max(4e7, 1e6*dp) elements); the parameter all-gather overlaps the next forward the same way; ZeRO-2/3's per-microbatch traffic hides behind F + B."), false },
    { QT_TRANSLATE_NOOP("CoreText", "c, cz: the compute the hidden part slows, per step and per microbatch (docs/MODEL.md section 7.3)."), false },
    { QT_TRANSLATE_NOOP("CoreText", "%1, the group crosses nodes."), false },
    { QT_TRANSLATE_NOOP("CoreText", "%1, inside one node."), false },
    { QT_TRANSLATE_NOOP("CoreText", "%1, the group crosses NVLink domains."), false },
    { QT_TRANSLATE_NOOP("CoreText", "%1, inside one NVLink domain."), false },
    { QT_TRANSLATE_NOOP("CoreText", "alpha: seconds per step; bw: bytes/s per GPU per direction times the link's efficiency (the all-reduce's or all-to-all's own where the link has one); q: the share of that bus bandwidth the link's published curve gives a buffer of S bytes; hierarchical: g GPUs of the group per node, k = ceil(n/g) nodes, the NVLink and NIC phases pipelined (the slower sets the time)."), false },
    { QT_TRANSLATE_NOOP("CoreText", "ring (intra-node)"), false },
    { QT_TRANSLATE_NOOP("CoreText", "ring (inter-node)"), false },
    { QT_TRANSLATE_NOOP("CoreText", "hierarchical (intra ring + inter-node ring)"), false },
    { QT_TRANSLATE_NOOP("CoreText", "ring p2p"), false },

    // core/cost/Evaluate.cpp: CommGroup::collective (the group's collectives, shown beside its algorithm)
    { QT_TRANSLATE_NOOP("CoreText", "SendRecv (ring attention K/V)"), false },
    { QT_TRANSLATE_NOOP("CoreText", "ReduceScatter per microbatch + AllGather"), false },
    { QT_TRANSLATE_NOOP("CoreText", "AllGather x2 + ReduceScatter per microbatch"), false },

    // core/sim/Simulate.cpp: applySimulation(), explanation notes of the simulated time.*
    { QT_TRANSLATE_NOOP("CoreText", "pipeline: the last op's end in the simulated step; tail: the gradient reduction not hidden by the last backward, the optimizer step and the parameter all-gather."), false },
    { QT_TRANSLATE_NOOP("CoreText", "The analytic estimate is %1."), false },
    { QT_TRANSLATE_NOOP("CoreText", "idleN: the simulated idle time of pipeline rank N inside the pipeline (not waiting on its own sends); the most idle rank's."), false },
    { QT_TRANSLATE_NOOP("CoreText", "It holds the schedule's bubble and the waits on slower stages."), false },
    { QT_TRANSLATE_NOOP("CoreText", "Idle share of all ranks over the simulated pipeline, whatever the cause: the schedule's bubble (time.bubbleFraction) and ranks waiting on a slower stage or a send."), false },
    { QT_TRANSLATE_NOOP("CoreText", "busy = %1 over all ranks."), false },
    { QT_TRANSLATE_NOOP("CoreText", "Idle the schedule's bubble does not explain: stages of unequal time (uneven layers, the output layer on the last stage, the embedding on the first) leave the faster ranks waiting for the slowest in every slot."), false },
    { QT_TRANSLATE_NOOP("CoreText", "With the simulated step."), false },
    { QT_TRANSLATE_NOOP("CoreText", "The highest memory any GPU reaches inside the simulated step."), false },

    // core/cost/Explain.h (sources::) and core/cost/Evaluate.cpp, core/sim/Simulate.cpp: explanation sources, joined by "; "
    { QT_TRANSLATE_NOOP("CoreText", "Narayanan et al., Efficient Large-Scale Language Model Training on GPU Clusters Using Megatron-LM (SC21), eq. 2; Megatron-LM megatron/training/theoretical_memory_usage.py"), false },
    { QT_TRANSLATE_NOOP("CoreText", "Narayanan et al. (SC21), eq. 3 and appendix"), false },
    { QT_TRANSLATE_NOOP("CoreText", "Chowdhery et al., PaLM (2022), appendix B: 6N + 12*L*H*Q*T per token"), false },
    { QT_TRANSLATE_NOOP("CoreText", "Korthikanti et al., Reducing Activation Recomputation in Large Transformer Models (MLSys 2023), section 4 and Table 2"), false },
    { QT_TRANSLATE_NOOP("CoreText", "Korthikanti et al. (MLSys 2023), appendix A"), false },
    { QT_TRANSLATE_NOOP("CoreText", "Rajbhandari et al., ZeRO: Memory Optimizations Toward Training Trillion Parameter Models (SC20), section 5 and Figure 1"), false },
    { QT_TRANSLATE_NOOP("CoreText", "Rajbhandari et al., ZeRO (SC20), section 7 (communication analysis)"), false },
    { QT_TRANSLATE_NOOP("CoreText", "Megatron-LM megatron/core/optimizer/distrib_optimizer.py (fp32 main grads and params under bf16)"), false },
    { QT_TRANSLATE_NOOP("CoreText", "Megatron-LM expert parallelism: experts sharded by ep, optimizer over the expert-data-parallel group (NVIDIA/Megatron-LM#2439)"), false },
    { QT_TRANSLATE_NOOP("CoreText", "NVIDIA Transformer Engine user guide, Using FP8 with Transformer Engine (delayed and current scaling, amax history, fp8 weight caching across microbatches) and FP8/MXFP8 on Blackwell"), false },
    { QT_TRANSLATE_NOOP("CoreText", "Micikevicius et al., FP8 Formats for Deep Learning (2022)"), false },
    { QT_TRANSLATE_NOOP("CoreText", "DeepSeek-V3 technical report (arXiv 2412.19437) section 3.3 (blockwise scaling)"), false },
    { QT_TRANSLATE_NOOP("CoreText", "Ren et al., ZeRO-Offload: Democratizing Billion-Scale Model Training (USENIX ATC 2021)"), false },
    { QT_TRANSLATE_NOOP("CoreText", "Megatron-Core --optimizer-cpu-offload / --optimizer-offload-fraction (HybridDeviceOptimizer)"), false },
    { QT_TRANSLATE_NOOP("CoreText", "Transformer Engine CPU offloading (transformer_engine.pytorch.get_cpu_offload_context)"), false },
    { QT_TRANSLATE_NOOP("CoreText", "Megatron-LM --cpu-offloading-num-layers"), false },
    { QT_TRANSLATE_NOOP("CoreText", "Narayanan et al. (SC21) section 2.2 (bubble (p-1)/m); Huang et al., GPipe (2019); docs/SCHEDULES.md"), false },
    { QT_TRANSLATE_NOOP("CoreText", "Qi et al., Zero Bubble Pipeline Parallelism (ICLR 2024), section 3"), false },
    { QT_TRANSLATE_NOOP("CoreText", "DeepSeek-V3 technical report (2024), section 3.2.1, Table 2; deepseek-ai/DualPipe"), false },
    { QT_TRANSLATE_NOOP("CoreText", "NVIDIA/nccl-tests doc/PERFORMANCE.md (algBw, busBw factors)"), false },
    { QT_TRANSLATE_NOOP("CoreText", "Thakur, Rabenseifner, Gropp, Optimization of Collective Communication Operations in MPICH (IJHPCA 2005)"), false },
    { QT_TRANSLATE_NOOP("CoreText", "Chowdhery et al., PaLM (2022), appendix B (MFU vs HFU)"), false },
    { QT_TRANSLATE_NOOP("CoreText", "GPU preset \"%1\" (see resources/presets/gpus.json)"), false },
    { QT_TRANSLATE_NOOP("CoreText", "DeepSpeed ZeRO config: reduce_bucket_size default 5e8 elements"), false },
    { QT_TRANSLATE_NOOP("CoreText", "PyTorch FSDP: the unsharded current layer plus the prefetched next one, and the current layer's unsharded gradient before its reduce-scatter"), false },
    { QT_TRANSLATE_NOOP("CoreText", "docs/MODEL.md section 6 (overlap)"), false },
    { QT_TRANSLATE_NOOP("CoreText", "docs/MODEL.md sections 2-4"), false },
    { QT_TRANSLATE_NOOP("CoreText", "docs/MEMORY-ACCURACY.md (the headroom)"), false },
    { QT_TRANSLATE_NOOP("CoreText", "The peak a plan may reach and still leave the headroom (memoryOverheads.headroom) that covers what the memory model missed on published runs; the planner counts a plan as fitting only below it."), false },
    { QT_TRANSLATE_NOOP("CoreText", "NVIDIA NCCL user guide, environment variables: NCCL_MIN_CTAS and NCCL_MAX_CTAS (a collective kernel runs one CUDA block per channel, each on an SM)"), false },
    { QT_TRANSLATE_NOOP("CoreText", "Lee et al., Characterizing Compute-Communication Overlap in GPU-Accelerated Distributed Deep Learning (arXiv 2507.03114): overlapped compute 18.9 % slower on average, up to 40 %, on A100, H100, MI250 and MI210"), false },
    { QT_TRANSLATE_NOOP("CoreText", "hidden: the ZeRO-2/3 reduce-scatter and gathers of one microbatch that run beside its forward and backward (at most F + B); charged to every backward, in zeroExposedSeconds."), false },
    { QT_TRANSLATE_NOOP("CoreText", "hidden: the seconds of the step's gradient reduction and parameter gather that run beside the backward and forward; charged to the exposed data-parallel tail (dpExposedSeconds)."), false },
    { QT_TRANSLATE_NOOP("CoreText", "docs/MODEL.md section %1"), false },
    { QT_TRANSLATE_NOOP("CoreText", "docs/SCHEDULES.md section 1.7 and the schedule's own section"), false },
    { QT_TRANSLATE_NOOP("CoreText", "docs/MODEL.md section 7; NVIDIA Matrix Multiplication Background User's Guide (GEMM waves); docs/HARDWARE.md"), false },
    { QT_TRANSLATE_NOOP("CoreText", "List-scheduling simulation of the schedule's op order (docs/SCHEDULES.md section 1.8) with per-stage op durations from the cost model"), false },
    { QT_TRANSLATE_NOOP("CoreText", "Memory-bound optimizer step: read weights, grads and states, write weights and states"), false },
    // core/cost/Runtime.cpp, core/sim/Simulate.cpp: explanation notes and sources of memory.stages.* (the runtime)
    { QT_TRANSLATE_NOOP("CoreText", "PyTorch documentation, CUDA semantics (memory management): the CUDA context is not allocated through the caching allocator"), false },
    { QT_TRANSLATE_NOOP("CoreText", "its size depends on the driver, the GPU and CUDA_MODULE_LOADING"), false },
    { QT_TRANSLATE_NOOP("CoreText", "NVIDIA cuBLAS documentation, cublasSetWorkspace(): 32 MiB recommended on Hopper, 4 MiB on earlier GPUs"), false },
    { QT_TRANSLATE_NOOP("CoreText", "PyTorch documentation, CUDA semantics (cuBLAS workspaces, CUBLAS_WORKSPACE_CONFIG)"), false },
    { QT_TRANSLATE_NOOP("CoreText", "PyTorch aten/src/ATen/cuda/CUDABlas.cpp (CUBLASLT_WORKSPACE_SIZE, pytorch/pytorch#120925)"), false },
    { QT_TRANSLATE_NOOP("CoreText", "Transformer Engine transformer_engine/pytorch/module/base.py: get_cublas_workspace_size_bytes() (32 MiB on Hopper, 4 MiB before) and one workspace per stream for grouped GEMMs"), false },
    { QT_TRANSLATE_NOOP("CoreText", "NCCL user guide, environment variables: NCCL_BUFFSIZE (default 4 MiB), NCCL_MIN_NCHANNELS and NCCL_MAX_NCHANNELS, NCCL_NCHANNELS_PER_NET_PEER (default 2)"), false },
    { QT_TRANSLATE_NOOP("CoreText", "Megatron-LM megatron/core/tensor_parallel/cross_entropy.py: VocabParallelCrossEntropy casts the vocabulary-parallel logits to fp32 (calculate_logits_max) and keeps the softmax for the backward"), false },
    { QT_TRANSLATE_NOOP("CoreText", "PyTorch c10/cuda/CUDACachingAllocator.cpp: blocks rounded to 512 bytes, blocks up to 1 MiB from 2 MiB segments, up to 10 MiB from 20 MiB segments, larger ones rounded to 2 MiB"), false },
    { QT_TRANSLATE_NOOP("CoreText", "PyTorch documentation, CUDA semantics (memory management, expandable_segments)"), false },
    { QT_TRANSLATE_NOOP("CoreText", "Guo et al., GMLake (ASPLOS 2024): on eight LLMs its virtual-memory stitching cuts the caching allocator's fragmentation by 15 % on average and up to 33 %"), false },
    { QT_TRANSLATE_NOOP("CoreText", "List-scheduling simulation of the schedule's op order (docs/SCHEDULES.md section 1.8)"), false },
    { QT_TRANSLATE_NOOP("CoreText", "memoryOverheads.cudaContextBytes of the plan (an assumption: measure nvidia-smi's memory of the process right after torch.cuda.init() and set it)."), false },
    { QT_TRANSLATE_NOOP("CoreText", "PyTorch's cuBLAS workspace and its cuBLASLt workspace on the compute stream, W each (memoryOverheads.workspaceBytes, by default 32 MiB on GPUs with fp8 tensor cores, Hopper and later, else 4 MiB)."), false },
    { QT_TRANSLATE_NOOP("CoreText", "Allocated through the caching allocator and never freed."), false },
    { QT_TRANSLATE_NOOP("CoreText", "Transformer Engine's cuBLAS workspace (Megatron-Core's default transformer implementation), plus k = 4 for the grouped expert GEMMs of an MoE model."), false },
    { QT_TRANSLATE_NOOP("CoreText", "memoryOverheads.ncclBufferBytesPerGroup of the plan: a flat size per parallel group of size > 1 this rank belongs to, instead of the NCCL settings."), false },
    { QT_TRANSLATE_NOOP("CoreText", "Per communicator this rank uses: buff = NCCL_BUFFSIZE (memoryOverheads.ncclBuffSize) per channel per connection, chX channels (memoryOverheads.ncclChannels for collectives, 2 per peer for point-to-point), cX connections (2 for a ring, 3 more for the tree where the group spans nodes, one per peer for point-to-point)."), false },
    { QT_TRANSLATE_NOOP("CoreText", "Communicators (group and ranks): %1."), false },
    { QT_TRANSLATE_NOOP("CoreText", "Outside PyTorch's allocator."), false },
    { QT_TRANSLATE_NOOP("CoreText", "NCCL_DEBUG=INFO prints the channels each communicator opens."), false },
    { QT_TRANSLATE_NOOP("CoreText", "P: dense and expert parameters on this GPU."), false },
    { QT_TRANSLATE_NOOP("CoreText", "A temporary: held while a forward or backward runs, so it counts in the peak inside the step, not in the steady state."), false },
    { QT_TRANSLATE_NOOP("CoreText", "On the last stage: the output layer's 16-bit logits while the loss casts them to fp32 (forward), or their 16-bit gradient while the fp32 one is cast back (backward)."), false },
    { QT_TRANSLATE_NOOP("CoreText", "The fp32 copy, 4*s*b*V/t, is kept for the backward and counted in the activations."), false },
    { QT_TRANSLATE_NOOP("CoreText", "A temporary: it counts in the peak inside the step."), false },
    { QT_TRANSLATE_NOOP("CoreText", "The CUDA context and the math libraries' workspaces."), false },
    { QT_TRANSLATE_NOOP("CoreText", "NCCL's buffers and the ZeRO gradient bucket."), false },
    { QT_TRANSLATE_NOOP("CoreText", "The largest temporaries, both counted at the peak: the simulated memory over time shows when each is held."), false },
    { QT_TRANSLATE_NOOP("CoreText", "What torch.cuda.max_memory_allocated() reports at the peak: every tensor, the temporaries included."), false },
    { QT_TRANSLATE_NOOP("CoreText", "memoryOverheads.fragmentation of the plan: a flat share of the allocated bytes, instead of the allocator model."), false },
    { QT_TRANSLATE_NOOP("CoreText", "Reserved - allocated."), false },
    { QT_TRANSLATE_NOOP("CoreText", "persistent: weights, gradients, optimizer states, workspaces and the ZeRO bucket, allocated once in few large blocks, and allocated - persistent: activations and temporaries, allocated and freed every microbatch in blocks of many sizes, whose freed blocks the cache keeps but cannot always reuse (a = memoryOverheads.allocatorSlack)."), false },
    { QT_TRANSLATE_NOOP("CoreText", "R: the newest 2 MiB and 20 MiB segments, partly empty."), false },
    { QT_TRANSLATE_NOOP("CoreText", "With expandable_segments:True the share is smaller, compare reserved_bytes with allocated_bytes in torch.cuda.memory_stats()."), false },
    { QT_TRANSLATE_NOOP("CoreText", "What torch.cuda.max_memory_reserved() reports: the caching allocator's segments."), false },
    { QT_TRANSLATE_NOOP("CoreText", "In use between ops at the most activations in flight: without the temporaries and the allocator's slack."), false },
    { QT_TRANSLATE_NOOP("CoreText", "The peak inside the step, compared with the GPU's memory: reserved + the CUDA context + NCCL's buffers."), false },
    { QT_TRANSLATE_NOOP("CoreText", "allocatedPeak: the highest memory in use of the simulated step less the CUDA context and NCCL's buffers, reached at %1 (each chunk's activations from its forward to its backward, the temporaries while their op runs)."), false },
    { QT_TRANSLATE_NOOP("CoreText", "slack: the allocator's, by the rule of buffers.fragmentationBytes."), false },
    { QT_TRANSLATE_NOOP("CoreText", "outside: the CUDA context and NCCL's buffers."), false },
    { QT_TRANSLATE_NOOP("CoreText", "The analytic peak is %1, the steady state %2."), false },
    { QT_TRANSLATE_NOOP("CoreText", "definition"), false },
};
// clang-format on

struct Compiled {
    QString english;
    bool item = false;
    // The literal text before the first placeholder: a quick test before the regular expression.
    QString lead;
    // The whole text; and a sentence or reference at an offset, ending where the text does or before a blank.
    QRegularExpression full;
    QRegularExpression prefix;
    // The placeholder number of each capture group, in the English order.
    QList<int> order;
    // Literal characters: the more, the more specific.
    int literal = 0;
};

const std::vector<Compiled>& compiled()
{
    static const std::vector<Compiled> table = [] {
        std::vector<Compiled> out;
        static const QRegularExpression placeholder(QStringLiteral("%(\\d+)"));
        for (const Entry& e : kCatalogue) {
            Compiled c;
            c.english = QString::fromUtf8(e.english);
            c.item = e.item;
            const bool sentence = c.english.endsWith(QLatin1Char('.'));
            QString pattern;
            qsizetype at = 0;
            auto it = placeholder.globalMatch(c.english);
            while (it.hasNext()) {
                const QRegularExpressionMatch m = it.next();
                const QString literal = c.english.mid(at, m.capturedStart() - at);
                if (c.order.isEmpty()) c.lead = literal;
                pattern += QRegularExpression::escape(literal);
                c.literal += int(literal.size());
                // A value between quotes holds no quote: "\"%1\": %2" must not swallow "\"x\" appears". A
                // value of a sentence (a template ending in '.') holds no sentence end: "... group of n =
                // %2." must not take the note's next sentences in as its value.
                pattern += literal.endsWith(QLatin1Char('"')) ? QStringLiteral("([^\"]*)")
                    : sentence                                ? QStringLiteral("((?:(?!\\. ).)+?)")
                                                              : QStringLiteral("(.+?)");
                c.order << m.captured(1).toInt();
                at = m.capturedEnd();
            }
            const QString tail = c.english.mid(at);
            if (c.order.isEmpty()) c.lead = tail;
            pattern += QRegularExpression::escape(tail);
            c.literal += int(tail.size());
            c.full = QRegularExpression(QRegularExpression::anchoredPattern(pattern));
            c.prefix = QRegularExpression(QStringLiteral("(?:%1)(?=[\\s;]|$)").arg(pattern));
            out.push_back(std::move(c));
        }
        return out;
    }();
    return table;
}

QString translated(const Compiled& c)
{
    return QCoreApplication::translate("CoreText", c.english.toUtf8().constData());
}

// The template with each %n replaced by its value, in one pass (a value holding "%1" stays as it is): core's
// rule (util/Text.h fillTemplate), on UTF-8.
QString fill(const QString& templ, const QStringList& values)
{
    std::vector<std::string> args;
    args.reserve(std::size_t(values.size()));
    for (const QString& v : values)
        args.push_back(v.toStdString());
    return QString::fromStdString(fillTemplate(templ.toStdString(), args));
}

// A template's translation with its arguments (translated where they are templates) put in, as UTF-8.
std::string translatedTemplate(const Text& text)
{
    if (!text.isTemplate()) return text.verbatimText();
    const std::string pattern = QCoreApplication::translate(text.context(), text.pattern()).toStdString();
    std::vector<std::string> args;
    args.reserve(text.args().size());
    for (const Text& a : text.args())
        args.push_back(translatedTemplate(a));
    return fillTemplate(pattern, args);
}

struct State {
    QMutex mutex;
    QHash<QString, CoreText::Translation> cache;
    // What a known entry translated to when the cache was filled: another language clears it.
    QString cacheProbe;
    QSet<QString> unmatched;
};

State& state()
{
    static State s;
    return s;
}

constexpr int kMaxDepth = 4;

CoreText::Translation translateText(const QString& text, int depth, bool record);

// A value captured by a template: a "; " list of catalogue items or a catalogued phrase is translated,
// anything else (a number, a path, a name, a formula) is kept.
QString translateValue(const QString& value, bool translating, int depth);

// The best whole-text match among the entries (items too when asked), or nullptr.
const Compiled* bestFull(const QString& text, bool items, QRegularExpressionMatch* match)
{
    const Compiled* best = nullptr;
    for (const Compiled& c : compiled()) {
        if (c.item && !items) continue;
        if (!text.startsWith(c.lead)) continue;
        QRegularExpressionMatch m = c.full.match(text);
        // The most specific: the longest fixed opening ("calibrated: %1" over "%1 -> latency %2, ..."), then
        // the most literal text.
        if (m.hasMatch()
            && (!best || c.lead.size() > best->lead.size()
                || (c.lead.size() == best->lead.size() && c.literal > best->literal))) {
            best = &c;
            *match = m;
        }
    }
    return best;
}

QString rebuild(const Compiled& c, const QRegularExpressionMatch& m, int depth, bool* translating)
{
    const QString templ = translated(c);
    *translating = templ != c.english;
    QStringList values(c.order.size());
    for (int g = 0; g < c.order.size(); ++g) {
        const int n = c.order[g];
        if (n >= 1 && n <= values.size())
            values[n - 1] = translateValue(m.captured(g + 1), *translating, depth + 1);
    }
    return fill(templ, values);
}

QString translateValue(const QString& value, bool translating, int depth)
{
    if (depth > kMaxDepth || !value.contains(QLatin1Char(' '))) return value;
    bool itemTranslating = false;
    QRegularExpressionMatch m;
    static const QRegularExpression dottedPath(QStringLiteral("^[A-Za-z]\\w*(?:\\.[\\w\\[\\]]+)+: "));
    if (dottedPath.match(value).hasMatch()) {
        const CoreText::Translation t = translateText(value, depth + 1, false);
        if (t.matched) return t.text;
    }
    if (const Compiled* c = bestFull(value, false, &m)) return rebuild(*c, m, depth, &itemTranslating);
    // A list of items ("qkv 4.85 ms (compute, 83.5% of peak); proj ...") or one item alone.
    const QStringList parts = value.split(QStringLiteral("; "));
    QStringList out;
    for (const QString& part : parts) {
        const Compiled* c = bestFull(part, true, &m);
        if (!c) break;
        out << rebuild(*c, m, depth, &itemTranslating);
    }
    if (out.size() == parts.size())
        return out.join(translating ? QStringLiteral("；") : QStringLiteral("; "));
    const CoreText::Translation t = translateText(value, depth + 1, false);
    return t.matched ? t.text : value;
}

CoreText::Translation translateText(const QString& text, int depth, bool record)
{
    CoreText::Translation result { text, true };
    if (text.trimmed().isEmpty() || depth > kMaxDepth) return result;

    // 1. "field.path: message", as prediction warnings carry validation warnings and calibration terms; a
    // dotted path first, so that a template opening with a value does not take the path in.
    static const QRegularExpression pathPrefix(
        QStringLiteral("^([A-Za-z][\\w\\[\\]]*(?:\\.[\\w\\[\\]]+)*): (.+)$"));
    const QRegularExpressionMatch pm = pathPrefix.match(text);
    const auto withPath = [&](CoreText::Translation* out) {
        const CoreText::Translation rest = translateText(pm.captured(2), depth + 1, false);
        if (!rest.matched) return false;
        const bool translating = rest.text != pm.captured(2);
        out->text = pm.captured(1) + (translating ? QStringLiteral("：") : QStringLiteral(": ")) + rest.text;
        return true;
    };
    if (pm.hasMatch() && pm.captured(1).contains(QLatin1Char('.')) && withPath(&result)) return result;

    // 2. The whole text is a template of core without arguments (util/Text.h: a search reason, a note), or one
    // of the catalogue's.
    if (const QString exact = QCoreApplication::translate("CoreText", text.toUtf8().constData()); exact != text) {
        result.text = exact;
        return result;
    }
    QRegularExpressionMatch m;
    if (const Compiled* c = bestFull(text, false, &m)) {
        bool translating = false;
        result.text = rebuild(*c, m, depth, &translating);
        return result;
    }
    if (pm.hasMatch() && withPath(&result)) return result; // "memory: stage 1 needs ..."

    // 3. Sentence by sentence (notes) or reference by reference (sources joined by "; ").
    QString out;
    qsizetype pos = 0;
    bool lastTranslating = false;
    while (pos < text.size()) {
        const Compiled* best = nullptr;
        QRegularExpressionMatch bestMatch;
        const QStringView rest = QStringView(text).mid(pos);
        for (const Compiled& c : compiled()) {
            if (c.item || !rest.startsWith(c.lead)) continue;
            QRegularExpressionMatch cm = c.prefix.match(
                text, pos, QRegularExpression::NormalMatch, QRegularExpression::AnchorAtOffsetMatchOption);
            if (!cm.hasMatch()) continue;
            if (!best || cm.capturedEnd() > bestMatch.capturedEnd()
                || (cm.capturedEnd() == bestMatch.capturedEnd() && c.literal > best->literal)) {
                best = &c;
                bestMatch = cm;
            }
        }
        qsizetype end;
        if (best) {
            out += rebuild(*best, bestMatch, depth, &lastTranslating);
            end = bestMatch.capturedEnd();
        } else {
            // Unknown: up to the end of the sentence (". ") or reference ("; "), kept in English.
            qsizetype stop = text.size();
            for (const QString& boundary : { QStringLiteral(". "), QStringLiteral("; ") }) {
                const qsizetype i = text.indexOf(boundary, pos);
                if (i >= 0) stop = std::min(stop, i + 1);
            }
            const QString fragment = text.mid(pos, stop - pos);
            out += fragment;
            result.matched = false;
            lastTranslating = false;
            if (record) {
                QMutexLocker lock(&state().mutex);
                state().unmatched.insert(fragment);
            }
            end = stop;
        }
        // The separator after it: a blank goes where the translation uses none (Chinese), "; " becomes "；".
        qsizetype next = end;
        while (next < text.size() && (text[next].isSpace() || text[next] == QLatin1Char(';')))
            ++next;
        const QString separator = text.mid(end, next - end);
        if (lastTranslating && next < text.size())
            out += separator.contains(QLatin1Char(';')) ? QStringLiteral("；") : QString();
        else
            out += separator;
        pos = next;
    }
    result.text = out;
    return result;
}

QString valueText(double v, const std::string& unit)
{
    const QString n = QString::fromStdString(units::formatNumber(v));
    if (unit == "bytes")
        return CoreText::tr("%1 bytes (%2)").arg(n, QString::fromStdString(units::formatBytes(v)));
    if (unit == "seconds")
        return CoreText::tr("%1 s (%2)").arg(n, QString::fromStdString(units::formatSeconds(v)));
    if (unit == "FLOP")
        return CoreText::tr("%1 FLOP (%2)").arg(n, QString::fromStdString(units::formatFlops(v)));
    if (unit == "parameters")
        return CoreText::tr("%1 (%2)", "a count of parameters")
            .arg(n, QString::fromStdString(units::formatCount(v)));
    if (unit == "microbatches") return CoreText::tr("%1 microbatches").arg(n);
    if (unit == "days") return CoreText::tr("%1 days").arg(n);
    if (unit == "1" || unit.empty()) return n;
    return QStringLiteral("%1 %2").arg(n, QString::fromStdString(unit));
}

void formatExplanation(const Explainer& ex, const std::string& field, int depth, int maxDepth, QString& out)
{
    const QString indent(depth * 4, QLatin1Char(' '));
    const Explanation* e = ex.find(field);
    if (!e) {
        out += indent + CoreText::tr("%1: no explanation recorded").arg(QString::fromStdString(field))
            + QLatin1Char('\n');
        return;
    }
    out += indent + QString::fromStdString(e->field) + QStringLiteral(" = ") + valueText(e->value, e->unit)
        + QLatin1Char('\n');
    if (!e->formula.empty()) {
        out += indent + CoreText::tr("  formula: %1").arg(QString::fromStdString(e->formula))
            + QLatin1Char('\n');
        if (!e->inputs.empty()) {
            QStringList inputs;
            for (const auto& [name, value] : e->inputs)
                inputs << QString::fromStdString(name) + QStringLiteral(" = ")
                        + QString::fromStdString(units::formatNumber(value));
            out += indent + CoreText::tr("  where:  %1").arg(inputs.join(QStringLiteral(", ")))
                + QLatin1Char('\n');
            out += indent
                + CoreText::tr("  so:     %1 = %2")
                      .arg(QString::fromStdString(substitute(*e)),
                          QString::fromStdString(units::formatNumber(e->value)))
                + QLatin1Char('\n');
        }
    }
    if (!e->source.empty())
        out += indent + CoreText::tr("  source: %1").arg(CoreText::text(e->source)) + QLatin1Char('\n');
    if (!e->note.empty())
        out += indent + CoreText::tr("  note:   %1").arg(CoreText::text(e->note)) + QLatin1Char('\n');
    if (depth < maxDepth)
        for (const std::string& c : e->children)
            formatExplanation(ex, c, depth + 1, maxDepth, out);
}

} // namespace

CoreText::Translation CoreText::translate(const QString& english)
{
    State& s = state();
    const QString probe = QCoreApplication::translate("CoreText", "definition");
    {
        QMutexLocker lock(&s.mutex);
        if (probe != s.cacheProbe) {
            s.cache.clear();
            s.cacheProbe = probe;
        }
        const auto it = s.cache.constFind(english);
        if (it != s.cache.constEnd()) return *it;
    }
    Translation t = translateText(english, 0, true);
    if (t.text.isEmpty()) t.text = english;
    QMutexLocker lock(&s.mutex);
    if (s.cache.size() > 20000) s.cache.clear();
    s.cache.insert(english, t);
    return t;
}

QString CoreText::text(const Text& text)
{
    if (!text.isTemplate()) return CoreText::text(text.verbatimText());
    return QString::fromStdString(translatedTemplate(text));
}

QString CoreText::text(const Issue& issue)
{
    return issue.text.isTemplate() ? text(issue.text) : text(issue.message);
}

QString CoreText::line(const Issue& issue)
{
    if (issue.path.empty()) return text(issue);
    // The template core's calibration notes use for a path and its message (analysis/Analysis.cpp).
    return fill(QCoreApplication::translate("CoreText", "%1: %2"), { QString::fromStdString(issue.path), text(issue) });
}

QString CoreText::explanation(const Explainer& explainer, const std::string& field, int maxDepth)
{
    QString out;
    formatExplanation(explainer, field, 0, maxDepth, out);
    return out;
}

QStringList CoreText::unmatched()
{
    QMutexLocker lock(&state().mutex);
    QStringList list(state().unmatched.cbegin(), state().unmatched.cend());
    list.sort();
    return list;
}

void CoreText::clearUnmatched()
{
    QMutexLocker lock(&state().mutex);
    state().unmatched.clear();
    state().cache.clear();
}

QStringList CoreText::catalogue()
{
    QStringList list;
    for (const Compiled& c : compiled())
        list << c.english;
    return list;
}

} // namespace planscope
