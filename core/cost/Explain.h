// Provenance: how each number of a prediction was computed. One structure that the GUI's explanation
// panel and `planscope-cli explain` both print. Evaluation records into an Explainer only when one is
// passed, so the fast path (the planner ranking millions of plans) builds no strings.
#pragma once

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
    std::string source;                                 // paper or code it comes from
    std::vector<std::string> children;                  // fields of the terms it adds up
    std::string note;                                   // assumptions, traps, the other definition

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

namespace sources {
inline constexpr const char* kMegatronParams
    = "Narayanan et al., Efficient Large-Scale Language Model Training on GPU Clusters Using Megatron-LM (SC21), eq. 2; "
      "Megatron-LM megatron/training/theoretical_memory_usage.py";
inline constexpr const char* kMegatronFlops = "Narayanan et al. (SC21), eq. 3 and appendix";
inline constexpr const char* kPalmFlops = "Chowdhery et al., PaLM (2022), appendix B: 6N + 12*L*H*Q*T per token";
inline constexpr const char* kKorthikanti
    = "Korthikanti et al., Reducing Activation Recomputation in Large Transformer Models (MLSys 2023), section 4 and Table 2";
inline constexpr const char* kKorthikantiFlops = "Korthikanti et al. (MLSys 2023), appendix A";
inline constexpr const char* kZero
    = "Rajbhandari et al., ZeRO: Memory Optimizations Toward Training Trillion Parameter Models (SC20), section 5 and Figure 1";
inline constexpr const char* kZeroComm = "Rajbhandari et al., ZeRO (SC20), section 7 (communication analysis)";
inline constexpr const char* kMegatronOptimizer
    = "Megatron-LM megatron/core/optimizer/distrib_optimizer.py (fp32 main grads and params under bf16)";
inline constexpr const char* kMoeMemory
    = "Megatron-LM expert parallelism: experts sharded by ep, optimizer over the expert-data-parallel group "
      "(NVIDIA/Megatron-LM#2439)";
inline constexpr const char* kPipeline
    = "Narayanan et al. (SC21) section 2.2 (bubble (p-1)/m); Huang et al., GPipe (2019); docs/SCHEDULES.md";
inline constexpr const char* kZeroBubble = "Qi et al., Zero Bubble Pipeline Parallelism (ICLR 2024), section 3";
inline constexpr const char* kDualPipe = "DeepSeek-V3 technical report (2024), section 3.2.1, Table 2; deepseek-ai/DualPipe";
inline constexpr const char* kNcclTests = "NVIDIA/nccl-tests doc/PERFORMANCE.md (algBw, busBw factors)";
inline constexpr const char* kAlphaBeta
    = "Thakur, Rabenseifner, Gropp, Optimization of Collective Communication Operations in MPICH (IJHPCA 2005)";
inline constexpr const char* kMfu = "Chowdhery et al., PaLM (2022), appendix B (MFU vs HFU)";
inline constexpr const char* kTransformerEngineFp8
    = "NVIDIA Transformer Engine user guide, Using FP8 with Transformer Engine (delayed and current scaling, amax "
      "history, fp8 weight caching across microbatches) and FP8/MXFP8 on Blackwell; Micikevicius et al., FP8 Formats for "
      "Deep Learning (2022); DeepSeek-V3 technical report (arXiv 2412.19437) section 3.3 (blockwise scaling)";
inline constexpr const char* kZeroOffload
    = "Ren et al., ZeRO-Offload: Democratizing Billion-Scale Model Training (USENIX ATC 2021); Megatron-Core "
      "--optimizer-cpu-offload / --optimizer-offload-fraction (HybridDeviceOptimizer)";
inline constexpr const char* kContention
    = "NVIDIA NCCL user guide, environment variables: NCCL_MIN_CTAS and NCCL_MAX_CTAS (a collective kernel runs one "
      "CUDA block per channel, each on an SM); Lee et al., Characterizing Compute-Communication Overlap in "
      "GPU-Accelerated Distributed Deep Learning (arXiv 2507.03114): overlapped compute 18.9 % slower on average, up "
      "to 40 %, on A100, H100, MI250 and MI210";
inline constexpr const char* kActivationOffload
    = "Transformer Engine CPU offloading (transformer_engine.pytorch.get_cpu_offload_context); Megatron-LM "
      "--cpu-offloading-num-layers";
} // namespace sources

} // namespace planscope
