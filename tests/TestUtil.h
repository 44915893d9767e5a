// Shared helpers for the Qt Test suites: loading samples and plans from JSON text.
#pragma once

#include "cost/Evaluate.h"
#include "io/PlanJson.h"

#include <QString>
#include <nlohmann/json.hpp>
#include <QTest>
#include <cstdint>
#include <cstdio>
#include <fstream>
#include <string>
#include <utility>
#include <vector>

namespace planscope::test {

inline std::string samplePath(const char* name)
{
    return std::string(PLANSCOPE_SAMPLES_DIR) + "/plans/" + name;
}

// Loads a plan or fails the current test with the loader's first error.
inline Plan loadSample(const char* name)
{
    auto r = loadPlanFile(samplePath(name));
    if (!r) {
        QTest::qFail(("cannot load " + std::string(name) + ": " + r.errors().front().path + " "
                         + r.errors().front().message).c_str(),
            __FILE__, __LINE__);
        return {};
    }
    return r->plan;
}

inline Plan planFromText(const std::string& text)
{
    auto r = parsePlan(text);
    if (!r) {
        QTest::qFail(("plan did not parse: " + r.errors().front().path + " " + r.errors().front().message).c_str(),
            __FILE__, __LINE__);
        return {};
    }
    return r->plan;
}

// Relative closeness for doubles computed two ways.
inline bool near(double a, double b, double rel = 1e-9)
{
    const double scale = std::max(std::abs(a), std::abs(b));
    return scale == 0 ? true : std::abs(a - b) <= rel * scale;
}

// A GPT-style model (f = 4h, LayerNorm with biases, learned positions, tied embeddings, dropout): the setting
// of Megatron's parameter and FLOP formulas and of Korthikanti's Table 2.
inline nlohmann::json gptModel(int layers, std::int64_t hidden, int heads, std::int64_t vocab, std::int64_t seq)
{
    return nlohmann::json { { "name", "gpt-test" }, { "layers", layers }, { "hidden", hidden }, { "heads", heads },
        { "kvHeads", heads }, { "ffnHidden", 4 * hidden }, { "vocab", vocab }, { "seqLength", seq },
        { "gatedMlp", false }, { "tiedEmbeddings", true }, { "positionEmbedding", "learned" },
        { "norm", "layernorm" }, { "bias", true }, { "embeddingNorm", false }, { "dropout", true },
        { "moe", { { "experts", 0 }, { "topK", 0 }, { "expertFfnHidden", 0 }, { "sharedExperts", 0 } } } };
}

// Numbers in test messages with enough digits to compare by eye.
inline QString num(double v) { return QString::number(v, 'g', 12); }

// Two plans that differ in one field every layer reads but the rank layout's old memo did not (parallel.etp): the
// Megatron-LM release test of Mixtral 8x22B (expert TP 2) and the same run with expert TP 1, written into `dir` as
// etp1.plan.json and etp2.plan.json, each under a name of its own. Analysed one after the other in one process, each
// must show what it shows alone (issue: compare A B printed B as 4.434 s, alone 6.210 s).
struct PlanPair {
    QString etp1, etp2;
};
inline PlanPair writeExpertTpPair(const QString& dir)
{
    const std::string sample = std::string(PLANSCOPE_SAMPLES_DIR) + "/memory/mcore-mixtral-8x22b-tp2pp8ep8.plan.json";
    std::ifstream in(sample);
    nlohmann::json plan = nlohmann::json::parse(in);
    PlanPair out { dir + QStringLiteral("/etp1.plan.json"), dir + QStringLiteral("/etp2.plan.json") };
    for (int etp : { 1, 2 }) {
        plan["parallel"]["etp"] = etp;
        plan["name"] = "Mixtral 8x22B, TP 2, PP 8, EP 8, expert TP " + std::to_string(etp);
        std::ofstream((etp == 1 ? out.etp1 : out.etp2).toStdString()) << plan.dump(2);
    }
    return out;
}

// Rank traces for the tests of a folder of thousands of them (core/trace/TraceFiles.h, planscope-cli import).
inline void writeFile(const std::string& path, const std::string& text)
{
    std::ofstream f(path, std::ios::binary);
    f << text;
}

// A small rank trace: distributedInfo first, as the PyTorch profiler writes it, then one kernel at `ts` us
// (docs/FORMATS.md section 5).
inline std::string rankTrace(int rank, int worldSize, std::int64_t ts)
{
    return "{\"schemaVersion\": 1, \"distributedInfo\": {\"backend\": \"nccl\", \"rank\": " + std::to_string(rank)
        + ", \"world_size\": " + std::to_string(worldSize) + "}, \"traceEvents\": [{\"ph\": \"X\", \"cat\": \"kernel\", "
          "\"name\": \"k\", \"pid\": 0, \"tid\": 7, \"ts\": " + std::to_string(ts) + ", \"dur\": 10}, {\"ph\": \"X\", "
          "\"cat\": \"kernel\", \"name\": \"k\", \"pid\": 0, \"tid\": 7, \"ts\": " + std::to_string(ts + 20) + ", \"dur\": 10}]}";
}

// 2,000 rank files in `dir`: 1,800 of one run (world size 1800, traced from 1 s), of which ranks 1600..1699 are cut
// inside their second event (their head holds distributedInfo and one event) and ranks 1700..1799 cut 30 bytes in
// (before distributedInfo); and 200
// of another run (world size 8, traced 1,000 s later). Returns the files' sizes, in name order.
inline std::vector<std::int64_t> writeTwoThousandRanks(const std::string& dir)
{
    std::vector<std::pair<std::string, std::string>> files;
    for (int i = 0; i < 200; ++i) {
        char name[32];
        std::snprintf(name, sizeof name, "/other-%03d.json", i);
        files.emplace_back(dir + name, rankTrace(i % 8, 8, 1'000'000'000 + i));
    }
    for (int r = 0; r < 1800; ++r) {
        char name[32];
        std::snprintf(name, sizeof name, "/rank-%04d.json", r);
        std::string text = rankTrace(r, 1800, 1'000'000 + r);
        if (r >= 1700) text.resize(30);
        else if (r >= 1600) text.resize(text.find("}, {") + 10); // inside the second event
        files.emplace_back(dir + name, text);
    }
    std::vector<std::int64_t> sizes;
    for (const auto& [path, text] : files) {
        writeFile(path, text);
        sizes.push_back(std::int64_t(text.size()));
    }
    return sizes;
}

} // namespace planscope::test
