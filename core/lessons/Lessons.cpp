#include "Lessons.h"

#include "analysis/Analysis.h"
#include "io/AnalysisJson.h"
#include "io/PlanJson.h"
#include "util/Units.h"

#include <algorithm>
#include <cctype>

namespace planscope {

using nlohmann::json;

namespace {

// One lesson as written: a base plan, then steps that patch it (RFC 7386 JSON merge patch) and may ask a question.
struct StepSource {
    Bilingual text;
    const char* view;
    json patch;
    std::optional<LessonQuestion> question;
};

struct LessonSource {
    const char* id;
    Bilingual title;
    std::vector<std::string> topics;
    json base;
    std::vector<StepSource> steps;
};

// Llama 2 7B on one 8-GPU A100 node, the ZeRO paper's mixed precision (fp16 weights and gradients, fp32 Adam: 16 bytes
// of model state per parameter; Rajbhandari et al., "ZeRO", SC 2020, section 3.1).
json sevenB(int gpus)
{
    return { { "schema", "planscope/plan/v1" }, { "model", { { "preset", "llama2-7b" } } },
        { "cluster", { { "gpu", "a100-sxm4-80gb" }, { "nodes", 1 }, { "gpusPerNode", gpus } } },
        { "parallel", { { "dp", gpus }, { "tp", 1 }, { "pp", 1 }, { "zero", 0 } } },
        { "training", { { "microBatch", 1 }, { "globalBatch", 8 * gpus }, { "precision", "fp16" }, { "gradDtype", "fp16" },
                          { "optimizer", "adam" }, { "recompute", "full" }, { "schedule", "1f1b" }, { "flashAttention", true },
                          { "tokens", 1e11 } } } };
}

LessonQuestion question(Bilingual text, const char* field, const char* unit, Bilingual solution, double tolerance = 0.01)
{
    LessonQuestion q;
    q.text = std::move(text);
    q.field = field;
    q.unit = unit;
    q.tolerance = tolerance;
    q.solution = std::move(solution);
    return q;
}

std::vector<LessonSource> lessonSources()
{
    std::vector<LessonSource> out;

    // Pipeline bubbles: GPipe (Huang et al. 2019) and 1F1B (PipeDream-Flush, Narayanan et al. 2021) idle (p-1) slots of
    // every rank's m + p - 1.
    {
        json base = sevenB(4);
        base["parallel"] = { { "dp", 1 }, { "tp", 1 }, { "pp", 4 }, { "zero", 0 } };
        base["training"]["globalBatch"] = 8;
        out.push_back({ "pipeline-bubble",
            { "Pipeline bubbles", "流水线气泡" },
            { "pipeline", "bubble", "1f1b" },
            base,
            {
                { { "Four GPUs each hold a quarter of the layers (pp = 4). A batch of 8 sequences is cut into m = 8 "
                    "microbatches. Rank 0 starts at once; rank 3 waits three forward slots for the first microbatch, and at "
                    "the end rank 0 waits three backward slots. Watch the hatched idle time at both ends of each lane.",
                      "四张 GPU 各放四分之一的层（pp = 4）。8 条序列的批次切成 m = 8 个微批次。rank 0 立即开始；rank 3 要等三个前向时隙"
                      "才拿到第一个微批次，结束时 rank 0 也要等三个反向时隙。注意每条泳道两端的斜线空闲区。" },
                    "timeline", json::object(),
                    question({ "What share of the pipeline time is bubble with p = 4 and m = 8?",
                                 "p = 4、m = 8 时，气泡占流水线时间的比例是多少？" },
                        "time.bubbleFraction", "",
                        { "bubble share = (p - 1) / (m + p - 1) = 3 / 11 = 0.273 (GPipe and 1F1B alike)",
                            "气泡比例 = (p - 1) / (m + p - 1) = 3 / 11 = 0.273（GPipe 与 1F1B 相同）" }) },
                { { "Four times as many microbatches (a batch of 32): the same three idle slots at each end now sit beside 32 "
                    "busy ones.",
                      "微批次增加到四倍（批次 32）：两端同样的三个空闲时隙，现在旁边是 32 个忙碌时隙。" },
                    "timeline", { { "training", { { "globalBatch", 32 } } } },
                    question({ "And with m = 32?", "m = 32 时呢？" }, "time.bubbleFraction", "",
                        { "(p - 1) / (m + p - 1) = 3 / 35 = 0.086: more microbatches shrink the bubble",
                            "(p - 1) / (m + p - 1) = 3 / 35 = 0.086：微批次越多，气泡越小" }) },
            } });
    }

    // ZeRO: 16 bytes of model state per parameter under mixed-precision Adam, and what each stage divides by N_d.
    {
        out.push_back({ "zero-memory",
            { "ZeRO: who keeps which bytes", "ZeRO：谁保存哪些字节" },
            { "zero", "memory", "data-parallel" },
            sevenB(8),
            {
                { { "Plain data parallelism: each of the 8 GPUs keeps the whole model state of Llama 2 7B: fp16 weights (2 "
                    "bytes per parameter), fp16 gradients (2), and Adam's fp32 master weights, momentum and variance (4 + 4 + "
                    "4 = 12). 16 bytes per parameter, on every GPU.",
                      "普通数据并行：8 张 GPU 每张都保存 Llama 2 7B 的全部模型状态：fp16 权重（每参数 2 字节）、fp16 梯度（2）、"
                      "Adam 的 fp32 主权重、动量和方差（4 + 4 + 4 = 12）。每个参数 16 字节，每张 GPU 都有一份。" },
                    "memory", json::object(),
                    question({ "How many bytes of optimizer state does one GPU hold without ZeRO?",
                                 "不使用 ZeRO 时，一张 GPU 保存多少字节的优化器状态？" },
                        "memory.stages.0.optimizerBytes", "B",
                        { "12 x Psi (Psi = the parameters)", "12 x Ψ（Ψ 为参数量）" }) },
                { { "ZeRO-1 splits the optimizer state over the N_d = 8 data-parallel GPUs: each updates only its eighth, "
                    "then the updated weights are gathered.",
                      "ZeRO-1 把优化器状态切分到 N_d = 8 张数据并行 GPU 上：每张只更新自己的八分之一，更新后再收集权重。" },
                    "memory", { { "parallel", { { "zero", 1 } } } },
                    question({ "Optimizer bytes per GPU under ZeRO-1?", "ZeRO-1 下每张 GPU 的优化器字节数？" },
                        "memory.stages.0.optimizerBytes", "B", { "12 x Psi / N_d", "12 x Ψ / N_d" }) },
                { { "ZeRO-2 also splits the gradients: each GPU keeps the reduced gradients of its own eighth (a "
                    "reduce-scatter instead of an all-reduce).",
                      "ZeRO-2 再切分梯度：每张 GPU 只保留自己那八分之一归约后的梯度（用 reduce-scatter 代替 all-reduce）。" },
                    "memory", { { "parallel", { { "zero", 2 } } } },
                    question({ "Gradient bytes per GPU under ZeRO-2?", "ZeRO-2 下每张 GPU 的梯度字节数？" },
                        "memory.stages.0.gradientsBytes", "B", { "2 x Psi / N_d", "2 x Ψ / N_d" }) },
                { { "ZeRO-3 splits the weights too, and gathers each layer's weights just before it runs, forward and "
                    "backward: memory falls to 16 Psi / N_d, communication grows to about 1.5 times plain data parallelism's.",
                      "ZeRO-3 连权重也切分，每层在前向和反向运行前才收集它的权重：显存降到 16Ψ / N_d，通信量增加到普通数据并行的约 1.5 倍。" },
                    "memory", { { "parallel", { { "zero", 3 } } } },
                    question({ "Weight bytes per GPU under ZeRO-3?", "ZeRO-3 下每张 GPU 的权重字节数？" },
                        "memory.stages.0.weightsBytes", "B", { "2 x Psi / N_d", "2 x Ψ / N_d" }) },
            } });
    }

    // Ring all-reduce: 2(N-1) steps of S/N bytes each, so every GPU sends 2(N-1)/N x S (Patarasuk and Yuan, "Bandwidth
    // optimal all-reduce algorithms for clusters of workstations", JPDC 2009).
    {
        out.push_back({ "ring-allreduce",
            { "Ring all-reduce", "环形 All-Reduce" },
            { "ring-allreduce", "communication", "data-parallel" },
            sevenB(8),
            {
                { { "After the backward pass the 8 GPUs all-reduce their gradients (S = 2 bytes x Psi). The ring cuts S into "
                    "N = 8 chunks: N - 1 reduce-scatter steps leave each GPU with one summed chunk, N - 1 all-gather steps "
                    "hand every chunk to every GPU. Each step sends S/N.",
                      "反向结束后，8 张 GPU 对梯度做 all-reduce（S = 2 字节 x Ψ）。环形算法把 S 切成 N = 8 块：N - 1 步 "
                      "reduce-scatter 让每张 GPU 得到一块求和结果，N - 1 步 all-gather 把每一块发给所有 GPU。每步发送 S/N。" },
                    "comm", json::object(),
                    question({ "How many bytes does one GPU send per step for the gradient all-reduce (N = 8)?",
                                 "梯度 all-reduce 中每张 GPU 每个训练步发送多少字节（N = 8）？" },
                        "comm.groups[kind=dp].bytesPerStep", "B",
                        { "2 (N - 1) / N x S = 2 x 7/8 x 2 Psi = 3.5 Psi", "2 (N - 1) / N x S = 2 x 7/8 x 2Ψ = 3.5Ψ" }) },
                { { "Half the GPUs (N = 4): each still sends almost 2 S, because 2 (N - 1) / N approaches 2 as N grows. The "
                    "ring's traffic per GPU does not grow with the ring; its time does not either, as long as the links are "
                    "the same.",
                      "GPU 减半（N = 4）：每张仍发送接近 2S，因为 2 (N - 1) / N 随 N 增大趋近 2。环形算法每张 GPU 的流量不随环变长而"
                      "增加；只要链路相同，时间也不增加。" },
                    "comm", { { "cluster", { { "gpusPerNode", 4 } } }, { "parallel", { { "dp", 4 } } }, { "training", { { "globalBatch", 32 } } } },
                    question({ "And with N = 4?", "N = 4 时呢？" }, "comm.groups[kind=dp].bytesPerStep", "B",
                        { "2 x 3/4 x 2 Psi = 3 Psi", "2 x 3/4 x 2Ψ = 3Ψ" }) },
            } });
    }
    // Data parallelism: every GPU runs the whole model on its share of the batch; the gradients are averaged with an
    // all-reduce (the ring lesson counts its bytes). A batch larger than the GPUs take at once is accumulated.
    {
        json base = sevenB(8);
        base["parallel"]["zero"] = 1;
        base["training"]["globalBatch"] = 64;
        out.push_back({ "data-parallel",
            { "Data parallelism and gradient accumulation", "数据并行与梯度累积" },
            { "data-parallel", "allreduce", "gradient-accumulation" },
            base,
            {
                { { "Eight GPUs each hold a full copy of the model (here with ZeRO-1 so that it fits) and take 64 / 8 = 8 "
                    "sequences of the batch. One microbatch of 1 sequence at a time fits, so each GPU runs 8 forward and "
                    "backward passes, adding up the gradients, before the one all-reduce of the step.",
                      "8 张 GPU 各持有一份完整模型（这里用 ZeRO-1 才放得下），各处理批次中的 64 / 8 = 8 条序列。一次只放得下 1 条序列的"
                      "微批次，所以每张 GPU 先做 8 次前向和反向并累加梯度，然后整个训练步只做一次 all-reduce。" },
                    "timeline", json::object(),
                    question({ "How many microbatches does each GPU run per step?", "每张 GPU 每个训练步运行多少个微批次？" },
                        "time.microbatches", "",
                        { "m = global batch / (microbatch x dp) = 64 / (1 x 8) = 8", "m = 全局批次 / (微批次 x dp) = 64 / (1 x 8) = 8" }) },
                { { "Twice the GPUs for the same batch: each takes half as many sequences, and the step has half the "
                    "accumulation steps.",
                      "同一批次用两倍的 GPU：每张处理的序列减半，每步的累积次数也减半。" },
                    "timeline", { { "cluster", { { "nodes", 2 } } }, { "parallel", { { "dp", 16 } } } },
                    question({ "And on 16 GPUs?", "16 张 GPU 时呢？" }, "time.microbatches", "",
                        { "64 / (1 x 16) = 4", "64 / (1 x 16) = 4" }) },
            } });
    }

    // Tensor parallelism (Megatron-LM, Shoeybi et al. 2019, section 3): the MLP's first matrix split by columns, the
    // second by rows, and the same for attention (heads by columns, the output projection by rows), so each block needs
    // one all-reduce forward and one backward.
    {
        json base = sevenB(8);
        base["parallel"] = { { "dp", 1 }, { "tp", 8 }, { "pp", 1 }, { "zero", 0 }, { "sp", false } };
        base["training"] = { { "microBatch", 1 }, { "globalBatch", 8 }, { "precision", "bf16" }, { "recompute", "none" },
            { "schedule", "1f1b" }, { "flashAttention", true }, { "tokens", 1e11 } };
        out.push_back({ "tensor-parallel",
            { "Tensor parallelism", "张量并行" },
            { "tensor-parallel", "allreduce", "nvlink" },
            base,
            {
                { { "tp = 8 splits every layer over the 8 GPUs of a node: the first matrix of the MLP and the query, key and "
                    "value projections by columns (each GPU computes its own heads and its share of the hidden units, no "
                    "communication), the second matrix and the output projection by rows (each GPU holds a partial sum). "
                    "One all-reduce of the b x s x h activations after attention and one after the MLP, the same two in the "
                    "backward pass: 4 per layer per microbatch, over NVLink. Across nodes they would crawl: TP stays inside "
                    "a node.",
                      "tp = 8 把每一层切到一个节点的 8 张 GPU 上：MLP 的第一个矩阵和 Q、K、V 投影按列切（每张 GPU 算自己的注意力头和"
                      "一部分隐藏单元，无需通信），第二个矩阵和输出投影按行切（每张 GPU 得到部分和）。注意力之后和 MLP 之后各做一次"
                      " b x s x h 激活的 all-reduce，反向同样两次：每层每个微批次 4 次，走 NVLink。跨节点会很慢，所以 TP 留在节点内。" },
                    "comm", json::object(),
                    question({ "How many bytes does one GPU send per step on the TP group (m = 8 microbatches of 1 x 4,096 tokens)?",
                                 "每个训练步每张 GPU 在 TP 组上发送多少字节（m = 8 个 1 x 4096 token 的微批次）？" },
                        "comm.groups[kind=tp].bytesPerStep", "B",
                        { "m x (4L + 1) x 2(t-1)/t x 2bsh, plus the loss's three all-reduces of 4bs: 4 per layer, one for the "
                          "vocabulary-parallel embedding",
                            "m x (4L + 1) x 2(t-1)/t x 2bsh，加上损失的三次 4bs 的 all-reduce：每层 4 次，词表并行的嵌入层 1 次" }) },
            } });
    }

    // GPipe keeps every microbatch's activations until its backward; 1F1B starts backward passes early, so rank r holds
    // at most p - r microbatches (Narayanan et al., "Memory-efficient pipeline-parallel DNN training", ICML 2021).
    {
        json base = sevenB(4);
        base["parallel"] = { { "dp", 1 }, { "tp", 1 }, { "pp", 4 }, { "zero", 0 } };
        base["training"]["globalBatch"] = 16;
        base["training"]["schedule"] = "gpipe";
        out.push_back({ "gpipe-vs-1f1b",
            { "GPipe vs 1F1B: the same bubble, less memory", "GPipe 与 1F1B：气泡相同，显存更少" },
            { "pipeline", "gpipe", "1f1b", "activation-memory" },
            base,
            {
                { { "GPipe runs all 16 forward passes, then all 16 backward passes: the first rank keeps the activations of "
                    "every microbatch until the backward reaches it.",
                      "GPipe 先做完全部 16 个前向，再做全部 16 个反向：第一个 rank 要一直保存每个微批次的激活，直到反向到达。" },
                    "memory", json::object(),
                    question({ "How many microbatches' activations does rank 0 hold at its peak under GPipe?",
                                 "GPipe 下 rank 0 峰值时保存多少个微批次的激活？" },
                        "memory.stages.0.inFlightMicrobatches", "", { "m = 16", "m = 16" }) },
                { { "1F1B starts each microbatch's backward as soon as it can: after p forward passes rank 0 alternates one "
                    "forward, one backward. The bubble is the same (p-1)/(m+p-1); the memory is not.",
                      "1F1B 尽早开始每个微批次的反向：rank 0 做完 p 个前向后就一前一后交替。气泡同样是 (p-1)/(m+p-1)，显存却不同。" },
                    "memory", { { "training", { { "schedule", "1f1b" } } } },
                    question({ "And under 1F1B?", "1F1B 下呢？" }, "memory.stages.0.inFlightMicrobatches", "",
                        { "p - rank = 4 - 0 = 4", "p - rank = 4 - 0 = 4" }) },
            } });
    }

    // Interleaved 1F1B (Narayanan et al., SC 2021): each rank holds v chunks, so the fill and drain take 1/v as long.
    {
        json base = sevenB(4);
        base["parallel"] = { { "dp", 1 }, { "tp", 1 }, { "pp", 4 }, { "vpp", 2 }, { "zero", 0 } };
        base["training"]["globalBatch"] = 16;
        base["training"]["schedule"] = "interleaved-1f1b";
        out.push_back({ "interleaved-1f1b",
            { "Interleaved schedules", "交错式调度" },
            { "pipeline", "interleaved", "bubble" },
            base,
            {
                { { "Each rank holds two chunks of 4 layers instead of one of 8 (vpp = 2): a microbatch visits every rank "
                    "twice, each visit half as long, so the ramp up and down costs half the time. The price: twice the "
                    "pipeline sends.",
                      "每个 rank 持有两个 4 层的块，而不是一个 8 层的块（vpp = 2）：一个微批次两次经过每个 rank，每次时间减半，"
                      "所以启动和收尾只需一半时间。代价是流水线发送次数加倍。" },
                    "timeline", json::object(),
                    question({ "What share of the pipeline time is bubble (p = 4, m = 16, v = 2)?",
                                 "气泡占流水线时间的比例是多少（p = 4、m = 16、v = 2）？" },
                        "time.bubbleFraction", "", { "(p - 1) / (v m + p - 1) = 3 / 35 = 0.086", "(p - 1) / (v m + p - 1) = 3 / 35 = 0.086" }) },
            } });
    }

    // Zero Bubble (Qi, Wan, Huang and Lin, "Zero Bubble Pipeline Parallelism", ICLR 2024, section 3): the backward split
    // into the input gradient (the paper's B, PlanScope's I) and the weight gradient W, which nobody waits for, so W
    // can fill the drain (ZB-H1) and, with more warm-up forwards, the fill too (ZB-H2). No recomputation, so that the
    // passes keep the paper's proportions (F : I : W close to 1 : 1 : 1). The solutions quote the model's own F, B and W.
    {
        json base = sevenB(4);
        base["parallel"] = { { "dp", 1 }, { "tp", 1 }, { "pp", 4 }, { "zero", 0 } };
        base["training"]["globalBatch"] = 16;
        base["training"]["recompute"] = "none";
        const char* slowest = "F = {time.stages.3.forwardSeconds}, B = {time.stages.3.backwardSeconds} (I + W), "
                              "W = {time.stages.3.weightGradSeconds}, sends {time.stages.3.p2pSeconds}";
        const char* slowestZh = "F = {time.stages.3.forwardSeconds}，B = {time.stages.3.backwardSeconds}（I + W），"
                                "W = {time.stages.3.weightGradSeconds}，发送 {time.stages.3.p2pSeconds}";
        out.push_back({ "zero-bubble",
            { "Zero bubble: splitting the backward", "零气泡：拆分反向传播" },
            { "pipeline", "bubble", "zero-bubble", "zb-h1" },
            base,
            {
                { { "Plain 1F1B again on p = 4 ranks with m = 16 microbatches, this time without recomputation. Every "
                    "rank idles p - 1 = 3 slots of one forward and one backward while the pipeline fills and drains.",
                      "再看普通 1F1B：p = 4 个 rank，m = 16 个微批次，这次不做重计算。流水线启动和收尾时，每个 rank 空闲 p - 1 = 3 个"
                      "时隙，每个时隙是一次前向加一次反向。" },
                    "timeline", json::object(),
                    question({ "What share of the pipeline time is bubble under 1F1B (p = 4, m = 16)?",
                                 "1F1B 下气泡占流水线时间的比例是多少（p = 4、m = 16）？" },
                        "time.bubbleFraction", "",
                        { "(p - 1) / (m + p - 1) = 3 / 19 = 0.158", "(p - 1) / (m + p - 1) = 3 / 19 = 0.158" }) },
                { { "Zero Bubble (Qi et al., ICLR 2024) splits each backward in two: I, the gradient of the layer's input, "
                    "which the previous stage waits for, and W, the gradient of the weights, which nobody waits for (the "
                    "paper calls I \"B\"). ZB-H1 keeps 1F1B's warm-up and its memory (p microbatches in flight) and pushes "
                    "the W passes back into the slots where 1F1B idles at the end of the step.",
                      "零气泡调度（Qi 等，ICLR 2024）把每次反向拆成两部分：I 是对本层输入的梯度，前一个阶段在等它；W 是对权重的梯度，"
                      "没有人等它（论文把 I 称为 “B”）。ZB-H1 保留 1F1B 的预热阶段和显存（p 个微批次在途），把 W 推迟到 1F1B 在步末"
                      "空闲的时隙里去做。" },
                    "timeline", { { "training", { { "schedule", "zb-h1" } } } },
                    question({ "What share of the pipeline time is bubble under ZB-H1 (p = 4, m = 16)?",
                                 "ZB-H1 下气泡占流水线时间的比例是多少（p = 4、m = 16）？" },
                        "time.bubbleFraction", "",
                        { std::string("ZB-H1's bubble is (p - 1)(T_F + T_B - T_W) in the paper's names (T_B the input "
                                      "gradient, here I = B - W): a third of 1F1B's (p - 1)(T_F + T_B + T_W) when "
                                      "T_F = T_B = T_W. On the slowest stage ") + slowest
                                + ": bubble = 3 x (F + (B - W) - W + sends) = {time.bubbleSeconds}, share = bubble / "
                                  "(m x (F + B + sends) + bubble) = {time.bubbleFraction}, against 1F1B's 3/19 = 0.158. W "
                                  "(the GEMMs only) is shorter than F and I here, so more than a third of 1F1B's bubble is "
                                  "left, though less than half.",
                            std::string("按论文的记号，ZB-H1 的气泡为 (p - 1)(T_F + T_B - T_W)（T_B 是输入梯度，这里 I = B - W）："
                                        "T_F = T_B = T_W 时是 1F1B 气泡 (p - 1)(T_F + T_B + T_W) 的三分之一。最慢的阶段上 ")
                                + slowestZh
                                + "：气泡 = 3 x (F + (B - W) - W + 发送) = {time.bubbleSeconds}，比例 = 气泡 / "
                                  "(m x (F + B + 发送) + 气泡) = {time.bubbleFraction}，1F1B 为 3/19 = 0.158。这里 W（只有 "
                                  "GEMM）比 F 和 I 短，所以剩下的气泡多于 1F1B 的三分之一，但不到一半。" }) },
                { { "ZB-H2 runs more forward passes during the warm-up (up to 2p - 1 microbatches in flight, about twice "
                    "1F1B's activation memory), so that W passes fill the start-up gaps as well; the paper also drops the "
                    "synchronisation before the optimizer step.",
                      "ZB-H2 在预热阶段多做一些前向（最多 2p - 1 个微批次在途，激活显存约为 1F1B 的两倍），让 W 连启动时的空隙也填上；"
                      "论文还去掉了优化器步之前的同步。" },
                    "timeline", { { "training", { { "schedule", "zb-h2" } } } },
                    question({ "And the bubble share under ZB-H2?", "ZB-H2 下气泡比例呢？" }, "time.bubbleFraction", "",
                        { std::string("(p - 1)(T_F + T_B - 2 T_W), zero when T_F = T_B = T_W. Here ") + slowest
                                + ": bubble = 3 x (F + (B - W) - 2W + sends) = {time.bubbleSeconds}, share "
                                  "{time.bubbleFraction}: not zero, because W is shorter than F and I.",
                            std::string("(p - 1)(T_F + T_B - 2 T_W)，T_F = T_B = T_W 时为零。这里 ") + slowestZh
                                + "：气泡 = 3 x (F + (B - W) - 2W + 发送) = {time.bubbleSeconds}，比例 {time.bubbleFraction}；"
                                  "不为零，因为 W 比 F 和 I 短。" }) },
            } });
    }

    // Choosing a 3D plan for GPT-3 175B on 256 A100s and checking a claim against it (the interview guide's question).
    {
        json base = { { "schema", "planscope/plan/v1" }, { "model", { { "preset", "gpt3-175b" } } },
            { "cluster", { { "gpu", "a100-sxm4-80gb" }, { "nodes", 32 }, { "gpusPerNode", 8 } } },
            { "parallel", { { "dp", 4 }, { "tp", 8 }, { "pp", 8 }, { "zero", 2 }, { "sp", false } } },
            { "training", { { "microBatch", 1 }, { "globalBatch", 1536 }, { "precision", "fp16" }, { "gradDtype", "fp16" },
                              { "optimizer", "adam" }, { "recompute", "selective" }, { "schedule", "1f1b" }, { "tokens", 3e11 } } } };
        out.push_back({ "plan-175b",
            { "A 3D plan for 175B on 256 GPUs, and a claim", "256 张 GPU 训练 175B 的 3D 方案与一个说法" },
            { "3d-parallelism", "planning", "flops", "claim-check" },
            base,
            {
                { { "TP = 8 inside each node (its all-reduces need NVLink), PP = 8 across nodes (only activations cross the "
                    "network, once per microbatch and stage), DP = 4 over the rest, ZeRO-2. Every token costs the model "
                    "about 6 N FLOPs plus the attention's.",
                      "节点内 TP = 8（它的 all-reduce 需要 NVLink），跨节点 PP = 8（只有激活跨网络，每个微批次每个阶段一次），"
                      "剩下的做 DP = 4，加 ZeRO-2。每个 token 的计算量约为 6N FLOP 再加上注意力部分。" },
                    "grid", json::object(),
                    question({ "How many model FLOPs does one token cost?", "一个 token 需要多少模型 FLOP？" },
                        "flops.modelPerToken", "FLOP",
                        { "72 L h^2 (1 + s/(6h) + V/(12 h L)) per token (Narayanan et al., SC 2021) = 6N + the attention",
                            "每个 token 72 L h^2 (1 + s/(6h) + V/(12 h L))（Narayanan 等，SC 2021）= 6N + 注意力部分" }) },
                { { "\"Trained on 300 B tokens in 14 days on 256 GPUs\": the model's step time gives the tokens per second; "
                    "divide the tokens by it.",
                      "“256 张 GPU 14 天训练 3000 亿 token”：用模型预测的步时间得到每秒 token 数，再用总 token 数除以它。" },
                    "timeline", json::object(),
                    question({ "How many days does this plan take for 300 B tokens? Is 14 possible?",
                                 "这个方案训练 3000 亿 token 需要多少天？14 天可能吗？" },
                        "time.trainingDays", "days",
                        { "days = tokens / tokens per second / 86,400; compare with 14 (planscope-cli check answers by how much "
                          "it is short)",
                            "天数 = token 数 / 每秒 token 数 / 86400；与 14 比较（planscope-cli check 给出差多少倍）" }) },
            } });
    }
    return out;
}

const json* step(const json& j, const std::string& part)
{
    if (!part.empty() && part.back() == ']') {
        const std::size_t open = part.find('[');
        const std::size_t eq = part.find('=', open);
        if (open == std::string::npos || eq == std::string::npos) return nullptr;
        const json* arr = open == 0 ? &j : (j.is_object() && j.contains(part.substr(0, open)) ? &j[part.substr(0, open)] : nullptr);
        if (!arr || !arr->is_array()) return nullptr;
        const std::string key = part.substr(open + 1, eq - open - 1), value = part.substr(eq + 1, part.size() - eq - 2);
        for (const json& e : *arr)
            if (e.is_object() && e.contains(key) && e[key].is_string() && e[key].get<std::string>() == value) return &e;
        return nullptr;
    }
    if (j.is_array()) {
        if (part.empty() || !std::all_of(part.begin(), part.end(), [](char c) { return std::isdigit(static_cast<unsigned char>(c)); }))
            return nullptr;
        const std::size_t i = std::stoul(part);
        return i < j.size() ? &j[i] : nullptr;
    }
    return j.is_object() && j.contains(part) ? &j[part] : nullptr;
}

const json* nodeAtPath(const json& doc, const std::string& path)
{
    const json* j = &doc;
    std::size_t from = 0;
    while (j && from <= path.size()) {
        const std::size_t dot = path.find('.', from);
        j = step(*j, path.substr(from, dot == std::string::npos ? std::string::npos : dot - from));
        if (dot == std::string::npos) break;
        from = dot + 1;
    }
    return j;
}

} // namespace

std::optional<double> valueAtPath(const json& doc, const std::string& path)
{
    const json* j = nodeAtPath(doc, path);
    if (!j || !j->is_number()) return std::nullopt;
    return j->get<double>();
}

Result<std::vector<Lesson>> builtinLessons()
{
    std::vector<Lesson> out;
    for (const LessonSource& src : lessonSources()) {
        Lesson lesson { src.id, src.title, src.topics, {} };
        json plan = src.base;
        int k = 0;
        for (const StepSource& s : src.steps) {
            plan.merge_patch(s.patch);
            LessonStep st { s.text, s.view, plan, s.question };
            if (st.question) {
                const std::string where = std::string(src.id) + ".steps." + std::to_string(k);
                const auto doc = analyticPredictionDocument(plan);
                if (!doc) return Result<std::vector<Lesson>>::failure(where, issueText(doc.errors().front()));
                const auto v = valueAtPath(doc.value(), st.question->field);
                if (!v)
                    return Result<std::vector<Lesson>>::failure(
                        where, Text(PS_TEXT("CoreText", "no number at %1"), st.question->field));
                st.question->answer = *v;
                st.question->solution = { fillNumbers(st.question->solution.en, doc.value()),
                    fillNumbers(st.question->solution.zh_CN, doc.value()) };
            }
            lesson.steps.push_back(std::move(st));
            ++k;
        }
        out.push_back(std::move(lesson));
    }
    return out;
}

Result<json> analyticPredictionDocument(const json& plan)
{
    auto parsed = parsePlan(plan.dump());
    if (!parsed)
        return Result<json>::failure(parsed.errors().front().path,
            Text(PS_TEXT("CoreText", "the plan does not parse: %1 %2"), parsed.errors().front().path,
                issueText(parsed.errors().front())));
    AnalysisOptions o;
    o.simulate = false; // the closed form: the formulas the lessons teach
    const auto a = analyse(parsed->plan, o);
    if (!a->valid()) {
        if (a->prediction.errors.empty())
            return Result<json>::failure("", Text(PS_TEXT("CoreText", "the plan is not valid")));
        const Issue& first = a->prediction.errors.front();
        return Result<json>::failure(
            first.path, Text(PS_TEXT("CoreText", "the plan is not valid: %1"), issueText(first)));
    }
    return analysisToJson(*a, StepFigure::Analytic);
}

std::string fillNumbers(const std::string& text, const json& doc)
{
    auto endsWith = [](const std::string& s, const char* tail) {
        const std::size_t n = std::char_traits<char>::length(tail);
        return s.size() >= n && s.compare(s.size() - n, n, tail) == 0;
    };
    std::string out;
    std::size_t from = 0;
    while (from < text.size()) {
        const std::size_t open = text.find('{', from), close = open == std::string::npos ? open : text.find('}', open);
        if (close == std::string::npos) break;
        const std::string path = text.substr(open + 1, close - open - 1);
        const auto v = valueAtPath(doc, path);
        const json* node = nodeAtPath(doc, path);
        out += text.substr(from, open - from);
        if (node && node->is_string())
            out += node->get<std::string>();
        else if (!v)
            out += text.substr(open, close - open + 1);
        else
            out += endsWith(path, "Seconds") ? units::formatSeconds(*v)
                : endsWith(path, "Bytes")    ? units::formatBytes(*v)
                                             : units::formatNumber(*v);
        from = close + 1;
    }
    return out + text.substr(std::min(from, text.size()));
}

json lessonsToJson(const std::vector<Lesson>& lessons)
{
    auto text = [](const Bilingual& b) { return json { { "en", b.en }, { "zh_CN", b.zh_CN } }; };
    json arr = json::array();
    for (const Lesson& l : lessons) {
        json steps = json::array();
        for (const LessonStep& s : l.steps) {
            json st = { { "text", text(s.text) }, { "view", s.view }, { "plan", s.plan } };
            if (s.question)
                st["question"] = { { "text", text(s.question->text) }, { "answer", s.question->answer }, { "unit", s.question->unit },
                    { "tolerance", s.question->tolerance }, { "field", s.question->field }, { "figure", "analytic" },
                    { "solution", text(s.question->solution) } };
            steps.push_back(st);
        }
        arr.push_back({ { "id", l.id }, { "title", text(l.title) }, { "topics", l.topics }, { "steps", steps } });
    }
    return { { "schema", "planscope/lessons/v1" }, { "lessons", arr } };
}

} // namespace planscope
