// The kinds of parallel groups: the one name the cost model (CommGroup), the rank layout, the GPU grid and
// the views share. toString gives the names the prediction JSON prints ("dp|tp|pp|cp|ep", a contract).
#pragma once

#include <array>
#include <string_view>

namespace planscope {

enum class GroupKind {
    TP, // tensor parallel
    CP, // context parallel
    DPCP, // data parallel x context parallel: gradient reduction and ZeRO sharding ("dp" in the JSON)
    PP, // one pipeline: the ranks holding stage 0 .. p-1 of one replica
    EP, // expert parallel (carved out of dp*cp)
    ExpertDP, // expert data parallel: the replicas of one expert shard
};
inline constexpr std::array<GroupKind, 6> kGroupKinds { GroupKind::TP, GroupKind::CP, GroupKind::DPCP,
    GroupKind::PP, GroupKind::EP, GroupKind::ExpertDP };

// "tp", "cp", "dp" (dp*cp), "pp", "ep", "edp"; null-terminated.
constexpr std::string_view toString(GroupKind kind)
{
    switch (kind) {
    case GroupKind::TP: return "tp";
    case GroupKind::CP: return "cp";
    case GroupKind::DPCP: return "dp";
    case GroupKind::PP: return "pp";
    case GroupKind::EP: return "ep";
    case GroupKind::ExpertDP: return "edp";
    }
    return "?";
}

} // namespace planscope
