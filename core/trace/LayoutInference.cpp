#include "LayoutInference.h"

#include "cost/RankGrid.h"

#include <algorithm>
#include <iterator>
#include <map>
#include <numeric>
#include <optional>
#include <unordered_map>

namespace planscope {

using nlohmann::json;

namespace {

struct RoleName {
    std::string_view desc;
    GroupRole role;
};
// The group_desc values megatron/core/parallel_state.py (initialize_model_parallel) gives its groups, and the default
// group's (torch/distributed/distributed_c10d.py, init_process_group).
constexpr RoleName kRoleNames[] = {
    { "default_pg", GroupRole::World },
    { "TENSOR_MODEL_PARALLEL_GROUP", GroupRole::Tp },
    { "PIPELINE_MODEL_PARALLEL_GROUP", GroupRole::Pp },
    { "DATA_PARALLEL_GROUP", GroupRole::Dp },
    { "DATA_PARALLEL_GROUP_GLOO", GroupRole::Dp },
    { "CONTEXT_PARALLEL_GROUP", GroupRole::Cp },
    { "DATA_PARALLEL_GROUP_WITH_CP", GroupRole::DpCp },
    { "DATA_PARALLEL_GROUP_WITH_CP_GLOO", GroupRole::DpCp },
    { "EXPERT_MODEL_PARALLEL_GROUP", GroupRole::Ep },
    { "EXPERT_TENSOR_PARALLEL_GROUP", GroupRole::Etp },
    { "EXPERT_DATA_PARALLEL_GROUP", GroupRole::Edp },
    { "EXPERT_DATA_PARALLEL_GROUP_GLOO", GroupRole::Edp },
    { "MODEL_PARALLEL_GROUP", GroupRole::TpPp },
    { "TENSOR_AND_DATA_PARALLEL_GROUP", GroupRole::TpDp },
    { "TENSOR_AND_DATA_PARALLEL_GROUP_WITH_CP", GroupRole::TpDpCp },
    { "TENSOR_AND_CONTEXT_PARALLEL_GROUP", GroupRole::TpCp },
    { "EXPERT_TENSOR_AND_MODEL_PARALLEL_GROUP", GroupRole::EtpEp },
    { "EXPERT_TENSOR_MODEL_PIPELINE_PARALLEL_GROUP", GroupRole::EtpEpPp },
    { "GTP_WEIGHT_REMAT_GROUP", GroupRole::Unmodelled },
    { "EXPERT_GTP_WEIGHT_REMAT_GROUP", GroupRole::Unmodelled },
    { "EMBEDDING_GROUP", GroupRole::Other },
    { "POSITION_EMBEDDING_GROUP", GroupRole::Other },
    { "INTRA_PARTIAL_DATA_PARALLEL_GROUP_WITH_CP", GroupRole::Other },
    { "INTRA_PARTIAL_DATA_PARALLEL_GROUP_WITH_CP_GLOO", GroupRole::Other },
    { "INTER_PARTIAL_DATA_PARALLEL_GROUP_WITH_CP", GroupRole::Other },
    { "INTRA_DISTRIBUTED_OPTIMIZER_INSTANCE_GROUP", GroupRole::Other },
    { "DATA_PARALLEL_GROUP_WITH_CP_AG", GroupRole::Other },
    { "EXPERT_DATA_PARALLEL_GROUP_AG", GroupRole::Other },
    { "DATA_PARALLEL_GROUP_WITH_GTP_REMAT", GroupRole::Other },
    { "DATA_PARALLEL_GROUP_WITH_CP_WITH_GTP_REMAT", GroupRole::Other },
    { "EXPERT_DATA_PARALLEL_GROUP_WITH_GTP_REMAT", GroupRole::Other },
    { "EXPERT_TENSOR_MODEL_PIPELINE_PARALLEL_GROUP_WITH_EGTP", GroupRole::Other },
};

// The description each one-dimension role is read from (the first kRoleNames entry of the role).
std::string_view descOf(GroupRole role)
{
    for (const RoleName& r : kRoleNames)
        if (r.role == role) return r.desc;
    return {};
}

// The dimensions (axes) of a rank order, in Megatron-Core's default order "tp-cp-ep-dp-pp" (fastest first).
enum Axis { TP, CP, EP, DP, PP, kDims };
constexpr std::array<std::string_view, kDims> kDimNames { "tp", "cp", "ep", "dp", "pp" };

// What the records say of one role: its distinct groups' sizes and strides, and whether its groups overlap.
struct RoleSummary {
    std::vector<int> sizes; // distinct, ascending
    std::vector<int> strides; // distinct strides of the listed groups of more than one member, ascending
    bool uneven = false; // a listed group of more than one member whose members are not evenly spaced
    int groups = 0;
    int listed = 0;
    std::optional<int> size() const { return sizes.size() == 1 ? std::optional<int>(sizes[0]) : std::nullopt; }
};

void addDistinct(std::vector<int>& v, int x)
{
    const auto at = std::lower_bound(v.begin(), v.end(), x);
    if (at == v.end() || *at != x) v.insert(at, x);
}

// "[0, 1, 2, 3]", or the first 8 members and the count: "[0, 2, 4, 6, 8, 10, 12, 14, ... 64 ranks]".
std::string membersText(const std::vector<int>& m)
{
    std::string s = "[";
    for (std::size_t i = 0; i < m.size() && i < 8; ++i) s += (i ? ", " : "") + std::to_string(m[i]);
    if (m.size() > 8) s += ", ... " + std::to_string(m.size()) + " ranks";
    return s + "]";
}

// A group as "TENSOR_MODEL_PARALLEL_GROUP [0, 1]" (or its pg_name where it has no description).
std::string groupName(const LayoutGroup& g)
{
    return (g.desc.empty() ? std::string("(no description)") : g.desc) + (g.members.empty() ? "" : " " + membersText(g.members));
}

int strideOf(const std::vector<int>& m)
{
    if (m.size() < 2) return 0;
    const long long d = (long long)m[1] - m[0];
    if (d <= 0) return 0;
    for (std::size_t i = 2; i < m.size(); ++i)
        if ((long long)m[i] - m[i - 1] != d) return 0;
    return int(d);
}

// The ranks of a grid laid out in an order (fastest first), each dimension's stride the product of the degrees before
// it, as Megatron-Core's RankGenerator lays them out (megatron/core/parallel_state.py,
// generate_masked_orthogonal_rank_groups).
struct Grid {
    std::array<int, kDims> degree { 1, 1, 1, 1, 1 };
    std::array<long long, kDims> stride { 1, 1, 1, 1, 1 };
    Grid(const std::array<int, kDims>& degrees, const std::array<Axis, kDims>& order)
        : degree(degrees)
    {
        long long s = 1;
        for (Axis d : order) {
            stride[d] = s;
            s *= std::max(1, degree[d]);
        }
    }
    int coord(int rank, Axis d) const { return int((rank / stride[d]) % degree[d]); }
    // The ranks that share `rank`'s coordinates outside `dims`, ascending.
    std::vector<int> group(int rank, const std::vector<Axis>& dims) const
    {
        long long base = rank;
        for (Axis d : dims) base -= coord(rank, d) * stride[d];
        std::vector<int> out { int(base) };
        for (Axis d : dims) {
            const std::size_t n = out.size();
            for (int c = 1; c < degree[d]; ++c)
                for (std::size_t i = 0; i < n; ++i) out.push_back(int(out[i] + c * stride[d]));
        }
        std::sort(out.begin(), out.end());
        return out;
    }
};

// The dimensions a role spans, in the dense grid (tp, cp, dp, pp) or the expert grid (etp as tp, ep, edp as dp, pp),
// as the masks of initialize_model_parallel's get_ranks() calls; `expert` says which grid.
std::vector<Axis> dimsOf(GroupRole role, bool& expert)
{
    expert = false;
    switch (role) {
    case GroupRole::Tp: return { TP };
    case GroupRole::Pp: return { PP };
    case GroupRole::Dp: return { DP };
    case GroupRole::Cp: return { CP };
    case GroupRole::DpCp: return { DP, CP };
    case GroupRole::TpPp: return { TP, PP };
    case GroupRole::TpDp: return { TP, DP };
    case GroupRole::TpDpCp: return { TP, DP, CP };
    case GroupRole::TpCp: return { TP, CP };
    case GroupRole::Ep: expert = true; return { EP };
    case GroupRole::Etp: expert = true; return { TP };
    case GroupRole::Edp: expert = true; return { DP };
    case GroupRole::EtpEp: expert = true; return { TP, EP };
    case GroupRole::EtpEpPp: expert = true; return { TP, EP, PP };
    default: return {};
    }
}

// a x b, held at INT64_MAX where it would overflow (hostile sizes up to 2^31 - 1 each).
long long times(long long a, long long b)
{
    long long r = 0;
    return __builtin_mul_overflow(a, b, &r) ? INT64_MAX : r;
}

// The role whose groups' size is a field's degree.
GroupRole namingRole(std::string_view field)
{
    if (field == "tp") return GroupRole::Tp;
    if (field == "pp") return GroupRole::Pp;
    if (field == "dp") return GroupRole::Dp;
    if (field == "cp") return GroupRole::Cp;
    if (field == "ep") return GroupRole::Ep;
    if (field == "etp") return GroupRole::Etp;
    if (field == "edp") return GroupRole::Edp;
    return GroupRole::Unnamed;
}

// Inversions of `order` against the default order: how far it is from "tp-cp-ep-dp-pp".
int inversions(const std::array<Axis, kDims>& order)
{
    int n = 0;
    for (int i = 0; i < kDims; ++i)
        for (int j = i + 1; j < kDims; ++j) n += order[i] > order[j] ? 1 : 0;
    return n;
}

std::string orderText(const std::array<Axis, kDims>& order)
{
    std::string s;
    for (Axis d : order) s += (s.empty() ? "" : "-") + std::string(kDimNames[d]);
    return s;
}

} // namespace

GroupRole groupRoleOf(std::string_view desc)
{
    for (const RoleName& r : kRoleNames)
        if (r.desc == desc) return r.role;
    // create_hierarchical_groups and the hybrid data/context groups name theirs after a group above
    // ("HIERARCHICAL_CONTEXT_PARALLEL_GROUP_L0", "HYBRID_DP_CP_GROUP_4"): parts of a dimension, of no degree.
    if (desc.substr(0, 13) == "HIERARCHICAL_" || desc.substr(0, 16) == "HYBRID_DP_CP_GROUP") return GroupRole::Other;
    return GroupRole::Unnamed;
}

std::string_view toString(GroupRole role)
{
    switch (role) {
    case GroupRole::World: return "world";
    case GroupRole::Tp: return "tp";
    case GroupRole::Pp: return "pp";
    case GroupRole::Dp: return "dp";
    case GroupRole::Cp: return "cp";
    case GroupRole::DpCp: return "dp-cp";
    case GroupRole::Ep: return "ep";
    case GroupRole::Etp: return "etp";
    case GroupRole::Edp: return "edp";
    case GroupRole::TpPp: return "tp-pp";
    case GroupRole::TpDp: return "tp-dp";
    case GroupRole::TpDpCp: return "tp-dp-cp";
    case GroupRole::TpCp: return "tp-cp";
    case GroupRole::EtpEp: return "etp-ep";
    case GroupRole::EtpEpPp: return "etp-ep-pp";
    case GroupRole::Unmodelled: return "unmodelled";
    case GroupRole::Other: return "other";
    case GroupRole::Unnamed: return "unnamed";
    }
    return "unnamed";
}

std::string_view toString(InferredBasis basis)
{
    switch (basis) {
    case InferredBasis::Recorded: return "recorded";
    case InferredBasis::Named: return "named";
    case InferredBasis::Derived: return "derived";
    case InferredBasis::Strides: return "strides";
    }
    return "named";
}

const InferredField* InferredLayout::field(std::string_view name) const
{
    for (const InferredField& f : fields)
        if (f.field == name) return &f;
    return nullptr;
}

InferredLayout inferLayout(const std::vector<MeasuredRank>& ranks, const json* basePlan)
{
    InferredLayout out;

    // What the traces could not read of their groups, by file.
    for (const MeasuredRank& r : ranks)
        for (const Text& t : r.processGroupIssues) out.issues.push_back(Text(PS_TEXT("CoreText", "%1: %2"), r.file, t));

    // The world size: distributedInfo.world_size, which one job's traces share (TraceFiles keeps one job).
    int world = -1, worldTraces = 0;
    for (const MeasuredRank& r : ranks) {
        if (r.worldSize <= 0) continue;
        if (world < 0) world = r.worldSize;
        if (r.worldSize == world) ++worldTraces;
        else
            out.issues.push_back(Text(PS_TEXT("CoreText", "%1: world size %2, where the other traces have %3"), r.file,
                r.worldSize, world));
    }

    // The distinct groups: one per description and member list (or, unlisted, per description, name and size).
    std::map<std::string, std::size_t> index;
    std::vector<GroupRole> leftOut; // roles with a record left out for contradicting itself
    bool anyRecord = false;
    for (const MeasuredRank& r : ranks) {
        for (const ProcessGroupRecord& rec : r.processGroups) {
            anyRecord = true;
            LayoutGroup g;
            g.desc = rec.desc;
            g.role = groupRoleOf(rec.desc);
            const Text where = Text(PS_TEXT("CoreText", "%1 (pg_name \"%2\") in %3"), rec.desc.empty() ? "(no description)" : rec.desc,
                rec.name, r.file);
            if (rec.ranksComplete && rec.size >= 0 && rec.size != std::int64_t(rec.ranks.size())) {
                out.issues.push_back(Text(PS_TEXT("CoreText", "%1: pg_size %2, but its list holds %3; left out"), where,
                    rec.size, rec.ranks.size()));
                leftOut.push_back(g.role);
                continue;
            }
            if (rec.ranksComplete) g.members = rec.ranks;
            const std::int64_t size = rec.size >= 0 ? rec.size : std::int64_t(g.members.size());
            if (size <= 0) continue; // neither a size nor the members: nothing to read
            g.size = int(std::min<std::int64_t>(size, INT32_MAX));
            if (world > 0 && g.size > world) {
                out.issues.push_back(Text(PS_TEXT("CoreText", "%1: %2 ranks, more than the world's %3; left out"), where, g.size, world));
                leftOut.push_back(g.role);
                continue;
            }
            if (!g.members.empty()) {
                // Evenly spaced members (most groups) are checked without sorting them.
                g.stride = strideOf(g.members);
                std::vector<int> sorted;
                if (g.stride == 0) {
                    sorted = g.members;
                    std::sort(sorted.begin(), sorted.end());
                }
                const int last = g.stride > 0 ? g.members.back() : sorted.back();
                if (world > 0 && last >= world) {
                    out.issues.push_back(Text(PS_TEXT("CoreText", "%1: rank %2 is outside the world of %3 ranks; left out"),
                        where, last, world));
                    leftOut.push_back(g.role);
                    continue;
                }
                const auto twice = std::adjacent_find(sorted.begin(), sorted.end());
                if (twice != sorted.end()) {
                    out.issues.push_back(Text(PS_TEXT("CoreText", "%1: rank %2 is listed twice; left out"), where, *twice));
                    leftOut.push_back(g.role);
                    continue;
                }
                // torch.distributed keeps only the groups a rank belongs to (pg_map), and an event's group is one the
                // rank took part in: a trace's own groups hold its rank.
                const bool holdsOwn = r.rank < 0
                    || (g.stride > 0 ? r.rank >= g.members.front() && r.rank <= last && (r.rank - g.members.front()) % g.stride == 0
                                     : std::binary_search(sorted.begin(), sorted.end(), r.rank));
                if (!holdsOwn) {
                    out.issues.push_back(Text(PS_TEXT("CoreText", "%1: %2 does not hold the trace's own rank %3; left out"),
                        where, membersText(g.members), r.rank));
                    leftOut.push_back(g.role);
                    continue;
                }
            }
            // The _GLOO twin of a group has its ranks: one group of its role.
            std::string key = (g.role == GroupRole::Other || g.role == GroupRole::Unnamed ? g.desc : std::string(toString(g.role))) + '\0';
            if (g.members.empty())
                key += "#" + rec.name + " " + std::to_string(g.size);
            else if (g.stride > 0) // evenly spaced (the default group of 16,384 ranks too): three numbers say it
                key += std::to_string(g.members.front()) + "+" + std::to_string(g.stride) + "x" + std::to_string(g.size);
            else
                for (int m : g.members) key += std::to_string(m) + ",";
            auto [it, added] = index.try_emplace(key, out.groups.size());
            if (added) out.groups.push_back(std::move(g));
            ++out.groups[it->second].traces;
        }
    }
    std::stable_sort(out.groups.begin(), out.groups.end(), [](const LayoutGroup& a, const LayoutGroup& b) {
        if (a.role != b.role) return a.role < b.role;
        if (a.members.empty() != b.members.empty()) return b.members.empty();
        return a.members < b.members;
    });

    // Per role: sizes, strides, and no rank in two groups of one role (the groups of a kind partition the world).
    std::map<GroupRole, RoleSummary> roles;
    std::map<GroupRole, bool> overlapping;
    {
        std::map<GroupRole, std::unordered_map<int, std::size_t>> owner;
        for (std::size_t i = 0; i < out.groups.size(); ++i) {
            const LayoutGroup& g = out.groups[i];
            RoleSummary& s = roles[g.role];
            ++s.groups;
            addDistinct(s.sizes, g.size);
            if (g.members.empty()) continue;
            ++s.listed;
            if (g.members.size() > 1) {
                if (g.stride > 0) addDistinct(s.strides, g.stride);
                else s.uneven = true;
            }
            if (g.role == GroupRole::Other || g.role == GroupRole::Unnamed || overlapping[g.role]) continue;
            auto& own = owner[g.role];
            for (int m : g.members) {
                auto [at, added] = own.try_emplace(m, i);
                if (added) continue;
                out.issues.push_back(Text(PS_TEXT("CoreText", "rank %1 is in two %2 groups: %3 and %4"), m, g.desc,
                    membersText(out.groups[at->second].members), membersText(g.members)));
                overlapping[g.role] = true;
                break;
            }
        }
    }
    const auto roleSize = [&](GroupRole role) -> std::optional<int> {
        auto it = roles.find(role);
        if (it == roles.end() || overlapping[role]) return std::nullopt;
        return it->second.size();
    };
    std::map<std::string, Text> conflict; // fields left out because their records disagree, with the reason
    for (const auto& [role, s] : roles) {
        if (s.sizes.size() < 2 || role == GroupRole::Other || role == GroupRole::Unnamed) continue;
        out.issues.push_back(Text(PS_TEXT("CoreText", "%1: groups of %2 and of %3 ranks"), descOf(role), s.sizes.front(), s.sizes.back()));
    }

    // The world: distributedInfo, else the default group.
    std::optional<int> worldFromGroup = roleSize(GroupRole::World);
    if (world > 0 && worldFromGroup && *worldFromGroup != world)
        out.issues.push_back(Text(PS_TEXT("CoreText", "default_pg has %1 ranks, but the world size is %2"), *worldFromGroup, world));
    std::map<std::string, InferredField> found;
    if (world > 0) {
        found["gpus"] = InferredField { "gpus", world, {}, InferredBasis::Recorded,
            Text(PS_TEXT("CoreText", "distributedInfo.world_size (%1 of %2 traces)"), worldTraces, ranks.size()) };
    } else if (worldFromGroup) {
        world = *worldFromGroup;
        found["gpus"] = InferredField { "gpus", world, {}, InferredBasis::Recorded,
            Text(PS_TEXT("CoreText", "default_pg: a group of %1 ranks"), world) };
    }
    out.worldSize = world;

    // Degrees named by their groups.
    const auto named = [&](const char* field) {
        const GroupRole role = namingRole(field);
        const auto size = roleSize(role);
        if (!size) return;
        found[field] = InferredField { field, *size, {}, InferredBasis::Named,
            Text(PS_TEXT("CoreText", "%1: groups of %2 (%3 recorded)"), descOf(role), *size, roles[role].groups) };
    };
    for (const char* f : { "tp", "pp", "dp", "cp", "ep", "etp", "edp" }) named(f);
    const auto has = [&](const char* f) { return found.count(f) > 0; };
    const auto val = [&](const char* f) { return found.at(f).value; };

    // Derived degrees: a group of several dimensions over the known ones, or the world over the other three.
    struct Split {
        GroupRole role;
        const char* field;
        std::vector<const char*> others;
    };
    const std::vector<Split> splits {
        { GroupRole::DpCp, "dp", { "cp" } }, { GroupRole::DpCp, "cp", { "dp" } },
        { GroupRole::TpPp, "tp", { "pp" } }, { GroupRole::TpPp, "pp", { "tp" } },
        { GroupRole::TpCp, "tp", { "cp" } }, { GroupRole::TpCp, "cp", { "tp" } },
        { GroupRole::TpDp, "tp", { "dp" } }, { GroupRole::TpDp, "dp", { "tp" } },
        { GroupRole::TpDpCp, "dp", { "tp", "cp" } }, { GroupRole::TpDpCp, "cp", { "tp", "dp" } },
        { GroupRole::TpDpCp, "tp", { "dp", "cp" } },
        { GroupRole::EtpEp, "ep", { "etp" } }, { GroupRole::EtpEp, "etp", { "ep" } },
        { GroupRole::EtpEpPp, "ep", { "etp", "pp" } }, { GroupRole::EtpEpPp, "etp", { "ep", "pp" } },
    };
    for (bool changed = true; changed;) {
        changed = false;
        for (const Split& s : splits) {
            const auto size = roleSize(s.role);
            if (has(s.field) || !size) continue;
            if (!std::all_of(s.others.begin(), s.others.end(), has)) continue;
            long long product = 1;
            std::string over;
            for (const char* o : s.others) {
                product = times(product, val(o));
                over += (over.empty() ? "" : " x ") + std::string(o) + " " + std::to_string(val(o));
            }
            if (*size % product != 0) continue; // named as a contradiction below
            found[s.field] = InferredField { s.field, int(*size / product), {}, InferredBasis::Derived,
                Text(PS_TEXT("CoreText", "%1: groups of %2, over %3"), descOf(s.role), *size, over) };
            changed = true;
        }
        // tp x pp x dp x cp is the world (Megatron-Core derives dp so); etp x ep x expert dp x pp is too.
        for (const std::array<const char*, 4>& product : { std::array<const char*, 4> { "tp", "pp", "dp", "cp" },
                 std::array<const char*, 4> { "etp", "ep", "edp", "pp" } }) {
            if (world <= 0) break;
            const auto missing = std::count_if(product.begin(), product.end(), [&](const char* f) { return !has(f); });
            if (missing != 1) continue;
            const char* field = *std::find_if(product.begin(), product.end(), [&](const char* f) { return !has(f); });
            long long others = 1;
            std::string over;
            for (const char* f : product) {
                if (f == field) continue;
                others = times(others, val(f));
                over += (over.empty() ? "" : " x ") + std::string(f) + " " + std::to_string(val(f));
            }
            if (others <= 0 || world % others != 0) continue;
            found[field] = InferredField { field, int(world / others), {}, InferredBasis::Derived,
                Text(PS_TEXT("CoreText", "the world of %1 ranks over %2"), world, over) };
            changed = true;
        }
    }

    // Checks: every group of several dimensions against its parts, and the products against the world. Fields whose
    // records disagree are left out, named in the issues.
    const Text disagree(PS_TEXT("CoreText", "its groups disagree with each other or with the world size"));
    const auto product = [&](const std::vector<const char*>& fields, std::string& words) {
        long long n = 1;
        for (const char* f : fields) {
            n = times(n, val(f));
            words += (words.empty() ? "" : " x ") + std::string(f) + " " + std::to_string(val(f));
        }
        return n;
    };
    for (const Split& s : splits) {
        const auto size = roleSize(s.role);
        std::vector<const char*> fields = s.others;
        fields.insert(fields.begin(), s.field);
        if (!size || !std::all_of(fields.begin(), fields.end(), has)) continue;
        std::string words;
        const long long n = product(fields, words);
        if (n == *size) continue;
        out.issues.push_back(Text(PS_TEXT("CoreText", "%1 has %2 ranks, but %3 = %4"), descOf(s.role), *size, words, n));
        for (const char* f : fields) conflict.emplace(f, disagree);
    }
    if (world > 0) {
        // tp x pp x dp x cp is the world (initialize_model_parallel: data_parallel_size = world / model_size), and so is
        // the expert grid (expert_data_parallel_size = world / (etp x ep x pp)).
        for (const std::vector<const char*>& fields : { std::vector<const char*> { "tp", "pp", "dp", "cp" },
                 std::vector<const char*> { "etp", "ep", "edp", "pp" } }) {
            std::vector<const char*> known;
            std::copy_if(fields.begin(), fields.end(), std::back_inserter(known), has);
            if (known.empty()) continue;
            std::string words;
            const long long n = product(known, words);
            if (known.size() == fields.size() ? n == world : world % n == 0) continue;
            if (known.size() == fields.size())
                out.issues.push_back(Text(PS_TEXT("CoreText", "%1 = %2, but the world has %3 ranks"), words, n, world));
            else
                out.issues.push_back(Text(PS_TEXT("CoreText", "%1 = %2, which does not divide the world of %3 ranks"), words, n, world));
            for (const char* f : known) conflict.emplace(f, disagree);
        }
    }
    if (const auto gtp = roleSize(GroupRole::Unmodelled); gtp && *gtp > 1)
        out.issues.push_back(Text(PS_TEXT("CoreText", "GTP_WEIGHT_REMAT_GROUP has %1 ranks: weights sharded over a dimension PlanScope does not model"), *gtp));
    for (const char* f : { "tp", "pp", "dp", "cp", "ep", "etp", "edp" }) {
        const GroupRole role = namingRole(f);
        if (const auto it = roles.find(role); it != roles.end() && (it->second.sizes.size() > 1 || overlapping[role]))
            conflict.emplace(f, disagree);
    }
    for (const auto& [field, why] : conflict) found.erase(field);

    // The order. Each dimension's stride is the product of the degrees before it, so the dimensions of more than one
    // rank sorted by the stride of their groups are in the order's sequence; the dense groups (tp, cp, dp, pp) order
    // those, the expert groups (etp, ep, expert dp, pp) place ep. Of the orders that agree, the one nearest
    // Megatron-Core's default "tp-cp-ep-dp-pp".
    struct ChainDim {
        Axis dim;
        const char* field;
        std::vector<GroupRole> roles; // read from the first with listed members
    };
    // The reason where the dimensions' strides give no order; else their order pairs and words are added.
    const auto chain = [&](const std::vector<ChainDim>& dims, std::vector<std::pair<Axis, Axis>>& before,
                           std::string& words) -> std::optional<Text> {
        struct Strided {
            int stride, degree;
            Axis dim;
            const char* field;
            std::string_view desc;
        };
        std::vector<Strided> strided;
        std::string local;
        for (const ChainDim& c : dims) {
            const int degree = has(c.field) ? val(c.field) : 0;
            if (degree <= 1) continue;
            const RoleSummary* s = nullptr;
            GroupRole used = c.roles.front();
            for (GroupRole r : c.roles)
                if (const auto it = roles.find(r); it != roles.end() && it->second.listed > 0 && !overlapping[r]) {
                    s = &it->second;
                    used = r;
                    break;
                }
            if (!s) return Text(PS_TEXT("CoreText", "no trace lists the members of a %1"), descOf(c.roles.front()));
            if (s->uneven || s->strides.size() != 1)
                return Text(PS_TEXT("CoreText", "the members of the %1 groups are not evenly spaced"), descOf(used));
            strided.push_back(Strided { s->strides.front(), degree, c.dim, c.field, descOf(used) });
        }
        std::stable_sort(strided.begin(), strided.end(), [](const Strided& a, const Strided& b) { return a.stride < b.stride; });
        for (const Strided& d : strided) local += (local.empty() ? "" : "; ") + std::string(d.field) + " " + std::to_string(d.stride);
        long long expected = 1;
        for (const Strided& d : strided) {
            if (d.stride != expected) {
                out.issues.push_back(Text(PS_TEXT("CoreText", "%1: members %2 apart, where the dimensions before it make %3"),
                    d.desc, d.stride, expected));
                return Text(PS_TEXT("CoreText", "the strides of the groups (%1) fit no rank order"), local);
            }
            expected = times(expected, d.degree);
        }
        for (std::size_t k = 1; k < strided.size(); ++k) before.emplace_back(strided[k - 1].dim, strided[k].dim);
        words += (words.empty() || local.empty() ? "" : "; ") + local;
        return std::nullopt;
    };
    std::optional<Text> orderWhy;
    std::string strideWords;
    std::vector<std::pair<Axis, Axis>> before; // (a, b): a varies faster than b
    std::optional<std::array<Axis, kDims>> order;
    const bool cpOne = has("cp") && val("cp") == 1;
    if (!(has("tp") && has("pp") && has("dp") && has("cp"))) {
        orderWhy = Text(PS_TEXT("CoreText", "it needs the degrees of tp, pp, dp and cp"));
    } else if (!(orderWhy = chain({ { TP, "tp", { GroupRole::Tp } }, { CP, "cp", { GroupRole::Cp } },
                     { DP, "dp", cpOne ? std::vector { GroupRole::Dp, GroupRole::DpCp } : std::vector { GroupRole::Dp } },
                     { PP, "pp", { GroupRole::Pp } } },
                     before, strideWords))) {
        // ep's place: from the expert groups where they list their members; else where the default order puts it.
        bool epPlaced = false;
        if (has("ep") && val("ep") > 1 && has("etp") && has("edp")) {
            std::vector<std::pair<Axis, Axis>> expertBefore;
            std::string expertWords;
            if (!chain({ { TP, "etp", { GroupRole::Etp } }, { EP, "ep", { GroupRole::Ep } }, { DP, "edp", { GroupRole::Edp } },
                           { PP, "pp", { GroupRole::Pp } } },
                    expertBefore, expertWords)) {
                before.insert(before.end(), expertBefore.begin(), expertBefore.end());
                strideWords += (strideWords.empty() ? "" : "; ") + expertWords;
                epPlaced = true;
            }
        }
        if (has("ep") && val("ep") > 1 && !epPlaced)
            out.notes.push_back(Text(PS_TEXT("CoreText", "ep's place in the order is not recorded: kept where %1 puts it"), "tp-cp-ep-dp-pp"));
        std::array<Axis, kDims> perm { TP, CP, EP, DP, PP };
        do {
            std::array<int, kDims> pos {};
            for (int i = 0; i < kDims; ++i) pos[perm[i]] = i;
            const bool agrees = std::all_of(before.begin(), before.end(), [&](const auto& c) { return pos[c.first] < pos[c.second]; });
            if (agrees && (!order || inversions(perm) < inversions(*order))) order = perm;
        } while (std::next_permutation(perm.begin(), perm.end()));
        if (!order) orderWhy = Text(PS_TEXT("CoreText", "the strides of the groups (%1) fit no rank order"), strideWords);
    }

    // The order checked against every listed group: the group of its first member, as the order lays the ranks out.
    if (order && world > 0) {
        const std::array<int, kDims> dense { val("tp"), val("cp"), 1, val("dp"), val("pp") };
        const bool expertKnown = has("etp") && has("ep") && has("edp");
        const std::array<int, kDims> expertDegrees { expertKnown ? val("etp") : 1, 1, expertKnown ? val("ep") : 1,
            expertKnown ? val("edp") : 1, val("pp") };
        const Grid denseGrid(dense, *order), expertGrid(expertDegrees, *order);
        bool fits = true;
        for (const LayoutGroup& g : out.groups) {
            bool expert = false;
            const std::vector<Axis> dims = dimsOf(g.role, expert);
            if (dims.empty() || g.members.empty() || (expert && !expertKnown) || overlapping[g.role]) continue;
            const Grid& grid = expert ? expertGrid : denseGrid;
            long long size = 1;
            for (Axis d : dims) size = times(size, grid.degree[d]);
            if (size != g.size) continue; // a size that disagrees is named above
            std::vector<int> sorted = g.members;
            std::sort(sorted.begin(), sorted.end());
            const std::vector<int> expected = grid.group(g.members.front(), dims);
            if (expected == sorted) continue;
            out.issues.push_back(Text(PS_TEXT("CoreText", "%1 is no group of the order %2, which puts rank %3 with %4"),
                groupName(g), orderText(*order), g.members.front(), membersText(expected)));
            fits = false;
        }
        if (!fits) {
            orderWhy = Text(PS_TEXT("CoreText", "the recorded groups fit no rank order PlanScope can write"));
            order.reset();
        }
    }
    if (order) {
        int spread = 0;
        for (const char* f : { "tp", "cp", "dp", "pp" }) spread += val(f) > 1 ? 1 : 0;
        const bool alike = spread <= 1 && !(has("ep") && val("ep") > 1);
        found["order"] = InferredField { "order", 0, orderText(*order), alike ? InferredBasis::Derived : InferredBasis::Strides,
            alike ? Text(PS_TEXT("CoreText", "at most one dimension has more than one rank: every order lays the ranks out alike"))
                  : Text(PS_TEXT("CoreText", "the strides of the groups: %1"), strideWords) };
    }

    // PlanScope's own expert layout (core/cost/RankGrid.h: ep the fastest part of the dp x cp ranks) against the run's.
    if (order && world > 0 && has("ep") && val("ep") > 1 && has("etp")) {
        Plan p;
        p.parallel.tp = val("tp");
        p.parallel.pp = val("pp");
        p.parallel.dp = val("dp");
        p.parallel.cp = val("cp");
        p.parallel.ep = val("ep");
        p.parallel.etp = val("etp");
        p.parallel.order = orderText(*order);
        const RankGrid grid(p);
        for (const LayoutGroup& g : out.groups) {
            if (g.role != GroupRole::Ep || g.members.empty() || g.size != grid.size(GroupKind::EP)) continue;
            std::vector<int> sorted = g.members, mine = grid.members(GroupKind::EP, g.members.front());
            std::sort(sorted.begin(), sorted.end());
            std::sort(mine.begin(), mine.end());
            if (sorted == mine) continue;
            out.notes.push_back(Text(PS_TEXT("CoreText", "the run's %1 is not PlanScope's expert group %2: PlanScope takes ep from the fastest of the dp x cp ranks, and costs the expert-parallel traffic over its own groups"),
                groupName(g), membersText(mine)));
            break;
        }
    }

    // The fields, and the reasons for those not found.
    bool namedAny = false;
    std::vector<std::string> unnamedDescs;
    for (const LayoutGroup& g : out.groups) {
        if (g.role != GroupRole::World && g.role != GroupRole::Unnamed) namedAny = true;
        if (g.role == GroupRole::Unnamed && std::find(unnamedDescs.begin(), unnamedDescs.end(), g.desc) == unnamedDescs.end()
            && unnamedDescs.size() < 3)
            unnamedDescs.push_back(g.desc.empty() ? "(no description)" : g.desc);
    }
    // Unnamed groups: their sizes and strides, the finest first (what they say without names).
    std::string unnamedSplit;
    if (const auto it = roles.find(GroupRole::Unnamed); it != roles.end()) {
        std::vector<std::pair<int, int>> families; // (stride, size) of the evenly spaced unnamed groups
        for (const LayoutGroup& g : out.groups)
            if (g.role == GroupRole::Unnamed && g.stride > 0 && g.size > 1
                && std::find(families.begin(), families.end(), std::pair(g.stride, g.size)) == families.end())
                families.emplace_back(g.stride, g.size);
        std::sort(families.begin(), families.end());
        for (const auto& [stride, size] : families)
            unnamedSplit += (unnamedSplit.empty() ? "" : "; ") + std::to_string(size) + " (stride " + std::to_string(stride) + ")";
    }
    const auto reasonFor = [&](std::string_view field) -> Text {
        if (const auto c = conflict.find(std::string(field)); c != conflict.end()) return c->second;
        if (field == "gpus")
            return Text(PS_TEXT("CoreText", "no trace records its world size (distributedInfo.world_size) or a default group"));
        if (field == "order" && orderWhy) return *orderWhy;
        if (!anyRecord)
            return Text(PS_TEXT("CoreText", "no process group is recorded (distributedInfo.pg_config, or the Process Group args of NCCL events)"));
        if (std::find(leftOut.begin(), leftOut.end(), namingRole(field)) != leftOut.end())
            return Text(PS_TEXT("CoreText", "its %1 records were left out (see the issues)"), descOf(namingRole(field)));
        if (namedAny) return Text(PS_TEXT("CoreText", "no %1 recorded"), descOf(namingRole(field)));
        if (!unnamedDescs.empty())
            return Text(PS_TEXT("CoreText", "the groups carry no Megatron-Core names (%1): %2"),
                Text::join([&] {
                    std::vector<Text> parts;
                    for (const std::string& d : unnamedDescs) parts.push_back(Text::verbatim(d));
                    return parts;
                }(), Text::Joint::List),
                unnamedSplit.empty()
                    ? Text(PS_TEXT("CoreText", "no trace lists evenly spaced members"))
                    : Text(PS_TEXT("CoreText", "their strides split the ranks into %1, and do not say which is which"), unnamedSplit));
        if (roles.count(GroupRole::World))
            return Text(PS_TEXT("CoreText", "only the default group (default_pg) is recorded: the run made no subgroups, so one dimension spans all %1 ranks, and the records do not say which"),
                world > 0 ? std::to_string(world) : std::string("its"));
        return Text(PS_TEXT("CoreText", "no %1 recorded"), descOf(namingRole(field)));
    };
    for (std::string_view f : kLayoutFields) {
        if (auto it = found.find(std::string(f)); it != found.end()) out.fields.push_back(it->second);
        else out.notInferred.push_back(NotInferredField { std::string(f), reasonFor(f) });
    }

    if (basePlan && basePlan->is_object()) out.plan = applyInferredLayout(out, *basePlan, out.notes);
    return out;
}

json applyInferredLayout(const InferredLayout& layout, json plan, std::vector<Text>& notes)
{
    if (!plan.is_object()) return plan;
    if (!plan["parallel"].is_object()) plan["parallel"] = json::object();
    json& parallel = plan["parallel"];
    for (const InferredField& f : layout.fields) {
        if (f.field == "order") parallel["order"] = f.order;
        else if (f.field != "gpus") parallel[f.field] = f.value;
    }
    if (!layout.field("dp") && parallel.contains("dp")) {
        parallel.erase("dp");
        notes.push_back(Text(PS_TEXT("CoreText", "dp is not inferred: the plan's default, GPUs / (tp x pp x cp)")));
    }
    if (const InferredField* gpus = layout.field("gpus")) {
        if (!plan["cluster"].is_object()) plan["cluster"] = json::object();
        json& cluster = plan["cluster"];
        const json& given = cluster.contains("gpusPerNode") ? cluster["gpusPerNode"] : json();
        const int perNode = given.is_number_integer() && given.get<long long>() > 0 && given.get<long long>() <= INT32_MAX
            ? int(given.get<long long>())
            : 8;
        const int world = gpus->value;
        if (world % perNode == 0) {
            cluster["nodes"] = world / perNode;
        } else {
            const int fit = std::gcd(world, perNode);
            cluster["gpusPerNode"] = fit;
            cluster["nodes"] = world / fit;
            notes.push_back(Text(PS_TEXT("CoreText", "the world of %1 ranks is no multiple of %2 GPUs per node: %3 nodes of %4 GPUs"),
                world, perNode, world / fit, fit));
        }
    }
    plan["name"] = plan.value("name", std::string()) + " (layout from traces)";
    return plan;
}

} // namespace planscope
