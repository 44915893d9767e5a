// Shared helpers for the Qt Test suites: loading samples and plans from JSON text.
#pragma once

#include "cost/Evaluate.h"
#include "io/PlanJson.h"

#include <QString>
#include <nlohmann/json.hpp>
#include <QTest>
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

} // namespace planscope::test
