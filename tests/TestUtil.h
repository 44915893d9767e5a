// Shared helpers for the Qt Test suites: loading samples and plans from JSON text.
#pragma once

#include "cost/Evaluate.h"
#include "io/PlanJson.h"

#include <QString>
#include <nlohmann/json.hpp>
#include <QTest>
#include <fstream>
#include <string>

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

} // namespace planscope::test
