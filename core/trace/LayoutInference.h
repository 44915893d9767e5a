// The parallel layout a run's traces imply (docs/TRACES.md, "The plan the traces imply"): the world size, the degrees
// tp, pp, dp, cp, ep and etp, and the rank order, read from the process groups each trace records
// (ProcessGroupRecord: distributedInfo.pg_config, and the "Process Group *" args of NCCL events) by the descriptions
// Megatron-Core gives them (group_desc in megatron/core/parallel_state.py, initialize_model_parallel). A degree is
// the size of its groups; the order is read from the distance between the members of each kind of group (its
// stride: Megatron-Core's RankGenerator makes a dimension's stride the product of the degrees before it in the
// order). Every field says where it comes from; a field the records do not give is listed with its reason; records
// that contradict each other or the world size are named, and the fields they would give are left out.
#pragma once

#include "trace/KinetoImport.h"
#include "util/Text.h"

#include <array>
#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <vector>

namespace planscope {

// What a group is, from its description (pg_desc).
enum class GroupRole : std::uint8_t {
    World, // "default_pg": torch.distributed's default group (distributed_c10d.py, init_process_group)
    // One dimension: TENSOR_MODEL_PARALLEL_GROUP, PIPELINE_MODEL_PARALLEL_GROUP, DATA_PARALLEL_GROUP,
    // CONTEXT_PARALLEL_GROUP, DATA_PARALLEL_GROUP_WITH_CP, EXPERT_MODEL_PARALLEL_GROUP, EXPERT_TENSOR_PARALLEL_GROUP,
    // EXPERT_DATA_PARALLEL_GROUP (and their _GLOO twins, the same ranks).
    Tp, Pp, Dp, Cp, DpCp, Ep, Etp, Edp,
    // Several at once: MODEL_PARALLEL_GROUP, TENSOR_AND_DATA_PARALLEL_GROUP(_WITH_CP),
    // TENSOR_AND_CONTEXT_PARALLEL_GROUP, EXPERT_TENSOR_AND_MODEL_PARALLEL_GROUP,
    // EXPERT_TENSOR_MODEL_PIPELINE_PARALLEL_GROUP.
    TpPp, TpDp, TpDpCp, TpCp, EtpEp, EtpEpPp,
    Unmodelled, // a dimension PlanScope does not model: GTP_WEIGHT_REMAT_GROUP, EXPERT_GTP_WEIGHT_REMAT_GROUP
    Other, // named by Megatron-Core, but of no degree: EMBEDDING_GROUP, the partial distributed-optimizer groups, ...
    Unnamed, // "undefined" (made without a group_desc: torch before 2.4, or a caller that gives none), or unknown
};
GroupRole groupRoleOf(std::string_view desc);
// "world", "tp", "pp", "dp", "cp", "dp-cp", "ep", "etp", "edp", "tp-pp", "tp-dp", "tp-dp-cp", "tp-cp", "etp-ep",
// "etp-ep-pp", "unmodelled", "other", "unnamed".
std::string_view toString(GroupRole role);

// How a field was found.
enum class InferredBasis : std::uint8_t {
    Recorded, // as recorded: the world size (distributedInfo.world_size, or the default group's size)
    Named, // the size of the groups named for it
    Derived, // arithmetic on other fields and groups (dp = world / (tp x pp x cp), ...)
    Strides, // the order: the strides of the groups
};
std::string_view toString(InferredBasis basis); // "recorded", "named", "derived", "strides"

struct InferredField {
    std::string field; // one of kLayoutFields
    int value = 0; // the degree, or the world size; 0 for "order"
    std::string order; // "order": the rank order, fastest first ("tp-cp-ep-dp-pp")
    InferredBasis basis = InferredBasis::Named;
    Text from; // the evidence in words
};

struct NotInferredField {
    std::string field;
    Text reason;
};

// One distinct group among the records: the same description and members in several traces count once.
struct LayoutGroup {
    std::string desc;
    GroupRole role = GroupRole::Unnamed;
    int size = 0;
    std::vector<int> members; // in group-rank order; empty when no trace lists them all
    int stride = 0; // the distance between neighbouring members where it is one distance; else 0
    int traces = 0; // traces that record it
};

// The fields inferLayout() looks for, in this order.
inline constexpr std::array<std::string_view, 8> kLayoutFields { "gpus", "tp", "pp", "dp", "cp", "ep", "etp", "order" };

struct InferredLayout {
    int worldSize = -1;
    std::vector<InferredField> fields; // those inferred, in kLayoutFields' order
    std::vector<NotInferredField> notInferred; // the others, each with its reason, in the same order
    std::vector<Text> issues; // records that contradict each other, the world size, or the order; unreadable fields
    std::vector<Text> notes; // what applying the layout to a plan assumed, and what PlanScope lays out otherwise
    std::vector<LayoutGroup> groups; // the distinct groups read, by role, then by first member
    nlohmann::json plan; // the base plan with the inferred fields applied; null without a base

    const InferredField* field(std::string_view name) const;
};

// The layout of one job's ranks (TraceImport::ranks). With `basePlan` (a plan file's JSON), `plan` is that plan with
// the inferred fields applied (applyInferredLayout) and `notes` says what that assumed.
InferredLayout inferLayout(const std::vector<MeasuredRank>& ranks, const nlohmann::json* basePlan = nullptr);

// `basePlan` (a plan file's JSON) with the layout's fields written in: parallel.tp, pp, dp, cp, ep, etp and order,
// and the cluster's nodes from the world size (its GPUs per node kept where they divide the world). Where dp is not
// inferred, the base's dp is dropped so that the plan's default (GPUs / (tp x pp x cp)) applies. Each assumption is
// added to `notes`. The name gains " (layout from traces)".
nlohmann::json applyInferredLayout(const InferredLayout& layout, nlohmann::json basePlan, std::vector<Text>& notes);

} // namespace planscope
