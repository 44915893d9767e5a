// Provenance: how each number of a prediction was computed. One structure that the GUI's explanation
// panel and `planscope-cli explain` both print; its note and source are templates (util/Text.h), English here and
// in the GUI's language there. Evaluation records into an Explainer only when one is
// passed, so the fast path (the planner ranking millions of plans) builds no strings.
#pragma once

#include "util/Text.h"

#include <map>
#include <string>
#include <utility>
#include <vector>

namespace planscope {

struct Explanation {
    std::string field;                                  // path in the prediction JSON
    double value = 0;
    std::string unit;                                   // "bytes", "seconds", "FLOP", "parameters", "1"
    std::string formula;                                // symbolic, e.g. "(p-1)/(m+p-1)"
    std::vector<std::pair<std::string, double>> inputs; // the values put in, in formula order
    Text source;                                        // paper or code it comes from (references: a Joint::List)
    std::vector<std::string> children;                  // fields of the terms it adds up
    Text note;                                          // assumptions, traps, the other definition (Joint::Sentences)

    bool operator==(const Explanation&) const = default;
};

class Explainer {
public:
    void add(Explanation e) { m_entries[e.field] = std::move(e); }
    const Explanation* find(const std::string& field) const
    {
        auto it = m_entries.find(field);
        return it == m_entries.end() ? nullptr : &it->second;
    }
    const std::map<std::string, Explanation>& entries() const { return m_entries; }

private:
    std::map<std::string, Explanation> m_entries;
};

// Text form: the formula, the inputs, the formula with values filled in, the source, then the children
// indented below (depth-limited).
std::string formatExplanation(const Explainer& ex, const std::string& field, int maxDepth = 3);
// The formula with each input name replaced by its value ("(8-1)/(32+8-1)").
std::string substitute(const Explanation& e);

// The references explanations cite, as templates (util/Text.h) so that the GUI shows them in its language; a source
// of several references is a Text::join(..., Text::Joint::List) of them.
namespace sources {
inline constexpr TextTemplate kMegatronParams = PS_TEXT("CoreText",
    "Narayanan et al., Efficient Large-Scale Language Model Training on GPU Clusters Using Megatron-LM (SC21), eq. 2; "
    "Megatron-LM megatron/training/theoretical_memory_usage.py");
inline constexpr TextTemplate kMegatronFlops = PS_TEXT("CoreText", "Narayanan et al. (SC21), eq. 3 and appendix");
inline constexpr TextTemplate kPalmFlops
    = PS_TEXT("CoreText", "Chowdhery et al., PaLM (2022), appendix B: 6N + 12*L*H*Q*T per token");
inline constexpr TextTemplate kKorthikanti = PS_TEXT("CoreText",
    "Korthikanti et al., Reducing Activation Recomputation in Large Transformer Models (MLSys 2023), section 4 and "
    "Table 2");
inline constexpr TextTemplate kKorthikantiFlops = PS_TEXT("CoreText", "Korthikanti et al. (MLSys 2023), appendix A");
inline constexpr TextTemplate kZero = PS_TEXT("CoreText",
    "Rajbhandari et al., ZeRO: Memory Optimizations Toward Training Trillion Parameter Models (SC20), section 5 and "
    "Figure 1");
inline constexpr TextTemplate kZeroComm
    = PS_TEXT("CoreText", "Rajbhandari et al., ZeRO (SC20), section 7 (communication analysis)");
inline constexpr TextTemplate kMegatronOptimizer = PS_TEXT("CoreText",
    "Megatron-LM megatron/core/optimizer/distrib_optimizer.py (fp32 main grads and params under bf16)");
inline constexpr TextTemplate kMoeMemory = PS_TEXT("CoreText",
    "Megatron-LM expert parallelism: experts sharded by ep, optimizer over the expert-data-parallel group "
    "(NVIDIA/Megatron-LM#2439)");
inline constexpr TextTemplate kPipeline = PS_TEXT("CoreText",
    "Narayanan et al. (SC21) section 2.2 (bubble (p-1)/m); Huang et al., GPipe (2019); docs/SCHEDULES.md");
inline constexpr TextTemplate kZeroBubble
    = PS_TEXT("CoreText", "Qi et al., Zero Bubble Pipeline Parallelism (ICLR 2024), section 3");
inline constexpr TextTemplate kDualPipe
    = PS_TEXT("CoreText", "DeepSeek-V3 technical report (2024), section 3.2.1, Table 2; deepseek-ai/DualPipe");
inline constexpr TextTemplate kNcclTests
    = PS_TEXT("CoreText", "NVIDIA/nccl-tests doc/PERFORMANCE.md (algBw, busBw factors)");
inline constexpr TextTemplate kAlphaBeta = PS_TEXT("CoreText",
    "Thakur, Rabenseifner, Gropp, Optimization of Collective Communication Operations in MPICH (IJHPCA 2005)");
inline constexpr TextTemplate kMfu = PS_TEXT("CoreText", "Chowdhery et al., PaLM (2022), appendix B (MFU vs HFU)");
inline constexpr TextTemplate kTransformerEngineFp8Guide = PS_TEXT("CoreText",
    "NVIDIA Transformer Engine user guide, Using FP8 with Transformer Engine (delayed and current scaling, amax "
    "history, fp8 weight caching across microbatches) and FP8/MXFP8 on Blackwell");
inline constexpr TextTemplate kFp8Formats = PS_TEXT("CoreText", "Micikevicius et al., FP8 Formats for Deep Learning (2022)");
inline constexpr TextTemplate kDeepSeekFp8
    = PS_TEXT("CoreText", "DeepSeek-V3 technical report (arXiv 2412.19437) section 3.3 (blockwise scaling)");
inline constexpr TextTemplate kZeroOffloadPaper = PS_TEXT("CoreText",
    "Ren et al., ZeRO-Offload: Democratizing Billion-Scale Model Training (USENIX ATC 2021)");
inline constexpr TextTemplate kMegatronOptimizerOffload = PS_TEXT("CoreText",
    "Megatron-Core --optimizer-cpu-offload / --optimizer-offload-fraction (HybridDeviceOptimizer)");
inline constexpr TextTemplate kNcclCtas = PS_TEXT("CoreText",
    "NVIDIA NCCL user guide, environment variables: NCCL_MIN_CTAS and NCCL_MAX_CTAS (a collective kernel runs one "
    "CUDA block per channel, each on an SM)");
inline constexpr TextTemplate kOverlapSlowdown = PS_TEXT("CoreText",
    "Lee et al., Characterizing Compute-Communication Overlap in GPU-Accelerated Distributed Deep Learning (arXiv "
    "2507.03114): overlapped compute 18.9 % slower on average, up to 40 %, on A100, H100, MI250 and MI210");
inline constexpr TextTemplate kTransformerEngineOffload = PS_TEXT("CoreText",
    "Transformer Engine CPU offloading (transformer_engine.pytorch.get_cpu_offload_context)");
inline constexpr TextTemplate kMegatronActivationOffload = PS_TEXT("CoreText", "Megatron-LM --cpu-offloading-num-layers");
inline constexpr TextTemplate kDefinition = PS_TEXT("CoreText", "definition");

// The sources of several references.
inline Text transformerEngineFp8()
{
    return Text::join({ Text(kTransformerEngineFp8Guide), Text(kFp8Formats), Text(kDeepSeekFp8) }, Text::Joint::List);
}
inline Text zeroOffload()
{
    return Text::join({ Text(kZeroOffloadPaper), Text(kMegatronOptimizerOffload) }, Text::Joint::List);
}
inline Text contention() { return Text::join({ Text(kNcclCtas), Text(kOverlapSlowdown) }, Text::Joint::List); }
inline Text activationOffload()
{
    return Text::join({ Text(kTransformerEngineOffload), Text(kMegatronActivationOffload) }, Text::Joint::List);
}
} // namespace sources

} // namespace planscope
