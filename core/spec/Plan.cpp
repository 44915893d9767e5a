#include "Plan.h"

#include "ScheduleTraits.h"

#include <algorithm>

#include <array>
#include <utility>

namespace planscope {

int bytesPerElement(Precision p)
{
    switch (p) {
    case Precision::FP32: return 4;
    case Precision::FP16:
    case Precision::BF16: return 2;
    case Precision::FP8: return 1;
    }
    return 2;
}

double PeakFlops::forPrecision(Precision p) const
{
    switch (p) {
    case Precision::FP32: return fp32;
    case Precision::FP16: return fp16;
    case Precision::BF16: return bf16;
    case Precision::FP8: return fp8;
    }
    return bf16;
}

int Plan::chunksPerRank() const { return traits(training.schedule).chunksPerRank(parallel.vpp); }

void applyModelDefaults(ModelSpec& m)
{
    if (m.kvHeads == 0) m.kvHeads = m.heads;
    if (m.ffnHidden == 0) m.ffnHidden = 4 * m.hidden;
    if (m.isMoe() && m.moe.expertFfnHidden <= 0) m.moe.expertFfnHidden = m.ffnHidden;
    if (m.isMoe() && m.moe.topK <= 0) m.moe.topK = 1;
    if (m.moe.sharedExperts > 0 && m.moe.sharedExpertFfnHidden <= 0) m.moe.sharedExpertFfnHidden = m.moe.expertFfnHidden;
}

int impliedDp(const Plan& plan)
{
    const long long rest = 1LL * plan.parallel.tp * plan.parallel.pp * plan.parallel.cp;
    if (rest <= 0) return 1;
    return int(std::max<long long>(1, plan.cluster.gpus() / rest));
}

namespace {
template<typename E, std::size_t N>
using Names = std::array<std::pair<E, std::string_view>, N>;

constexpr Names<Precision, 4> kPrecision { { { Precision::FP32, "fp32" }, { Precision::FP16, "fp16" },
    { Precision::BF16, "bf16" }, { Precision::FP8, "fp8" } } };
constexpr Names<Optimizer, 3> kOptimizer { { { Optimizer::Adam, "adam" }, { Optimizer::SGD, "sgd" },
    { Optimizer::Muon, "muon" } } };
constexpr Names<Recompute, 3> kRecompute { { { Recompute::None, "none" }, { Recompute::Selective, "selective" },
    { Recompute::Full, "full" } } };
constexpr Names<PositionEmbedding, 4> kPosition { { { PositionEmbedding::None, "none" },
    { PositionEmbedding::Learned, "learned" }, { PositionEmbedding::Rope, "rope" },
    { PositionEmbedding::Alibi, "alibi" } } };
constexpr Names<NormKind, 2> kNorm { { { NormKind::LayerNorm, "layernorm" }, { NormKind::RMSNorm, "rmsnorm" } } };
constexpr Names<Fsdp, 3> kFsdp { { { Fsdp::None, "none" }, { Fsdp::Full, "full" }, { Fsdp::Hybrid, "hybrid" } } };
constexpr Names<MoeDispatcher, 2> kDispatcher { { { MoeDispatcher::AllToAll, "alltoall" },
    { MoeDispatcher::AllGather, "allgather" } } };
constexpr Names<Fp8Recipe, 4> kFp8Recipe { { { Fp8Recipe::Delayed, "delayed" }, { Fp8Recipe::Current, "current" },
    { Fp8Recipe::MxFp8, "mxfp8" }, { Fp8Recipe::Blockwise, "blockwise" } } };
constexpr Names<CudaGraphs, 3> kCudaGraphs { { { CudaGraphs::None, "none" }, { CudaGraphs::PerLayer, "per-layer" },
    { CudaGraphs::FullIteration, "full-iteration" } } };

template<typename E, std::size_t N>
std::string_view name(const Names<E, N>& names, E e)
{
    for (const auto& [k, v] : names)
        if (k == e) return v;
    return "?";
}
template<typename E, std::size_t N>
bool parse(const Names<E, N>& names, std::string_view s, E& out)
{
    for (const auto& [k, v] : names)
        if (v == s) {
            out = k;
            return true;
        }
    return false;
}
} // namespace

std::string_view toString(Precision e) { return name(kPrecision, e); }
std::string_view toString(Optimizer e) { return name(kOptimizer, e); }
std::string_view toString(Recompute e) { return name(kRecompute, e); }
std::string_view toString(ScheduleKind e) { return traits(e).name; }
std::string_view toString(PositionEmbedding e) { return name(kPosition, e); }
std::string_view toString(NormKind e) { return name(kNorm, e); }
std::string_view toString(Fsdp e) { return name(kFsdp, e); }
std::string_view toString(MoeDispatcher e) { return name(kDispatcher, e); }
std::string_view toString(Fp8Recipe e) { return name(kFp8Recipe, e); }
std::string_view toString(CudaGraphs e) { return name(kCudaGraphs, e); }
bool fromString(std::string_view s, Precision& e) { return parse(kPrecision, s, e); }
bool fromString(std::string_view s, Optimizer& e) { return parse(kOptimizer, s, e); }
bool fromString(std::string_view s, Recompute& e) { return parse(kRecompute, s, e); }
bool fromString(std::string_view s, ScheduleKind& e)
{
    for (const ScheduleTraits& t : scheduleTraits())
        if (t.name == s) {
            e = t.kind;
            return true;
        }
    return false;
}
bool fromString(std::string_view s, PositionEmbedding& e) { return parse(kPosition, s, e); }
bool fromString(std::string_view s, NormKind& e) { return parse(kNorm, s, e); }
bool fromString(std::string_view s, Fsdp& e) { return parse(kFsdp, s, e); }
bool fromString(std::string_view s, MoeDispatcher& e) { return parse(kDispatcher, s, e); }
bool fromString(std::string_view s, Fp8Recipe& e) { return parse(kFp8Recipe, s, e); }
bool fromString(std::string_view s, CudaGraphs& e) { return parse(kCudaGraphs, s, e); }

} // namespace planscope
