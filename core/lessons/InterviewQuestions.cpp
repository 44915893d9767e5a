#include "InterviewQuestions.h"

#include "util/Units.h"

#include <functional>
#include <random>

namespace planscope {

using nlohmann::json;

namespace {

using Rng = std::mt19937_64;

// Draws by the generator's raw output (not std::uniform_int_distribution, whose algorithm differs between standard
// libraries), so a seed gives the same question with every compiler.
template<typename T>
T pick(Rng& rng, std::initializer_list<T> values)
{
    return *(values.begin() + std::ptrdiff_t(rng() % values.size()));
}

int between(Rng& rng, int lo, int hi) { return lo + int(rng() % std::uint64_t(hi - lo + 1)); }

// A GPT-style model as in Megatron-LM's formulas (f = 4h, LayerNorm with biases, learned positions, tied embeddings,
// heads of 128): 12 L h^2 + 13 L h + (V + s) h + 2h parameters (Narayanan et al., SC 2021, eq. 2, plus the final
// norm). The vocabulary, 51,200, is a multiple of 128 x 8, so no tensor-parallel degree pads it.
json gptModel(int layers, int hidden, int seq)
{
    return { { "name", "GPT-style " + std::to_string(layers) + " x " + std::to_string(hidden) }, { "layers", layers },
        { "hidden", hidden }, { "heads", hidden / 128 }, { "kvHeads", hidden / 128 }, { "ffnHidden", 4 * hidden },
        { "vocab", 51200 }, { "seqLength", seq }, { "gatedMlp", false }, { "tiedEmbeddings", true },
        { "positionEmbedding", "learned" }, { "norm", "layernorm" }, { "bias", true }, { "embeddingNorm", false },
        { "dropout", true }, { "moe", { { "experts", 0 }, { "topK", 0 }, { "expertFfnHidden", 0 }, { "sharedExperts", 0 } } } };
}

// A plan on A100-80GB nodes of 8 (fewer GPUs: one node of that many), ZeRO paper's mixed precision (fp16 weights and
// gradients, fp32 Adam: 16 bytes of model state per parameter).
json planFor(const json& model, int dp, int tp, int pp, int zero, int microBatch, int globalBatch)
{
    const int gpus = dp * tp * pp;
    return { { "schema", "planscope/plan/v1" }, { "name", "Interview question" }, { "model", model },
        { "cluster", { { "gpu", "a100-sxm4-80gb" }, { "nodes", std::max(1, gpus / 8) }, { "gpusPerNode", std::min(8, gpus) } } },
        { "parallel", { { "dp", dp }, { "tp", tp }, { "pp", pp }, { "zero", zero }, { "sp", false } } },
        { "training", { { "microBatch", microBatch }, { "globalBatch", globalBatch }, { "precision", "fp16" },
                          { "gradDtype", "fp16" }, { "optimizer", "adam" }, { "recompute", "full" }, { "schedule", "1f1b" },
                          { "flashAttention", true }, { "tokens", 1e11 } } } };
}

// A drawn plan and how to word its question once the model has answered: `write` gets the prediction document and the
// answer and fills the texts (fillNumbers over a document of the numbers it quotes).
struct Draft {
    json plan;
    std::string view, field, unit;
    std::function<void(const json& doc, double answer, LessonQuestion& q)> write;
};

Bilingual fill(const char* en, const char* zh, const json& numbers)
{
    return { fillNumbers(en, numbers), fillNumbers(zh, numbers) };
}

// Pipeline bubble of GPipe and 1F1B: (p - 1) idle slots of every rank's m + p - 1 (Huang et al., "GPipe", 2019;
// Narayanan et al., SC 2021, section 2.2).
Draft pipelineBubble(Rng& rng)
{
    const int p = pick(rng, { 2, 4, 8 }), layers = pick(rng, { 24, 32, 48 }), hidden = pick(rng, { 2048, 2560, 4096 });
    const int m = between(rng, p, 8 * p);
    const char* schedule = pick(rng, { "1f1b", "gpipe" });
    Draft d;
    d.plan = planFor(gptModel(layers, hidden, 2048), 1, 1, p, 0, 1, m);
    d.plan["training"]["schedule"] = schedule;
    d.view = "timeline";
    d.field = "time.bubbleFraction";
    d.write = [=](const json&, double answer, LessonQuestion& q) {
        const json n = { { "L", layers }, { "p", p }, { "m", m }, { "pm1", p - 1 }, { "mp1", m + p - 1 }, { "answer", answer },
            { "schedule", std::string(schedule) == "gpipe" ? "GPipe" : "1F1B" }, { "overhead", double(p - 1) / m } };
        q.text = fill("A model of {L} layers is split over p = {p} pipeline stages, one GPU each, and every step runs m = {m} "
                      "microbatches under the {schedule} schedule. What share of the pipeline time is the schedule's bubble (the "
                      "timeline's \"schedule bubble\"; its idle share also counts waits on the stage with the output layer)?",
            "一个 {L} 层的模型切成 p = {p} 个流水线阶段，每个阶段一张 GPU，每个训练步以 {schedule} 调度运行 m = {m} 个微批次。"
            "调度气泡占流水线时间的比例是多少？（即时间线上的“调度气泡”；其“空闲”比例还包含等待带输出层那一阶段的时间）",
            n);
        q.solution = fill("Each rank works m slots of one forward and one backward and waits p - 1 more while the pipeline "
                          "fills and drains: bubble share = (p - 1) / (m + p - 1) = {pm1} / {mp1} = {answer}. The same for "
                          "GPipe and 1F1B (1F1B saves activation memory, not time). Over the ideal compute it is (p - 1) / m = "
                          "{overhead}, the Megatron-LM paper's \"bubble time fraction\".",
            "每个 rank 做 m 个时隙（一次前向加一次反向），流水线启动和收尾时还要多等 p - 1 个：气泡比例 = (p - 1) / (m + p - 1) = "
            "{pm1} / {mp1} = {answer}。GPipe 与 1F1B 相同（1F1B 省的是激活显存，不是时间）。若除以理想计算时间，则是 "
            "(p - 1) / m = {overhead}，即 Megatron-LM 论文的 “bubble time fraction”。",
            n);
    };
    return d;
}

// ZeRO (Rajbhandari et al., SC 2020, section 5): 2 + 2 + 12 bytes per parameter; stage 1 divides the 12 by N_d, stage 2
// also the gradients' 2, stage 3 the weights' 2 as well.
Draft zeroMemory(Rng& rng)
{
    const int layers = pick(rng, { 24, 32, 40, 48 }), hidden = pick(rng, { 2048, 2560, 3072, 4096, 5120 });
    const int dp = pick(rng, { 2, 4, 8, 16, 32, 64 }), zero = pick(rng, { 0, 1, 2, 3 });
    const int part = pick(rng, { 0, 1, 2 }); // weights, gradients, optimizer state
    static const char* const fields[] = { "memory.stages.0.weightsBytes", "memory.stages.0.gradientsBytes",
        "memory.stages.0.optimizerBytes" };
    static const char* const names[] = { "weights", "gradients", "optimizer state" };
    static const char* const namesZh[] = { "权重", "梯度", "优化器状态" };
    static const int bytesPer[] = { 2, 2, 12 };
    const bool sharded = (part == 2 && zero >= 1) || (part == 1 && zero >= 2) || (part == 0 && zero >= 3);
    Draft d;
    d.plan = planFor(gptModel(layers, hidden, 2048), dp, 1, 1, zero, 1, 4 * dp);
    d.view = "memory";
    d.field = fields[part];
    d.unit = "B";
    d.write = [=](const json& doc, double answer, LessonQuestion& q) {
        const double psi = doc["params"]["total"].get<double>();
        const double states = *valueAtPath(doc, "memory.stages.0.weightsBytes") + *valueAtPath(doc, "memory.stages.0.gradientsBytes")
            + *valueAtPath(doc, "memory.stages.0.optimizerBytes");
        const json n = { { "L", layers }, { "h", hidden }, { "dp", dp }, { "zero", zero }, { "psi", psi },
            { "psiCount", units::formatCount(psi) }, { "part", names[part] }, { "partZh", namesZh[part] }, { "k", bytesPer[part] },
            { "answer", answer }, { "answerBytes", answer }, { "statesBytes", states },
            { "division", sharded ? " / N_d" : "" }, { "divisor", sharded ? " / " + std::to_string(dp) : "" } };
        q.text = fill("A GPT-style model with L = {L} layers and hidden size h = {h} (Psi = {psiCount} parameters) trains "
                      "with mixed-precision Adam (fp16 weights and gradients; fp32 master weights, momentum and variance) on "
                      "N_d = {dp} data-parallel GPUs with ZeRO stage {zero}. How many bytes of {part} does one GPU hold?",
            "一个 GPT 结构的模型，L = {L} 层、隐藏维度 h = {h}（Ψ = {psiCount} 个参数），用混合精度 Adam 训练（fp16 权重和梯度；"
            "fp32 主权重、动量和方差），N_d = {dp} 张 GPU 数据并行，ZeRO 阶段 {zero}。一张 GPU 保存多少字节的{partZh}？",
            n);
        q.solution = fill("Model states take 16 bytes per parameter: fp16 weights 2, fp16 gradients 2, Adam's fp32 master "
                          "weights, momentum and variance 12. ZeRO-1 divides the 12 by N_d, ZeRO-2 the gradients' 2 as well, "
                          "ZeRO-3 the weights' 2 too. Here {part} = {k} x Psi{division} = {k} x {psi}{divisor} = {answer} B "
                          "({answerBytes}); all model states on one GPU: {statesBytes}.",
            "模型状态每个参数 16 字节：fp16 权重 2、fp16 梯度 2、Adam 的 fp32 主权重、动量和方差 12。ZeRO-1 把 12 除以 N_d，"
            "ZeRO-2 再把梯度的 2 也除以 N_d，ZeRO-3 连权重的 2 也除。这里{partZh} = {k} x Ψ{division} = {k} x {psi}{divisor} = "
            "{answer} B（{answerBytes}）；一张 GPU 上的全部模型状态：{statesBytes}。",
            n);
    };
    return d;
}

// Ring all-reduce: N - 1 reduce-scatter and N - 1 all-gather steps of S/N bytes, 2(N - 1)/N x S per GPU (Patarasuk and
// Yuan, "Bandwidth optimal all-reduce algorithms for clusters of workstations", JPDC 2009).
Draft ringAllReduce(Rng& rng)
{
    const int layers = pick(rng, { 12, 16, 24, 32 }), hidden = pick(rng, { 1024, 1536, 2048, 2560 });
    const int n = pick(rng, { 2, 4, 8, 16, 32, 64 });
    Draft d;
    d.plan = planFor(gptModel(layers, hidden, 2048), n, 1, 1, 0, 1, 4 * n);
    d.view = "comm";
    d.field = "comm.groups[kind=dp].bytesPerStep";
    d.unit = "B";
    d.write = [=](const json& doc, double answer, LessonQuestion& q) {
        const double psi = doc["params"]["total"].get<double>();
        const json v = { { "n", n }, { "nm1", n - 1 }, { "psi", psi }, { "psiCount", units::formatCount(psi) }, { "s", 2 * psi },
            { "sBytes", 2 * psi }, { "answer", answer }, { "answerBytes", answer } };
        q.text = fill("N = {n} data-parallel GPUs average the fp16 gradients of a model of Psi = {psiCount} parameters "
                      "(S = 2 bytes x Psi = {sBytes}) with a ring all-reduce. How many bytes does each GPU send per step?",
            "N = {n} 张数据并行 GPU 用环形 all-reduce 对一个 Ψ = {psiCount} 个参数的模型的 fp16 梯度求平均（S = 2 字节 x Ψ = "
            "{sBytes}）。每个训练步每张 GPU 发送多少字节？",
            v);
        q.solution = fill("The ring cuts S into N chunks: N - 1 reduce-scatter steps, then N - 1 all-gather steps, each sending "
                          "S/N. Per GPU 2 (N - 1) / N x S = 2 x {nm1}/{n} x {s} = {answer} B ({answerBytes}): bandwidth-optimal, "
                          "and close to 2S whatever the ring's length.",
            "环形算法把 S 切成 N 块：先 N - 1 步 reduce-scatter，再 N - 1 步 all-gather，每步发送 S/N。每张 GPU 共发送 "
            "2 (N - 1) / N x S = 2 x {nm1}/{n} x {s} = {answer} B（{answerBytes}）：带宽最优，且无论环多长都接近 2S。",
            v);
    };
    return d;
}

// Data parallelism with gradient accumulation: m = B / (b x N_d) microbatches per GPU and step, one all-reduce.
Draft dataParallel(Rng& rng)
{
    const int layers = pick(rng, { 12, 16, 24 }), hidden = pick(rng, { 1024, 2048 });
    const int dp = pick(rng, { 2, 4, 8, 16, 32, 64 }), b = pick(rng, { 1, 2, 4 }), k = between(rng, 1, 16);
    Draft d;
    d.plan = planFor(gptModel(layers, hidden, 2048), dp, 1, 1, 1, b, b * dp * k);
    d.view = "timeline";
    d.field = "time.microbatches";
    d.write = [=](const json&, double answer, LessonQuestion& q) {
        const json n = { { "B", b * dp * k }, { "b", b }, { "dp", dp }, { "answer", answer }, { "tokens", double(b) * 2048 } };
        q.text = fill("A global batch of B = {B} sequences is trained on N_d = {dp} data-parallel GPUs with a microbatch of b = "
                      "{b} sequences (what fits at once). How many microbatches (gradient-accumulation steps) does each GPU run "
                      "per optimizer step?",
            "全局批次 B = {B} 条序列，在 N_d = {dp} 张数据并行 GPU 上训练，微批次 b = {b} 条序列（一次放得下的量）。每个优化器步"
            "每张 GPU 运行多少个微批次（梯度累积次数）？",
            n);
        q.solution = fill("m = B / (b x N_d) = {B} / ({b} x {dp}) = {answer}. Each GPU adds up the gradients of its m "
                          "microbatches; the gradient all-reduce runs once per step, after the last backward.",
            "m = B / (b x N_d) = {B} / ({b} x {dp}) = {answer}。每张 GPU 累加 m 个微批次的梯度，梯度 all-reduce 每步只在最后一次"
            "反向之后做一次。",
            n);
    };
    return d;
}

// Megatron-LM tensor parallelism (Shoeybi et al. 2019, section 3): per layer two all-reduces of the b x s x h activations
// forward and two backward, one for the vocabulary-parallel embedding, and the vocabulary-parallel cross entropy's three
// of b x s fp32 values; a ring sends 2(t - 1)/t of each buffer.
Draft tensorParallel(Rng& rng)
{
    const int t = pick(rng, { 2, 4, 8 }), layers = pick(rng, { 16, 24, 32 }), hidden = pick(rng, { 2048, 4096, 5120 });
    const int seq = pick(rng, { 1024, 2048, 4096 }), b = pick(rng, { 1, 2 }), m = between(rng, 1, 8);
    Draft d;
    d.plan = planFor(gptModel(layers, hidden, seq), 1, t, 1, 0, b, b * m);
    d.plan["training"]["precision"] = "bf16";
    d.plan["training"]["gradDtype"] = "fp32";
    d.plan["training"]["recompute"] = "selective";
    d.view = "comm";
    d.field = "comm.groups[kind=tp].bytesPerStep";
    d.unit = "B";
    d.write = [=](const json&, double answer, LessonQuestion& q) {
        const double act = 2.0 * b * seq * hidden;
        const json n = { { "t", t }, { "tm1", t - 1 }, { "L", layers }, { "h", hidden }, { "s", seq }, { "b", b }, { "m", m },
            { "calls", 4 * layers + 1 }, { "act", act }, { "actBytes", act }, { "loss", 4.0 * b * seq }, { "answer", answer },
            { "answerBytes", answer } };
        q.text = fill("A GPT-style model (L = {L} layers, h = {h}) is split with Megatron-LM tensor parallelism t = {t} (no "
                      "sequence parallelism, bf16 activations). Each step runs m = {m} microbatches of b = {b} sequences of s "
                      "= {s} tokens. How many bytes does each GPU send on its TP group per step?",
            "一个 GPT 结构的模型（L = {L} 层，h = {h}）用 Megatron-LM 张量并行 t = {t} 切分（不用序列并行，bf16 激活）。每个训练步运行 "
            "m = {m} 个微批次，每个 b = {b} 条 s = {s} token 的序列。每个训练步每张 GPU 在 TP 组上发送多少字节？",
            n);
        q.solution = fill("Per layer and microbatch 4 all-reduces of the b x s x h activations (after attention and after the MLP, "
                          "forward and backward) and 1 for the vocabulary-parallel embedding, each 2bsh = {act} B ({actBytes}); "
                          "the vocabulary-parallel cross entropy adds 3 of 4bs = {loss} B. A ring sends 2 (t - 1) / t of each: "
                          "m x 2 (t - 1)/t x ((4L + 1) x 2bsh + 3 x 4bs) = {m} x 2 x {tm1}/{t} x ({calls} x {act} + 3 x {loss}) "
                          "= {answer} B ({answerBytes}).",
            "每层每个微批次有 4 次 b x s x h 激活的 all-reduce（注意力之后和 MLP 之后，前向和反向各一次），词表并行的嵌入层再加 1 次，"
            "每次 2bsh = {act} B（{actBytes}）；词表并行的交叉熵另有 3 次 4bs = {loss} B。环形算法每次发送缓冲区的 2 (t - 1) / t："
            "m x 2 (t - 1)/t x ((4L + 1) x 2bsh + 3 x 4bs) = {m} x 2 x {tm1}/{t} x ({calls} x {act} + 3 x {loss}) = {answer} B"
            "（{answerBytes}）。",
            n);
    };
    return d;
}

using Generator = Draft (*)(Rng&);

struct Topic {
    const char* name;
    Generator draw;
};

const Topic kTopics[] = { { "pipeline-bubble", pipelineBubble }, { "zero-memory", zeroMemory },
    { "ring-allreduce", ringAllReduce }, { "data-parallel", dataParallel }, { "tensor-parallel", tensorParallel } };

} // namespace

std::vector<std::string> interviewTopics()
{
    std::vector<std::string> out;
    for (const Topic& t : kTopics) out.push_back(t.name);
    return out;
}

Result<GeneratedQuestion> generateQuestion(const std::string& topic, std::uint64_t seed)
{
    const Topic* found = nullptr;
    std::string names;
    for (const Topic& t : kTopics) {
        if (topic == t.name) found = &t;
        names += (names.empty() ? "" : ", ") + std::string(t.name);
    }
    if (!found)
        return Result<GeneratedQuestion>::failure(
            "topic", Text(PS_TEXT("CoreText", "unknown interview topic \"%1\"; known: %2"), topic, names));
    Rng rng(seed);
    // Draws until a plan is valid and fits in memory; the draws continue the one sequence, so the seed decides which.
    for (int attempt = 0; attempt < 64; ++attempt) {
        Draft d = found->draw(rng);
        const auto doc = analyticPredictionDocument(d.plan);
        if (!doc || !doc.value()["memory"]["fits"].get<bool>()) continue;
        const auto answer = valueAtPath(doc.value(), d.field);
        if (!answer) continue;
        GeneratedQuestion g;
        g.topic = topic;
        g.seed = seed;
        g.plan = std::move(d.plan);
        g.view = d.view;
        g.question.field = d.field;
        g.question.unit = d.unit;
        g.question.answer = *answer;
        d.write(doc.value(), *answer, g.question);
        return g;
    }
    return Result<GeneratedQuestion>::failure(
        "seed", Text(PS_TEXT("CoreText", "no valid plan drawn for topic %1"), topic));
}

json interviewToJson(const GeneratedQuestion& g)
{
    auto text = [](const Bilingual& b) { return json { { "en", b.en }, { "zh_CN", b.zh_CN } }; };
    const LessonQuestion& q = g.question;
    return { { "schema", "planscope/interview/v1" }, { "topic", g.topic }, { "seed", g.seed }, { "view", g.view }, { "plan", g.plan },
        { "question",
            { { "text", text(q.text) }, { "answer", q.answer }, { "unit", q.unit }, { "tolerance", q.tolerance },
                { "field", q.field }, { "figure", "analytic" }, { "solution", text(q.solution) } } } };
}

} // namespace planscope
