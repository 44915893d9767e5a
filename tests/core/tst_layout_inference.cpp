// The plan a run's traces imply (core/trace/LayoutInference.h): degrees and rank order from the process groups of the
// synthetic traces in tests/data/process-groups (README.md there says how they were written), each value worked out by
// hand below from the layout they were written with; the process-group records of every hostile shape read or named,
// never a crash; the sample traces' records as Python reads them.
#include "io/PlanJson.h"
#include "trace/LayoutInference.h"
#include "trace/TraceFiles.h"

#include <QObject>
#include <QTest>
#include <algorithm>
#include <nlohmann/json.hpp>
#include <string>

using namespace planscope;
using nlohmann::json;

namespace {

std::string dataDir(const char* name) { return std::string(PLANSCOPE_SOURCE_DIR) + "/tests/data/process-groups/" + name; }

std::vector<MeasuredRank> importFolder(const char* name, std::vector<std::string> files = {})
{
    std::vector<std::string> paths;
    if (files.empty()) paths.push_back(dataDir(name));
    for (const std::string& f : files) paths.push_back(dataDir(name) + "/" + f);
    TraceImport set = importTraces(paths);
    return std::move(set.ranks);
}

// "field=value (basis)" of every inferred field, and "field" of every one not inferred, in order.
std::string summary(const InferredLayout& l)
{
    std::string s;
    for (const InferredField& f : l.fields)
        s += f.field + "=" + (f.field == "order" ? f.order : std::to_string(f.value)) + " (" + std::string(toString(f.basis)) + ") ";
    s += "| not:";
    for (const NotInferredField& f : l.notInferred) s += " " + f.field;
    return s;
}

std::string reason(const InferredLayout& l, const std::string& field)
{
    for (const NotInferredField& f : l.notInferred)
        if (f.field == field) return f.reason.english();
    return "(inferred)";
}

std::string from(const InferredLayout& l, const char* field)
{
    const InferredField* f = l.field(field);
    return f ? f->from.english() : std::string("(not inferred)");
}

// The members of the distinct groups of one role, in the order inferLayout lists them.
std::vector<std::vector<int>> membersOf(const InferredLayout& l, GroupRole role)
{
    std::vector<std::vector<int>> out;
    for (const LayoutGroup& g : l.groups)
        if (g.role == role) out.push_back(g.members);
    return out;
}

// A trace of rank 0 of 4 whose distributedInfo.pg_config is `config` (JSON text).
Result<MeasuredRank> withConfig(const std::string& config)
{
    return importKinetoText(R"({"distributedInfo": {"rank": 0, "world_size": 4, "pg_config": )" + config
            + R"(}, "traceEvents": [{"ph": "X", "cat": "kernel", "name": "k", "ts": 0, "dur": 1}]})",
        "hostile");
}

std::string inQuotes(const std::string& s) { return std::string(1, '"') + s + std::string(1, '"'); }

std::string firstIssue(const Result<MeasuredRank>& r)
{
    if (!r) return "failed: " + r.errors().front().message;
    return r->processGroupIssues.empty() ? std::string("(none)") : r->processGroupIssues.front().english();
}

} // namespace

class TestLayoutInference : public QObject {
    Q_OBJECT
private slots:
    // tp 2 x pp 2 x dp 2 on 8 ranks in the order tp-cp-ep-dp-pp: tp's stride is 1, dp's tp = 2, pp's tp x cp x dp = 4.
    void megatronDefaultOrder()
    {
        const std::vector<MeasuredRank> ranks = importFolder("megatron-tp2-pp2-dp2");
        QCOMPARE(ranks.size(), std::size_t(8));
        // Each rank: the default group and its 19 Megatron-Core groups (the gloo twins included); the NCCL kernel's group
        // is pg_config's tensor group (the same pg_name and description), kept once.
        QCOMPARE(ranks[0].processGroups.size(), std::size_t(20));
        QVERIFY(ranks[0].processGroupIssues.empty());
        const InferredLayout l = inferLayout(ranks);
        QCOMPARE(summary(l), std::string("gpus=8 (recorded) tp=2 (named) pp=2 (named) dp=2 (named) cp=1 (named) ep=1 (named) "
                                         "etp=2 (named) order=tp-cp-ep-dp-pp (strides) | not:"));
        QVERIFY2(l.issues.empty(), l.issues.empty() ? "" : l.issues.front().english().c_str());
        QVERIFY(l.notes.empty());
        QCOMPARE(l.worldSize, 8);
        QCOMPARE(from(l, "gpus"), std::string("distributedInfo.world_size (8 of 8 traces)"));
        QCOMPARE(from(l, "tp"), std::string("TENSOR_MODEL_PARALLEL_GROUP: groups of 2 (4 recorded)"));
        QCOMPARE(from(l, "pp"), std::string("PIPELINE_MODEL_PARALLEL_GROUP: groups of 2 (4 recorded)"));
        QCOMPARE(from(l, "cp"), std::string("CONTEXT_PARALLEL_GROUP: groups of 1 (8 recorded)"));
        QCOMPARE(from(l, "order"), std::string("the strides of the groups: tp 1; dp 2; pp 4"));
        // The groups, each once however many traces record it.
        QVERIFY(membersOf(l, GroupRole::Tp) == (std::vector<std::vector<int>> { { 0, 1 }, { 2, 3 }, { 4, 5 }, { 6, 7 } }));
        QVERIFY(membersOf(l, GroupRole::Dp) == (std::vector<std::vector<int>> { { 0, 2 }, { 1, 3 }, { 4, 6 }, { 5, 7 } }));
        QVERIFY(membersOf(l, GroupRole::Pp) == (std::vector<std::vector<int>> { { 0, 4 }, { 1, 5 }, { 2, 6 }, { 3, 7 } }));
        QVERIFY(membersOf(l, GroupRole::TpPp) == (std::vector<std::vector<int>> { { 0, 1, 4, 5 }, { 2, 3, 6, 7 } }));
        for (const LayoutGroup& g : l.groups) {
            if (g.role == GroupRole::Tp) QCOMPARE(g.traces, 2); // both members' traces
            if (g.role == GroupRole::Dp) QCOMPARE(g.traces, 4); // DATA_PARALLEL_GROUP and its _GLOO twin, in 2 traces each
            if (g.role == GroupRole::World) QCOMPARE(g.traces, 8);
        }
        QVERIFY(l.plan.is_null());
    }

    // tp 2 x cp 2 x pp 2 x dp 2 on 16 ranks in the order tp-cp-ep-pp-dp, experts over etp 2 x ep 2 (expert dp
    // 16 / (2 x 2 x 2) = 2): strides tp 1, cp 2, pp 4, dp 8; in the expert grid etp 1, ep 2, pp 4, expert dp 8. Both
    // tp-cp-ep-pp-dp and tp-ep-cp-pp-dp agree; the first is one swap from the default, the second two.
    void megatronPipelineFasterThanData()
    {
        const std::vector<MeasuredRank> ranks = importFolder("megatron-tp2-cp2-pp2-dp2-ep2-ppfirst");
        QCOMPARE(ranks.size(), std::size_t(16));
        const InferredLayout l = inferLayout(ranks);
        QCOMPARE(summary(l), std::string("gpus=16 (recorded) tp=2 (named) pp=2 (named) dp=2 (named) cp=2 (named) ep=2 (named) "
                                         "etp=2 (named) order=tp-cp-ep-pp-dp (strides) | not:"));
        QVERIFY2(l.issues.empty(), l.issues.empty() ? "" : l.issues.front().english().c_str());
        QCOMPARE(from(l, "order"), std::string("the strides of the groups: tp 1; cp 2; pp 4; dp 8; etp 1; ep 2; pp 4; edp 8"));
        QVERIFY(membersOf(l, GroupRole::DpCp).front() == (std::vector<int> { 0, 2, 8, 10 }));
        QVERIFY(membersOf(l, GroupRole::Ep).front() == (std::vector<int> { 0, 2 }));
        // PlanScope lays the expert groups out as the run did (ep the fastest part of dp x cp): no note.
        QVERIFY(l.notes.empty());
    }

    // One rank's trace holds one group of each kind: enough for the degrees and the order. Rank 5 is tp 1, dp 0, pp 1.
    void oneTraceSuffices()
    {
        const InferredLayout l = inferLayout(importFolder("megatron-tp2-pp2-dp2", { "rank5.json" }));
        QCOMPARE(summary(l), std::string("gpus=8 (recorded) tp=2 (named) pp=2 (named) dp=2 (named) cp=1 (named) ep=1 (named) "
                                         "etp=2 (named) order=tp-cp-ep-dp-pp (strides) | not:"));
        QCOMPARE(from(l, "gpus"), std::string("distributedInfo.world_size (1 of 1 traces)"));
        QVERIFY(membersOf(l, GroupRole::Tp) == (std::vector<std::vector<int>> { { 4, 5 } }));
        QVERIFY(membersOf(l, GroupRole::Dp) == (std::vector<std::vector<int>> { { 5, 7 } }));
        QVERIFY(membersOf(l, GroupRole::Pp) == (std::vector<std::vector<int>> { { 1, 5 } }));
    }

    // Plain DDP records the default group alone: the world, and nothing of its split.
    void defaultGroupOnly()
    {
        const InferredLayout l = inferLayout(importFolder("default-pg-only"));
        QCOMPARE(summary(l), std::string("gpus=2 (recorded) | not: tp pp dp cp ep etp order"));
        QCOMPARE(reason(l, "tp"), std::string("only the default group (default_pg) is recorded: the run made no subgroups, so one "
                                              "dimension spans all 2 ranks, and the records do not say which"));
        QCOMPARE(reason(l, "ep"), reason(l, "tp"));
        QCOMPARE(reason(l, "order"), std::string("it needs the degrees of tp, pp, dp and cp"));
        QVERIFY(l.issues.empty());
    }

    // Groups without descriptions: their sizes and strides, not which dimension each is.
    void unnamedGroups()
    {
        const InferredLayout l = inferLayout(importFolder("unnamed-tp2-dp2"));
        QCOMPARE(summary(l), std::string("gpus=4 (recorded) | not: tp pp dp cp ep etp order"));
        QCOMPARE(reason(l, "tp"), std::string("the groups carry no Megatron-Core names (undefined): their strides split the ranks "
                                              "into 2 (stride 1); 2 (stride 2), and do not say which is which"));
        QVERIFY(membersOf(l, GroupRole::Unnamed) == (std::vector<std::vector<int>> { { 0, 1 }, { 0, 2 }, { 1, 3 }, { 2, 3 } }));
    }

    // Records that contradict each other are named; the fields they would give are left out.
    void inconsistentRecords()
    {
        const std::vector<MeasuredRank> ranks = importFolder("inconsistent");
        QCOMPARE(ranks.size(), std::size_t(4));
        const InferredLayout l = inferLayout(ranks);
        QCOMPARE(summary(l), std::string("gpus=4 (recorded) | not: tp pp dp cp ep etp order"));
        std::vector<std::string> issues = englishLines(l.issues);
        const std::string dir = dataDir("inconsistent");
        std::vector<std::string> expected;
        for (int r = 0; r < 4; ++r)
            expected.push_back("CONTEXT_PARALLEL_GROUP (pg_name \"4\") in " + dir + "/rank" + std::to_string(r)
                + ".json: pg_size 2, but its list holds 1; left out");
        expected.insert(expected.begin() + 3, "TENSOR_MODEL_PARALLEL_GROUP (pg_name \"2\") in " + dir
                + "/rank3.json: [0, 1] does not hold the trace's own rank 3; left out");
        expected.push_back("tp 2 x pp 4 x dp 2 = 16, which does not divide the world of 4 ranks");
        QCOMPARE(issues, expected);
        for (const char* f : { "tp", "pp", "dp" })
            QCOMPARE(reason(l, f), std::string("its groups disagree with each other or with the world size"));
        QCOMPARE(reason(l, "cp"), std::string("its CONTEXT_PARALLEL_GROUP records were left out (see the issues)"));
        QCOMPARE(reason(l, "ep"), std::string("no EXPERT_MODEL_PARALLEL_GROUP recorded"));
    }

    // Without pg_config, the groups the NCCL events name; a member list cut after 30 ranks is completed from
    // "Global rank start" and "Global rank stride" (0 + 2i for 64 members: 0, 2, ..., 126).
    void groupsFromEventArgs()
    {
        std::string cut = "[";
        for (int i = 0; i < 30; ++i) cut += std::to_string(2 * i) + ", ";
        cut += "...]";
        const std::string text = R"({"distributedInfo": {"rank": 0, "world_size": 128}, "traceEvents": [
            {"ph": "X", "cat": "kernel", "name": "ncclDevKernel_AllReduce_Sum_bf16_RING_LL", "ts": 0, "dur": 5,
             "args": {"Process Group Name": "5", "Process Group Description": "TENSOR_MODEL_PARALLEL_GROUP",
                      "Process Group Ranks": "[0, 1]", "Group size": 2, "Global rank start": 0, "Global rank stride": 1}},
            {"ph": "X", "cat": "cpu_op", "name": "record_param_comms", "ts": 0, "dur": 5,
             "args": {"Process Group Name": "5", "Process Group Description": "TENSOR_MODEL_PARALLEL_GROUP",
                      "Process Group Ranks": "[0, 1]", "Group size": 2}},
            {"ph": "X", "cat": "kernel", "name": "ncclDevKernel_ReduceScatter_Sum_f32_RING_LL", "ts": 9, "dur": 5,
             "args": {"Process Group Name": "9", "Process Group Description": "DATA_PARALLEL_GROUP",
                      "Process Group Ranks": )" + inQuotes(cut) + R"(, "Group size": 64, "Global rank start": 0, "Global rank stride": 2}}]})";
        auto r = importKinetoText(text, "events");
        QVERIFY(r.ok());
        QCOMPARE(r->processGroups.size(), std::size_t(2));
        const ProcessGroupRecord& tp = r->processGroups[0];
        QVERIFY(tp.source == ProcessGroupRecord::Source::Event);
        QCOMPARE(tp.desc, std::string("TENSOR_MODEL_PARALLEL_GROUP"));
        QVERIFY(tp.ranks == (std::vector<int> { 0, 1 }) && tp.ranksComplete);
        const ProcessGroupRecord& dp = r->processGroups[1];
        QCOMPARE(dp.ranks.size(), std::size_t(64));
        QVERIFY(dp.ranksComplete);
        QCOMPARE(dp.ranks.back(), 126);
        const InferredLayout l = inferLayout({ r.value() });
        QCOMPARE(summary(l), std::string("gpus=128 (recorded) tp=2 (named) dp=64 (named) | not: pp cp ep etp order"));
        QCOMPARE(reason(l, "pp"), std::string("no PIPELINE_MODEL_PARALLEL_GROUP recorded"));

        // A cut list whose stride is not recorded stays cut: the group's size still counts, its members do not.
        const std::string noStride = R"({"distributedInfo": {"rank": 0, "world_size": 128}, "traceEvents": [
            {"ph": "X", "cat": "kernel", "name": "ncclDevKernel_AllReduce_Sum_f32_RING_LL", "ts": 0, "dur": 5,
             "args": {"Process Group Name": "9", "Process Group Description": "DATA_PARALLEL_GROUP",
                      "Process Group Ranks": )" + inQuotes(cut) + R"(, "Group size": 64}}]})";
        auto c = importKinetoText(noStride, "cut");
        QVERIFY(c.ok());
        QCOMPARE(c->processGroups.size(), std::size_t(1));
        QCOMPARE(c->processGroups[0].ranks.size(), std::size_t(30));
        QVERIFY(!c->processGroups[0].ranksComplete);
        QCOMPARE(inferLayout({ c.value() }).field("dp")->value, 64);
    }

    // pg_config entries of every wrong shape: the trace imports, each bad field is named by its path, the rest is kept.
    void hostileRecordsAreNamed()
    {
        QCOMPARE(firstIssue(withConfig(R"({"pg_name": "0"})")), std::string("distributedInfo.pg_config: must be an array, found object"));
        QCOMPARE(firstIssue(withConfig(R"("[0, 1]")")), std::string("distributedInfo.pg_config: must be an array, found string"));
        auto r = withConfig(R"([7, {"pg_name": "1", "pg_desc": "TENSOR_MODEL_PARALLEL_GROUP", "pg_size": 2, "ranks": [0, 1]}])");
        QCOMPARE(firstIssue(r), std::string("distributedInfo.pg_config[0]: must be an object, found number"));
        QCOMPARE(r->processGroups.size(), std::size_t(1));
        QVERIFY(r->processGroups[0].ranks == (std::vector<int> { 0, 1 }));
        QCOMPARE(firstIssue(withConfig(R"([{"pg_name": 3}])")), std::string("distributedInfo.pg_config[0].pg_name: must be a string, found number"));
        QCOMPARE(firstIssue(withConfig(R"([{"pg_desc": ["x"]}])")), std::string("distributedInfo.pg_config[0].pg_desc: must be a string, found array"));
        QCOMPARE(firstIssue(withConfig(R"([{"pg_size": "2"}])")), std::string("distributedInfo.pg_config[0].pg_size: must be an integer, found string"));
        QCOMPARE(firstIssue(withConfig(R"([{"pg_size": -3}])")),
            std::string("distributedInfo.pg_config[0].pg_size: must be between 0 and 2147483647, found -3"));
        QCOMPARE(firstIssue(withConfig(R"([{"pg_size": 2.5}])")),
            std::string("distributedInfo.pg_config[0].pg_size: must be between 0 and 2147483647, found 2.5"));
        QCOMPARE(firstIssue(withConfig(R"([{"pg_size": 99999999999999999999999}])")),
            std::string("distributedInfo.pg_config[0].pg_size: must be between 0 and 2147483647, found 99999999999999999999999"));
        QCOMPARE(firstIssue(withConfig(R"([{"ranks": null}])")), std::string("distributedInfo.pg_config[0].ranks: must be an array, found null"));
        r = withConfig(R"([{"ranks": [0, "1", 2]}])");
        QCOMPARE(firstIssue(r), std::string("distributedInfo.pg_config[0].ranks[1]: must be an integer, found string"));
        QVERIFY(r->processGroups[0].ranks.empty() && !r->processGroups[0].ranksComplete);
        QCOMPARE(firstIssue(withConfig(R"([{"ranks": [0, -1]}])")),
            std::string("distributedInfo.pg_config[0].ranks[1]: must be between 0 and 2147483647, found -1"));
        QCOMPARE(firstIssue(withConfig(R"([{"ranks": [4294967296]}])")),
            std::string("distributedInfo.pg_config[0].ranks[0]: must be between 0 and 2147483647, found 4294967296"));
        QCOMPARE(firstIssue(withConfig(R"([{"ranks": "zero and one"}])")),
            std::string("distributedInfo.pg_config[0].ranks: \"zero and one\" is no list of ranks"));
        // Quoted in the message up to 64 bytes, cut where a UTF-8 character starts: "x" and 31 of the 40 two-byte "é".
        std::string accents;
        for (int i = 0; i < 40; ++i) accents += "\xc3\xa9";
        std::string kept;
        for (int i = 0; i < 31; ++i) kept += "\xc3\xa9";
        QCOMPARE(firstIssue(withConfig("[{\"ranks\": \"x" + accents + "\"}]")),
            "distributedInfo.pg_config[0].ranks: \"x" + kept + "\" is no list of ranks");
        // The members as text, cut as the event args cut them: the first ones kept, the list marked incomplete.
        r = withConfig(R"([{"ranks": "[0, 1, ...]", "pg_size": 64}])");
        QCOMPARE(firstIssue(r), std::string("(none)"));
        QVERIFY(r->processGroups[0].ranks == (std::vector<int> { 0, 1 }) && !r->processGroups[0].ranksComplete);
        // Nested a hundred thousand deep where a rank should be: skipped without recursion, named.
        const std::string deep = std::string(100000, '[') + std::string(100000, ']');
        QCOMPARE(firstIssue(withConfig(R"([{"ranks": [)" + deep + "]}]")),
            std::string("distributedInfo.pg_config[0].ranks[0]: must be an integer, found array"));
        // More entries than kMaxProcessGroups: the first 4096 kept, the rest named once.
        std::string many = "[";
        for (std::size_t i = 0; i <= kMaxProcessGroups; ++i) many += (i ? ",{}" : "{}");
        r = withConfig(many + "]");
        QCOMPARE(firstIssue(r), std::string("distributedInfo.pg_config: more than 4096 process groups; the rest are not read"));
        QCOMPARE(r->processGroupIssues.size(), std::size_t(1));
        QCOMPARE(r->processGroups.size(), kMaxProcessGroups);
        // A list of more ranks than kMaxGroupRanks (4,194,304) is named and not kept; the entry's other fields are.
        std::string huge = R"([{"pg_desc": "DATA_PARALLEL_GROUP", "ranks": [)";
        huge.reserve(huge.size() + 2 * (kMaxGroupRanks + 1) + 8);
        for (std::size_t i = 0; i <= kMaxGroupRanks; ++i) huge += i ? ",0" : "0";
        r = withConfig(huge + "]}]");
        QCOMPARE(firstIssue(r), std::string("distributedInfo.pg_config[0].ranks: over 4194304 ranks in the trace's process groups; this list is not kept"));
        QCOMPARE(r->processGroups[0].desc, std::string("DATA_PARALLEL_GROUP"));
        QVERIFY(r->processGroups[0].ranks.empty() && !r->processGroups[0].ranksComplete);

        // Sizes and members that disagree with each other or the world are left out of the inference, by name.
        r = withConfig(R"([{"pg_name": "1", "pg_desc": "TENSOR_MODEL_PARALLEL_GROUP", "pg_size": 4, "ranks": [0, 1]},
                           {"pg_name": "2", "pg_desc": "DATA_PARALLEL_GROUP", "pg_size": 2, "ranks": [0, 9]},
                           {"pg_name": "3", "pg_desc": "PIPELINE_MODEL_PARALLEL_GROUP", "pg_size": 2, "ranks": [0, 0]},
                           {"pg_name": "4", "pg_desc": "CONTEXT_PARALLEL_GROUP", "pg_size": 9}])");
        QVERIFY(r.ok());
        const InferredLayout l = inferLayout({ r.value() });
        QVERIFY(englishLines(l.issues) == (std::vector<std::string> {
            "TENSOR_MODEL_PARALLEL_GROUP (pg_name \"1\") in hostile: pg_size 4, but its list holds 2; left out",
            "DATA_PARALLEL_GROUP (pg_name \"2\") in hostile: rank 9 is outside the world of 4 ranks; left out",
            "PIPELINE_MODEL_PARALLEL_GROUP (pg_name \"3\") in hostile: rank 0 is listed twice; left out",
            "CONTEXT_PARALLEL_GROUP (pg_name \"4\") in hostile: 9 ranks, more than the world's 4; left out" }));
        QCOMPARE(summary(l), std::string("gpus=4 (recorded) | not: tp pp dp cp ep etp order"));

        // The parse errors of the records travel with the inference, by file.
        const InferredLayout named = inferLayout({ withConfig(R"([{"pg_size": "2"}])").value() });
        QCOMPARE(named.issues.front().english(), std::string("hostile: distributedInfo.pg_config[0].pg_size: must be an integer, found string"));
    }

    // The sample traces, as Python's json reads them: nccl_data.json.gz records the default group [0, 1] in pg_config
    // (and in its NCCL events' args, the same group); the others record none.
    void sampleTraces()
    {
        const std::string dir = std::string(PLANSCOPE_SAMPLES_DIR) + "/traces/";
        auto r = importKinetoTrace(dir + "nccl_data.json.gz");
        QVERIFY(r.ok());
        QCOMPARE(r->processGroups.size(), std::size_t(1));
        const ProcessGroupRecord& g = r->processGroups[0];
        QVERIFY(g.source == ProcessGroupRecord::Source::Config);
        QCOMPARE(g.name, std::string("0"));
        QCOMPARE(g.desc, std::string("default_pg"));
        QCOMPARE(g.backend, std::string("cuda:nccl"));
        QCOMPARE(g.size, std::int64_t(2));
        QVERIFY(g.ranks == (std::vector<int> { 0, 1 }) && g.ranksComplete);
        QVERIFY(r->processGroupIssues.empty());
        const InferredLayout l = inferLayout({ r.value() });
        QCOMPARE(summary(l), std::string("gpus=2 (recorded) | not: tp pp dp cp ep etp order"));

        auto sampled = importKinetoTrace(dir + "sampled_rank-0.json.gz");
        QVERIFY(sampled.ok());
        QVERIFY(sampled->processGroups.empty() && sampled->processGroupIssues.empty());
        const InferredLayout none = inferLayout({ sampled.value() });
        QCOMPARE(summary(none), std::string("gpus=128 (recorded) | not: tp pp dp cp ep etp order"));
        QCOMPARE(reason(none, "tp"),
            std::string("no process group is recorded (distributedInfo.pg_config, or the Process Group args of NCCL events)"));
    }

    // Over a base plan: the inferred fields written in, the world as nodes of the base's GPUs per node, and the plan
    // reads back. The default sample plan has 2 nodes of 8 GPUs with tp 2, pp 4, dp 2.
    void appliedToABasePlan()
    {
        auto text = readTextFile(std::string(PLANSCOPE_SAMPLES_DIR) + "/plans/default.plan.json");
        QVERIFY(text.ok());
        const json base = json::parse(text.value());
        const InferredLayout l = inferLayout(importFolder("megatron-tp2-pp2-dp2"), &base);
        QVERIFY(l.plan.is_object());
        const json& p = l.plan.at("parallel");
        QCOMPARE(p.at("tp").get<int>(), 2);
        QCOMPARE(p.at("pp").get<int>(), 2);
        QCOMPARE(p.at("dp").get<int>(), 2);
        QCOMPARE(p.at("cp").get<int>(), 1);
        QCOMPARE(p.at("ep").get<int>(), 1);
        QCOMPARE(p.at("etp").get<int>(), 2);
        QCOMPARE(p.at("order").get<std::string>(), std::string("tp-cp-ep-dp-pp"));
        QCOMPARE(l.plan.at("cluster").at("nodes").get<int>(), 1);
        QCOMPARE(l.plan.at("cluster").at("gpusPerNode").get<int>(), 8);
        QCOMPARE(l.plan.at("name").get<std::string>(), base.value("name", std::string()) + " (layout from traces)");
        QVERIFY(base.at("model") == l.plan.at("model"));
        auto parsed = planFromJson(l.plan);
        QVERIFY(parsed.ok());
        QCOMPARE(parsed->plan.cluster.gpus(), 8);

        // Only the world: the base's dp is dropped for the plan's default, and a world of 12 on nodes of 8 becomes 3
        // nodes of 4 (the greatest common divisor), each said in a note.
        InferredLayout world;
        world.fields.push_back(InferredField { "gpus", 12, {}, InferredBasis::Recorded, Text::verbatim("test") });
        std::vector<Text> notes;
        const json applied = applyInferredLayout(world, base, notes);
        QVERIFY(!applied.at("parallel").contains("dp"));
        QCOMPARE(applied.at("cluster").at("nodes").get<int>(), 3);
        QCOMPARE(applied.at("cluster").at("gpusPerNode").get<int>(), 4);
        QVERIFY(englishLines(notes) == (std::vector<std::string> {
            "dp is not inferred: the plan's default, GPUs / (tp x pp x cp)",
            "the world of 12 ranks is no multiple of 8 GPUs per node: 3 nodes of 4 GPUs" }));
    }

    // ep after dp in the order (tp-cp-dp-ep-pp): Megatron-Core's expert grid puts ep's members 4 apart (expert dp
    // 8 / 2 = 4 before it), where PlanScope takes ep from the fastest dp ranks ([0, 1]): the order says it, a note names
    // the difference. Rank 0's groups of tp 1, pp 1, dp 8, ep 2, etp 1.
    void expertGroupsPlaceEp()
    {
        MeasuredRank r;
        r.file = "rank0";
        r.rank = 0;
        r.worldSize = 8;
        const auto group = [](const char* desc, std::vector<int> ranks) {
            ProcessGroupRecord g;
            g.desc = desc;
            g.size = std::int64_t(ranks.size());
            g.ranks = std::move(ranks);
            g.ranksComplete = true;
            return g;
        };
        r.processGroups = { group("default_pg", { 0, 1, 2, 3, 4, 5, 6, 7 }), group("TENSOR_MODEL_PARALLEL_GROUP", { 0 }),
            group("PIPELINE_MODEL_PARALLEL_GROUP", { 0 }), group("CONTEXT_PARALLEL_GROUP", { 0 }),
            group("DATA_PARALLEL_GROUP", { 0, 1, 2, 3, 4, 5, 6, 7 }), group("EXPERT_MODEL_PARALLEL_GROUP", { 0, 4 }),
            group("EXPERT_TENSOR_PARALLEL_GROUP", { 0 }), group("EXPERT_DATA_PARALLEL_GROUP", { 0, 1, 2, 3 }) };
        const InferredLayout l = inferLayout({ r });
        QCOMPARE(summary(l), std::string("gpus=8 (recorded) tp=1 (named) pp=1 (named) dp=8 (named) cp=1 (named) ep=2 (named) "
                                         "etp=1 (named) order=tp-cp-dp-ep-pp (strides) | not:"));
        QCOMPARE(from(l, "order"), std::string("the strides of the groups: dp 1; edp 1; ep 4"));
        QVERIFY(l.issues.empty());
        QVERIFY(englishLines(l.notes) == (std::vector<std::string> { "the run's EXPERT_MODEL_PARALLEL_GROUP [0, 4] is not PlanScope's "
            "expert group [0, 1]: PlanScope takes ep from the fastest of the dp x cp ranks, and costs the expert-parallel traffic over its own groups" }));
    }

    void rolesOfMegatronNames()
    {
        QVERIFY(groupRoleOf("TENSOR_MODEL_PARALLEL_GROUP") == GroupRole::Tp);
        QVERIFY(groupRoleOf("DATA_PARALLEL_GROUP_GLOO") == GroupRole::Dp);
        QVERIFY(groupRoleOf("DATA_PARALLEL_GROUP_WITH_CP") == GroupRole::DpCp);
        QVERIFY(groupRoleOf("EXPERT_DATA_PARALLEL_GROUP") == GroupRole::Edp);
        QVERIFY(groupRoleOf("HIERARCHICAL_CONTEXT_PARALLEL_GROUP_L0") == GroupRole::Other);
        QVERIFY(groupRoleOf("EMBEDDING_GROUP") == GroupRole::Other);
        QVERIFY(groupRoleOf("default_pg") == GroupRole::World);
        QVERIFY(groupRoleOf("undefined") == GroupRole::Unnamed);
        QVERIFY(groupRoleOf("") == GroupRole::Unnamed);
    }
};

QTEST_APPLESS_MAIN(TestLayoutInference)
#include "tst_layout_inference.moc"
