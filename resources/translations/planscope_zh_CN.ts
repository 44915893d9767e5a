<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="zh_CN">
<context>
    <name>CoreText</name>
    <message>
        <source>c, cz: the compute the hidden part slows, per step and per microbatch (docs/MODEL.md section 7.3).</source>
        <translation>c、cz：被隐藏部分拖慢的计算，分别按每步与每个微批次计（docs/MODEL.md 第 7.3 节）。</translation>
    </message>
    <message>
        <source>no framework: ZeRO-2/3 with pp &gt; 1 as modelled</source>
        <translation>无框架支持：按此模型的 ZeRO-2/3 与 pp &gt; 1 组合</translation>
    </message>
    <message>
        <source>docs/MEMORY-ACCURACY.md (the headroom)</source>
        <translation>docs/MEMORY-ACCURACY.md（余量）</translation>
    </message>
    <message>
        <source>The peak a plan may reach and still leave the headroom (memoryOverheads.headroom) that covers what the memory model missed on published runs; the planner counts a plan as fitting only below it.</source>
        <translation>方案峰值可达到的上限，同时仍保留余量（memoryOverheads.headroom），以覆盖显存模型在已发表运行上的遗漏；规划器只把低于此值的方案计为可容纳。</translation>
    </message>
    <message>
        <source>NVIDIA NCCL user guide, environment variables: NCCL_MIN_CTAS and NCCL_MAX_CTAS (a collective kernel runs one CUDA block per channel, each on an SM)</source>
        <translation>NVIDIA NCCL 用户指南，环境变量：NCCL_MIN_CTAS 与 NCCL_MAX_CTAS（集合通信内核每个通道运行一个 CUDA 线程块，各占一个 SM）</translation>
    </message>
    <message>
        <source>Lee et al., Characterizing Compute-Communication Overlap in GPU-Accelerated Distributed Deep Learning (arXiv 2507.03114): overlapped compute 18.9 % slower on average, up to 40 %, on A100, H100, MI250 and MI210</source>
        <translation>Lee 等，Characterizing Compute-Communication Overlap in GPU-Accelerated Distributed Deep Learning（arXiv 2507.03114）：与通信重叠时计算平均变慢 18.9 %，最多 40 %（A100、H100、MI250、MI210）</translation>
    </message>
    <message>
        <source>hidden: the ZeRO-2/3 reduce-scatter and gathers of one microbatch that run beside its forward and backward (at most F + B); charged to every backward, in zeroExposedSeconds.</source>
        <translation>hidden：一个微批次中与其前向、反向并行运行的 ZeRO-2/3 reduce-scatter 与 all-gather（至多 F + B）；计入每次反向，即 zeroExposedSeconds。</translation>
    </message>
    <message>
        <source>hidden: the seconds of the step&apos;s gradient reduction and parameter gather that run beside the backward and forward; charged to the exposed data-parallel tail (dpExposedSeconds).</source>
        <translation>hidden：本步梯度归约与参数收集中与反向、前向并行运行的秒数；计入暴露的数据并行尾部（dpExposedSeconds）。</translation>
    </message>
    <message>
        <source>stage %1 leaves %2 free, less than the %3 headroom (memoryOverheads.headroom) that covers the memory model&apos;s measured error; the planner does not count it as fitting</source>
        <translation>阶段 %1 仅剩 %2 空闲，少于 %3 的余量（memoryOverheads.headroom，用于覆盖显存模型实测误差）；规划器不将其计为可容纳</translation>
    </message>
    <message>
        <source>stage %1 leaves %2 free, less than the %3 headroom</source>
        <translation>阶段 %1 仅剩 %2 空闲，少于 %3 的余量</translation>
    </message>
    <message>
        <source>less free memory than the headroom (memoryOverheads.headroom)</source>
        <translation>空闲显存少于余量（memoryOverheads.headroom）</translation>
    </message>
    <message>
        <source>must be &gt; 0</source>
        <translation>必须大于 0</translation>
    </message>
    <message>
        <source>kvHeads %1 must divide heads %2</source>
        <translation>kvHeads %1 必须能整除 heads %2</translation>
    </message>
    <message>
        <source>topK %1 must be in 1..%2</source>
        <translation>topK %1 必须在 1..%2 之间</translation>
    </message>
    <message>
        <source>dp*tp*pp*cp = %1*%2*%3*%4 = %5 but the cluster has %6*%7 = %8 GPUs</source>
        <translation>dp*tp*pp*cp = %1*%2*%3*%4 = %5，但集群共有 %6*%7 = %8 块 GPU</translation>
    </message>
    <message>
        <source>tp %1 does not divide the %2 attention heads</source>
        <translation>tp %1 不能整除 %2 个注意力头</translation>
    </message>
    <message>
        <source>tp %1 does not divide the %2 key/value heads (Megatron requires num_query_groups % tp == 0)</source>
        <translation>tp %1 不能整除 %2 个 key/value 头（Megatron 要求 num_query_groups % tp == 0）</translation>
    </message>
    <message>
        <source>tp %1 does not divide the FFN hidden size %2</source>
        <translation>tp %1 不能整除 FFN 隐藏层大小 %2</translation>
    </message>
    <message>
        <source>Megatron pads the vocabulary to a multiple of 128*tp = %1; the model counts %2 as given</source>
        <translation>Megatron 会把词表填充到 128*tp = %1 的倍数；本模型按给定的 %2 计算</translation>
    </message>
    <message>
        <source>sequence parallelism has no effect with tp = 1</source>
        <translation>tp = 1 时序列并行不起作用</translation>
    </message>
    <message>
        <source>cp %1 does not divide the sequence length %2</source>
        <translation>cp %1 不能整除序列长度 %2</translation>
    </message>
    <message>
        <source>Megatron&apos;s load-balanced context parallelism needs seqLength divisible by 2*cp = %1</source>
        <translation>Megatron 的负载均衡上下文并行要求 seqLength 能被 2*cp = %1 整除</translation>
    </message>
    <message>
        <source>needs tensor parallelism with sequence parallelism (Megatron-Core refuses --tp-comm-overlap without --sequence-parallel); ignored</source>
        <translation>需要张量并行并开启序列并行（没有 --sequence-parallel 时 Megatron-Core 拒绝 --tp-comm-overlap）；已忽略</translation>
    </message>
    <message>
        <source>context parallelism in Megatron runs on flash/fused attention; set flashAttention to true for its activation memory</source>
        <translation>Megatron 的上下文并行基于 flash/fused attention；请将 flashAttention 设为 true，以得到相应的激活值显存</translation>
    </message>
    <message>
        <source>ep %1 &gt; 1 needs a MoE model (model.moe.experts)</source>
        <translation>ep %1 &gt; 1 需要 MoE 模型（model.moe.experts）</translation>
    </message>
    <message>
        <source>ep %1 does not divide the %2 experts</source>
        <translation>ep %1 不能整除 %2 个专家</translation>
    </message>
    <message>
        <source>ep %1 must divide dp*cp = %2 (experts are spread over the data-parallel ranks, as in Megatron)</source>
        <translation>ep %1 必须能整除 dp*cp = %2（与 Megatron 一样，专家分布在数据并行的各 rank 上）</translation>
    </message>
    <message>
        <source>&quot;%1&quot;: %2</source>
        <translation>&quot;%1&quot;：%2</translation>
    </message>
    <message>
        <source>%1 %2 is larger than a node (%3 GPUs): some %4 group spans %5 nodes under the order %6; its per-layer collectives run over the inter-node network</source>
        <translation>%1 %2 大于一个节点（%3 块 GPU）：在顺序 %6 下，有 %4 组跨越 %5 个节点；其每层的集合通信走节点间网络</translation>
    </message>
    <message>
        <source>%1 %2 does not fit the %3-GPU nodes: some %4 group spans %5 nodes under the order %6; its per-layer collectives run over the inter-node network</source>
        <translation>%1 %2 与 %3 卡节点不对齐：在顺序 %6 下，有 %4 组跨越 %5 个节点；其每层的集合通信走节点间网络</translation>
    </message>
    <message>
        <source>uneven first/last stages need pp &gt;= 2</source>
        <translation>首/尾阶段的不均匀划分需要 pp &gt;= 2</translation>
    </message>
    <message>
        <source>uneven stages are not supported with the %1 schedule</source>
        <translation>%1 调度不支持不均匀的阶段划分</translation>
    </message>
    <message>
        <source>layers %1 minus first/last stages %2 = %3 cannot be spread evenly over the %4 other stages</source>
        <translation>layers %1 减去首/尾阶段的 %2 层后为 %3，无法均匀分配到其余 %4 个阶段</translation>
    </message>
    <message>
        <source>a middle rank with %1 layers cannot hold %2 chunks</source>
        <translation>只有 %1 层的中间 rank 放不下 %2 个 chunk</translation>
    </message>
    <message>
        <source>an end rank with %1 layers cannot hold %2 chunks</source>
        <translation>只有 %1 层的首/尾 rank 放不下 %2 个 chunk</translation>
    </message>
    <message>
        <source>an end rank with %1 layers holds %2 chunks: one chunk holds only the embedding or the output layer (as in Llama 3)</source>
        <translation>有 %1 层的首/尾 rank 持有 %2 个 chunk：其中一个 chunk 只含嵌入层或输出层（与 Llama 3 相同）</translation>
    </message>
    <message>
        <source>layers %1 are not divisible by pp*%2 = %3; set parallel.firstStageLayers/lastStageLayers for an uneven split</source>
        <translation>layers %1 不能被 pp*%2 = %3 整除；如需不均匀划分，请设置 parallel.firstStageLayers/lastStageLayers</translation>
    </message>
    <message>
        <source>globalBatch %1 is not divisible by microBatch*dp = %2</source>
        <translation>globalBatch %1 不能被 microBatch*dp = %2 整除</translation>
    </message>
    <message>
        <source>interleaved-1f1b with vpp = 1 is plain 1F1B (Megatron runs the non-interleaved schedule)</source>
        <translation>vpp = 1 的 interleaved-1f1b 就是普通 1F1B（Megatron 会运行非交错调度）</translation>
    </message>
    <message>
        <source>interleaved-1f1b needs pp &gt;= 2</source>
        <translation>interleaved-1f1b 需要 pp &gt;= 2</translation>
    </message>
    <message>
        <source>interleaved-1f1b needs the number of microbatches (%1) to be a multiple of pp = %2 (Megatron-LM)</source>
        <translation>interleaved-1f1b 要求微批次数（%1）是 pp = %2 的倍数（Megatron-LM）</translation>
    </message>
    <message>
        <source>microbatches %1 &lt; pp %2: PyTorch&apos;s Schedule1F1B refuses this; Megatron caps the warm-up and the bubble grows</source>
        <translation>微批次数 %1 &lt; pp %2：PyTorch 的 Schedule1F1B 会拒绝；Megatron 会截断预热阶段，流水线气泡随之变大</translation>
    </message>
    <message>
        <source>zb-h1 (PyTorch&apos;s zero-bubble schedule) needs the microbatches (%1) to be a multiple of the number of rounds max(1, m/pp) = %2</source>
        <translation>zb-h1（PyTorch 的零气泡调度）要求微批次数（%1）是轮数 max(1, m/pp) = %2 的倍数</translation>
    </message>
    <message>
        <source>%1 places exactly two chunks per rank (V shape); vpp %2 is not supported</source>
        <translation>%1 每个 rank 恰好放两个 chunk（V 形）；不支持 vpp %2</translation>
    </message>
    <message>
        <source>dualpipe-v needs at least 2*pp = %1 microbatches, got %2</source>
        <translation>dualpipe-v 至少需要 2*pp = %1 个微批次，实际为 %2</translation>
    </message>
    <message>
        <source>dualpipe needs an even pp, got %1</source>
        <translation>dualpipe 需要偶数的 pp，实际为 %1</translation>
    </message>
    <message>
        <source>dualpipe needs an even number of microbatches, at least 2*pp = %1, got %2</source>
        <translation>dualpipe 需要偶数个微批次，且至少 2*pp = %1 个，实际为 %2</translation>
    </message>
    <message>
        <source>looped-bfs with fewer microbatches than pp waits between loops</source>
        <translation>微批次数少于 pp 时，looped-bfs 在各轮之间会等待</translation>
    </message>
    <message>
        <source>vpp %1 is ignored by the %2 schedule</source>
        <translation>%2 调度会忽略 vpp %1</translation>
    </message>
    <message>
        <source>ZeRO-%1 with pipeline parallelism: DeepSpeed&apos;s pipeline engine refuses it (only ZeRO-1 is allowed with PP); Megatron-LM offers ZeRO-1 (distributed optimizer) or its own FSDP; PyTorch&apos;s pipelining with FSDP (torchtitan) keeps the weights gathered and the gradients whole across microbatches, unlike this model, and the planner leaves such plans out</source>
        <translation>ZeRO-%1 与流水线并行同时使用：DeepSpeed 的流水线引擎不支持（与 PP 同用时只允许 ZeRO-1）；Megatron-LM 提供 ZeRO-1（分布式优化器）或其自带的 FSDP；PyTorch 流水线并行配合 FSDP（torchtitan）会在各微批次之间保持权重已收集、梯度不分片，与本模型不同，规划器不考虑此类方案</translation>
    </message>
    <message>
        <source>ZeRO shards over dp*cp = 1 rank: no saving</source>
        <translation>ZeRO 只在 dp*cp = 1 个 rank 上切分：没有节省</translation>
    </message>
    <message>
        <source>fp32 training with 16-bit gradients is unusual</source>
        <translation>fp32 训练配 16 位梯度并不常见</translation>
    </message>
    <message>
        <source>the GPU &quot;%1&quot; has no fp8 tensor cores</source>
        <translation>GPU &quot;%1&quot; 没有 fp8 Tensor Core</translation>
    </message>
    <message>
        <source>the GPU &quot;%1&quot; has no bf16 tensor cores; use fp16</source>
        <translation>GPU &quot;%1&quot; 没有 bf16 Tensor Core；请使用 fp16</translation>
    </message>
    <message>
        <source>unexpected %1 at character %2</source>
        <translation>第 %2 个字符处出现意外的 %1</translation>
    </message>
    <message>
        <source>unexpected %1 at character %2 (groups do not nest)</source>
        <translation>第 %2 个字符处出现意外的 %1（分组不能嵌套）</translation>
    </message>
    <message>
        <source>expected a count after &apos;*&apos; at character %1</source>
        <translation>第 %1 个字符处的 &apos;*&apos; 之后应为次数</translation>
    </message>
    <message>
        <source>count after &apos;*&apos; at character %1 is larger than %2</source>
        <translation>第 %1 个字符处 &apos;*&apos; 之后的次数大于 %2</translation>
    </message>
    <message>
        <source>the repetition at character %1 expands to more than %2 layers</source>
        <translation>第 %1 个字符处的重复展开后超过 %2 层</translation>
    </message>
    <message>
        <source>&apos;(&apos; at character %1 is not closed</source>
        <translation>第 %1 个字符处的 &apos;(&apos; 没有闭合</translation>
    </message>
    <message>
        <source>empty group &apos;()&apos; at character %1</source>
        <translation>第 %1 个字符处是空分组 &apos;()&apos;</translation>
    </message>
    <message>
        <source>expected &apos;*&apos; and a count after &apos;)&apos; at character %1</source>
        <translation>第 %1 个字符处的 &apos;)&apos; 之后应为 &apos;*&apos; 和次数</translation>
    </message>
    <message>
        <source>a layout cannot be combined with firstStageLayers, lastStageLayers, embeddingInSplit or lossInSplit (Megatron-Core refuses the combination)</source>
        <translation>layout 不能与 firstStageLayers、lastStageLayers、embeddingInSplit 或 lossInSplit 同时使用（Megatron-Core 不接受这种组合）</translation>
    </message>
    <message>
        <source>a layout is not supported with the %1 schedule</source>
        <translation>%1 调度不支持 layout</translation>
    </message>
    <message>
        <source>the layout has %1 stages but pp*%2 = %3 are needed (pp %4)</source>
        <translation>layout 有 %1 个阶段，但需要 pp*%2 = %3 个（pp %4）</translation>
    </message>
    <message>
        <source>the layout has %1 stages but pp*%2 = %3 are needed (pp %4, vpp %5)</source>
        <translation>layout 有 %1 个阶段，但需要 pp*%2 = %3 个（pp %4，vpp %5）</translation>
    </message>
    <message>
        <source>the layout has %1 transformer layers (&apos;t&apos;) but model.layers is %2</source>
        <translation>layout 有 %1 个 Transformer 层（&apos;t&apos;），但 model.layers 为 %2</translation>
    </message>
    <message>
        <source>a second embedding %1 at character %2 (stage %3); &apos;E&apos; appears once</source>
        <translation>第 %2 个字符处（阶段 %3）出现第二个嵌入层 %1；&apos;E&apos; 只能出现一次</translation>
    </message>
    <message>
        <source>embedding %1 at character %2 (stage %3): &apos;E&apos; must be the first layer of the first stage</source>
        <translation>嵌入层 %1 位于第 %2 个字符处（阶段 %3）：&apos;E&apos; 必须是第一个阶段的第一层</translation>
    </message>
    <message>
        <source>a second loss %1 at character %2 (stage %3); &apos;L&apos; appears once</source>
        <translation>第 %2 个字符处（阶段 %3）出现第二个 loss %1；&apos;L&apos; 只能出现一次</translation>
    </message>
    <message>
        <source>loss %1 at character %2 (stage %3): &apos;L&apos; must be the last layer of the last stage</source>
        <translation>loss %1 位于第 %2 个字符处（阶段 %3）：&apos;L&apos; 必须是最后一个阶段的最后一层</translation>
    </message>
    <message>
        <source>MTP layer %1 at character %2 (stage %3): &apos;m&apos; belongs to the last virtual stage of a rank other than the first</source>
        <translation>MTP 层 %1 位于第 %2 个字符处（阶段 %3）：&apos;m&apos; 应位于第一个 rank 以外某个 rank 的最后一个虚拟阶段</translation>
    </message>
    <message>
        <source>transformer layer %1 at character %2 (stage %3) after an MTP layer; &apos;t&apos; layers come before &apos;m&apos;</source>
        <translation>Transformer 层 %1 位于第 %2 个字符处（阶段 %3），在 MTP 层之后；&apos;t&apos; 层必须在 &apos;m&apos; 之前</translation>
    </message>
    <message>
        <source>no embedding &apos;E&apos;: the first stage must start with it</source>
        <translation>没有嵌入层 &apos;E&apos;：第一个阶段必须以它开头</translation>
    </message>
    <message>
        <source>no loss &apos;L&apos;: the last stage must end with it</source>
        <translation>没有 loss &apos;L&apos;：最后一个阶段必须以它结尾</translation>
    </message>
    <message>
        <source>embeddingInSplit/lossInSplit cannot be combined with firstStageLayers/lastStageLayers (Megatron-Core refuses the combination)</source>
        <translation>embeddingInSplit/lossInSplit 不能与 firstStageLayers/lastStageLayers 同时使用（Megatron-Core 不接受这种组合）</translation>
    </message>
    <message>
        <source>embeddingInSplit/lossInSplit are not supported with the %1 schedule</source>
        <translation>%1 调度不支持 embeddingInSplit/lossInSplit</translation>
    </message>
    <message>
        <source>layers %1 + embedding = %2 are not divisible by pp*%3 = %4</source>
        <translation>layers %1 + embedding = %2 不能被 pp*%3 = %4 整除</translation>
    </message>
    <message>
        <source>layers %1 + loss = %2 are not divisible by pp*%3 = %4</source>
        <translation>layers %1 + loss = %2 不能被 pp*%3 = %4 整除</translation>
    </message>
    <message>
        <source>layers %1 + embedding + loss = %2 are not divisible by pp*%3 = %4</source>
        <translation>layers %1 + embedding + loss = %2 不能被 pp*%3 = %4 整除</translation>
    </message>
    <message>
        <source>unknown name &quot;%1&quot;; use tp, cp, ep, dp and pp joined by &apos;-&apos;</source>
        <translation>未知名称 &quot;%1&quot;；请用 &apos;-&apos; 连接 tp、cp、ep、dp 和 pp</translation>
    </message>
    <message>
        <source>&quot;%1&quot; appears twice</source>
        <translation>&quot;%1&quot; 出现了两次</translation>
    </message>
    <message>
        <source>&quot;%1&quot; is missing</source>
        <translation>缺少 &quot;%1&quot;</translation>
    </message>
    <message>
        <source>the file is empty</source>
        <translation>文件为空</translation>
    </message>
    <message>
        <source>the file holds only white space</source>
        <translation>文件只包含空白字符</translation>
    </message>
    <message>
        <source>parse error at line %1, column %2: syntax error while parsing %3 - %4</source>
        <translation>解析错误（第 %1 行，第 %2 列）：解析 %3 时出现语法错误 - %4</translation>
    </message>
    <message>
        <source>parse error at line %1, column %2: %3</source>
        <translation>解析错误（第 %1 行，第 %2 列）：%3</translation>
    </message>
    <message>
        <source>not valid JSON</source>
        <translation>不是有效的 JSON</translation>
    </message>
    <message>
        <source>must be an object, found %1</source>
        <translation>必须是对象，实际为 %1</translation>
    </message>
    <message>
        <source>must be a number, found %1</source>
        <translation>必须是数字，实际为 %1</translation>
    </message>
    <message>
        <source>must be a finite number &gt;= %1, found %2</source>
        <translation>必须是 &gt;= %1 的有限数，实际为 %2</translation>
    </message>
    <message>
        <source>must be an integer, found %1</source>
        <translation>必须是整数，实际为 %1</translation>
    </message>
    <message>
        <source>must be a whole number, found %1</source>
        <translation>必须是整数值，实际为 %1</translation>
    </message>
    <message>
        <source>must be between %1 and %2, found %3</source>
        <translation>必须在 %1 到 %2 之间，实际为 %3</translation>
    </message>
    <message>
        <source>must be true or false, found %1</source>
        <translation>必须是 true 或 false，实际为 %1</translation>
    </message>
    <message>
        <source>must be a string, found %1</source>
        <translation>必须是字符串，实际为 %1</translation>
    </message>
    <message>
        <source>unknown value &quot;%1&quot;; expected one of: %2</source>
        <translation>未知取值 &quot;%1&quot;；应为以下之一：%2</translation>
    </message>
    <message>
        <source>unknown field, ignored</source>
        <translation>未知字段，已忽略</translation>
    </message>
    <message>
        <source>unknown field, ignored; did you mean &quot;%1&quot;?</source>
        <translation>未知字段，已忽略；是否想写 &quot;%1&quot;？</translation>
    </message>
    <message>
        <source>cannot open file</source>
        <translation>无法打开文件</translation>
    </message>
    <message>
        <source>read error</source>
        <translation>读取错误</translation>
    </message>
    <message>
        <source>must be an array of %1 pairs</source>
        <translation>必须是由 %1 数据对组成的数组</translation>
    </message>
    <message>
        <source>must be %1</source>
        <translation>必须是 %1</translation>
    </message>
    <message>
        <source>[sequence length, FLOP/s], both &gt; 0</source>
        <translation>[序列长度, FLOP/s]，两者均 &gt; 0</translation>
    </message>
    <message>
        <source>[buffer bytes, share of the large-message bus bandwidth in (0, 1]]</source>
        <translation>[缓冲区字节数, 大消息总线带宽的占比，取值 (0, 1]]</translation>
    </message>
    <message>
        <source>must be in [0, 1] (0 = not measured)</source>
        <translation>必须在 [0, 1] 内（0 = 未测量）</translation>
    </message>
    <message>
        <source>must be in [0, 1] (0 = same as gemmEfficiency)</source>
        <translation>必须在 [0, 1] 内（0 = 与 gemmEfficiency 相同）</translation>
    </message>
    <message>
        <source>must be in [0, 1] (achieved copy bandwidth / datasheet; 0 = not measured)</source>
        <translation>必须在 [0, 1] 内（实测拷贝带宽 / 标称带宽；0 = 未测量）</translation>
    </message>
    <message>
        <source>must be &gt; 0 (bytes per second per GPU per direction)</source>
        <translation>必须大于 0（每块 GPU 每个方向的字节/秒）</translation>
    </message>
    <message>
        <source>must be in (0, 1.5] (achieved bus bandwidth / link bandwidth)</source>
        <translation>必须在 (0, 1.5] 内（实测总线带宽 / 链路带宽）</translation>
    </message>
    <message>
        <source>must be in [0, 1.5] (0 = same as efficiency)</source>
        <translation>必须在 [0, 1.5] 内（0 = 与 efficiency 相同）</translation>
    </message>
    <message>
        <source>missing: name a GPU preset (e.g. &quot;a100-sxm4-80gb&quot;) or give a GPU object</source>
        <translation>缺失：请指定 GPU 预设（如 &quot;a100-sxm4-80gb&quot;）或给出 GPU 对象</translation>
    </message>
    <message>
        <source>unknown GPU preset &quot;%1&quot;; known: %2</source>
        <translation>未知的 GPU 预设 &quot;%1&quot;；已知预设：%2</translation>
    </message>
    <message>
        <source>unknown GPU preset &quot;%1&quot;</source>
        <translation>未知的 GPU 预设 &quot;%1&quot;</translation>
    </message>
    <message>
        <source>missing: GPU memory in bytes</source>
        <translation>缺失：GPU 显存（字节）</translation>
    </message>
    <message>
        <source>missing: dense peak FLOP/s per dtype</source>
        <translation>缺失：各数据类型的稠密峰值 FLOP/s</translation>
    </message>
    <message>
        <source>must be a preset name or an object, found %1</source>
        <translation>必须是预设名或对象，实际为 %1</translation>
    </message>
    <message>
        <source>unknown node preset &quot;%1&quot;</source>
        <translation>未知的节点预设 &quot;%1&quot;</translation>
    </message>
    <message>
        <source>missing: number of nodes</source>
        <translation>缺失：节点数</translation>
    </message>
    <message>
        <source>missing: no node preset gives it; set bytes/s per direction</source>
        <translation>缺失：没有节点预设提供该值；请设置每个方向的字节/秒</translation>
    </message>
    <message>
        <source>fsdp shards weights, gradients and optimizer states: zero stage set to 3</source>
        <translation>fsdp 会切分权重、梯度和优化器状态：zero 阶段已设为 3</translation>
    </message>
    <message>
        <source>must be a share in [0, 1)</source>
        <translation>必须是 [0, 1) 内的比例</translation>
    </message>
    <message>
        <source>unsupported schema &quot;%1&quot;; this build reads %2</source>
        <translation>不支持的 schema &quot;%1&quot;；此版本读取 %2</translation>
    </message>
    <message>
        <source>missing; read as %1</source>
        <translation>缺失；按 %1 读取</translation>
    </message>
    <message>
        <source>unknown model preset &quot;%1&quot;; known: %2</source>
        <translation>未知的模型预设 &quot;%1&quot;；已知预设：%2</translation>
    </message>
    <message>
        <source>missing: a model object (a &quot;preset&quot; or its shape)</source>
        <translation>缺失：模型对象（一个 &quot;preset&quot; 或模型结构）</translation>
    </message>
    <message>
        <source>missing: give it or name a model &quot;preset&quot;</source>
        <translation>缺失：请给出该值，或指定模型 &quot;preset&quot;</translation>
    </message>
    <message>
        <source>missing: a cluster object with &quot;gpu&quot; and &quot;nodes&quot;</source>
        <translation>缺失：含 &quot;gpu&quot; 和 &quot;nodes&quot; 的 cluster 对象</translation>
    </message>
    <message>
        <source>missing; using microBatch*dp*4*pp = %1</source>
        <translation>缺失；使用 microBatch*dp*4*pp = %1</translation>
    </message>
    <message>
        <source>the schedule has %1 ops (pp*microbatches*chunks*passes), more than the %2 the simulation lays out; the step time is the closed form&apos;s</source>
        <translation>该调度有 %1 个操作（pp*微批次数*chunk 数*pass 数），超过仿真可排布的 %2 个；步长时间采用闭式解</translation>
    </message>
    <message>
        <source>not simulated: %1</source>
        <translation>未仿真：%1</translation>
    </message>
    <message>
        <source>calibrated: %1</source>
        <translation>已校准：%1</translation>
    </message>
    <message>
        <source>calibration: the profile measured nothing this plan uses; preset values kept</source>
        <translation>校准：profile 中没有本方案用到的测量值；保留预设值</translation>
    </message>
    <message>
        <source>calibration: %1</source>
        <translation>校准：%1</translation>
    </message>
    <message>
        <source>%1 -&gt; latency %2, efficiency %3 of %4</source>
        <translation>%1 -&gt; 延迟 %2，效率为 %4 的 %3</translation>
    </message>
    <message>
        <source>%1 -&gt; latency %2, efficiency %3 of %4 (above the wire speed: NVLS/in-switch reduction)</source>
        <translation>%1 -&gt; 延迟 %2，效率为 %4 的 %3（超过线速：NVLS/交换机内归约）</translation>
    </message>
    <message>
        <source>%1 -&gt; latency %2, efficiency %3 of %4 per GPU</source>
        <translation>%1 -&gt; 延迟 %2，效率为每块 GPU %4 的 %3</translation>
    </message>
    <message>
        <source>%1 -&gt; latency %2, efficiency %3 of %4 per GPU (busBw / (%5 GPUs per node x the NIC bandwidth per GPU))</source>
        <translation>%1 -&gt; 延迟 %2，效率为每块 GPU %4 的 %3（busBw / (每节点 %5 块 GPU x 每块 GPU 的网卡带宽)）</translation>
    </message>
    <message>
        <source>%1 -&gt; efficiency %2 for the other collectives; all-reduce keeps %3</source>
        <translation>%1 -&gt; 其他集合通信的效率为 %2；all-reduce 保持 %3</translation>
    </message>
    <message>
        <source>only all-reduce measured; the other collectives keep efficiency %1</source>
        <translation>只测量了 all-reduce；其他集合通信保持效率 %1</translation>
    </message>
    <message>
        <source>%1 = best %2 TFLOP/s over %3 %4 GEMMs with m, n, k &gt;= 1024, of the dense peak %5 TFLOP/s</source>
        <translation>%1 = %3 个 m、n、k &gt;= 1024 的 %4 GEMM 中最高 %2 TFLOP/s，稠密峰值为 %5 TFLOP/s</translation>
    </message>
    <message>
        <source>not applied: best %1 TFLOP/s over %2 %3 GEMMs with m, n, k &gt;= 1024, of the dense peak %4 TFLOP/s exceeds the peak (wrong GPU in the plan, or a sparse peak?)</source>
        <translation>未采用：%2 个 m、n、k &gt;= 1024 的 %3 GEMM 中最高 %1 TFLOP/s（稠密峰值 %4 TFLOP/s）超过了峰值（方案中的 GPU 不对，或用了稀疏峰值？）</translation>
    </message>
    <message>
        <source>%1 %2 GEMM shapes timed; operators of exactly these shapes take the measured time</source>
        <translation>实测了 %1 个 %2 GEMM 形状；形状完全相同的算子采用实测时间</translation>
    </message>
    <message>
        <source>%1 measured by a device copy</source>
        <translation>%1，由设备内拷贝测得</translation>
    </message>
    <message>
        <source>%1 on %2 GPUs (%3 nodes), alpha %4, busBw %5</source>
        <translation>%1，%2 块 GPU（%3 个节点），alpha %4，busBw %5</translation>
    </message>
    <message>
        <source>%1 on %2 GPUs, alpha %3, busBw %4</source>
        <translation>%1，%2 块 GPU，alpha %3，busBw %4</translation>
    </message>
    <message>
        <source>more than a million microbatches to simulate</source>
        <translation>要仿真的微批次超过一百万个</translation>
    </message>
    <message>
        <source>the schedule has %1 stages but the pipeline split has %2</source>
        <translation>调度有 %1 个阶段，但流水线划分有 %2 个</translation>
    </message>
    <message>
        <source>no measured GEMM efficiency for &quot;%1&quot;; assuming 0.75 (run planscope-profile to measure it)</source>
        <translation>没有 &quot;%1&quot; 的实测 GEMM 效率；假设为 0.75（运行 planscope-profile 可测量）</translation>
    </message>
    <message>
        <source>no measured HBM efficiency for &quot;%1&quot;; assuming %2 of the datasheet bandwidth</source>
        <translation>没有 &quot;%1&quot; 的实测 HBM 效率；假设为标称带宽的 %2</translation>
    </message>
    <message>
        <source>no flash-attention benchmark for &quot;%1&quot;; assuming %2 of the GEMM rate</source>
        <translation>没有 &quot;%1&quot; 的 flash-attention 基准数据；假设为 GEMM 速率的 %2</translation>
    </message>
    <message>
        <source>stage %1 needs %2, more than the %3 of a %4 by %5</source>
        <translation>阶段 %1 需要 %2，超出 %4 的 %3 显存 %5</translation>
    </message>
    <message>
        <source>not set; trainingDays is 0</source>
        <translation>未设置；trainingDays 为 0</translation>
    </message>
    <message>
        <source>not modelled: stragglers, data loading, the embedding lookup, the tied-embedding gradient all-reduce between the first and last stage, the memory-bandwidth share communication kernels take from the GEMMs beside them (their SMs are counted)</source>
        <translation>未建模：慢节点（straggler）、数据加载、嵌入查表、首尾阶段之间共享嵌入梯度的 all-reduce、并行运行的通信 kernel 占用的显存带宽对 GEMM 的拖慢（其占用的 SM 已计入）</translation>
    </message>
    <message>
        <source>give --days and --tokens (or training.tokens / a claim in the plan) to check a claim</source>
        <translation>请给出 --days 和 --tokens（或方案中的 training.tokens / claim）以检验声明</translation>
    </message>
    <message>
        <source>possible: %1 tokens need %2; %3 GPUs at %4% MFU deliver %5 in %6 days (%7 days needed)</source>
        <translation>可行：%1 个 token 需要 %2；%3 块 GPU 以 %4% 的 MFU 在 %6 天内可提供 %5（需要 %7 天）</translation>
    </message>
    <message>
        <source>not possible: %1 tokens need %2 (6*N*T = %3) but %4 GPUs x %5/s x %6% MFU x %7 days = %8; short by %9x (it would take %10 days)</source>
        <translation>不可行：%1 个 token 需要 %2（6*N*T = %3），但 %4 块 GPU x %5/s x %6% MFU x %7 天 = %8；差 %9 倍（需要 %10 天）</translation>
    </message>
    <message>
        <source>Megatron&apos;s GPT form N = 12*L*h^2*(1 + 13/(12h) + (V+s)/(12*L*h)) is the case f = 4h, LayerNorm with biases, learned positions, tied embeddings (plus the final norm, 2h).</source>
        <translation>Megatron 的 GPT 公式 N = 12*L*h^2*(1 + 13/(12h) + (V+s)/(12*L*h)) 对应 f = 4h、带偏置的 LayerNorm、可学习位置编码、共享嵌入的情形（另加最后的 norm，2h）。</translation>
    </message>
    <message>
        <source>All parameters of this pipeline stage across its tp ranks (first, last: 1 when the stage holds the embedding, the output layer); memory below is per GPU.</source>
        <translation>该流水线阶段在其所有 tp rank 上的全部参数（first、last：阶段持有嵌入层、输出层时为 1）；下面的显存按每块 GPU 计。</translation>
    </message>
    <message>
        <source>The forward of one layer for one microbatch on one GPU.</source>
        <translation>一层在一块 GPU 上处理一个微批次的前向。</translation>
    </message>
    <message>
        <source>The backward of one layer: recomputed forward ops, input gradients, weight gradients.</source>
        <translation>一层的反向：重计算的前向算子、输入梯度、权重梯度。</translation>
    </message>
    <message>
        <source>The weight-gradient GEMMs of one layer.</source>
        <translation>一层的权重梯度 GEMM。</translation>
    </message>
    <message>
        <source>Ops: %1.</source>
        <translation>算子：%1。</translation>
    </message>
    <message>
        <source>recompute %1 %2 (compute, %3% of peak)</source>
        <translation>重计算 %1 %2（计算受限，峰值的 %3%）</translation>
    </message>
    <message>
        <source>recompute %1 %2 (memory, %3% of peak)</source>
        <translation>重计算 %1 %2（访存受限，峰值的 %3%）</translation>
    </message>
    <message>
        <source>recompute %1 %2 (compute)</source>
        <translation>重计算 %1 %2（计算受限）</translation>
    </message>
    <message>
        <source>recompute %1 %2 (memory)</source>
        <translation>重计算 %1 %2（访存受限）</translation>
    </message>
    <message>
        <source>recompute %1 %2 (communication)</source>
        <translation>重计算 %1 %2（通信受限）</translation>
    </message>
    <message>
        <source>recompute %1 %2 (latency)</source>
        <translation>重计算 %1 %2（延迟受限）</translation>
    </message>
    <message>
        <source>%1 %2 (compute, %3% of peak)</source>
        <translation>%1 %2（计算受限，峰值的 %3%）</translation>
    </message>
    <message>
        <source>%1 %2 (memory, %3% of peak)</source>
        <translation>%1 %2（访存受限，峰值的 %3%）</translation>
    </message>
    <message>
        <source>%1 %2 (compute)</source>
        <translation>%1 %2（计算受限）</translation>
    </message>
    <message>
        <source>%1 %2 (memory)</source>
        <translation>%1 %2（访存受限）</translation>
    </message>
    <message>
        <source>%1 %2 (communication)</source>
        <translation>%1 %2（通信受限）</translation>
    </message>
    <message>
        <source>%1 %2 (latency)</source>
        <translation>%1 %2（延迟受限）</translation>
    </message>
    <message>
        <source>w = %1 bytes per weight (%2).</source>
        <translation>w = 每个权重 %1 字节（%2）。</translation>
    </message>
    <message>
        <source>g = %1 bytes per gradient (gradDtype %2; Megatron keeps fp32 main grads under bf16).</source>
        <translation>g = 每个梯度 %1 字节（gradDtype %2；bf16 训练时 Megatron 保留 fp32 主梯度）。</translation>
    </message>
    <message>
        <source>ZeRO-%1 over n = %2 ranks (dp*cp, or the node under hybrid sharding): stage 1 shards optimizer states, 2 also gradients, 3 also weights; (w+g+o), w+g+o/n, w+(g+o)/n, (w+g+o)/n.</source>
        <translation>ZeRO-%1，在 n = %2 个 rank 上切分（dp*cp；混合切分时为一个节点）：阶段 1 切分优化器状态，阶段 2 再切分梯度，阶段 3 再切分权重；依次为 (w+g+o)、w+g+o/n、w+(g+o)/n、(w+g+o)/n。</translation>
    </message>
    <message>
        <source>Microbatch-equivalents of activations held at the peak; a chunk counts 1/v.</source>
        <translation>峰值时保存的激活值，折合为微批次数；一个 chunk 计 1/v。</translation>
    </message>
    <message>
        <source>GPipe holds all m, 1F1B holds p - r: the same bubble, less memory.</source>
        <translation>GPipe 保存全部 m 个，1F1B 保存 p - r 个：气泡相同，显存更少。</translation>
    </message>
    <message>
        <source>Per layer, per microbatch, per GPU (s = seqLength/cp).</source>
        <translation>每层、每个微批次、每块 GPU（s = seqLength/cp）。</translation>
    </message>
    <message>
        <source>Only with ZeRO-2/3.</source>
        <translation>仅在 ZeRO-2/3 时存在。</translation>
    </message>
    <message>
        <source>Only with ZeRO-3 / FSDP, on a stage that holds layers.</source>
        <translation>仅在 ZeRO-3 / FSDP 下、且阶段持有层时存在。</translation>
    </message>
    <message>
        <source>Every term has a default and is editable under memoryOverheads in the plan.</source>
        <translation>每一项都有默认值，可在方案的 memoryOverheads 下修改。</translation>
    </message>
    <message>
        <source>Per GPU of stage %1; 1 GiB = 2^30 bytes, 1 GB = 1e9 bytes.</source>
        <translation>阶段 %1 的每块 GPU；1 GiB = 2^30 字节，1 GB = 1e9 字节。</translation>
    </message>
    <message>
        <source>The GPU&apos;s memory (cluster.gpu.memoryBytes).</source>
        <translation>GPU 的显存（cluster.gpu.memoryBytes）。</translation>
    </message>
    <message>
        <source>stageN: totalBytes of pipeline stage N.</source>
        <translation>stageN：流水线阶段 N 的 totalBytes。</translation>
    </message>
    <message>
        <source>Stage %1 holds the most.</source>
        <translation>阶段 %1 占用最多。</translation>
    </message>
    <message>
        <source>Input- and weight-gradient ops of one layer, with the forward ops recomputation repeats.</source>
        <translation>一层的输入梯度和权重梯度算子，加上重计算时重复执行的前向算子。</translation>
    </message>
    <message>
        <source>The weight-gradient GEMMs (the W of the zero-bubble schedules).</source>
        <translation>权重梯度 GEMM（零气泡调度中的 W）。</translation>
    </message>
    <message>
        <source>The rule of thumb 6*N*T ignores the attention term.</source>
        <translation>经验公式 6*N*T 忽略了注意力项。</translation>
    </message>
    <message>
        <source>Model FLOPs exclude recompute (for MFU).</source>
        <translation>模型 FLOPs 不含重计算（用于 MFU）。</translation>
    </message>
    <message>
        <source>The schedule&apos;s bubble as a share of the pipeline time, every rank taken at the slowest rank&apos;s slot; F, B: the slowest rank&apos;s forward and backward of one microbatch with its p2p sends, Z: its exposed ZeRO communication.</source>
        <translation>调度的流水线气泡占流水线时间的比例，每个 rank 都按最慢 rank 的时隙计；F、B：最慢 rank 上一个微批次的前向和反向（含其 p2p 发送），Z：其暴露的 ZeRO 通信。</translation>
    </message>
    <message>
        <source>For GPipe/1F1B with equal stages (p-1)/(m+p-1) = %1.</source>
        <translation>对于各阶段耗时相等的 GPipe/1F1B，(p-1)/(m+p-1) = %1。</translation>
    </message>
    <message>
        <source>The other definition, idle over ideal compute, is bubbleOverhead = (p-1)/m = %1 (the Megatron-LM paper&apos;s &apos;bubble time fraction&apos;).</source>
        <translation>另一种定义是空闲时间除以理想计算时间，即 bubbleOverhead = (p-1)/m = %1（Megatron-LM 论文中的 “bubble time fraction”）。</translation>
    </message>
    <message>
        <source>Papers disagree because they divide by different things.</source>
        <translation>各论文的数字不同，是因为分母不同。</translation>
    </message>
    <message>
        <source>Idle of every cause, unequal stages included, is time.idleFraction.</source>
        <translation>所有原因（包括阶段不均衡）造成的空闲见 time.idleFraction。</translation>
    </message>
    <message>
        <source>Idle share of all ranks, whatever the cause; busy: every rank&apos;s m slots (its forward, backward, sends and exposed ZeRO traffic per microbatch).</source>
        <translation>所有 rank 的空闲占比，不论原因；busy：每个 rank 的 m 个时隙（每个微批次的前向、反向、发送和暴露的 ZeRO 通信）。</translation>
    </message>
    <message>
        <source>Ranks faster than the slowest wait for it in every slot on top of the schedule&apos;s bubble.</source>
        <translation>比最慢 rank 快的 rank 除了调度气泡之外，在每个时隙还要等待它。</translation>
    </message>
    <message>
        <source>The most idle rank&apos;s idle time: the schedule&apos;s bubble plus its waits on the slowest rank.</source>
        <translation>最空闲 rank 的空闲时间：调度气泡加上它等待最慢 rank 的时间。</translation>
    </message>
    <message>
        <source>Idle the schedule&apos;s bubble does not explain: stages of unequal time (uneven layers, the output layer on the last stage) leave the faster ranks waiting for the slowest in every slot.</source>
        <translation>调度气泡解释不了的空闲：各阶段耗时不等（层数不均、输出层在最后一个阶段），较快的 rank 在每个时隙都要等待最慢的 rank。</translation>
    </message>
    <message>
        <source>Idle time over ideal compute; (p-1)/m for GPipe/1F1B, (p-1)/(v*m) interleaved.</source>
        <translation>空闲时间除以理想计算时间；GPipe/1F1B 为 (p-1)/m，交错调度为 (p-1)/(v*m)。</translation>
    </message>
    <message>
        <source>F, B: forward and full backward of one microbatch on the slowest rank (%1), each with half its p2p sends; W: the weight-gradient part of B; Z: its exposed ZeRO-2/3 communication per microbatch.</source>
        <translation>F、B：最慢 rank（%1）上一个微批次的前向和完整反向，各含一半的 p2p 发送；W：B 中的权重梯度部分；Z：每个微批次暴露的 ZeRO-2/3 通信。</translation>
    </message>
    <message>
        <source>B here is the full backward; the Zero Bubble paper&apos;s B is the input-gradient part I = B - W; DualPipe&apos;s F&amp;B (an overlapped forward and backward) is F + B.</source>
        <translation>这里的 B 是完整反向；Zero Bubble 论文中的 B 是输入梯度部分 I = B - W；DualPipe 的 F&amp;B（重叠执行的前向和反向）为 F + B。</translation>
    </message>
    <message>
        <source>The slowest rank&apos;s microbatches back to back, without the TP/EP/CP collectives inside F and B.</source>
        <translation>最慢 rank 的各微批次首尾相接，不含 F 和 B 内部的 TP/EP/CP 集合通信。</translation>
    </message>
    <message>
        <source>dpTail: the data-parallel communication not hidden, on the stage where it is largest (%1); gradient reduction overlaps the last backward when overlapGradReduce is on.</source>
        <translation>dpTail：未被隐藏的数据并行通信，取其最大的阶段（%1）；开启 overlapGradReduce 时，梯度归约与最后一次反向重叠。</translation>
    </message>
    <message>
        <source>On stage %1, the slowest; P, Pe: its dense and expert parameters per GPU, sharded over n and ne from ZeRO-1 on.</source>
        <translation>在最慢的阶段 %1 上；P、Pe：其每块 GPU 的稠密参数和专家参数，从 ZeRO-1 起分别在 n 和 ne 上切分。</translation>
    </message>
    <message>
        <source>Each GEMM at its own shape&apos;s efficiency (the operator table, time.layerOps), at most %1 of the dense %2 peak %3/s for large shapes.</source>
        <translation>每个 GEMM 按其形状各自的效率计算（见算子表 time.layerOps），大形状时最高为稠密 %2 峰值 %3/s 的 %1。</translation>
    </message>
    <message>
        <source>Peak is the dense datasheet number for the dtype (never the &apos;with sparsity&apos; one).</source>
        <translation>峰值取该数据类型的稠密标称值（绝不用“含稀疏”的数值）。</translation>
    </message>
    <message>
        <source>HFU counts recomputed FLOPs too.</source>
        <translation>HFU 也计入重计算的 FLOPs。</translation>
    </message>
    <message>
        <source>Megatron&apos;s rule of thumb 8*T*N/(n*X) assumes full recompute.</source>
        <translation>Megatron 的经验公式 8*T*N/(n*X) 假设完全重计算。</translation>
    </message>
    <message>
        <source>Bytes one GPU sends per step on its %1 group of n = %2.</source>
        <translation>一块 GPU 每步在其 %1 组（n = %2）上发送的字节数。</translation>
    </message>
    <message>
        <source>Ring volumes: all-reduce sends 2(n-1)/n of the buffer, all-gather, reduce-scatter and all-to-all (n-1)/n.</source>
        <translation>环形算法的通信量：all-reduce 发送缓冲区的 2(n-1)/n，all-gather、reduce-scatter 和 all-to-all 发送 (n-1)/n。</translation>
    </message>
    <message>
        <source>Algorithm: %1; the group crosses nodes.</source>
        <translation>算法：%1；该组跨节点。</translation>
    </message>
    <message>
        <source>Algorithm: %1; inside one node.</source>
        <translation>算法：%1；位于单个节点内。</translation>
    </message>
    <message>
        <source>The ring volumes of the operator list&apos;s collectives on this group.</source>
        <translation>该组上算子列表中各集合通信的环形通信量。</translation>
    </message>
    <message>
        <source>Per layer: %1.</source>
        <translation>每层：%1。</translation>
    </message>
    <message>
        <source>Output layer: %1.</source>
        <translation>输出层：%1。</translation>
    </message>
    <message>
        <source>none</source>
        <translation>无</translation>
    </message>
    <message>
        <source>%1 %2 of %3 %4 (overlapped, %5 exposed)</source>
        <translation>%1 %2：%3 %4（已重叠，暴露 %5）</translation>
    </message>
    <message>
        <source>%1 %2 of %3 %4</source>
        <translation>%1 %2：%3 %4</translation>
    </message>
    <message>
        <source>layers: per microbatch on the slowest rank (%1).</source>
        <translation>layers：最慢 rank（%1）上每个微批次经过的层数。</translation>
    </message>
    <message>
        <source>What the GEMMs they overlap with do not hide (Megatron-Core overlaps the column-parallel backward&apos;s all-gather and input-gradient reduction with the GEMMs beside them; tpCommOverlap overlaps the rest; ring attention overlaps its K/V exchange with the block in hand).</source>
        <translation>与之重叠的 GEMM 未能隐藏的部分（Megatron-Core 将列并行反向中的 all-gather 和输入梯度归约与相邻的 GEMM 重叠；tpCommOverlap 重叠其余部分；ring attention 将 K/V 交换与当前计算的块重叠）。</translation>
    </message>
    <message>
        <source>Sends run beside the next op (overlapP2pComm); 1F1B&apos;s steady state still waits for each gradient&apos;s round trip.</source>
        <translation>发送与下一个算子并行执行（overlapP2pComm）；1F1B 的稳定阶段仍要等待每个梯度的往返。</translation>
    </message>
    <message>
        <source>Every send holds its rank until it completes (Megatron-Core&apos;s default, overlap_p2p_comm off).</source>
        <translation>每次发送都会阻塞其 rank 直到完成（Megatron-Core 的默认行为，overlap_p2p_comm 关闭）。</translation>
    </message>
    <message>
        <source>Per microbatch and chunk one activation forward and one gradient back; spDiv = t with sequence parallelism, else 1; bw: the link&apos;s bandwidth times its efficiency.</source>
        <translation>每个微批次和 chunk 向后一级发送一次激活值、向前一级发回一次梯度；序列并行时 spDiv = t，否则为 1；bw：链路带宽乘以其效率。</translation>
    </message>
    <message>
        <source>n: the sends per microbatch of the slowest rank (%1), 2*v less one where it holds the first stage (no gradient to send) or the last (no activation); spDiv = t with sequence parallelism, else 1; bw: the link&apos;s bandwidth times its efficiency.</source>
        <translation>n：最慢 rank（%1）每个微批次的发送次数，为 2*v，持有第一个阶段（无梯度要发送）或最后一个阶段（无激活值要发送）时减一；序列并行时 spDiv = t，否则为 1；bw：链路带宽乘以其效率。</translation>
    </message>
    <message>
        <source>P: parameters per GPU of stage %1 (dense and expert); ZeRO-%2.</source>
        <translation>P：阶段 %1 每块 GPU 的参数（稠密和专家）；ZeRO-%2。</translation>
    </message>
    <message>
        <source>ZeRO-0/1 reduce once per step, ZeRO-2/3 every microbatch (u: the share of the rank&apos;s layers a microbatch passes, 1/2 for DualPipe&apos;s two copies); ZeRO-3 gathers the weights before every forward and every backward.</source>
        <translation>ZeRO-0/1 每步归约一次，ZeRO-2/3 每个微批次归约一次（u：一个微批次经过的层占该 rank 层数的比例，DualPipe 有两份副本，为 1/2）；ZeRO-3 在每次前向和反向之前收集权重。</translation>
    </message>
    <message>
        <source>S: the gradient (or weight) bytes of the dense parameters over dp*cp = n; nE, SE: the expert parameters over their expert-data-parallel group.</source>
        <translation>S：稠密参数在 dp*cp = n 上的梯度（或权重）字节数；nE、SE：专家参数在其专家数据并行组上的对应量。</translation>
    </message>
    <message>
        <source>F, B: stage %1&apos;s forward and backward of one microbatch.</source>
        <translation>F、B：阶段 %1 上一个微批次的前向和反向。</translation>
    </message>
    <message>
        <source>Gradient reduction overlaps the backward of the last microbatch bucket by bucket when overlapGradReduce is on, except the last bucket, q of the gradient (Megatron-Core DDP: buckets of max(4e7, 1e6*dp) elements); the parameter all-gather overlaps the next forward the same way; ZeRO-2/3&apos;s per-microbatch traffic hides behind F + B.</source>
        <translation>开启 overlapGradReduce 时，梯度归约逐桶与最后一个微批次的反向重叠，只有最后一个桶（占梯度的 q）除外（Megatron-Core DDP：桶大小为 max(4e7, 1e6*dp) 个元素）；参数 all-gather 以同样方式与下一次前向重叠；ZeRO-2/3 每个微批次的通信隐藏在 F + B 之后。</translation>
    </message>
    <message>
        <source>%1, the group crosses nodes.</source>
        <translation>%1，该组跨节点。</translation>
    </message>
    <message>
        <source>%1, inside one node.</source>
        <translation>%1，位于单个节点内。</translation>
    </message>
    <message>
        <source>alpha: seconds per step; bw: bytes/s per GPU per direction times the link&apos;s efficiency (the all-reduce&apos;s or all-to-all&apos;s own where the link has one); q: the share of that bus bandwidth the link&apos;s published curve gives a buffer of S bytes; hierarchical: g GPUs of the group per node, k = ceil(n/g) nodes, the NVLink and NIC phases pipelined (the slower sets the time).</source>
        <translation>alpha：每一步的延迟（秒）；bw：每块 GPU 每个方向的字节/秒乘以链路效率（链路有 all-reduce 或 all-to-all 专用效率时用它）；q：按链路公布的曲线，S 字节缓冲区能达到的总线带宽占比；hierarchical：每个节点上有该组的 g 块 GPU，共 k = ceil(n/g) 个节点，NVLink 阶段与网卡阶段流水并行（较慢的一方决定时间）。</translation>
    </message>
    <message>
        <source>ring (intra-node)</source>
        <translation>环形（节点内）</translation>
    </message>
    <message>
        <source>ring (inter-node)</source>
        <translation>环形（节点间）</translation>
    </message>
    <message>
        <source>hierarchical (intra ring + inter-node ring)</source>
        <translation>分层（节点内环 + 节点间环）</translation>
    </message>
    <message>
        <source>ring p2p</source>
        <translation>环形 p2p</translation>
    </message>
    <message>
        <source>SendRecv (ring attention K/V)</source>
        <translation>SendRecv（ring attention 的 K/V 交换）</translation>
    </message>
    <message>
        <source>ReduceScatter per microbatch + AllGather</source>
        <translation>每个微批次 ReduceScatter + AllGather</translation>
    </message>
    <message>
        <source>AllGather x2 + ReduceScatter per microbatch</source>
        <translation>AllGather x2 + 每个微批次 ReduceScatter</translation>
    </message>
    <message>
        <source>pipeline: the last op&apos;s end in the simulated step; tail: the gradient reduction not hidden by the last backward, the optimizer step and the parameter all-gather.</source>
        <translation>pipeline：仿真步中最后一个算子的结束时刻；tail：未被最后一次反向隐藏的梯度归约、优化器步骤和参数 all-gather。</translation>
    </message>
    <message>
        <source>The analytic estimate is %1.</source>
        <translation>解析估计为 %1。</translation>
    </message>
    <message>
        <source>idleN: the simulated idle time of pipeline rank N inside the pipeline (not waiting on its own sends); the most idle rank&apos;s.</source>
        <translation>idleN：仿真得到的流水线 rank N 在流水线内的空闲时间（不含等待自身发送）；取最空闲的 rank。</translation>
    </message>
    <message>
        <source>It holds the schedule&apos;s bubble and the waits on slower stages.</source>
        <translation>其中包括调度气泡和等待较慢阶段的时间。</translation>
    </message>
    <message>
        <source>Idle share of all ranks over the simulated pipeline, whatever the cause: the schedule&apos;s bubble (time.bubbleFraction) and ranks waiting on a slower stage or a send.</source>
        <translation>仿真流水线中所有 rank 的空闲占比，不论原因：调度气泡（time.bubbleFraction），以及 rank 等待较慢阶段或发送。</translation>
    </message>
    <message>
        <source>busy = %1 over all ranks.</source>
        <translation>所有 rank 合计 busy = %1。</translation>
    </message>
    <message>
        <source>Idle the schedule&apos;s bubble does not explain: stages of unequal time (uneven layers, the output layer on the last stage, the embedding on the first) leave the faster ranks waiting for the slowest in every slot.</source>
        <translation>调度气泡解释不了的空闲：各阶段耗时不等（层数不均、输出层在最后一个阶段、嵌入层在第一个阶段），较快的 rank 在每个时隙都要等待最慢的 rank。</translation>
    </message>
    <message>
        <source>With the simulated step.</source>
        <translation>使用仿真的步长时间。</translation>
    </message>
    <message>
        <source>Narayanan et al., Efficient Large-Scale Language Model Training on GPU Clusters Using Megatron-LM (SC21), eq. 2; Megatron-LM megatron/training/theoretical_memory_usage.py</source>
        <translation>Narayanan 等，Efficient Large-Scale Language Model Training on GPU Clusters Using Megatron-LM（SC21），式 2；Megatron-LM 源码 megatron/training/theoretical_memory_usage.py</translation>
    </message>
    <message>
        <source>Narayanan et al. (SC21), eq. 3 and appendix</source>
        <translation>Narayanan 等（SC21），式 3 及附录</translation>
    </message>
    <message>
        <source>Chowdhery et al., PaLM (2022), appendix B: 6N + 12*L*H*Q*T per token</source>
        <translation>Chowdhery 等，PaLM（2022），附录 B：每 token 6N + 12*L*H*Q*T</translation>
    </message>
    <message>
        <source>Korthikanti et al., Reducing Activation Recomputation in Large Transformer Models (MLSys 2023), section 4 and Table 2</source>
        <translation>Korthikanti 等，Reducing Activation Recomputation in Large Transformer Models（MLSys 2023），第 4 节及表 2</translation>
    </message>
    <message>
        <source>Korthikanti et al. (MLSys 2023), appendix A</source>
        <translation>Korthikanti 等（MLSys 2023），附录 A</translation>
    </message>
    <message>
        <source>Rajbhandari et al., ZeRO: Memory Optimizations Toward Training Trillion Parameter Models (SC20), section 5 and Figure 1</source>
        <translation>Rajbhandari 等，ZeRO: Memory Optimizations Toward Training Trillion Parameter Models（SC20），第 5 节及图 1</translation>
    </message>
    <message>
        <source>Rajbhandari et al., ZeRO (SC20), section 7 (communication analysis)</source>
        <translation>Rajbhandari 等，ZeRO（SC20），第 7 节（通信分析）</translation>
    </message>
    <message>
        <source>Megatron-LM megatron/core/optimizer/distrib_optimizer.py (fp32 main grads and params under bf16)</source>
        <translation>Megatron-LM 源码 megatron/core/optimizer/distrib_optimizer.py（bf16 训练时的 fp32 主梯度和主参数）</translation>
    </message>
    <message>
        <source>Megatron-LM expert parallelism: experts sharded by ep, optimizer over the expert-data-parallel group (NVIDIA/Megatron-LM#2439)</source>
        <translation>Megatron-LM 专家并行：专家按 ep 切分，优化器在专家数据并行组上（NVIDIA/Megatron-LM#2439）</translation>
    </message>
    <message>
        <source>Narayanan et al. (SC21) section 2.2 (bubble (p-1)/m); Huang et al., GPipe (2019); docs/SCHEDULES.md</source>
        <translation>Narayanan 等（SC21）第 2.2 节（气泡 (p-1)/m）；Huang 等，GPipe（2019）；docs/SCHEDULES.md</translation>
    </message>
    <message>
        <source>Qi et al., Zero Bubble Pipeline Parallelism (ICLR 2024), section 3</source>
        <translation>Qi 等，Zero Bubble Pipeline Parallelism（ICLR 2024），第 3 节</translation>
    </message>
    <message>
        <source>DeepSeek-V3 technical report (2024), section 3.2.1, Table 2; deepseek-ai/DualPipe</source>
        <translation>DeepSeek-V3 技术报告（2024），第 3.2.1 节，表 2；deepseek-ai/DualPipe</translation>
    </message>
    <message>
        <source>NVIDIA/nccl-tests doc/PERFORMANCE.md (algBw, busBw factors)</source>
        <translation>NVIDIA/nccl-tests doc/PERFORMANCE.md（algBw、busBw 系数）</translation>
    </message>
    <message>
        <source>Thakur, Rabenseifner, Gropp, Optimization of Collective Communication Operations in MPICH (IJHPCA 2005)</source>
        <translation>Thakur、Rabenseifner、Gropp 的论文 Optimization of Collective Communication Operations in MPICH（IJHPCA 2005）</translation>
    </message>
    <message>
        <source>Chowdhery et al., PaLM (2022), appendix B (MFU vs HFU)</source>
        <translation>Chowdhery 等，PaLM（2022），附录 B（MFU 与 HFU）</translation>
    </message>
    <message>
        <source>GPU preset &quot;%1&quot; (see resources/presets/gpus.json)</source>
        <translation>GPU 预设 &quot;%1&quot;（见 resources/presets/gpus.json）</translation>
    </message>
    <message>
        <source>DeepSpeed ZeRO config: reduce_bucket_size default 5e8 elements</source>
        <translation>DeepSpeed ZeRO 配置：reduce_bucket_size 默认 5e8 个元素</translation>
    </message>
    <message>
        <source>PyTorch FSDP: the unsharded current layer plus the prefetched next one, and the current layer&apos;s unsharded gradient before its reduce-scatter</source>
        <translation>PyTorch FSDP：未切分的当前层加上预取的下一层，以及当前层在 reduce-scatter 之前未切分的梯度</translation>
    </message>
    <message>
        <source>docs/MODEL.md section 6 (overlap)</source>
        <translation>docs/MODEL.md 第 6 节（重叠）</translation>
    </message>
    <message>
        <source>docs/MODEL.md sections 2-4</source>
        <translation>docs/MODEL.md 第 2-4 节</translation>
    </message>
    <message>
        <source>docs/MODEL.md section %1</source>
        <translation>docs/MODEL.md 第 %1 节</translation>
    </message>
    <message>
        <source>docs/SCHEDULES.md section 1.7 and the schedule&apos;s own section</source>
        <translation>docs/SCHEDULES.md 第 1.7 节及该调度自己的小节</translation>
    </message>
    <message>
        <source>docs/MODEL.md section 7; NVIDIA Matrix Multiplication Background User&apos;s Guide (GEMM waves); docs/HARDWARE.md</source>
        <translation>docs/MODEL.md 第 7 节；NVIDIA Matrix Multiplication Background User&apos;s Guide（GEMM wave）；docs/HARDWARE.md</translation>
    </message>
    <message>
        <source>List-scheduling simulation of the schedule&apos;s op order (docs/SCHEDULES.md section 1.8) with per-stage op durations from the cost model</source>
        <translation>按调度的算子顺序进行列表调度仿真（docs/SCHEDULES.md 第 1.8 节），各阶段算子耗时来自代价模型</translation>
    </message>
    <message>
        <source>Memory-bound optimizer step: read weights, grads and states, write weights and states</source>
        <translation>访存受限的优化器步骤：读取权重、梯度和状态，写回权重和状态</translation>
    </message>
    <message>
        <source>definition</source>
        <translation>定义</translation>
    </message>
    <message>
        <source>%1 bytes (%2)</source>
        <translation>%1 字节（%2）</translation>
    </message>
    <message>
        <source>%1 s (%2)</source>
        <translation>%1 秒（%2）</translation>
    </message>
    <message>
        <source>%1 FLOP (%2)</source>
        <translation>%1 FLOP（%2）</translation>
    </message>
    <message>
        <source>%1 (%2)</source>
        <comment>a count of parameters</comment>
        <translation>%1 个参数（%2）</translation>
    </message>
    <message>
        <source>%1 microbatches</source>
        <translation>%1 个微批次</translation>
    </message>
    <message>
        <source>%1 days</source>
        <translation>%1 天</translation>
    </message>
    <message>
        <source>%1: no explanation recorded</source>
        <translation>%1：没有记录推导过程</translation>
    </message>
    <message>
        <source>  formula: %1</source>
        <translation>  公式：%1</translation>
    </message>
    <message>
        <source>  where:  %1</source>
        <translation>  其中：%1</translation>
    </message>
    <message>
        <source>  so:     %1 = %2</source>
        <translation>  代入：%1 = %2</translation>
    </message>
    <message>
        <source>  source: %1</source>
        <translation>  来源：%1</translation>
    </message>
    <message>
        <source>  note:   %1</source>
        <translation>  说明：%1</translation>
    </message>
    <message>
        <source>balancing writes parallel.layout, which the %1 schedule does not take; choose a schedule with a loop placement</source>
        <translation>均衡会写入 parallel.layout，而 %1 调度不接受它；请选择循环放置的调度</translation>
    </message>
    <message>
        <source>one pipeline stage: there is nothing to balance</source>
        <translation>只有一个流水线阶段：无需均衡</translation>
    </message>
    <message>
        <source>PyTorch documentation, CUDA semantics (memory management): the CUDA context is not allocated through the caching allocator</source>
        <translation>PyTorch 文档，CUDA 语义（内存管理）：CUDA 上下文不经缓存分配器分配</translation>
    </message>
    <message>
        <source>its size depends on the driver, the GPU and CUDA_MODULE_LOADING</source>
        <translation>其大小取决于驱动、GPU 和 CUDA_MODULE_LOADING</translation>
    </message>
    <message>
        <source>NVIDIA cuBLAS documentation, cublasSetWorkspace(): 32 MiB recommended on Hopper, 4 MiB on earlier GPUs</source>
        <translation>NVIDIA cuBLAS 文档，cublasSetWorkspace()：Hopper 上建议 32 MiB，更早的 GPU 为 4 MiB</translation>
    </message>
    <message>
        <source>PyTorch documentation, CUDA semantics (cuBLAS workspaces, CUBLAS_WORKSPACE_CONFIG)</source>
        <translation>PyTorch 文档，CUDA 语义（cuBLAS 工作区，CUBLAS_WORKSPACE_CONFIG）</translation>
    </message>
    <message>
        <source>PyTorch aten/src/ATen/cuda/CUDABlas.cpp (CUBLASLT_WORKSPACE_SIZE, pytorch/pytorch#120925)</source>
        <translation>PyTorch aten/src/ATen/cuda/CUDABlas.cpp（CUBLASLT_WORKSPACE_SIZE，pytorch/pytorch#120925）</translation>
    </message>
    <message>
        <source>Transformer Engine transformer_engine/pytorch/module/base.py: get_cublas_workspace_size_bytes() (32 MiB on Hopper, 4 MiB before) and one workspace per stream for grouped GEMMs</source>
        <translation>Transformer Engine transformer_engine/pytorch/module/base.py：get_cublas_workspace_size_bytes()（Hopper 上 32 MiB，之前为 4 MiB），分组 GEMM 每个流另有一个工作区</translation>
    </message>
    <message>
        <source>NCCL user guide, environment variables: NCCL_BUFFSIZE (default 4 MiB), NCCL_MIN_NCHANNELS and NCCL_MAX_NCHANNELS, NCCL_NCHANNELS_PER_NET_PEER (default 2)</source>
        <translation>NCCL 用户指南，环境变量：NCCL_BUFFSIZE（默认 4 MiB）、NCCL_MIN_NCHANNELS 与 NCCL_MAX_NCHANNELS、NCCL_NCHANNELS_PER_NET_PEER（默认 2）</translation>
    </message>
    <message>
        <source>Megatron-LM megatron/core/tensor_parallel/cross_entropy.py: VocabParallelCrossEntropy casts the vocabulary-parallel logits to fp32 (calculate_logits_max) and keeps the softmax for the backward</source>
        <translation>Megatron-LM megatron/core/tensor_parallel/cross_entropy.py：VocabParallelCrossEntropy 把按词表切分的 logits 转为 fp32（calculate_logits_max），并为反向保留 softmax</translation>
    </message>
    <message>
        <source>PyTorch c10/cuda/CUDACachingAllocator.cpp: blocks rounded to 512 bytes, blocks up to 1 MiB from 2 MiB segments, up to 10 MiB from 20 MiB segments, larger ones rounded to 2 MiB</source>
        <translation>PyTorch c10/cuda/CUDACachingAllocator.cpp：块按 512 字节取整，不超过 1 MiB 的块取自 2 MiB 段，不超过 10 MiB 的取自 20 MiB 段，更大的按 2 MiB 取整</translation>
    </message>
    <message>
        <source>PyTorch documentation, CUDA semantics (memory management, expandable_segments)</source>
        <translation>PyTorch 文档，CUDA 语义（内存管理，expandable_segments）</translation>
    </message>
    <message>
        <source>Guo et al., GMLake (ASPLOS 2024): on eight LLMs its virtual-memory stitching cuts the caching allocator&apos;s fragmentation by 15 % on average and up to 33 %</source>
        <translation>Guo 等，GMLake（ASPLOS 2024）：在八个大模型上，其虚拟内存拼接将缓存分配器的碎片平均减少 15 %，最多 33 %</translation>
    </message>
    <message>
        <source>List-scheduling simulation of the schedule&apos;s op order (docs/SCHEDULES.md section 1.8)</source>
        <translation>按调度的算子顺序做列表调度模拟（docs/SCHEDULES.md 第 1.8 节）</translation>
    </message>
    <message>
        <source>memoryOverheads.cudaContextBytes of the plan (an assumption: measure nvidia-smi&apos;s memory of the process right after torch.cuda.init() and set it).</source>
        <translation>计划中的 memoryOverheads.cudaContextBytes（一个假设：在 torch.cuda.init() 之后立即用 nvidia-smi 测量进程显存并填入）。</translation>
    </message>
    <message>
        <source>PyTorch&apos;s cuBLAS workspace and its cuBLASLt workspace on the compute stream, W each (memoryOverheads.workspaceBytes, by default 32 MiB on GPUs with fp8 tensor cores, Hopper and later, else 4 MiB).</source>
        <translation>PyTorch 在计算流上的 cuBLAS 工作区和 cuBLASLt 工作区，各 W（memoryOverheads.workspaceBytes；默认在有 fp8 张量核的 GPU，即 Hopper 及以后，为 32 MiB，否则 4 MiB）。</translation>
    </message>
    <message>
        <source>Allocated through the caching allocator and never freed.</source>
        <translation>经缓存分配器分配，从不释放。</translation>
    </message>
    <message>
        <source>Transformer Engine&apos;s cuBLAS workspace (Megatron-Core&apos;s default transformer implementation), plus k = 4 for the grouped expert GEMMs of an MoE model.</source>
        <translation>Transformer Engine 的 cuBLAS 工作区（Megatron-Core 默认的 Transformer 实现），MoE 模型的分组专家 GEMM 另加 k = 4 个。</translation>
    </message>
    <message>
        <source>memoryOverheads.ncclBufferBytesPerGroup of the plan: a flat size per parallel group of size &gt; 1 this rank belongs to, instead of the NCCL settings.</source>
        <translation>计划中的 memoryOverheads.ncclBufferBytesPerGroup：该 rank 所属每个规模 &gt; 1 的并行组取固定大小，代替按 NCCL 设置计算。</translation>
    </message>
    <message>
        <source>Per communicator this rank uses: buff = NCCL_BUFFSIZE (memoryOverheads.ncclBuffSize) per channel per connection, chX channels (memoryOverheads.ncclChannels for collectives, 2 per peer for point-to-point), cX connections (2 for a ring, 3 more for the tree where the group spans nodes, one per peer for point-to-point).</source>
        <translation>该 rank 使用的每个通信器：buff = NCCL_BUFFSIZE（memoryOverheads.ncclBuffSize），每通道每连接一份；chX 为通道数（集合通信取 memoryOverheads.ncclChannels，点对点每个对端 2 个）；cX 为连接数（环 2 个，组跨节点时树再加 3 个，点对点每个对端 1 个）。</translation>
    </message>
    <message>
        <source>Communicators (group and ranks): %1.</source>
        <translation>通信器（组与 rank 数）：%1。</translation>
    </message>
    <message>
        <source>Outside PyTorch&apos;s allocator.</source>
        <translation>不在 PyTorch 的分配器内。</translation>
    </message>
    <message>
        <source>NCCL_DEBUG=INFO prints the channels each communicator opens.</source>
        <translation>NCCL_DEBUG=INFO 会打印每个通信器打开的通道。</translation>
    </message>
    <message>
        <source>P: dense and expert parameters on this GPU.</source>
        <translation>P：该 GPU 上的稠密与专家参数。</translation>
    </message>
    <message>
        <source>A temporary: held while a forward or backward runs, so it counts in the peak inside the step, not in the steady state.</source>
        <translation>临时张量：只在前向或反向运行时持有，因此计入步内峰值，不计入稳态。</translation>
    </message>
    <message>
        <source>On the last stage: the output layer&apos;s 16-bit logits while the loss casts them to fp32 (forward), or their 16-bit gradient while the fp32 one is cast back (backward).</source>
        <translation>在最后一级：损失把输出层的 16 位 logits 转为 fp32 时的 16 位 logits（前向），或把 fp32 梯度转回时的 16 位梯度（反向）。</translation>
    </message>
    <message>
        <source>The fp32 copy, 4*s*b*V/t, is kept for the backward and counted in the activations.</source>
        <translation>fp32 副本 4*s*b*V/t 为反向保留，计入激活。</translation>
    </message>
    <message>
        <source>A temporary: it counts in the peak inside the step.</source>
        <translation>临时张量：计入步内峰值。</translation>
    </message>
    <message>
        <source>The CUDA context and the math libraries&apos; workspaces.</source>
        <translation>CUDA 上下文和数学库的工作区。</translation>
    </message>
    <message>
        <source>NCCL&apos;s buffers and the ZeRO gradient bucket.</source>
        <translation>NCCL 缓冲区和 ZeRO 梯度桶。</translation>
    </message>
    <message>
        <source>The largest temporaries, both counted at the peak: the simulated memory over time shows when each is held.</source>
        <translation>最大的临时张量，峰值时两者都计入：模拟的显存随时间曲线显示各自何时持有。</translation>
    </message>
    <message>
        <source>What torch.cuda.max_memory_allocated() reports at the peak: every tensor, the temporaries included.</source>
        <translation>峰值时 torch.cuda.max_memory_allocated() 报告的值：所有张量，含临时张量。</translation>
    </message>
    <message>
        <source>memoryOverheads.fragmentation of the plan: a flat share of the allocated bytes, instead of the allocator model.</source>
        <translation>计划中的 memoryOverheads.fragmentation：按已分配字节的固定比例，代替分配器模型。</translation>
    </message>
    <message>
        <source>Reserved - allocated.</source>
        <translation>预留减去已分配。</translation>
    </message>
    <message>
        <source>persistent: weights, gradients, optimizer states, workspaces and the ZeRO bucket, allocated once in few large blocks, and allocated - persistent: activations and temporaries, allocated and freed every microbatch in blocks of many sizes, whose freed blocks the cache keeps but cannot always reuse (a = memoryOverheads.allocatorSlack).</source>
        <translation>persistent：权重、梯度、优化器状态、工作区和 ZeRO 桶，以少数大块一次分配；allocated - persistent：激活和临时张量，每个微批次以多种大小的块分配并释放，释放的块由缓存保留但未必能复用（a = memoryOverheads.allocatorSlack）。</translation>
    </message>
    <message>
        <source>R: the newest 2 MiB and 20 MiB segments, partly empty.</source>
        <translation>R：最新的 2 MiB 段和 20 MiB 段，部分为空。</translation>
    </message>
    <message>
        <source>With expandable_segments:True the share is smaller, compare reserved_bytes with allocated_bytes in torch.cuda.memory_stats().</source>
        <translation>使用 expandable_segments:True 时该比例更小；可比较 torch.cuda.memory_stats() 中的 reserved_bytes 与 allocated_bytes。</translation>
    </message>
    <message>
        <source>What torch.cuda.max_memory_reserved() reports: the caching allocator&apos;s segments.</source>
        <translation>torch.cuda.max_memory_reserved() 报告的值：缓存分配器的段。</translation>
    </message>
    <message>
        <source>In use between ops at the most activations in flight: without the temporaries and the allocator&apos;s slack.</source>
        <translation>在途激活最多时算子之间占用的显存：不含临时张量和分配器余量。</translation>
    </message>
    <message>
        <source>The peak inside the step, compared with the GPU&apos;s memory: reserved + the CUDA context + NCCL&apos;s buffers.</source>
        <translation>步内峰值，与 GPU 显存比较：预留 + CUDA 上下文 + NCCL 缓冲区。</translation>
    </message>
    <message>
        <source>allocatedPeak: the highest memory in use of the simulated step less the CUDA context and NCCL&apos;s buffers, reached at %1 (each chunk&apos;s activations from its forward to its backward, the temporaries while their op runs).</source>
        <translation>allocatedPeak：模拟步中占用显存的最高点减去 CUDA 上下文和 NCCL 缓冲区，出现在 %1（每个块的激活从其前向持有到其反向，临时张量在其算子运行时持有）。</translation>
    </message>
    <message>
        <source>slack: the allocator&apos;s, by the rule of buffers.fragmentationBytes.</source>
        <translation>slack：分配器余量，按 buffers.fragmentationBytes 的规则计算。</translation>
    </message>
    <message>
        <source>outside: the CUDA context and NCCL&apos;s buffers.</source>
        <translation>outside：CUDA 上下文和 NCCL 缓冲区。</translation>
    </message>
    <message>
        <source>The analytic peak is %1, the steady state %2.</source>
        <translation>解析峰值为 %1，稳态为 %2。</translation>
    </message>
    <message>
        <source>hidden %1 is not divisible by heads %2 (set model.headDim where heads*headDim differs from hidden)</source>
        <translation>hidden %1 不能被 heads %2 整除（heads*headDim 与 hidden 不同时请设置 model.headDim）</translation>
    </message>
    <message>
        <source>must be &gt; 0 with MLA (kvLoraRank &gt; 0)</source>
        <translation>启用 MLA（kvLoraRank &gt; 0）时必须 &gt; 0</translation>
    </message>
    <message>
        <source>ignored with MLA: qkNopeHeadDim + qkRopeHeadDim and vHeadDim set the heads</source>
        <translation>使用 MLA 时忽略：注意力头的大小由 qkNopeHeadDim + qkRopeHeadDim 和 vHeadDim 决定</translation>
    </message>
    <message>
        <source>must be &gt; 0 when other MLA fields are set (kvLoraRank 0 means no MLA)</source>
        <translation>设置了其他 MLA 字段时必须 &gt; 0（kvLoraRank 为 0 表示不使用 MLA）</translation>
    </message>
    <message>
        <source>mtpLayers %1 exceeds the %2 layers</source>
        <translation>mtpLayers %1 超过了模型的 %2 层</translation>
    </message>
    <message>
        <source>denseLayers %1 leaves no MoE layer of the %2</source>
        <translation>denseLayers %1 使 %2 层中没有剩下任何 MoE 层</translation>
    </message>
    <message>
        <source>the dense layers (moe.denseLayers) need ffnHidden &gt; 0</source>
        <translation>稠密层（moe.denseLayers）需要 ffnHidden &gt; 0</translation>
    </message>
    <message>
        <source>denseLayers and sharedExperts need routed experts (experts &gt; 0)</source>
        <translation>denseLayers 和 sharedExperts 需要路由专家（experts &gt; 0）</translation>
    </message>
    <message>
        <source>etp applies to routed experts; this model has none</source>
        <translation>etp 作用于路由专家；该模型没有路由专家</translation>
    </message>
    <message>
        <source>must be &gt;= 0 (0 = tp)</source>
        <translation>必须 &gt;= 0（0 表示与 tp 相同）</translation>
    </message>
    <message>
        <source>etp %1 does not divide expertFfnHidden %2</source>
        <translation>etp %1 不能整除 expertFfnHidden %2</translation>
    </message>
    <message>
        <source>etp*ep = %1 must divide tp*dp*cp = %2 (Megatron-Core lays the expert grid over the same ranks)</source>
        <translation>etp*ep = %1 必须能整除 tp*dp*cp = %2（Megatron-Core 把专家并行网格排布在同一批 rank 上）</translation>
    </message>
    <message>
        <source>ignored: precision is not fp8</source>
        <translation>已忽略：精度不是 fp8</translation>
    </message>
    <message>
        <source>MXFP8 blocks need Blackwell tensor cores (Transformer Engine); &quot;%1&quot; runs the delayed or current recipe</source>
        <translation>MXFP8 的分块缩放需要 Blackwell 的 Tensor Core（Transformer Engine）；&quot;%1&quot; 上运行的是 delayed 或 current 方案</translation>
    </message>
    <message>
        <source>ignored unless recompute is selective (Megatron applies --recompute-modules to the selective granularity)</source>
        <translation>仅当 recompute 为 selective 时生效，否则忽略（Megatron 只在选择性粒度下应用 --recompute-modules）</translation>
    </message>
    <message>
        <source>ignored unless recompute is full (--recompute-num-layers)</source>
        <translation>仅当 recompute 为 full 时生效，否则忽略（--recompute-num-layers）</translation>
    </message>
    <message>
        <source>Megatron offloads the distributed optimizer&apos;s shard (--use-distributed-optimizer); modelled on the replicated state</source>
        <translation>Megatron 卸载的是分布式优化器的分片（--use-distributed-optimizer）；此处按未切分的完整状态建模</translation>
    </message>
    <message>
        <source>every layer offloaded: the last layer of a chunk stays on the GPU (Transformer Engine keeps it for the first backward)</source>
        <translation>所有层都要卸载：每个 chunk 的最后一层仍留在 GPU 上（Transformer Engine 保留它供第一次反向使用）</translation>
    </message>
    <message>
        <source>the layout places %1 MTP layers (&apos;m&apos;) but model.mtpLayers is %2; Megatron-Core requires the two to agree</source>
        <translation>layout 中放置了 %1 个 MTP 层（&apos;m&apos;），但 model.mtpLayers 为 %2；Megatron-Core 要求两者一致</translation>
    </message>
    <message>
        <source>must be 0 (dropless) or a factor of the balanced share, e.g. 1.25</source>
        <translation>必须为 0（不丢弃 token）或均衡份额的倍数，例如 1.25</translation>
    </message>
    <message>
        <source>must be fp32, bf16 or fp16 (Megatron&apos;s precision-aware optimizer)</source>
        <translation>必须是 fp32、bf16 或 fp16（Megatron 的精度感知优化器）</translation>
    </message>
    <message>
        <source>must be a share in [0, 1]</source>
        <translation>必须是 [0, 1] 内的比例</translation>
    </message>
    <message>
        <source>must be an array of module names (core_attn, mlp, moe, moe_act, layernorm, mla_up_proj, shared_experts)</source>
        <translation>必须是模块名数组（core_attn, mlp, moe, moe_act, layernorm, mla_up_proj, shared_experts）</translation>
    </message>
    <message>
        <source>must be a module name</source>
        <translation>必须是模块名</translation>
    </message>
    <message>
        <source>unknown module &quot;%1&quot;; expected one of: core_attn, mlp, moe, moe_act, layernorm, mla_up_proj, shared_experts</source>
        <translation>未知模块 &quot;%1&quot;；应为以下之一：core_attn, mlp, moe, moe_act, layernorm, mla_up_proj, shared_experts</translation>
    </message>
    <message>
        <source>the simulated step peaks at %1 on stage %2, above the GPU&apos;s %3, while the analytic count fits</source>
        <translation>仿真步的峰值在阶段 %2 达到 %1，超过 GPU 的 %3，而解析计算的结果放得下</translation>
    </message>
    <message>
        <source>%1; a dense layer&apos;s MLP is %2*h*f; an MoE layer holds E routed experts of %3*h*f_e each (sharded by ep x etp), shared experts as a dense MLP, the router h*E; an MTP module is two norms, the 2h x h projection, one layer and a norm (DeepSeek-V3 section 2.2; embedding and output head shared).</source>
        <translation>%1；稠密层的 MLP 为 %2*h*f；MoE 层含 E 个路由专家，每个 %3*h*f_e（按 ep x etp 切分），共享专家按稠密 MLP 计，路由器为 h*E；一个 MTP 模块包含两个 norm、2h x h 投影、一个层和一个 norm（DeepSeek-V3 第 2.2 节；与主模型共享嵌入层和输出头）。</translation>
    </message>
    <message>
        <source>attn = h*a*d + 2*h*kv*d + a*d*h (Q, K, V, O; d = headDim, GQA shrinks K and V)</source>
        <translation>attn = h*a*d + 2*h*kv*d + a*d*h（Q、K、V、O；d = headDim，GQA 缩小 K 和 V）</translation>
    </message>
    <message>
        <source>attn = h*a*d + 2*h*kv*d + a*d*h (Q, K, V, O; d = headDim, GQA shrinks K and V), attnRep = 2*d (the per-head q/k norms)</source>
        <translation>attn = h*a*d + 2*h*kv*d + a*d*h（Q、K、V、O；d = headDim，GQA 缩小 K 和 V），attnRep = 2*d（每个头的 q/k norm）</translation>
    </message>
    <message>
        <source>attn = q_up + kv_up + O = q*a*(dn + dr) + kv*a*(dn + dv) + a*dv*h and attnRep = the down projections h*q + h*(kv + dr) and their latent norms (MLA, DeepSeek-V2 section 2.1; q = qLoraRank, kv = kvLoraRank, dn/dr = qk nope/rope head dims, dv = v head dim)</source>
        <translation>attn = q_up + kv_up + O = q*a*(dn + dr) + kv*a*(dn + dv) + a*dv*h，attnRep = 下投影 h*q + h*(kv + dr) 及其潜在向量的 norm（MLA，DeepSeek-V2 第 2.1 节；q = qLoraRank，kv = kvLoraRank，dn/dr = qk 的 nope/rope 头维度，dv = v 的头维度）</translation>
    </message>
    <message>
        <source>embedding = V*h; outputLayer = V*h when untied.</source>
        <translation>embedding = V*h；不共享嵌入时 outputLayer = V*h。</translation>
    </message>
    <message>
        <source>Active per token: %1 (with the embedding).</source>
        <translation>每个 token 激活的参数：%1（含嵌入层）。</translation>
    </message>
    <message>
        <source>w = %1 bytes per weight (%2: Transformer Engine keeps bf16 parameters unless fp8ParamGather, where the fp8 GEMMs&apos; weights F8 are stored in fp8).</source>
        <translation>w = 每个权重 %1 字节（%2：Transformer Engine 保留 bf16 参数，开启 fp8ParamGather 时 fp8 GEMM 的权重 F8 以 fp8 存储）。</translation>
    </message>
    <message>
        <source>P = dense parameters on this GPU after tp (%1), Pe = routed-expert parameters after ep*etp (%2*%3), ne = the expert data-parallel size tp*dp*cp/(etp*ep) (Megatron-Core shards expert optimizer states over that group, not the dense one).</source>
        <translation>P = 按 tp（%1）切分后本 GPU 上的稠密参数，Pe = 按 ep*etp（%2*%3）切分后的路由专家参数，ne = 专家数据并行规模 tp*dp*cp/(etp*ep)（Megatron-Core 在该组而不是稠密参数的数据并行组上切分专家的优化器状态）。</translation>
    </message>
    <message>
        <source>F: weights of this GPU&apos;s fp8 GEMMs (attention projections, MLP, experts; not the embedding, output layer, router or norms); c: bytes of fp8 copies per weight (2: the forward cast and the transposed copy for dgrad; 1 with fp8ParamGather, where the parameter is the forward copy; MXFP8 adds 1/32 per copy for its block scales).</source>
        <translation>F：本 GPU 上 fp8 GEMM 的权重（注意力投影、MLP、专家；不含嵌入层、输出层、路由器和 norm）；c：每个权重的 fp8 副本字节数（2：前向转换的副本和 dgrad 用的转置副本；开启 fp8ParamGather 时为 1，参数本身就是前向副本；MXFP8 的每个副本另加 1/32 的块缩放因子）。</translation>
    </message>
    <message>
        <source>F: weights of this GPU&apos;s fp8 GEMMs (attention projections, MLP, experts; not the embedding, output layer, router or norms), for the two gathered layers under ZeRO-3; c: bytes of fp8 copies per weight (2: the forward cast and the transposed copy for dgrad; 1 with fp8ParamGather, where the parameter is the forward copy; MXFP8 adds 1/32 per copy for its block scales).</source>
        <translation>F：本 GPU 上 fp8 GEMM 的权重（注意力投影、MLP、专家；不含嵌入层、输出层、路由器和 norm），ZeRO-3 下按聚合的两层计；c：每个权重的 fp8 副本字节数（2：前向转换的副本和 dgrad 用的转置副本；开启 fp8ParamGather 时为 1，参数本身就是前向副本；MXFP8 的每个副本另加 1/32 的块缩放因子）。</translation>
    </message>
    <message>
        <source>The copies live from the first microbatch to the optimizer step.</source>
        <translation>这些副本从第一个微批次一直保留到优化器步骤。</translation>
    </message>
    <message>
        <source>G: fp8 GEMMs on this GPU (per layer the attention projections and fc1/fc2, per local expert its two GEMMs); each keeps the scale, the inverse scale and (delayed scaling) an amax history of H steps for its input, weight and gradient, fp32.</source>
        <translation>G：本 GPU 上的 fp8 GEMM 数（每层的注意力投影和 fc1/fc2，每个本地专家各两个 GEMM）；每个 GEMM 为其输入、权重和梯度各保存缩放因子、逆缩放因子以及（延迟缩放时）H 步的 amax 历史，均为 fp32。</translation>
    </message>
    <message>
        <source>Per layer, per microbatch, per GPU (s = seqLength/cp), an MoE layer.</source>
        <translation>每层、每个微批次、每块 GPU（s = seqLength/cp），按 MoE 层计。</translation>
    </message>
    <message>
        <source>Korthikanti&apos;s Table 2 has c1 = 10, c2 = 24, k = 5 for f = 4h with dropout; here each saved tensor is derived from the block: %1.</source>
        <translation>Korthikanti 论文的表 2 在 f = 4h 且有 dropout 时给出 c1 = 10、c2 = 24、k = 5；这里由模块推导出每个保存的张量：%1。</translation>
    </message>
    <message>
        <source>%1 %2 (fp8)</source>
        <translation>%1 %2（fp8）</translation>
    </message>
    <message>
        <source>%1 %2 (recomputed: %3)</source>
        <translation>%1 %2（重计算：%3）</translation>
    </message>
    <message>
        <source>%1 %2 (fp8) (recomputed: %3)</source>
        <translation>%1 %2（fp8）（重计算：%3）</translation>
    </message>
    <message>
        <source>Flash attention keeps the fp32 logsumexp instead of the scores; selective recompute drops the tensors of the modules it re-runs (--recompute-modules, core_attn by default); under fp8 Transformer Engine saves GEMM inputs as fp8; full recompute keeps only the layer input (divided by t under sequence parallelism).</source>
        <translation>flash attention 保留 fp32 的 logsumexp 而不是注意力分数；选择性重计算丢弃它要重跑的模块的张量（--recompute-modules，默认 core_attn）；fp8 下 Transformer Engine 以 fp8 保存 GEMM 的输入；完全重计算只保存层输入（序列并行时除以 t）。</translation>
    </message>
    <message>
        <source>perLayer: one microbatch&apos;s bytes per layer, averaged over this rank&apos;s %1 layers (%2); mtp: MTP modules (a layer, the projection input and their own fp32 logits); firstExtra: embedding dropout mask and embedding norm input; lastExtra: final norm and output-layer inputs plus fp32 logits 4*s*b*V/t for the loss; workspace: the full activations of what is recomputed at once.</source>
        <translation>perLayer：一个微批次每层的字节数，按该 rank 的 %1 层平均（%2）；mtp：MTP 模块（一个层、投影的输入及其自身的 fp32 logits）；firstExtra：嵌入层的 dropout 掩码和嵌入 norm 的输入；lastExtra：最后的 norm 与输出层的输入，加上计算 loss 的 fp32 logits 4*s*b*V/t；workspace：一次重计算的部分的完整激活值。</translation>
    </message>
    <message>
        <source>%1 with the dense MLP at %2 each</source>
        <translation>其中 %1 层带稠密 MLP，每层 %2</translation>
    </message>
    <message>
        <source>full recompute in groups of N, N = %1</source>
        <translation>完全重计算，每 N 层一组，N = %1</translation>
    </message>
    <message>
        <source>full recompute of the first N of each chunk, N = %1</source>
        <translation>完全重计算每个 chunk 的前 N 层，N = %1</translation>
    </message>
    <message>
        <source>less the offloaded layers</source>
        <translation>扣除已卸载的层</translation>
    </message>
    <message>
        <source>Host memory this GPU&apos;s offload takes: the offloaded optimizer share&apos;s master weights and moments (o bytes per parameter) and an fp32 copy of its gradients (4), and the activations waiting on the host.</source>
        <translation>本 GPU 的卸载所占的主机内存：卸载的优化器份额的主权重和矩（每个参数 o 字节）及其梯度的 fp32 副本（4），以及在主机上等待的激活值。</translation>
    </message>
    <message>
        <source>offloaded: the saved activations of min(activationLayers, layers - 1) layers of each chunk for one microbatch; they occupy host memory instead of the GPU.</source>
        <translation>offloaded：一个微批次在每个 chunk 中 min(activationLayers, layers - 1) 层保存的激活值；它们占用主机内存而不是 GPU 显存。</translation>
    </message>
    <message>
        <source>layers: transformer layers one microbatch runs through on this rank (dense: those with the dense MLP of an MoE model); layer: one layer&apos;s forward ops; mtp: MTP modules, each a layer and an output head; output: the final norm, output projection and loss on the last stage.</source>
        <translation>layers：一个微批次在该 rank 上经过的 Transformer 层数（dense：MoE 模型中带稠密 MLP 的那些层）；layer：一层的前向算子；mtp：MTP 模块，每个是一个层加一个输出头；output：最后一个阶段上的最终 norm、输出投影和 loss。</translation>
    </message>
    <message>
        <source>The GPU steps its share while the host steps the offloaded one: gradients down and weights up over PCIe (pcie: bytes/s per direction, training.offload.pcieBandwidth), the update reading and writing master weights, moments and an fp32 gradient at host memory bandwidth (training.offload.hostBandwidth per GPU).</source>
        <translation>GPU 更新自己的份额，同时主机更新卸载的份额：梯度经 PCIe 传到主机、权重经 PCIe 传回（pcie：每方向字节/秒，training.offload.pcieBandwidth），更新以主机内存带宽（每块 GPU 的 training.offload.hostBandwidth）读写主权重、矩和 fp32 梯度。</translation>
    </message>
    <message>
        <source>A roofline: CPU Adam may run below the memory bandwidth.</source>
        <translation>这是屋顶线估计：CPU 上的 Adam 可能达不到内存带宽。</translation>
    </message>
    <message>
        <source>Host memory the offloaded optimizer share (with its fp32 gradients) and offloaded activations take on one node, from the stage that offloads most.</source>
        <translation>卸载的优化器份额（含其 fp32 梯度）和卸载的激活值在一个节点上占用的主机内存，按卸载最多的阶段计。</translation>
    </message>
    <message>
        <source>N counts the matrices a token multiplies with (layers, MTP modules and each output projection, active experts only); L counts layers and MTP modules; w = a*(d_qk + d_v)/2 (= h for multi-head attention with d = h/a).</source>
        <translation>N 统计一个 token 要相乘的矩阵参数（各层、MTP 模块和每个输出投影，只计激活的专家）；L 统计层和 MTP 模块；w = a*(d_qk + d_v)/2（多头注意力且 d = h/a 时 = h）。</translation>
    </message>
    <message>
        <source>For GPT this equals Megatron&apos;s 72*s*L*h^2*(1 + s/(6h) + V/(12*h*L)) per sequence / s.</source>
        <translation>对 GPT 它等于 Megatron 的每序列 72*s*L*h^2*(1 + s/(6h) + V/(12*h*L)) 除以 s。</translation>
    </message>
    <message>
        <source>Full recompute re-runs every layer&apos;s forward (Megatron: 96*B*s*L*h^2*(1 + s/(6h) + V/(16*h*L))); selective re-runs the attention scores (4*L*s*w per token; flash attention recomputes inside its kernel, counted as no extra) and the GEMMs of the other --recompute-modules (M weights per token: mlp, moe, shared_experts, mla_up_proj).</source>
        <translation>完全重计算会重跑每一层的前向（Megatron：96*B*s*L*h^2*(1 + s/(6h) + V/(16*h*L))）；选择性重计算重跑注意力分数（每 token 4*L*s*w；flash attention 在其 kernel 内部重计算，不计额外开销）以及其他 --recompute-modules 的 GEMM（每 token M 个权重：mlp、moe、shared_experts、mla_up_proj）。</translation>
    </message>
    <message>
        <source>The highest memory any GPU reaches inside the simulated step.</source>
        <translation>仿真步内任一 GPU 达到的最高显存占用。</translation>
    </message>
    <message>
        <source>NVIDIA Transformer Engine user guide, Using FP8 with Transformer Engine (delayed and current scaling, amax history, fp8 weight caching across microbatches) and FP8/MXFP8 on Blackwell</source>
        <translation>NVIDIA Transformer Engine 用户指南，Using FP8 with Transformer Engine（延迟缩放和当前缩放、amax 历史、跨微批次的 fp8 权重缓存）及 FP8/MXFP8 on Blackwell</translation>
    </message>
    <message>
        <source>Micikevicius et al., FP8 Formats for Deep Learning (2022)</source>
        <translation>Micikevicius 等，FP8 Formats for Deep Learning（2022）</translation>
    </message>
    <message>
        <source>DeepSeek-V3 technical report (arXiv 2412.19437) section 3.3 (blockwise scaling)</source>
        <translation>DeepSeek-V3 技术报告（arXiv 2412.19437），第 3.3 节（分块缩放）</translation>
    </message>
    <message>
        <source>Ren et al., ZeRO-Offload: Democratizing Billion-Scale Model Training (USENIX ATC 2021)</source>
        <translation>Ren 等，ZeRO-Offload: Democratizing Billion-Scale Model Training（USENIX ATC 2021）</translation>
    </message>
    <message>
        <source>Megatron-Core --optimizer-cpu-offload / --optimizer-offload-fraction (HybridDeviceOptimizer)</source>
        <translation>Megatron-Core 参数 --optimizer-cpu-offload / --optimizer-offload-fraction（HybridDeviceOptimizer）</translation>
    </message>
    <message>
        <source>Transformer Engine CPU offloading (transformer_engine.pytorch.get_cpu_offload_context)</source>
        <translation>Transformer Engine 的 CPU 卸载（transformer_engine.pytorch.get_cpu_offload_context）</translation>
    </message>
    <message>
        <source>Megatron-LM --cpu-offloading-num-layers</source>
        <translation>Megatron-LM 参数 --cpu-offloading-num-layers</translation>
    </message>
    <message>
        <source>tp*pp*cp does not divide the GPUs</source>
        <translation>tp*pp*cp 不能整除 GPU 数</translation>
    </message>
    <message>
        <source>dp*tp*pp*cp is not the GPU count</source>
        <translation>dp*tp*pp*cp 不等于 GPU 数</translation>
    </message>
    <message>
        <source>tp does not divide heads</source>
        <translation>tp 不能整除注意力头数</translation>
    </message>
    <message>
        <source>tp does not divide kv heads</source>
        <translation>tp 不能整除 KV 头数</translation>
    </message>
    <message>
        <source>tp does not divide the FFN</source>
        <translation>tp 不能整除 FFN 隐藏维度</translation>
    </message>
    <message>
        <source>cp does not divide the sequence</source>
        <translation>cp 不能整除序列长度</translation>
    </message>
    <message>
        <source>ep &gt; 1 needs an MoE model</source>
        <translation>ep &gt; 1 需要 MoE 模型</translation>
    </message>
    <message>
        <source>ep does not divide the experts</source>
        <translation>ep 不能整除专家数</translation>
    </message>
    <message>
        <source>ep does not divide dp*cp</source>
        <translation>ep 不能整除 dp*cp</translation>
    </message>
    <message>
        <source>etp*ep does not divide tp*dp*cp</source>
        <translation>etp*ep 不能整除 tp*dp*cp</translation>
    </message>
    <message>
        <source>more stages than layers, or an uneven split under a schedule that takes no layout</source>
        <translation>阶段数多于层数，或调度不接受 layout 却需要不均匀切分</translation>
    </message>
    <message>
        <source>microBatch*dp does not divide the global batch</source>
        <translation>microBatch*dp 不能整除全局批大小</translation>
    </message>
    <message>
        <source>interleaved-1f1b needs microbatches divisible by pp</source>
        <translation>interleaved-1f1b 要求微批次数可被 pp 整除</translation>
    </message>
    <message>
        <source>zb-h1 needs microbatches divisible by max(1, m/pp)</source>
        <translation>zb-h1 要求微批次数可被 max(1, m/pp) 整除</translation>
    </message>
    <message>
        <source>zb-v and dualpipe-v hold two chunks per rank (vpp 2)</source>
        <translation>zb-v 和 dualpipe-v 每个 rank 持有两个块（vpp 2）</translation>
    </message>
    <message>
        <source>dualpipe-v needs at least 2*pp microbatches</source>
        <translation>dualpipe-v 至少需要 2*pp 个微批次</translation>
    </message>
    <message>
        <source>dualpipe needs an even pp</source>
        <translation>dualpipe 需要偶数 pp</translation>
    </message>
    <message>
        <source>dualpipe needs an even number of microbatches, at least 2*pp</source>
        <translation>dualpipe 需要偶数个微批次，且至少 2*pp 个</translation>
    </message>
    <message>
        <source>same plan: sp has no effect with tp 1</source>
        <translation>同一方案：tp 为 1 时 sp 不起作用</translation>
    </message>
    <message>
        <source>same plan: vpp has no effect with one chunk per rank</source>
        <translation>同一方案：每个 rank 只有一个块时 vpp 不起作用</translation>
    </message>
    <message>
        <source>same plan: interleaved-1f1b with vpp 1 is 1f1b</source>
        <translation>同一方案：vpp 为 1 的 interleaved-1f1b 就是 1f1b</translation>
    </message>
    <message>
        <source>same plan: zb-v and dualpipe-v always hold two chunks</source>
        <translation>同一方案：zb-v 和 dualpipe-v 总是持有两个块</translation>
    </message>
    <message>
        <source>same plan: tp comm overlap needs tp &gt; 1 with sp</source>
        <translation>同一方案：TP 通信重叠需要 tp &gt; 1 且开启 sp</translation>
    </message>
    <message>
        <source>same plan: one pipeline stage runs no pipeline schedule</source>
        <translation>同一方案：只有一个流水线阶段时不运行流水线调度</translation>
    </message>
    <message>
        <source>same plan: selective recompute of core attention is none under flash attention</source>
        <translation>同一方案：使用 flash attention 时，只对核心注意力做选择性重计算等同于不重计算</translation>
    </message>
    <message>
        <source>out of memory</source>
        <translation>显存不足</translation>
    </message>
    <message>
        <source>invalid: %1</source>
        <translation>无效：%1</translation>
    </message>
    <message>
        <source>invalid</source>
        <translation>无效</translation>
    </message>
    <message>
        <source>out of memory on stage %1 by %2 (%3 of %4)</source>
        <translation>阶段 %1 显存超出 %2（需要 %3，容量 %4）</translation>
    </message>
    <message>
        <source>a GPU count must be a multiple of the node&apos;s %1 GPUs (or divide it), got %2</source>
        <translation>GPU 数必须是每节点 %1 块 GPU 的倍数（或能整除它），实际为 %2</translation>
    </message>
    <message>
        <source>the template&apos;s pipeline split (layout, first/last stage layers) is dropped: the stages vary, so every plan splits its layers evenly, or with the embedding and the loss counted as layers where only that divides (run planscope-cli balance on the chosen plan)</source>
        <translation>模板的流水线划分（layout、首/末阶段层数）已舍弃：阶段数在变化，因此每个方案均匀划分各层；只有在这样才能整除时，才把嵌入层和损失层也算作层（对选中的方案运行 planscope-cli balance）</translation>
    </message>
    <message>
        <source>compute (m x the slowest rank&apos;s microbatch)</source>
        <translation>计算（m × 最慢 rank 的一个微批次）</translation>
    </message>
    <message>
        <source>pipeline bubble</source>
        <translation>流水线气泡</translation>
    </message>
    <message>
        <source>exposed communication</source>
        <translation>暴露的通信</translation>
    </message>
    <message>
        <source>optimizer step</source>
        <translation>优化器步骤</translation>
    </message>
    <message>
        <source>of which %1</source>
        <translation>其中 %1</translation>
    </message>
    <message>
        <source>weights at the peak stage</source>
        <translation>峰值阶段的权重</translation>
    </message>
    <message>
        <source>gradients at the peak stage</source>
        <translation>峰值阶段的梯度</translation>
    </message>
    <message>
        <source>optimizer state at the peak stage</source>
        <translation>峰值阶段的优化器状态</translation>
    </message>
    <message>
        <source>activations at the peak stage</source>
        <translation>峰值阶段的激活</translation>
    </message>
    <message>
        <source>buffers at the peak stage</source>
        <translation>峰值阶段的缓冲区</translation>
    </message>
    <message>
        <source>is %1 bytes (%2), more than the %3 this kind of file may have; not read</source>
        <translation>大小为 %1 字节（%2），超过此类文件允许的 %3；未读取</translation>
    </message>
    <message>
        <source>has more than %1 bytes (%2), the most this kind of file may have; not read</source>
        <translation>超过 %1 字节（%2），即此类文件允许的上限；未读取</translation>
    </message>
    <message>
        <source>no *_perf binary named: %1 from the rows (%2); give the op if not (planscope-cli import-nccl-tests --op OP)</source>
        <translation>输出中没有 *_perf 程序名：由各行判断为 %1（%2）；若不是，请指定操作（planscope-cli import-nccl-tests --op OP）</translation>
    </message>
    <message>
        <source>redop %1 and busbw / algbw above 1, which only an all-reduce prints</source>
        <translation>redop 为 %1，且 busbw / algbw 大于 1，只有 all-reduce 会这样打印</translation>
    </message>
    <message>
        <source>redop %1 and busbw / algbw below 1, which of the reductions only a reduce-scatter prints</source>
        <translation>redop 为 %1，且 busbw / algbw 小于 1，规约类集合通信中只有 reduce-scatter 会这样打印</translation>
    </message>
    <message>
        <source>redop %1, a root, and busbw = algbw</source>
        <translation>redop 为 %1，有 root，且 busbw = algbw</translation>
    </message>
    <message>
        <source>no reduction, a root, and busbw = algbw</source>
        <translation>没有规约，有 root，且 busbw = algbw</translation>
    </message>
    <message>
        <source>cannot tell which collective the table at line %1 (rows: %2) measured: no *_perf binary (all_reduce_perf, all_gather_perf, ...) is named above it, and its rows fit more than one; give the op (planscope-cli import-nccl-tests --op AllToAll) or name the file after the binary (alltoall_perf.txt)</source>
        <translation>无法判断第 %1 行的表格（%2 行数据）测的是哪种集合通信：表格上方没有 *_perf 程序名（all_reduce_perf、all_gather_perf 等），而其数据行与不止一种集合通信相符；请指定操作（planscope-cli import-nccl-tests --op AllToAll），或按程序名命名文件（alltoall_perf.txt）</translation>
    </message>
    <message>
        <source>the table at line %1 (rows: %2) is from %3, not a collective PlanScope models (AllReduce, AllGather, ReduceScatter, AllToAll, Broadcast, Reduce, SendRecv)</source>
        <translation>第 %1 行的表格（%2 行数据）来自 %3，不是 PlanScope 建模的集合通信（AllReduce、AllGather、ReduceScatter、AllToAll、Broadcast、Reduce、SendRecv）</translation>
    </message>
    <message>
        <source>no &quot;#  Rank&quot; lines: %1 ranks from %2, the only rank count the printed digits allow</source>
        <translation>没有 &quot;#  Rank&quot; 行：由 %2 得到 %1 个 rank，这是打印的有效数字唯一允许的 rank 数</translation>
    </message>
    <message>
        <source>no &quot;#  Rank&quot; lines: %1 ranks from the header&apos;s nThread x nGpus (one process assumed)</source>
        <translation>没有 &quot;#  Rank&quot; 行：由表头的 nThread x nGpus 得到 %1 个 rank（假定只有一个进程）</translation>
    </message>
    <message>
        <source>the rank count cannot be told: no &quot;#  Rank&quot; lines, and %1 allows %2; rows kept with their printed bandwidths but not fitted (give it: planscope-cli import-nccl-tests --ranks N)</source>
        <translation>无法判断 rank 数：没有 &quot;#  Rank&quot; 行，而 %1 允许 %2；各行按打印的带宽保留，但不参与拟合（请给出：planscope-cli import-nccl-tests --ranks N）</translation>
    </message>
    <message>
        <source>the rank count cannot be told: no &quot;#  Rank&quot; lines, and no printed bandwidth ratio; rows kept with their printed bandwidths but not fitted (give it: planscope-cli import-nccl-tests --ranks N)</source>
        <translation>无法判断 rank 数：没有 &quot;#  Rank&quot; 行，也没有打印的带宽比；各行按打印的带宽保留，但不参与拟合（请给出：planscope-cli import-nccl-tests --ranks N）</translation>
    </message>
    <message>
        <source>%1 is the factor for %2, not for the %3 the rank lines say; the printed bandwidths are kept as printed</source>
        <translation>%1 是 %2 对应的系数，而不是 rank 行所示 %3 个 rank 的系数；打印的带宽按原样保留</translation>
    </message>
    <message>
        <source>%1 is the factor for %2, not for the %3 ranks given</source>
        <translation>%1 是 %2 对应的系数，而不是给定的 %3 个 rank 的系数</translation>
    </message>
    <message>
        <source>%1 busbw / algbw = %2 (line %3)</source>
        <translation>%1 的 busbw / algbw = %2（第 %3 行）</translation>
    </message>
    <message>
        <source>the printed busbw / algbw</source>
        <translation>打印的 busbw / algbw</translation>
    </message>
    <message>
        <source>%1 to %2 ranks</source>
        <translation>%1 到 %2 个 rank</translation>
    </message>
    <message>
        <source>at least %1 ranks</source>
        <translation>至少 %1 个 rank</translation>
    </message>
    <message>
        <source>%1 ranks</source>
        <translation>%1 个 rank</translation>
    </message>
    <message>
        <source>%1 nodes inferred from %2 of %3 rank lines: their device indexes are the rank modulo %4 (%5 GPUs per node); give it if not (planscope-cli import-nccl-tests --nodes N)</source>
        <translation>由 %3 行 rank 行中的 %2 行推断出 %1 个节点：其 device 编号等于 rank 对 %4 取模（每节点 %5 个 GPU）；若不对，请给出（planscope-cli import-nccl-tests --nodes N）</translation>
    </message>
    <message>
        <source>no &quot;#  Rank&quot; lines name the hosts: the node count is unknown, so these rows are fitted without a link class and change no plan (give it: planscope-cli import-nccl-tests --nodes N)</source>
        <translation>没有 &quot;#  Rank&quot; 行给出主机名：节点数未知，因此这些行拟合时不区分链路类别，也不改变任何方案（请给出：planscope-cli import-nccl-tests --nodes N）</translation>
    </message>
    <message>
        <source>the rank lines shown do not tell the hosts of the others: the node count is unknown, so these rows are fitted without a link class and change no plan (give it: planscope-cli import-nccl-tests --nodes N)</source>
        <translation>已有的 rank 行无法说明其余 rank 的主机：节点数未知，因此这些行拟合时不区分链路类别，也不改变任何方案（请给出：planscope-cli import-nccl-tests --nodes N）</translation>
    </message>
    <message>
        <source>%1 row(s) report wrong results (#wrong &gt; 0): the collective did not compute correctly there; kept</source>
        <translation>%1 行报告了错误结果（#wrong &gt; 0）：这些集合通信的计算结果不正确；仍保留</translation>
    </message>
    <message>
        <source>%1 row(s) without a usable time (N/A, garbled or cut short) left out</source>
        <translation>%1 行没有可用的时间（N/A、损坏或被截断），已略去</translation>
    </message>
    <message>
        <source>no result rows under the nccl-tests table header</source>
        <translation>nccl-tests 表头下没有结果行</translation>
    </message>
    <message>
        <source>no nccl-tests table found (expected a &quot;#  size  count  type ... time  algbw  busbw&quot; header row)</source>
        <translation>没有找到 nccl-tests 表格（应有 &quot;#  size  count  type ... time  algbw  busbw&quot; 表头行）</translation>
    </message>
    <message>
        <source>not nccl-tests JSON output: no &quot;results&quot; array</source>
        <translation>不是 nccl-tests 的 JSON 输出：没有 &quot;results&quot; 数组</translation>
    </message>
    <message>
        <source>cannot tell which collective was measured; give the op (e.g. AllReduce)</source>
        <translation>无法判断测的是哪种集合通信；请指定操作（例如 AllReduce）</translation>
    </message>
    <message>
        <source>&quot;%1&quot; is not a collective PlanScope models</source>
        <translation>&quot;%1&quot; 不是 PlanScope 建模的集合通信</translation>
    </message>
    <message>
        <source>no host names: the node count is unknown, so the results are fitted without a link class and change no plan (give it: planscope-cli import-nccl-tests --nodes N)</source>
        <translation>没有主机名：节点数未知，因此结果拟合时不区分链路类别，也不改变任何方案（请给出：planscope-cli import-nccl-tests --nodes N）</translation>
    </message>
    <message>
        <source>%1 result(s) without a time left out</source>
        <translation>%1 条结果没有时间，已略去</translation>
    </message>
    <message>
        <source>no result with a time</source>
        <translation>没有带时间的结果</translation>
    </message>
    <message>
        <source>JSON that does not parse (an nccl-tests -J file of a run that did not finish?)</source>
        <translation>无法解析的 JSON（是未跑完的 nccl-tests -J 文件吗？）</translation>
    </message>
    <message>
        <source>expands to %1 stages, more than %2</source>
        <translation>展开为 %1 个阶段，超过 %2</translation>
    </message>
    <message>
        <source>the simulation was cancelled; the step time is the closed form&apos;s</source>
        <translation>模拟已取消；单步时间取解析式的结果</translation>
    </message>
    <message>
        <source>the number %1 is beyond the range of a double (about 1.8e308); write a finite value</source>
        <translation>数字 %1 超出了 double 的范围（约 1.8e308）；请写一个有限值</translation>
    </message>
    <message>
        <source>%1 more errors, not listed: only the first %2 are</source>
        <translation>另有 %1 个错误未列出：只列出前 %2 个</translation>
    </message>
    <message>
        <source>%1 more unknown fields, ignored (only the first %2 warnings are listed)</source>
        <translation>另有 %1 个未知字段，已忽略（只列出前 %2 条警告）</translation>
    </message>
    <message>
        <source>%1 more warnings, not listed: only the first %2 are</source>
        <translation>另有 %1 条警告未列出：只列出前 %2 条</translation>
    </message>
    <message>
        <source>%1 more warnings (%2 of them unknown fields), not listed: only the first %3 are</source>
        <translation>另有 %1 条警告（其中 %2 条是未知字段）未列出：只列出前 %3 条</translation>
    </message>
    <message>
        <source>cannot open file: %1</source>
        <translation>无法打开文件：%1</translation>
    </message>
    <message>
        <source>read error: %1</source>
        <translation>读取错误：%1</translation>
    </message>
    <message>
        <source>is %1, not a regular file; not read</source>
        <translation>是%1，不是普通文件；未读取</translation>
    </message>
    <message>
        <source>is a folder, not a file; not read</source>
        <translation>是文件夹，不是文件；未读取</translation>
    </message>
    <message>
        <source>must be &gt; 0 (the out-of-place time in seconds)</source>
        <translation>必须 &gt; 0（out-of-place 时间，单位秒）</translation>
    </message>
    <message>
        <source>must be &gt; 0 (the in-place time in seconds)</source>
        <translation>必须 &gt; 0（in-place 时间，单位秒）</translation>
    </message>
    <message>
        <source>must be &gt; 0 (bytes/s)</source>
        <translation>必须 &gt; 0（字节/秒）</translation>
    </message>
    <message>
        <source>needs seconds &gt; 0 or tflops &gt; 0: a GEMM without a time measured nothing</source>
        <translation>需要 seconds &gt; 0 或 tflops &gt; 0：没有时间的 GEMM 什么也没测到</translation>
    </message>
    <message>
        <source>is too short for the shape: 2*m*n*k / seconds is more than 100000 TFLOP/s, beyond any GPU</source>
        <translation>对这个形状来说太短：2*m*n*k / seconds 超过 100000 TFLOP/s，超出任何 GPU 的能力</translation>
    </message>
    <message>
        <source>%1 collective row(s) without a time left out: nothing to fit</source>
        <translation>%1 行集合通信数据没有时间，已略去：没有可拟合的内容</translation>
    </message>
    <message>
        <source>%1 row(s) print an algbw or busbw that is no bandwidth (negative, inf, nan, or above 100000 GB/s): computed from the time instead where the rank count allows (listed in derived)</source>
        <translation>%1 行打印的 algbw 或 busbw 不是有效带宽（负数、inf、nan 或超过 100000 GB/s）：在 rank 数允许时改由时间计算（列在 derived 中）</translation>
    </message>
    <message>
        <source>a full-iteration CUDA graph needs a step without host syncs, and this dropless MoE dispatcher copies its token counts to the host every layer; set model.moe.syncFree or a capacity factor, or use per-layer graphs</source>
        <translation>整个迭代的 CUDA graph 要求一步中没有主机同步，而这个不丢弃 token 的 MoE 分发器每层都要把 token 计数拷贝到主机；请设置 model.moe.syncFree 或容量因子，或改用逐层 CUDA graph</translation>
    </message>
    <message>
        <source>overlaps the expert-parallel all-to-alls and needs an MoE model with ep &gt; 1; ignored</source>
        <translation>重叠的是专家并行的 all-to-all，需要 ep &gt; 1 的 MoE 模型；已忽略</translation>
    </message>
    <message>
        <source>Megatron-Core runs the all-to-all overlap with pp &gt; 1 only under the interleaved schedule (vpp &gt; 1)</source>
        <translation>pp &gt; 1 时，Megatron-Core 只在交错调度（vpp &gt; 1）下执行 all-to-all 重叠</translation>
    </message>
    <message>
        <source>must be at least 1 (the busiest rank&apos;s tokens over the balanced share; 1 = balanced)</source>
        <translation>必须至少为 1（最忙 rank 的 token 数与均衡份额之比；1 = 均衡）</translation>
    </message>
    <message>
        <source>Each op takes the slower of its FLOPs at the shape&apos;s achievable rate and its bytes at the achievable HBM bandwidth, plus a launch; comm counts only what overlap leaves exposed; host is the GPU&apos;s wait for the CPU to issue the next kernel (the CPU spends %1 issuing this pass; docs/MODEL.md section 7.4).</source>
        <translation>每个算子的耗时取两者中较慢者：以该形状可达的算力完成其 FLOPs，或以可达的 HBM 带宽传输其字节，再加一次 kernel 启动开销；通信只计入重叠后仍暴露的部分；host 是 GPU 等待 CPU 发出下一个 kernel 的时间（CPU 发出这一遍的 kernel 共耗时 %1；docs/MODEL.md 第 7.4 节）。</translation>
    </message>
    <message>
        <source>%1 %2 is larger than an NVLink domain (%3 GPUs): some %4 group spans %5 domains under the order %6; its per-layer collectives run over the network between domains</source>
        <translation>%1 %2 大于一个 NVLink 域（%3 块 GPU）：在顺序 %6 下，有 %4 组跨越 %5 个域；其每层的集合通信走域间网络</translation>
    </message>
    <message>
        <source>%1 %2 does not fit the %3-GPU NVLink domains: some %4 group spans %5 domains under the order %6; its per-layer collectives run over the network between domains</source>
        <translation>%1 %2 无法放进 %3 块 GPU 的 NVLink 域：在顺序 %6 下，有 %4 组跨越 %5 个域；其每层的集合通信走域间网络</translation>
    </message>
    <message>
        <source>%1, the group crosses NVLink domains.</source>
        <translation>%1，该组跨 NVLink 域。</translation>
    </message>
    <message>
        <source>%1, inside one NVLink domain.</source>
        <translation>%1，位于单个 NVLink 域内。</translation>
    </message>
    <message>
        <source>%1: %2</source>
        <translation>%1：%2</translation>
    </message>
    <message>
        <source>must be an array, found %1</source>
        <translation>必须是数组，实际为 %1</translation>
    </message>
    <message>
        <source>must be an array of field names, found %1</source>
        <translation>必须是字段名数组，实际为 %1</translation>
    </message>
    <message>
        <source>expected &quot;algBandwidth&quot;, &quot;busBandwidth&quot;, &quot;inPlace.algBandwidth&quot; or &quot;inPlace.busBandwidth&quot;; ignored</source>
        <translation>应为 &quot;algBandwidth&quot;、&quot;busBandwidth&quot;、&quot;inPlace.algBandwidth&quot; 或 &quot;inPlace.busBandwidth&quot;；已忽略</translation>
    </message>
    <message>
        <source>unknown schema &quot;%1&quot;; expected &quot;%2&quot;</source>
        <translation>未知的 schema &quot;%1&quot;；应为 &quot;%2&quot;</translation>
    </message>
    <message>
        <source>missing: the collective measured (AllReduce, AllGather, ReduceScatter, AllToAll, Broadcast, Reduce, SendRecv)</source>
        <translation>缺失：所测的集合通信（AllReduce、AllGather、ReduceScatter、AllToAll、Broadcast、Reduce、SendRecv）</translation>
    </message>
    <message>
        <source>&quot;%1&quot; is not a collective PlanScope models; kept, not fitted</source>
        <translation>&quot;%1&quot; 不是 PlanScope 建模的集合通信；已保留，未拟合</translation>
    </message>
    <message>
        <source>unknown value &quot;%1&quot;; expected intra, inter or unknown</source>
        <translation>未知取值 &quot;%1&quot;；应为 intra、inter 或 unknown</translation>
    </message>
    <message>
        <source>neither a profile (schema %1) nor nccl-tests output</source>
        <translation>既不是性能测量文件（schema %1），也不是 nccl-tests 输出</translation>
    </message>
    <message>
        <source>%1 more error, not listed: only the first %2 are</source>
        <translation>另有 %1 个错误未列出：只列出前 %2 个</translation>
    </message>
    <message>
        <source>%1 more unknown field, ignored (only the first %2 warnings are listed)</source>
        <translation>另有 %1 个未知字段，已忽略（只列出前 %2 条警告）</translation>
    </message>
    <message>
        <source>%1 more warning, not listed: only the first %2 are</source>
        <translation>另有 %1 条警告未列出：只列出前 %2 条</translation>
    </message>
    <message>
        <source>config.json is not a JSON object</source>
        <translation>config.json 不是 JSON 对象</translation>
    </message>
    <message>
        <source>is %1: expected a whole number from 0 to %2</source>
        <translation>为 %1：应为 0 到 %2 之间的整数</translation>
    </message>
    <message>
        <source>is %1: expected true or false</source>
        <translation>为 %1：应为 true 或 false</translation>
    </message>
    <message>
        <source>is %1: expected a string</source>
        <translation>为 %1：应为字符串</translation>
    </message>
    <message>
        <source>is %1: expected a number</source>
        <translation>为 %1：应为数字</translation>
    </message>
    <message>
        <source>missing in config.json</source>
        <translation>config.json 中缺失</translation>
    </message>
    <message>
        <source>byte %1</source>
        <translation>字节 %1</translation>
    </message>
    <message>
        <source>a FIFO</source>
        <translation>命名管道（FIFO）</translation>
    </message>
    <message>
        <source>a character device</source>
        <translation>字符设备</translation>
    </message>
    <message>
        <source>a block device</source>
        <translation>块设备</translation>
    </message>
    <message>
        <source>a socket</source>
        <translation>套接字</translation>
    </message>
    <message>
        <source>a special file</source>
        <translation>特殊文件</translation>
    </message>
    <message>
        <source>must be &gt;= 1 for a search, got %1</source>
        <translation>搜索时必须 &gt;= 1，实际为 %1</translation>
    </message>
    <message>
        <source>unexpected &apos;%1&apos;</source>
        <translation>意外的 &apos;%1&apos;</translation>
    </message>
    <message>
        <source>unexpected end of formula</source>
        <translation>公式意外结束</translation>
    </message>
    <message>
        <source>missing &apos;)&apos;</source>
        <translation>缺少 &apos;)&apos;</translation>
    </message>
    <message>
        <source>bad number &quot;%1&quot;</source>
        <translation>无效的数字 &quot;%1&quot;</translation>
    </message>
    <message>
        <source>missing &apos;)&apos; after the arguments of %1</source>
        <translation>%1 的参数之后缺少 &apos;)&apos;</translation>
    </message>
    <message>
        <source>&quot;%1&quot; is not among the inputs</source>
        <translation>&quot;%1&quot; 不在输入之中</translation>
    </message>
    <message>
        <source>%1 takes two or more arguments</source>
        <translation>%1 需要两个或更多参数</translation>
    </message>
    <message>
        <source>%1 takes one argument</source>
        <translation>%1 需要一个参数</translation>
    </message>
    <message>
        <source>unknown function &quot;%1&quot;</source>
        <translation>未知函数 &quot;%1&quot;</translation>
    </message>
    <message>
        <source>%1 at offset %2 in &quot;%3&quot;</source>
        <translation>%1（位于 &quot;%3&quot; 的偏移 %2 处）</translation>
    </message>
    <message>
        <source>recompute %1 %2 (communication, %3% of peak)</source>
        <translation>重计算 %1 %2（通信受限，峰值的 %3%）</translation>
    </message>
    <message>
        <source>%1 %2 (communication, %3% of peak)</source>
        <translation>%1 %2（通信受限，峰值的 %3%）</translation>
    </message>
    <message>
        <source>recompute %1 %2 (latency, %3% of peak)</source>
        <translation>重计算 %1 %2（延迟受限，峰值的 %3%）</translation>
    </message>
    <message>
        <source>%1 %2 (latency, %3% of peak)</source>
        <translation>%1 %2（延迟受限，峰值的 %3%）</translation>
    </message>
    <message>
        <source>Muon (Megatron-Core TensorParallelMuon): one momentum per 2-D weight; the embedding and the output layer take Adam, whose second moment m2 adds for their A parameters on this GPU (after tp and ZeRO).</source>
        <translation>Muon（Megatron-Core TensorParallelMuon）：每个二维权重一个动量；嵌入层和输出层使用 Adam，其二阶矩 m2 按它们在本 GPU 上的 A 个参数计入（经 tp 和 ZeRO 切分后）。</translation>
    </message>
    <message>
        <source>Megatron-Core megatron/core/optimizer/emerging_optimizers.py (TensorParallelMuon) and layer_wise_optimizer.py</source>
        <translation>Megatron-Core megatron/core/optimizer/emerging_optimizers.py（TensorParallelMuon）及 layer_wise_optimizer.py</translation>
    </message>
    <message>
        <source>Jordan et al., Muon (2024): 5 quintic Newton-Schulz steps of X X^T, A A and B X</source>
        <translation>Jordan 等，Muon（2024）：5 步五次 Newton-Schulz 迭代，每步计算 X X^T、A A 和 B X</translation>
    </message>
    <message>
        <source>D: FLOPs of this stage&apos;s non-expert matrices, 5*(4*m^2*n + 2*m^3) each (m &lt;= n): Q, K, V apart, the output projection, fc1 and fc2, the router and shared experts; X: the local experts&apos; fc1 and fc2.</source>
        <translation>D：本阶段非专家矩阵的 FLOPs，每个 5*(4*m^2*n + 2*m^3)（m &lt;= n）：Q、K、V 分开计，输出投影、fc1 和 fc2、路由器和共享专家；X：本地专家的 fc1 和 fc2。</translation>
    </message>
    <message>
        <source>With the distributed optimizer each matrix is orthogonalised on one rank of the data-parallel group (n) or the expert data-parallel group (ne); whole matrices on every tp rank (tp mode duplicated, whose all-gather of the momentum is not counted).</source>
        <translation>使用分布式优化器时，每个矩阵只在数据并行组（n）或专家数据并行组（ne）中的一个 rank 上正交化；每个 tp rank 上处理完整矩阵（tp 模式为 duplicated，其动量的 all-gather 不计入）。</translation>
    </message>
    <message>
        <source>rate: the bf16 GEMM rate (peak x gemmEfficiency).</source>
        <translation>rate：bf16 GEMM 速率（峰值 x gemmEfficiency）。</translation>
    </message>
    <message>
        <source>unknown interview topic &quot;%1&quot;; known: %2</source>
        <translation>未知的面试题主题 &quot;%1&quot;；已知主题：%2</translation>
    </message>
    <message>
        <source>no valid plan drawn for topic %1</source>
        <translation>未能为主题 %1 抽取到有效方案</translation>
    </message>
    <message>
        <source>no number at %1</source>
        <translation>%1 处没有数值</translation>
    </message>
    <message>
        <source>the plan does not parse: %1 %2</source>
        <translation>方案无法解析：%1 %2</translation>
    </message>
    <message>
        <source>the plan is not valid</source>
        <translation>方案无效</translation>
    </message>
    <message>
        <source>the plan is not valid: %1</source>
        <translation>方案无效：%1</translation>
    </message>
    <message>
        <source>DualPipe needs an even number of pipeline ranks (one stage of each direction per rank), got %1</source>
        <translation>DualPipe 需要偶数个流水线 rank（每个 rank 上两个方向各一个阶段），实际为 %1</translation>
    </message>
    <message>
        <source>DualPipe needs an even number of microbatches (half enter from each end), got %1</source>
        <translation>DualPipe 需要偶数个微批次（一半从每一端进入），实际为 %1</translation>
    </message>
    <message>
        <source>DualPipe needs at least 2 x ranks = %1 microbatches, got %2</source>
        <translation>DualPipe 至少需要 2 x rank 数 = %1 个微批次，实际为 %2</translation>
    </message>
    <message>
        <source>DualPipe holds exactly 2 chunks per rank (one per direction), got %1</source>
        <translation>DualPipe 每个 rank 恰好持有 2 个 chunk（每个方向一个），实际为 %1</translation>
    </message>
    <message>
        <source>DualPipeV needs at least one pipeline rank</source>
        <translation>DualPipeV 至少需要一个流水线 rank</translation>
    </message>
    <message>
        <source>DualPipeV needs at least as many microbatches as stages (2 x ranks = %1), got %2</source>
        <translation>DualPipeV 的微批次数至少要等于阶段数（2 x rank 数 = %1），实际为 %2</translation>
    </message>
    <message>
        <source>DualPipeV holds exactly 2 chunks per rank (a V), got %1</source>
        <translation>DualPipeV 每个 rank 恰好持有 2 个 chunk（V 形），实际为 %1</translation>
    </message>
    <message>
        <source>the number of pipeline ranks must be &gt;= 1</source>
        <translation>流水线 rank 数必须 &gt;= 1</translation>
    </message>
    <message>
        <source>the number of microbatches must be &gt;= 1</source>
        <translation>微批次数必须 &gt;= 1</translation>
    </message>
    <message>
        <source>Number of microbatches (%1) must be greater than or equal to the number of stages (%2) (torch Schedule1F1B)</source>
        <translation>微批次数（%1）必须大于或等于阶段数（%2）（torch Schedule1F1B）</translation>
    </message>
    <message>
        <source>chunks per rank must be &gt;= 1</source>
        <translation>每个 rank 的 chunk 数必须 &gt;= 1</translation>
    </message>
    <message>
        <source>Interleaved 1F1B requires the number of microbatches to be a multiple of the number of rounds (%1), but got %2 (torch ScheduleInterleaved1F1B, rounds = max(1, m // p))</source>
        <translation>Interleaved 1F1B 要求微批次数是轮数（%1）的倍数，实际为 %2（torch ScheduleInterleaved1F1B，rounds = max(1, m // p)）</translation>
    </message>
    <message>
        <source>unknown interleaved 1F1B variant &quot;%1&quot; (expected megatron, megatron-legacy or torch)</source>
        <translation>未知的 interleaved 1F1B 变体 &quot;%1&quot;（应为 megatron、megatron-legacy 或 torch）</translation>
    </message>
    <message>
        <source>When interleaved schedule is used, pipeline-model-parallel size should be greater than 1 (Megatron)</source>
        <translation>使用交错调度时，pipeline-model-parallel size 应大于 1（Megatron）</translation>
    </message>
    <message>
        <source>number of microbatches (%1) is not divisible by pipeline-model-parallel-size (%2) when using interleaved schedule (Megatron before microbatch_group_size_per_vp_stage)</source>
        <translation>使用交错调度时，微批次数（%1）不能被 pipeline-model-parallel-size（%2）整除（引入 microbatch_group_size_per_vp_stage 之前的 Megatron）</translation>
    </message>
    <message>
        <source>The number of contiguous micro-batches in a virtual pipeline stage should range in [PP=%1 , M=%2], got %3 (Megatron microbatch_group_size_per_vp_stage)</source>
        <translation>一个虚拟流水线阶段中连续的微批次数应在 [PP=%1 , M=%2] 范围内，实际为 %3（Megatron microbatch_group_size_per_vp_stage）</translation>
    </message>
    <message>
        <source>The remainder of M (the total micro-batches) divided by N (number of contiguous micro-batches in a virtual pipeline stage) should be 0, or larger than or equal to the pipeline-parallel size, but it is %1. Otherwise, it introduces dependency bubbles in the pipeline and reduces throughput. (Megatron, M=%2, N=%3, PP=%4)</source>
        <translation>M（微批次总数）除以 N（一个虚拟流水线阶段中连续的微批次数）的余数应为 0，或大于等于流水线并行规模，但实际为 %1。否则会在流水线中引入依赖气泡并降低吞吐。（Megatron，M=%2，N=%3，PP=%4）</translation>
    </message>
    <message>
        <source>expected &lt;stage&gt;&lt;F|B|I|W&gt;&lt;microbatch&gt;, got &quot;%1&quot;</source>
        <translation>应为 &lt;stage&gt;&lt;F|B|I|W&gt;&lt;microbatch&gt;，实际为 &quot;%1&quot;</translation>
    </message>
    <message>
        <source>stage number out of range in &quot;%1&quot;</source>
        <translation>&quot;%1&quot; 中的阶段编号超出范围</translation>
    </message>
    <message>
        <source>expected a microbatch number after the op kind in &quot;%1&quot;</source>
        <translation>&quot;%1&quot; 中的操作类型之后应为微批次编号</translation>
    </message>
    <message>
        <source>unknown op kind &apos;%1&apos; in &quot;%2&quot;</source>
        <translation>&quot;%2&quot; 中有未知的操作类型 &apos;%1&apos;</translation>
    </message>
    <message>
        <source>expected (&lt;F op&gt;;&lt;B op&gt;)OVERLAP_F_B, got &quot;%1&quot;</source>
        <translation>应为 (&lt;F op&gt;;&lt;B op&gt;)OVERLAP_F_B，实际为 &quot;%1&quot;</translation>
    </message>
    <message>
        <source>malformed overlap &quot;%1&quot;</source>
        <translation>格式错误的重叠操作 &quot;%1&quot;</translation>
    </message>
    <message>
        <source>an overlapped pair is a forward then a backward: &quot;%1&quot;</source>
        <translation>重叠的一对操作应先是前向、后是反向：&quot;%1&quot;</translation>
    </message>
    <message>
        <source>the schedule would have %1 compute ops (ranks x chunks x microbatches x passes), more than the %2 laid out</source>
        <translation>该调度将有 %1 个计算操作（rank 数 x chunk 数 x 微批次数 x pass 数），超过可排布的 %2 个</translation>
    </message>
    <message>
        <source>unknown schedule</source>
        <translation>未知的调度</translation>
    </message>
    <message>
        <source>placement does not cover every stage</source>
        <translation>放置没有覆盖所有阶段</translation>
    </message>
    <message>
        <source>one op list per rank expected</source>
        <translation>每个 rank 应有一个操作列表</translation>
    </message>
    <message>
        <source>stage or microbatch out of range</source>
        <translation>阶段或微批次超出范围</translation>
    </message>
    <message>
        <source>stage %1 is not on this rank</source>
        <translation>阶段 %1 不在此 rank 上</translation>
    </message>
    <message>
        <source>backward before its forward on this rank</source>
        <translation>此 rank 上反向出现在其前向之前</translation>
    </message>
    <message>
        <source>input-gradient before its forward on this rank</source>
        <translation>此 rank 上输入梯度计算出现在其前向之前</translation>
    </message>
    <message>
        <source>weight-gradient before its input-gradient on this rank</source>
        <translation>此 rank 上权重梯度计算出现在其输入梯度计算之前</translation>
    </message>
    <message>
        <source>has %1 forwards, expected 1</source>
        <translation>有 %1 次前向，应为 1 次</translation>
    </message>
    <message>
        <source>needs one B, or one I and one W</source>
        <translation>需要一个 B，或一个 I 加一个 W</translation>
    </message>
    <message>
        <source>more than %1 compute actions, the most laid out</source>
        <translation>计算操作超过 %1 个，即可排布的上限</translation>
    </message>
    <message>
        <source>no compute actions found</source>
        <translation>未找到计算操作</translation>
    </message>
    <message>
        <source>the file names stage %1 and microbatch %2 but holds only %3 compute actions: every microbatch must run through every stage</source>
        <translation>文件中出现了阶段 %1 和微批次 %2，但只有 %3 个计算操作：每个微批次都必须经过每个阶段</translation>
    </message>
    <message>
        <source>%1 stages do not spread evenly over %2 ranks</source>
        <translation>%1 个阶段无法均匀分配到 %2 个 rank 上</translation>
    </message>
    <message>
        <source>ZB-H1 holds one stage per rank, but %1 chunks per rank were requested (torch&apos;s interleaved zero bubble is a different schedule)</source>
        <translation>ZB-H1 每个 rank 只持有一个阶段，但请求了每个 rank %1 个 chunk（torch 的交错零气泡是另一种调度）</translation>
    </message>
    <message>
        <source>Zero bubble requires the number of microbatches to be a multiple of the number of rounds (%1), but got %2.</source>
        <translation>零气泡调度要求微批次数是轮数（%1）的倍数，实际为 %2。</translation>
    </message>
    <message>
        <source>ZB-H2 holds one stage per rank, but %1 chunks per rank were requested</source>
        <translation>ZB-H2 每个 rank 只持有一个阶段，但请求了每个 rank %1 个 chunk</translation>
    </message>
    <message>
        <source>ZB-H2: the greedy schedule did not finish (internal error)</source>
        <translation>ZB-H2：贪心调度未能完成（内部错误）</translation>
    </message>
    <message>
        <source>ZBV requires exactly 2 stages per rank, but got %1.</source>
        <translation>ZBV 要求每个 rank 恰好 2 个阶段，实际为 %1。</translation>
    </message>
    <message>
        <source>ZB-V: unbalanced op counts on rank %1 (internal error)</source>
        <translation>ZB-V：rank %1 上的操作数不平衡（内部错误）</translation>
    </message>
    <message>
        <source>deadlock: blocked at op %1 (%2), its input never arrives</source>
        <translation>死锁：阻塞在第 %1 个操作（%2），其输入永远不会到达</translation>
    </message>
    <message>
        <source>missing or not an array</source>
        <translation>缺失或不是数组</translation>
    </message>
    <message>
        <source>cannot open gzip file</source>
        <translation>无法打开 gzip 文件</translation>
    </message>
    <message>
        <source>gzip: %1</source>
        <translation>gzip：%1</translation>
    </message>
    <message>
        <source>cancelled</source>
        <translation>已取消</translation>
    </message>
    <message>
        <source>truncated: the file ends before the top-level object</source>
        <translation>文件被截断：在顶层对象之前就已结束</translation>
    </message>
    <message>
        <source>%1 (the file ends before the top-level object)</source>
        <translation>%1（文件在顶层对象之前结束）</translation>
    </message>
    <message>
        <source>truncated: the file ends inside traceEvents</source>
        <translation>文件被截断：在 traceEvents 内部结束</translation>
    </message>
    <message>
        <source>%1 (the file ends inside traceEvents)</source>
        <translation>%1（文件在 traceEvents 内部结束）</translation>
    </message>
    <message>
        <source>truncated: the file ends inside the top-level object</source>
        <translation>文件被截断：在顶层对象内部结束</translation>
    </message>
    <message>
        <source>%1 (the file ends inside the top-level object)</source>
        <translation>%1（文件在顶层对象内部结束）</translation>
    </message>
    <message>
        <source>unexpected character &apos;%1&apos;</source>
        <translation>意外的字符 &apos;%1&apos;</translation>
    </message>
    <message>
        <source>unexpected byte 0x%1</source>
        <translation>意外的字节 0x%1</translation>
    </message>
    <message>
        <source>not a Kineto trace: the top-level value is not an object</source>
        <translation>不是 Kineto trace：顶层值不是对象</translation>
    </message>
    <message>
        <source>invalid \u escape in a string</source>
        <translation>字符串中有无效的 \u 转义</translation>
    </message>
    <message>
        <source>invalid escape in a string</source>
        <translation>字符串中有无效的转义</translation>
    </message>
    <message>
        <source>control character in a string</source>
        <translation>字符串中有控制字符</translation>
    </message>
    <message>
        <source>invalid UTF-8 in a string</source>
        <translation>字符串中有无效的 UTF-8</translation>
    </message>
    <message>
        <source>not a Kineto trace: no &quot;traceEvents&quot; array</source>
        <translation>不是 Kineto trace：没有 &quot;traceEvents&quot; 数组</translation>
    </message>
    <message>
        <source>the folder holds no .json or .json.gz file</source>
        <translation>该文件夹中没有 .json 或 .json.gz 文件</translation>
    </message>
    <message>
        <source>%1; %2</source>
        <comment>two items of a list</comment>
        <translation>%1；%2</translation>
    </message>
    <message>
        <source>%1 %2</source>
        <comment>two sentences side by side</comment>
        <translation>%1%2</translation>
    </message>
    <message>
        <source>2 Adam moments of %1 bytes</source>
        <translation>2 个 Adam 矩，各 %1 字节</translation>
    </message>
    <message>
        <source>1 Muon momentum of %1 bytes</source>
        <translation>1 个 Muon 动量，%1 字节</translation>
    </message>
    <message>
        <source>1 SGD momentum of %1 bytes</source>
        <translation>1 个 SGD 动量，%1 字节</translation>
    </message>
    <message>
        <source>optimizerStateDtype %1: Megatron-Core&apos;s precision-aware optimizer, --exp-avg-dtype</source>
        <translation>optimizerStateDtype %1：Megatron-Core 的精度感知优化器，--exp-avg-dtype</translation>
    </message>
    <message>
        <source>optimizerStateDtype %1</source>
        <translation>optimizerStateDtype %1</translation>
    </message>
    <message>
        <source>o = %1 (fp32 master weights) + %2 (%3); f = the share offloaded to the host (training.offload.optimizerFraction).</source>
        <translation>o = %1（fp32 主权重）+ %2（%3）；f = 卸载到主机的份额（training.offload.optimizerFraction）。</translation>
    </message>
    <message>
        <source>the analysis failed</source>
        <translation>分析失败</translation>
    </message>
    <message>
        <source>the analysis ran out of memory</source>
        <translation>分析时内存不足</translation>
    </message>
    <message>
        <source>the analysis failed: %1</source>
        <translation>分析失败：%1</translation>
    </message>
    <message>
        <source>step time</source>
        <translation>单步时间</translation>
    </message>
    <message>
        <source>step time, closed form</source>
        <translation>单步时间（解析式）</translation>
    </message>
    <message>
        <source>tokens per second</source>
        <translation>每秒 token 数</translation>
    </message>
    <message>
        <source>MFU</source>
        <translation>MFU（模型算力利用率）</translation>
    </message>
    <message>
        <source>HFU</source>
        <translation>HFU（硬件算力利用率）</translation>
    </message>
    <message>
        <source>peak memory per GPU</source>
        <translation>每 GPU 峰值显存</translation>
    </message>
    <message>
        <source>pipeline bubble (share of the pipeline time)</source>
        <translation>流水线气泡（占流水线时间的比例）</translation>
    </message>
    <message>
        <source>pipeline bubble over ideal compute</source>
        <translation>流水线气泡与理想计算时间之比</translation>
    </message>
    <message>
        <source>days to train the tokens</source>
        <translation>训练这些 token 所需天数</translation>
    </message>
    <message>
        <source>peak memory, stage %1</source>
        <translation>峰值显存，阶段 %1</translation>
    </message>
    <message>
        <source>ZeRO-%1</source>
        <translation>ZeRO-%1</translation>
    </message>
    <message>
        <source>FSDP %1</source>
        <translation>FSDP %1</translation>
    </message>
    <message>
        <source>dp %1 · tp %2 · pp %3 · cp %4 · ep %5 · vpp %6 · sp %7 · %8 · order %9</source>
        <translation>dp %1 · tp %2 · pp %3 · cp %4 · ep %5 · vpp %6 · sp %7 · %8 · 顺序 %9</translation>
    </message>
    <message>
        <source>on</source>
        <translation>开</translation>
    </message>
    <message>
        <source>off</source>
        <translation>关</translation>
    </message>
    <message>
        <source>not applied: %1 is %2 x the plan&apos;s link bandwidth %3, more than such a link carries (at most %4 x)</source>
        <translation>未采用：%1 是方案链路带宽 %3 的 %2 倍，超过这种链路所能承载的上限（至多 %4 倍）</translation>
    </message>
    <message>
        <source>the profile was measured on %1 and the plan&apos;s GPU is %2</source>
        <translation>该测量文件是在 %1 上测得的，而方案的 GPU 是 %2</translation>
    </message>
    <message>
        <source>not applied: %1</source>
        <translation>未采用：%1</translation>
    </message>
    <message>
        <source>applied to another GPU than it measured: %1</source>
        <translation>已用于与测量时不同的 GPU：%1</translation>
    </message>
    <message>
        <source>the profile names no GPU it was measured on; applied as measured on the plan&apos;s %1</source>
        <translation>测量文件没有写明测量所用的 GPU；按在方案的 %1 上测得处理</translation>
    </message>
    <message>
        <source>the profile&apos;s GPU %1 cannot be compared with the plan&apos;s %2; applied as measured on the plan&apos;s</source>
        <translation>无法将测量文件的 GPU %1 与方案的 %2 比较；按在方案的 GPU 上测得处理</translation>
    </message>
    <message>
        <source>not applied: the measured busBw is %1 x what the plan&apos;s network carries (at most %2 x): the measured ranks did not talk over such a network (an NVLink domain spanning hosts?) or the plan names another machine</source>
        <translation>未采用：测得的 busBw 是方案网络所能承载的 %1 倍（至多 %2 倍）：被测的各 rank 并未经过这样的网络通信（跨主机的 NVLink 域？），或方案描述的是另一台机器</translation>
    </message>
    <message>
        <source>not applied: %1 %2 GEMM shapes faster than the dense peak %3 TFLOP/s of the plan&apos;s GPU</source>
        <translation>未采用：%1 个 %2 GEMM 形状快于方案 GPU 的稠密峰值 %3 TFLOP/s</translation>
    </message>
    <message>
        <source>not applied: %1 measured by a device copy is more than the plan&apos;s GPU&apos;s %2 datasheet bandwidth x %3</source>
        <translation>未采用：设备内拷贝测得的 %1 超过方案 GPU 标称带宽 %2 的 %3 倍</translation>
    </message>
    <message>
        <source>not a JSON object</source>
        <translation>不是 JSON 对象</translation>
    </message>
    <message>
        <source>expected &quot;%1&quot;</source>
        <translation>应为“%1”</translation>
    </message>
    <message>
        <source>expected an array</source>
        <translation>应为数组</translation>
    </message>
    <message>
        <source>missing or not valid</source>
        <translation>缺失或无效</translation>
    </message>
    <message>
        <source>MFU %1 is above the best a published run of 100B parameters or more reached on %2 in %3 (%4: %5)</source>
        <translation>MFU %1 高于 1000 亿参数及以上的已发表运行在 %2 上以 %3 达到的最高值（%4：%5）</translation>
    </message>
    <message>
        <source>MFU %1 is above the best a published run reached on %2 in %3 (%4: %5)</source>
        <translation>MFU %1 高于已发表运行在 %2 上以 %3 达到的最高值（%4：%5）</translation>
    </message>
    <message>
        <source>the peak %1 leaves %2 of the %3 free, less than the %4 the memory model has missed on published runs (docs/MEMORY-ACCURACY.md)</source>
        <translation>峰值 %1 在 %3 中只留出 %2，少于显存模型在已发表运行上的最大低估 %4（docs/MEMORY-ACCURACY.md）</translation>
    </message>
    <message>
        <source>no published run on %1 in %2 to hold the MFU to (samples/published/mfu-ceilings.json)</source>
        <translation>没有 %1 上以 %2 的已发表运行可供对照 MFU（samples/published/mfu-ceilings.json）</translation>
    </message>
    <message>
        <source>the best published MFU on %1 in %2 at 100B parameters or more: %3 (%4; %5)</source>
        <translation>%1 上以 %2、1000 亿参数及以上的已发表最高 MFU：%3（%4；%5）</translation>
    </message>
    <message>
        <source>the best published MFU on %1 in %2: %3 (%4; %5)</source>
        <translation>%1 上以 %2 的已发表最高 MFU：%3（%4；%5）</translation>
    </message>
    <message>
        <source>given twice with different values: %1 and %2</source>
        <translation>给了两次且取值不同：%1 与 %2</translation>
    </message>
    <message>
        <source>&quot;%1&quot; is not a value this argument takes</source>
        <translation>“%1”不是这个参数能取的值</translation>
    </message>
    <message>
        <source>%1 positions, fewer than the sequence of %2 (--seq-length)</source>
        <translation>%1 个位置，少于 %2 的序列长度（--seq-length）</translation>
    </message>
    <message>
        <source>has no effect without --group-query-attention (Megatron-LM): every head keeps its keys and values</source>
        <translation>没有 --group-query-attention 时不起作用（Megatron-LM）：每个头保留自己的键和值</translation>
    </message>
    <message>
        <source>flex (DeepEP) is modelled as all-to-all over the expert-parallel group</source>
        <translation>flex（DeepEP）按专家并行组内的 all-to-all 建模</translation>
    </message>
    <message>
        <source>&quot;%1&quot;: only every layer MoE (1) or leading dense layers ([0]*N+[1]*M) are modelled; not applied</source>
        <translation>“%1”：只建模每层都是 MoE（1）或前若干层为稠密层（[0]*N+[1]*M）的情形；未应用</translation>
    </message>
    <message>
        <source>the vocabulary comes from the tokenizer, not from the arguments: 32000 assumed (give --vocab-size)</source>
        <translation>词表大小来自分词器而不是参数：按 32000 计（可用 --vocab-size 给出）</translation>
    </message>
    <message>
        <source>the world of %1 GPUs is not a multiple of tp x pp x cp = %2</source>
        <translation>%1 张 GPU 的总规模不是 tp x pp x cp = %2 的整数倍</translation>
    </message>
    <message>
        <source>no world size: the launcher&apos;s --nnodes and --nproc-per-node are not in the text and the base plan has no cluster</source>
        <translation>没有总规模：文本中没有启动器的 --nnodes 和 --nproc-per-node，基准方案也没有集群</translation>
    </message>
    <message>
        <source>given with --bf16: one precision only</source>
        <translation>与 --bf16 同时给出：只能有一种精度</translation>
    </message>
    <message>
        <source>no --global-batch-size: micro-batch x dp = %1, one microbatch per step (Megatron-LM&apos;s default)</source>
        <translation>没有 --global-batch-size：取微批次 x dp = %1，每步一个微批次（Megatron-LM 的默认）</translation>
    </message>
    <message>
        <source>not JSON: %1</source>
        <translation>不是 JSON：%1</translation>
    </message>
    <message>
        <source>&quot;auto&quot;: set by the Hugging Face trainer from its own arguments; not read</source>
        <translation>“auto”：由 Hugging Face trainer 按它自己的参数设定；未读取</translation>
    </message>
    <message>
        <source>expected a whole number of at least 1</source>
        <translation>应为不小于 1 的整数</translation>
    </message>
    <message>
        <source>%1 is not micro-batch %2 x accumulation %3 x %4 GPUs</source>
        <translation>%1 不等于微批次 %2 x 累积步数 %3 x %4 张 GPU</translation>
    </message>
    <message>
        <source>expected 0, 1, 2 or 3</source>
        <translation>应为 0、1、2 或 3</translation>
    </message>
    <message>
        <source>no world size: a DeepSpeed config does not say how many GPUs run it (give --nodes and --gpus-per-node, or a base plan)</source>
        <translation>没有总规模：DeepSpeed 配置不说明用多少张 GPU 运行（请给出 --nodes 和 --gpus-per-node，或一个基准方案）</translation>
    </message>
    <message>
        <source>no --seq-length to count its tokens by: training.tokens not set</source>
        <translation>没有 --seq-length 可用来计算 token 数：未设置 training.tokens</translation>
    </message>
    <message>
        <source>&quot;%1&quot; is not a launch config format (megatron, deepspeed, torchtitan, megatron-bridge)</source>
        <translation>“%1”不是启动配置格式（megatron、deepspeed、torchtitan、megatron-bridge）</translation>
    </message>
    <message>
        <source>a launch config names no GPU: %1 assumed (give a base plan or a GPU)</source>
        <translation>启动配置未指明 GPU：假定为 %1（请给出基础方案或 GPU）</translation>
    </message>
    <message>
        <source>%1 cannot be read: the model is not taken from it</source>
        <translation>无法读取 %1：模型不从其中获取</translation>
    </message>
    <message>
        <source>not TOML: %1 (line %2, column %3)</source>
        <translation>不是 TOML：%1（第 %2 行，第 %3 列）</translation>
    </message>
    <message>
        <source>%1 %2 is no model preset: the base plan&apos;s model kept (give its Hugging Face config)</source>
        <translation>%1 %2 不是模型预设：保留基础方案的模型（请给出其 Hugging Face 配置）</translation>
    </message>
    <message>
        <source>%1 does not divide training.local_batch_size %2</source>
        <translation>%1 不能整除 training.local_batch_size %2</translation>
    </message>
    <message>
        <source>%1 scaling is modelled as per-tensor current scaling</source>
        <translation>%1 缩放按逐张量的当前缩放建模</translation>
    </message>
    <message>
        <source>memory_budget (the compiler&apos;s choice of what to save) is not modelled: no recompute</source>
        <translation>memory_budget（由编译器决定保存什么）未建模：不重算</translation>
    </message>
    <message>
        <source>replicate %1 x shard %2 is not the %3 data-parallel ranks the world leaves</source>
        <translation>副本 %1 × 分片 %2 不等于总规模剩下的 %3 个数据并行 rank</translation>
    </message>
    <message>
        <source>HSDP shards over %1 ranks; PlanScope&apos;s hybrid FSDP shards within a node (%2 ranks)</source>
        <translation>HSDP 在 %1 个 rank 上分片；PlanScope 的混合 FSDP 在一个节点内分片（%2 个 rank）</translation>
    </message>
    <message>
        <source>%1 stages are not a multiple of the %2 pipeline ranks</source>
        <translation>%1 个阶段不是 %2 个流水线 rank 的整数倍</translation>
    </message>
    <message>
        <source>interleaved zero bubble is modelled as ZB-H1</source>
        <translation>交错零气泡调度按 ZB-H1 建模</translation>
    </message>
    <message>
        <source>more than one layer fewer on the first or last stage is not modelled: one fewer</source>
        <translation>首段或末段少于一层以上的情况未建模：按少一层计</translation>
    </message>
    <message>
        <source>nested more than %1 levels deep</source>
        <translation>嵌套超过 %1 层</translation>
    </message>
    <message>
        <source>not YAML: %1 (line %2, column %3)</source>
        <translation>不是 YAML：%1（第 %2 行，第 %3 列）</translation>
    </message>
    <message>
        <source>not a YAML mapping of sections (model:, train:, ...)</source>
        <translation>不是按节组织的 YAML 映射（model:、train:、……）</translation>
    </message>
    <message>
        <source>more than %1 values (aliases expanded)</source>
        <translation>超过 %1 个值（展开别名后）</translation>
    </message>
    <message>
        <source>%1: an interpolation PlanScope does not resolve; not applied</source>
        <translation>%1：PlanScope 无法解析的插值；未应用</translation>
    </message>
    <message>
        <source>%1 at byte %2 needs %3 more bytes; the data ends at byte %4</source>
        <translation>位于字节 %2 的 %1 还需要 %3 个字节；数据在字节 %4 处结束</translation>
    </message>
    <message>
        <source>the pickle holds more than %1 values (at byte %2)</source>
        <translation>该 pickle 包含超过 %1 个值（位于字节 %2）</translation>
    </message>
    <message>
        <source>%1 at byte %2 needs %3 values on the stack and finds %4</source>
        <translation>位于字节 %2 的 %1 需要栈上有 %3 个值，实际只有 %4 个</translation>
    </message>
    <message>
        <source>%1 at byte %2 has no MARK before it</source>
        <translation>位于字节 %2 的 %1 之前没有 MARK</translation>
    </message>
    <message>
        <source>%1 at byte %2 needs a %3 below its items and finds a %4</source>
        <translation>位于字节 %2 的 %1 需要其元素下方是 %3，实际是 %4</translation>
    </message>
    <message>
        <source>%1 at byte %2 holds an integer of %3 bytes, wider than 64 bits</source>
        <translation>位于字节 %2 的 %1 含有 %3 字节的整数，超过 64 位</translation>
    </message>
    <message>
        <source>PROTO at byte %1 asks for protocol %2; protocols 2 to 5 are read</source>
        <translation>位于字节 %1 的 PROTO 要求协议 %2；只读取协议 2 到 5</translation>
    </message>
    <message>
        <source>STOP at byte %1 leaves %2 values on the stack where a pickle leaves one</source>
        <translation>位于字节 %1 的 STOP 在栈上留下 %2 个值，而 pickle 应只留下一个</translation>
    </message>
    <message>
        <source>containers nest deeper than %1 at byte %2</source>
        <translation>容器在字节 %2 处嵌套超过 %1 层</translation>
    </message>
    <message>
        <source>SETITEMS at byte %1 has an odd number of items (%2): keys and values come in pairs</source>
        <translation>位于字节 %1 的 SETITEMS 有奇数个元素（%2）：键和值应成对出现</translation>
    </message>
    <message>
        <source>%1 at byte %2 gives a negative length (%3)</source>
        <translation>位于字节 %2 的 %1 给出负长度（%3）</translation>
    </message>
    <message>
        <source>%1 at byte %2 reads memo entry %3, which no opcode stored</source>
        <translation>位于字节 %2 的 %1 读取备忘项 %3，但没有操作码存储过它</translation>
    </message>
    <message>
        <source>%1 at byte %2 is refused: it imports or calls Python code, and only plain data (dicts, lists, numbers, strings) is read</source>
        <translation>拒绝位于字节 %2 的 %1：它会导入或调用 Python 代码，而这里只读取纯数据（字典、列表、数字、字符串）</translation>
    </message>
    <message>
        <source>%1 at byte %2 is not read: only the opcodes that pickle protocols 2 to 5 write for plain data are</source>
        <translation>不读取位于字节 %2 的 %1：只读取 pickle 协议 2 到 5 为纯数据写出的操作码</translation>
    </message>
    <message>
        <source>0x%1 at byte %2 is not a pickle opcode</source>
        <translation>位于字节 %2 的 0x%1 不是 pickle 操作码</translation>
    </message>
    <message>
        <source>the data ends at byte %1 without the STOP opcode that ends a pickle</source>
        <translation>数据在字节 %1 处结束，缺少结束 pickle 的 STOP 操作码</translation>
    </message>
    <message>
        <source>&quot;%1&quot; is no list of ranks</source>
        <translation>“%1”不是 rank 列表</translation>
    </message>
    <message>
        <source>more than %1 process groups; the rest are not read</source>
        <translation>超过 %1 个进程组；其余的未读取</translation>
    </message>
    <message>
        <source>over %1 ranks in the trace&apos;s process groups; this list is not kept</source>
        <translation>追踪的进程组中超过 %1 个 rank；不保留此列表</translation>
    </message>
    <message>
        <source>%1: world size %2, where the other traces have %3</source>
        <translation>%1：总规模为 %2，而其他追踪为 %3</translation>
    </message>
    <message>
        <source>%1 (pg_name &quot;%2&quot;) in %3</source>
        <translation>%1（pg_name &quot;%2&quot;）位于 %3</translation>
    </message>
    <message>
        <source>%1: pg_size %2, but its list holds %3; left out</source>
        <translation>%1：pg_size 为 %2，但列表中有 %3 个；已略去</translation>
    </message>
    <message>
        <source>%1: %2 ranks, more than the world&apos;s %3; left out</source>
        <translation>%1：%2 个 rank，多于总规模的 %3；已略去</translation>
    </message>
    <message>
        <source>%1: rank %2 is outside the world of %3 ranks; left out</source>
        <translation>%1：rank %2 超出 %3 个 rank 的总规模；已略去</translation>
    </message>
    <message>
        <source>%1: rank %2 is listed twice; left out</source>
        <translation>%1：rank %2 被列出两次；已略去</translation>
    </message>
    <message>
        <source>%1: %2 does not hold the trace&apos;s own rank %3; left out</source>
        <translation>%1：%2 不含该追踪自身的 rank %3；已略去</translation>
    </message>
    <message>
        <source>rank %1 is in two %2 groups: %3 and %4</source>
        <translation>rank %1 同时属于两个 %2 组：%3 和 %4</translation>
    </message>
    <message>
        <source>%1: groups of %2 and of %3 ranks</source>
        <translation>%1：有 %2 个和 %3 个 rank 的组</translation>
    </message>
    <message>
        <source>default_pg has %1 ranks, but the world size is %2</source>
        <translation>default_pg 有 %1 个 rank，但总规模为 %2</translation>
    </message>
    <message>
        <source>distributedInfo.world_size (%1 of %2 traces)</source>
        <translation>distributedInfo.world_size（%2 个追踪中的 %1 个）</translation>
    </message>
    <message>
        <source>default_pg: a group of %1 ranks</source>
        <translation>default_pg：一个 %1 个 rank 的组</translation>
    </message>
    <message>
        <source>%1: groups of %2 (%3 recorded)</source>
        <translation>%1：每组 %2 个（记录了 %3 组）</translation>
    </message>
    <message>
        <source>%1: groups of %2, over %3</source>
        <translation>%1：每组 %2 个，覆盖 %3</translation>
    </message>
    <message>
        <source>the world of %1 ranks over %2</source>
        <translation>%1 个 rank 的总规模，基于 %2</translation>
    </message>
    <message>
        <source>its groups disagree with each other or with the world size</source>
        <translation>其各组之间或与总规模不一致</translation>
    </message>
    <message>
        <source>%1 has %2 ranks, but %3 = %4</source>
        <translation>%1 有 %2 个 rank，但 %3 = %4</translation>
    </message>
    <message>
        <source>%1 = %2, but the world has %3 ranks</source>
        <translation>%1 = %2，但总规模有 %3 个 rank</translation>
    </message>
    <message>
        <source>%1 = %2, which does not divide the world of %3 ranks</source>
        <translation>%1 = %2，不能整除 %3 个 rank 的总规模</translation>
    </message>
    <message>
        <source>GTP_WEIGHT_REMAT_GROUP has %1 ranks: weights sharded over a dimension PlanScope does not model</source>
        <translation>GTP_WEIGHT_REMAT_GROUP 有 %1 个 rank：权重在 PlanScope 未建模的维度上分片</translation>
    </message>
    <message>
        <source>no trace lists the members of a %1</source>
        <translation>没有追踪列出 %1 的成员</translation>
    </message>
    <message>
        <source>the members of the %1 groups are not evenly spaced</source>
        <translation>%1 组的成员不是等间隔的</translation>
    </message>
    <message>
        <source>%1: members %2 apart, where the dimensions before it make %3</source>
        <translation>%1：成员间隔 %2，而其前面的维度之积为 %3</translation>
    </message>
    <message>
        <source>the strides of the groups (%1) fit no rank order</source>
        <translation>各组的步长（%1）不符合任何 rank 顺序</translation>
    </message>
    <message>
        <source>it needs the degrees of tp, pp, dp and cp</source>
        <translation>需要 tp、pp、dp 和 cp 的并行度</translation>
    </message>
    <message>
        <source>ep&apos;s place in the order is not recorded: kept where %1 puts it</source>
        <translation>未记录 ep 在顺序中的位置：保持 %1 中的位置</translation>
    </message>
    <message>
        <source>%1 is no group of the order %2, which puts rank %3 with %4</source>
        <translation>%1 不是顺序 %2 下的组，该顺序把 rank %3 与 %4 放在一起</translation>
    </message>
    <message>
        <source>the recorded groups fit no rank order PlanScope can write</source>
        <translation>记录的组不符合 PlanScope 可写出的任何 rank 顺序</translation>
    </message>
    <message>
        <source>at most one dimension has more than one rank: every order lays the ranks out alike</source>
        <translation>至多一个维度多于一个 rank：任何顺序的 rank 布局都相同</translation>
    </message>
    <message>
        <source>the strides of the groups: %1</source>
        <translation>各组的步长：%1</translation>
    </message>
    <message>
        <source>no trace records its world size (distributedInfo.world_size) or a default group</source>
        <translation>没有追踪记录其总规模（distributedInfo.world_size）或默认组</translation>
    </message>
    <message>
        <source>no process group is recorded (distributedInfo.pg_config, or the Process Group args of NCCL events)</source>
        <translation>未记录任何进程组（distributedInfo.pg_config，或 NCCL 事件的 Process Group 参数）</translation>
    </message>
    <message>
        <source>its %1 records were left out (see the issues)</source>
        <translation>其 %1 条记录已略去（见问题列表）</translation>
    </message>
    <message>
        <source>no %1 recorded</source>
        <translation>未记录 %1</translation>
    </message>
    <message>
        <source>the groups carry no Megatron-Core names (%1): %2</source>
        <translation>这些组没有 Megatron-Core 名称（%1）：%2</translation>
    </message>
    <message>
        <source>no trace lists evenly spaced members</source>
        <translation>没有追踪列出等间隔的成员</translation>
    </message>
    <message>
        <source>their strides split the ranks into %1, and do not say which is which</source>
        <translation>它们的步长把 rank 分为 %1，但未说明各是哪一维</translation>
    </message>
    <message>
        <source>only the default group (default_pg) is recorded: the run made no subgroups, so one dimension spans all %1 ranks, and the records do not say which</source>
        <translation>只记录了默认组（default_pg）：运行未创建子组，因此某一个维度跨越全部 %1 个 rank，但记录未说明是哪一个</translation>
    </message>
    <message>
        <source>dp is not inferred: the plan&apos;s default, GPUs / (tp x pp x cp)</source>
        <translation>未推断出 dp：取方案的默认值，GPU 数 / (tp × pp × cp)</translation>
    </message>
    <message>
        <source>the world of %1 ranks is no multiple of %2 GPUs per node: %3 nodes of %4 GPUs</source>
        <translation>%1 个 rank 的总规模不是每节点 %2 个 GPU 的整数倍：%3 个节点，每节点 %4 个 GPU</translation>
    </message>
    <message>
        <source>missing</source>
        <translation>缺失</translation>
    </message>
    <message>
        <source>sizes add up beyond 64 bits</source>
        <translation>大小之和超出 64 位</translation>
    </message>
    <message>
        <source>replayed back from the segments, the trace would start with %1 bytes allocated and %2 reserved, below zero: the trace and the segments disagree</source>
        <translation>从内存段倒推，追踪开始时将有 %1 字节已分配、%2 字节已保留，小于零：追踪与内存段不一致</translation>
    </message>
    <message>
        <source>no trace: the snapshot holds no allocator events for this device (torch.cuda.memory._record_memory_history was off), so the peaks are its state when it was taken</source>
        <translation>没有追踪：快照不含该设备的分配器事件（torch.cuda.memory._record_memory_history 未开启），因此峰值取拍摄快照时的状态</translation>
    </message>
    <message>
        <source>the trace and the segments disagree (a warning says where), so the peaks are not to be relied on</source>
        <translation>追踪与内存段不一致（警告中指出位置），峰值不可依赖</translation>
    </message>
    <message>
        <source>the trace starts with %1 allocations alive (%2 allocated, %3 reserved): recording began after the run did, or the ring buffer of max_entries events dropped the oldest; an earlier peak may have been higher</source>
        <translation>追踪开始时已有 %1 个存活分配（已分配 %2，已保留 %3）：记录晚于运行开始，或 max_entries 事件的环形缓冲丢弃了最早的事件；更早的峰值可能更高</translation>
    </message>
    <message>
        <source>a memory snapshot is a dict with &quot;segments&quot; and &quot;device_traces&quot; (torch.cuda.memory._snapshot()), not a %1</source>
        <translation>内存快照是含 &quot;segments&quot; 和 &quot;device_traces&quot; 的字典（torch.cuda.memory._snapshot()），而不是 %1</translation>
    </message>
    <message>
        <source>stage %1 is not a pipeline stage of the plan (0 to %2)</source>
        <translation>阶段 %1 不是方案中的流水线阶段（0 到 %2）</translation>
    </message>
    <message>
        <source>the snapshot holds no segments and no events</source>
        <translation>快照既没有内存段也没有事件</translation>
    </message>
    <message>
        <source>device %1 is not in the snapshot, which has device %2</source>
        <translation>快照中没有设备 %1，它只有设备 %2</translation>
    </message>
    <message>
        <source>the run&apos;s %1 is not PlanScope&apos;s expert group %2: PlanScope takes ep from the fastest of the dp x cp ranks, and costs the expert-parallel traffic over its own groups</source>
        <translation>运行中的 %1 不是 PlanScope 的专家组 %2：PlanScope 从 dp × cp rank 中变化最快的部分取 ep，并按自己的组计算专家并行通信</translation>
    </message>
    <message>
        <source>the trace starts with nothing allocated or reserved: the peaks cover the run from then on</source>
        <translation>追踪开始时没有任何已分配或已保留内存：峰值覆盖此后的整个运行</translation>
    </message>
    <message>
        <source>%1 is modelled as SwiGLU: the same gated MLP</source>
        <translation>%1 按 SwiGLU 建模：同为门控 MLP</translation>
    </message>
    <message>
        <source>a pod of %1 nodes does not hold whole NVLink domains of %2 nodes; the placement counts pods as given</source>
        <translation>%1 个节点的 pod 不能容纳整数个 %2 节点的 NVLink 域；放置分析按给定的 pod 计算</translation>
    </message>
</context>
<context>
    <name>MemorySegments</name>
    <message>
        <source>Weights</source>
        <translation>权重</translation>
    </message>
    <message>
        <source>Gradients</source>
        <translation>梯度</translation>
    </message>
    <message>
        <source>Optimizer states</source>
        <translation>优化器状态</translation>
    </message>
    <message>
        <source>Activations</source>
        <translation>激活值</translation>
    </message>
    <message>
        <source>CUDA context and workspaces</source>
        <translation>CUDA 上下文与工作区</translation>
    </message>
    <message>
        <source>NCCL and ZeRO buffers</source>
        <translation>NCCL 与 ZeRO 缓冲区</translation>
    </message>
    <message>
        <source>Temporaries (logits, gathered weights)</source>
        <translation>临时张量（logits、聚合的权重）</translation>
    </message>
    <message>
        <source>Allocator slack</source>
        <translation>分配器余量</translation>
    </message>
</context>
<context>
    <name>OperatorText</name>
    <message>
        <source>Run as %1 GEMMs of %2 rows (Transformer Engine&apos;s TP overlap)</source>
        <translation>拆成 %1 个 %2 行的 GEMM 运行（Transformer Engine 的 TP 通信重叠）</translation>
    </message>
    <message>
        <source>On the SMs %1 SMs of communication leave it (Transformer Engine&apos;s TP overlap)</source>
        <translation>在通信占去 %1 个 SM 后剩余的 SM 上运行（Transformer Engine 的 TP 通信重叠）</translation>
    </message>
    <message>
        <source>Of which %1 ms lost to a collective beside it (its SMs)</source>
        <translation>其中 %1 ms 损失于并行运行的集合通信（其占用的 SM）</translation>
    </message>
    <message>
        <source>compute</source>
        <translation>计算</translation>
    </message>
    <message>
        <source>memory</source>
        <translation>访存</translation>
    </message>
    <message>
        <source>communication</source>
        <translation>通信</translation>
    </message>
    <message>
        <source>latency</source>
        <translation>延迟</translation>
    </message>
    <message>
        <source>forward</source>
        <translation>前向</translation>
    </message>
    <message>
        <source>recompute</source>
        <translation>重计算</translation>
    </message>
    <message>
        <source>backward (input)</source>
        <translation>反向（输入梯度）</translation>
    </message>
    <message>
        <source>backward (weight)</source>
        <translation>反向（权重梯度）</translation>
    </message>
    <message>
        <source>backward</source>
        <translation>反向</translation>
    </message>
    <message>
        <source>GEMM</source>
        <translation>GEMM</translation>
    </message>
    <message>
        <source>attention</source>
        <translation>注意力</translation>
    </message>
    <message>
        <source>element-wise, memory-bound kernel</source>
        <translation>逐元素、受访存限制的内核</translation>
    </message>
    <message>
        <source>collective</source>
        <translation>集合通信</translation>
    </message>
    <message>
        <source>Collective: %1</source>
        <translation>集合通信：%1</translation>
    </message>
    <message>
        <source>Shape (M×N×K): %1</source>
        <translation>形状 (M×N×K)：%1</translation>
    </message>
    <message>
        <source>%1 GFLOP, %2 MB</source>
        <translation>%1 GFLOP，%2 MB</translation>
    </message>
    <message>
        <source>Bound by: %1</source>
        <translation>受限于：%1</translation>
    </message>
    <message>
        <source>Efficiency: %1 of the dense peak</source>
        <translation>效率：稠密峰值的 %1</translation>
    </message>
    <message>
        <source>Compute %1 ms, memory %2 ms</source>
        <translation>计算 %1 ms，访存 %2 ms</translation>
    </message>
    <message>
        <source>Time: %1 ms</source>
        <translation>耗时：%1 ms</translation>
    </message>
    <message>
        <source>Exposed (on the critical path): %1 ms</source>
        <translation>暴露（位于关键路径上）：%1 ms</translation>
    </message>
    <message>
        <source>Overlaps with %1</source>
        <translation>与 %1 重叠</translation>
    </message>
</context>
<context>
    <name>ReportWriter</name>
    <message>
        <source>Unknown view &quot;%1&quot;</source>
        <translation>未知视图“%1”</translation>
    </message>
    <message>
        <source>The %1 view drew nothing</source>
        <translation>%1 视图没有绘制任何内容</translation>
    </message>
    <message numerus="yes">
        <source>Comparison of %n plans</source>
        <translation>
            <numerusform>%n 个方案的比较</numerusform>
        </translation>
    </message>
    <message>
        <source>The best value of each row is in bold on green; every other value is followed by its ratio to the best.</source>
        <translation>每行最优的值以绿色底、粗体标出；其他值后面注明它与最优值之比。</translation>
    </message>
    <message>
        <source>Figure</source>
        <translation>指标</translation>
    </message>
    <message>
        <source>Model</source>
        <translation>模型</translation>
    </message>
    <message>
        <source>%1: %2 parameters, %3 layers, hidden %4, %5 heads, sequence %6</source>
        <translation>%1：%2 参数，%3 层，隐藏维度 %4，%5 个注意力头，序列长度 %6</translation>
    </message>
    <message>
        <source>Cluster</source>
        <translation>集群</translation>
    </message>
    <message>
        <source>%1 × %2 (%3 nodes of %4), %5 each</source>
        <translation>%1 × %2（%3 个节点，每节点 %4 个），每个 %5</translation>
    </message>
    <message>
        <source>Parallel degrees</source>
        <translation>并行度</translation>
    </message>
    <message>
        <source>on</source>
        <translation>开</translation>
    </message>
    <message>
        <source>off</source>
        <translation>关</translation>
    </message>
    <message>
        <source>Schedule</source>
        <translation>调度</translation>
    </message>
    <message>
        <source>%1, %2 microbatches, micro-batch size %3, global batch %4</source>
        <translation>%1，%2 个微批次，微批次大小 %3，全局批次 %4</translation>
    </message>
    <message>
        <source>Training</source>
        <translation>训练</translation>
    </message>
    <message>
        <source>%1, %2 optimizer, recompute %3, flash attention %4, %5 tokens</source>
        <translation>%1，%2 优化器，重计算 %3，FlashAttention %4，%5 token</translation>
    </message>
    <message>
        <source>Value</source>
        <translation>数值</translation>
    </message>
    <message>
        <source>Field (planscope-cli evaluate)</source>
        <translation>字段（planscope-cli evaluate）</translation>
    </message>
    <message>
        <source>%1 of %2 (%3)</source>
        <translation>%1 / %2（%3）</translation>
    </message>
    <message>
        <source>fits</source>
        <translation>放得下</translation>
    </message>
    <message>
        <source>does not fit</source>
        <translation>放不下</translation>
    </message>
    <message>
        <source>File: %1</source>
        <translation>文件：%1</translation>
    </message>
    <message>
        <source>Settings</source>
        <translation>设置</translation>
    </message>
    <message>
        <source>Why the plan cannot run</source>
        <translation>方案无法运行的原因</translation>
    </message>
    <message>
        <source>Headline figures</source>
        <translation>关键指标</translation>
    </message>
    <message>
        <source>How they are computed</source>
        <translation>计算过程</translation>
    </message>
    <message>
        <source>Warnings and assumptions</source>
        <translation>警告与假设</translation>
    </message>
    <message>
        <source>None.</source>
        <translation>无。</translation>
    </message>
    <message>
        <source>PlanScope report · %1 · %2</source>
        <translation>PlanScope 报告 · %1 · %2</translation>
    </message>
    <message>
        <source>page %1</source>
        <translation>第 %1 页</translation>
    </message>
    <message>
        <source>%1 — %2</source>
        <translation>%1 — %2</translation>
    </message>
    <message>
        <source>Cannot write %1: %2</source>
        <translation>无法写入 %1：%2</translation>
    </message>
    <message>
        <source>PlanScope report: %1</source>
        <translation>PlanScope 报告：%1</translation>
    </message>
    <message>
        <source>Cannot write %1</source>
        <translation>无法写入 %1</translation>
    </message>
    <message>
        <source>A report is written as .pdf or .html; got &quot;%1&quot;</source>
        <translation>报告只能写成 .pdf 或 .html；收到的是“%1”</translation>
    </message>
    <message>
        <source>No plan to report on</source>
        <translation>没有可报告的方案</translation>
    </message>
    <message>
        <source>The plan %1 has not been analysed</source>
        <translation>方案 %1 尚未完成分析</translation>
    </message>
    <message>
        <source>Cannot draw the %1 view of %2: %3</source>
        <translation>无法绘制 %2 的 %1 视图：%3</translation>
    </message>
    <message>
        <source>Cannot draw the comparison: %1</source>
        <translation>无法绘制比较图：%1</translation>
    </message>
</context>
<context>
    <name>TableExporter</name>
    <message>
        <source>No table to export</source>
        <translation>没有可导出的表格</translation>
    </message>
    <message>
        <source>Copy Table as CSV</source>
        <translation>将表格复制为 CSV</translation>
    </message>
    <message>
        <source>Export Table…</source>
        <translation>导出表格…</translation>
    </message>
    <message>
        <source>Export Table</source>
        <translation>导出表格</translation>
    </message>
    <message>
        <source>Excel workbook (*.xlsx);;CSV (*.csv)</source>
        <translation>Excel 工作簿 (*.xlsx);;CSV (*.csv)</translation>
    </message>
    <message>
        <source>Export failed</source>
        <translation>导出失败</translation>
    </message>
</context>
<context>
    <name>TimelinePalette</name>
    <message>
        <source>forward</source>
        <translation>前向</translation>
    </message>
    <message>
        <source>backward</source>
        <translation>反向</translation>
    </message>
    <message>
        <source>input-grad</source>
        <translation>输入梯度</translation>
    </message>
    <message>
        <source>weight-grad</source>
        <translation>权重梯度</translation>
    </message>
    <message>
        <source>F&amp;B overlapped</source>
        <translation>F&amp;B 重叠</translation>
    </message>
    <message>
        <source>send activation</source>
        <translation>发送激活值</translation>
    </message>
    <message>
        <source>send gradient</source>
        <translation>发送梯度</translation>
    </message>
    <message>
        <source>gradient reduction</source>
        <translation>梯度归约</translation>
    </message>
    <message>
        <source>parameter all-gather</source>
        <translation>参数全收集</translation>
    </message>
    <message>
        <source>optimizer</source>
        <translation>优化器</translation>
    </message>
    <message>
        <source>grad reduce</source>
        <translation>梯度归约</translation>
    </message>
    <message>
        <source>all-gather</source>
        <translation>全收集</translation>
    </message>
    <message>
        <source>compute</source>
        <translation>计算</translation>
    </message>
    <message>
        <source>p2p</source>
        <translation>点对点 (p2p)</translation>
    </message>
    <message>
        <source>data parallel</source>
        <translation>数据并行</translation>
    </message>
    <message>
        <source>ZeRO-3 gather</source>
        <translation>ZeRO-3 收集</translation>
    </message>
</context>
<context>
    <name>WidgetExporter</name>
    <message>
        <source>Cannot write %1</source>
        <translation>无法写入 %1</translation>
    </message>
    <message>
        <source>Unknown file type &quot;%1&quot;; use one of: %2</source>
        <translation>未知的文件类型“%1”；请使用以下之一：%2</translation>
    </message>
    <message>
        <source>Nothing was written to %1</source>
        <translation>没有向 %1 写入任何内容</translation>
    </message>
</context>
<context>
    <name>planscope::AnatomyPage</name>
    <message>
        <source>%1 on %2: TP %3, CP %4, SP %5, microbatch %6 × %7 tokens</source>
        <translation>%1，运行于 %2：TP %3，CP %4，SP %5，微批次 %6 × %7 个 token</translation>
    </message>
    <message>
        <source>on</source>
        <translation>开</translation>
    </message>
    <message>
        <source>off</source>
        <translation>关</translation>
    </message>
    <message>
        <source>One transformer layer</source>
        <translation>一个 Transformer 层</translation>
    </message>
    <message>
        <source>Output layer (last pipeline stage)</source>
        <translation>输出层（最后一个流水线阶段）</translation>
    </message>
    <message>
        <source>Which operators to show: a transformer layer&apos;s, or the final norm, logits and loss on the last pipeline stage</source>
        <translation>显示哪些算子：一个 Transformer 层的，或最后一个流水线阶段上的最终归一化、logits 与损失</translation>
    </message>
    <message>
        <source>Layer Anatomy</source>
        <translation>层剖析</translation>
    </message>
</context>
<context>
    <name>planscope::CommRingWidget</name>
    <message>
        <source>%1 GPUs: too many to draw the chunks.
Step %2 of %3</source>
        <translation>%1 个 GPU：数量太多，无法绘制各数据块。
第 %2 步，共 %3 步</translation>
    </message>
    <message>
        <source>GPU %1</source>
        <translation>GPU %1</translation>
    </message>
    <message>
        <source>start</source>
        <translation>初始</translation>
    </message>
    <message>
        <source>reduce-scatter %1/%2</source>
        <translation>归约散射 %1/%2</translation>
    </message>
    <message>
        <source>all-gather %1/%2</source>
        <translation>全收集 %1/%2</translation>
    </message>
    <message>
        <source>A number is how many GPUs&apos; inputs that copy of the chunk sums; Σ and full colour: fully reduced. Solid frame: the chunk a GPU sends now; dotted: where it arrives.</source>
        <translation>数字表示该数据块副本已累加了多少个 GPU 的输入；Σ 加满色表示已完全归约。实线框：GPU 当前发送的数据块；虚线框：数据块到达的位置。</translation>
    </message>
</context>
<context>
    <name>planscope::CommView</name>
    <message>
        <source>Communication</source>
        <translation>通信</translation>
    </message>
    <message>
        <source>Pause</source>
        <translation>暂停</translation>
    </message>
    <message>
        <source>Play</source>
        <translation>播放</translation>
    </message>
    <message>
        <source>Communication groups of this plan (one GPU, one training step)</source>
        <translation>本方案的通信组（单个 GPU，一个训练步）</translation>
    </message>
    <message>
        <source>Group</source>
        <translation>通信组</translation>
    </message>
    <message>
        <source>GPUs</source>
        <translation>GPU</translation>
    </message>
    <message>
        <source>Collective</source>
        <translation>集合通信</translation>
    </message>
    <message>
        <source>Algorithm</source>
        <translation>算法</translation>
    </message>
    <message>
        <source>The slowest link the group uses, in GB/s (1e9 bytes) per GPU per direction</source>
        <translation>该组所经过的最慢链路，单位 GB/s（10^9 字节），按每个 GPU 每方向计</translation>
    </message>
    <message>
        <source>Bytes one GPU sends per step, in GiB (2^30 bytes)</source>
        <translation>单个 GPU 每步发送的字节数，单位 GiB（2^30 字节）</translation>
    </message>
    <message>
        <source>The part of the time on the critical path (not hidden behind compute)</source>
        <translation>位于关键路径上（未被计算掩盖）的那部分时间</translation>
    </message>
    <message>
        <source>Ring all-reduce, step by step</source>
        <translation>环形全归约（Ring All-Reduce）逐步演示</translation>
    </message>
    <message>
        <source>GPUs on the ring (n):</source>
        <translation>环上的 GPU 数 (n)：</translation>
    </message>
    <message>
        <source>Step</source>
        <translation>单步</translation>
    </message>
    <message>
        <source>Reset</source>
        <translation>重置</translation>
    </message>
    <message>
        <source>ring</source>
        <translation>环形 (ring)</translation>
    </message>
    <message>
        <source>tree (2·log2 n latency steps)</source>
        <translation>树形（2·log2 n 个延迟步）</translation>
    </message>
    <message>
        <source>parameter server (1 server)</source>
        <translation>参数服务器（1 台服务器）</translation>
    </message>
    <message>
        <source>No plan loaded</source>
        <translation>未加载方案</translation>
    </message>
    <message>
        <source>Every group has one GPU: nothing is communicated</source>
        <translation>每个通信组都只有一个 GPU：没有任何通信</translation>
    </message>
    <message>
        <source>yes (%1 nodes)</source>
        <translation>是（%1 个节点）</translation>
    </message>
    <message>
        <source>no (inside one node)</source>
        <translation>否（单个节点内）</translation>
    </message>
    <message>
        <source>%1 GPUs of the group on the fullest node</source>
        <translation>该组在 GPU 最多的节点上有 %1 个 GPU</translation>
    </message>
    <message>
        <source>%1 bytes/s per direction</source>
        <translation>每方向 %1 字节/秒</translation>
    </message>
    <message>
        <source>%1 bytes</source>
        <translation>%1 字节</translation>
    </message>
    <message>
        <source>%1 s</source>
        <translation>%1 秒</translation>
    </message>
    <message>
        <source>GPUs in the group (log scale)</source>
        <translation>组内 GPU 数（对数坐标）</translation>
    </message>
    <message>
        <source>one node = %1 GPUs</source>
        <translation>单节点 = %1 个 GPU</translation>
    </message>
    <message>
        <source>this plan: dp×cp = %1</source>
        <translation>本方案：dp×cp = %1</translation>
    </message>
    <message>
        <source>stage %1&apos;s gradients on one GPU, %2</source>
        <translation>阶段 %1 在单个 GPU 上的梯度，%2</translation>
    </message>
    <message>
        <source>an example size: no valid prediction</source>
        <translation>示例大小：没有有效的预测</translation>
    </message>
    <message>
        <source>All-reduce of %1 (%2) against the number of GPUs</source>
        <translation>%1（%2）的全归约耗时随 GPU 数量的变化</translation>
    </message>
    <message>
        <source>Links per GPU per direction: inside a node %1 GB/s × efficiency %2, α %3 µs; between nodes %4 GB/s × %5, α %6 µs.
Ring, tree and the server run on NVLink up to %7 GPUs and on the inter-node link beyond.</source>
        <translation>每个 GPU 每方向的链路：节点内 %1 GB/s × 效率 %2，α %3 µs；节点间 %4 GB/s × %5，α %6 µs。
环形、树形和参数服务器在 %7 个 GPU 以内走 NVLink，超出后走节点间链路。</translation>
    </message>
    <message>
        <source>this plan&apos;s gradients: %1</source>
        <translation>本方案的梯度：%1</translation>
    </message>
    <message>
        <source>inside one node: %1 GB/s per direction</source>
        <translation>节点内：每方向 %1 GB/s</translation>
    </message>
    <message>
        <source>All-reduce on n = %1 GPUs against the message size (%2)</source>
        <translation>n = %1 个 GPU 上的全归约耗时随消息大小（%2）的变化</translation>
    </message>
    <message>
        <source>Start: each of the %1 GPUs holds its own buffer of S bytes, cut into %1 chunks of S/%1. Ring all-reduce takes 2(n−1) = %2 steps: %3 of reduce-scatter, then %3 of all-gather.</source>
        <translation>初始：%1 个 GPU 各自持有 S 字节的缓冲区，切分为 %1 个大小为 S/%1 的数据块。环形全归约共需 2(n−1) = %2 步：先 %3 步归约散射，再 %3 步全收集。</translation>
    </message>
    <message>
        <source>reduce-scatter step %1/%2: each GPU sends 1/%3 of the buffer (one chunk) to the next GPU on the ring, which adds it to its own copy; the chunks sent now sum %4 GPUs&apos; inputs.</source>
        <translation>归约散射第 %1/%2 步：每个 GPU 将缓冲区的 1/%3（一个数据块）发送给环上的下一个 GPU，后者将其累加到自己的副本上；此刻发送的数据块累加了 %4 个 GPU 的输入。</translation>
    </message>
    <message>
        <source>Every GPU now holds one chunk fully reduced (framed).</source>
        <translation>现在每个 GPU 都持有一个已完全归约的数据块（带框）。</translation>
    </message>
    <message>
        <source>all-gather step %1/%2: each GPU sends 1/%3 of the buffer (a fully reduced chunk) to the next GPU, which keeps a copy; every GPU now has %4 of the %3 reduced chunks.</source>
        <translation>全收集第 %1/%2 步：每个 GPU 将缓冲区的 1/%3（一个已完全归约的数据块）发送给下一个 GPU，后者保留一份副本；现在每个 GPU 拥有 %3 个已归约数据块中的 %4 个。</translation>
    </message>
    <message>
        <source>Done after 2(n−1) = %1 steps: every GPU holds the full sum. Each GPU sent 2(n−1)/n × S = %2 × S (%3 for S = %4), close to 2S however many GPUs there are: the ring spreads the traffic evenly, where a parameter server&apos;s link carries n × S.</source>
        <translation>经过 2(n−1) = %1 步后完成：每个 GPU 都持有完整的总和。每个 GPU 发送了 2(n−1)/n × S = %2 × S（S = %4 时为 %3），无论 GPU 有多少都接近 2S：环形算法把流量均匀分摊开，而参数服务器的链路要承载 n × S。</translation>
    </message>
    <message>
        <source>Hover a GPU in the GPU grid to see the groups it communicates in.</source>
        <translation>将鼠标悬停在 GPU 网格中的某个 GPU 上，查看它参与通信的各个组。</translation>
    </message>
    <message>
        <source>%1 %2 (inside one node)</source>
        <translation>%1 %2（单个节点内）</translation>
    </message>
    <message>
        <source>%1 %2 (%3 nodes)</source>
        <translation>%1 %2（%3 个节点）</translation>
    </message>
    <message>
        <source>GPU %1 on node %2: %3</source>
        <translation>GPU %1（节点 %2）：%3</translation>
    </message>
    <message>
        <source>Crosses
nodes</source>
        <translation>跨越
节点</translation>
    </message>
    <message>
        <source>Link (GB/s
per direction)</source>
        <translation>链路（GB/s，
每方向）</translation>
    </message>
    <message>
        <source>Sent per
step (GiB)</source>
        <translation>每步发送
(GiB)</translation>
    </message>
    <message>
        <source>Time
per step</source>
        <translation>每步
耗时</translation>
    </message>
    <message>
        <source>Exposed
per step</source>
        <translation>每步
暴露</translation>
    </message>
    <message>
        <source>Time (log scale)</source>
        <translation>耗时（对数坐标）</translation>
    </message>
    <message>
        <source>across %1 nodes, %2 per node: %3 GB/s per GPU per direction</source>
        <translation>跨 %1 个节点，每节点 %2 个：每个 GPU 每方向 %3 GB/s</translation>
    </message>
    <message>
        <source>All-reduce on this plan&apos;s %1 group, n = %2 GPUs, against the message size (%3)</source>
        <translation>本方案 %1 组（n = %2 个 GPU）上的全归约耗时随消息大小（%3）的变化</translation>
    </message>
    <message>
        <source>hierarchical (%1 per node)</source>
        <translation>分层（每节点 %1 个）</translation>
    </message>
    <message>
        <source>No communication to show: this plan cannot run (the Metrics page says why)</source>
        <translation>没有可显示的通信：该方案无法运行（原因见“指标”页）</translation>
    </message>
    <message>
        <source>Message size per GPU (log scale)</source>
        <translation>每个 GPU 的消息大小（对数坐标）</translation>
    </message>
    <message>
        <source>Small messages pay the latency α of every step (ring 2(n−1) steps, tree 2·log2 n);
large ones the bandwidth term 2(n−1)/n × S / B. KiB = 2^10 bytes, GiB = 2^30.</source>
        <translation>小消息承担每一步的延迟 α（环形 2(n−1) 步，树形 2·log2 n 步）；
大消息承担带宽项 2(n−1)/n × S / B。KiB = 2^10 字节，GiB = 2^30 字节。</translation>
    </message>
</context>
<context>
    <name>planscope::ComparePage</name>
    <message>
        <source>Compare</source>
        <translation>比较</translation>
    </message>
    <message>
        <source>At most %1 plans are compared at once: remove one before adding %2.</source>
        <translation>最多同时比较 %1 个方案：请先移除一个，再添加 %2。</translation>
    </message>
    <message>
        <source>Cannot compare with %1:
%2</source>
        <translation>无法与 %1 比较：
%2</translation>
    </message>
    <message>
        <source>Compare With Plan</source>
        <translation>与方案比较</translation>
    </message>
    <message>
        <source>PlanScope plans (*.plan.json *.json);;All files (*)</source>
        <translation>PlanScope 方案 (*.plan.json *.json);;所有文件 (*)</translation>
    </message>
    <message>
        <source>no plan open</source>
        <translation>未打开方案</translation>
    </message>
    <message>
        <source>Remove</source>
        <translation>移除</translation>
    </message>
    <message>
        <source>Take this plan out of the comparison</source>
        <translation>将此方案移出比较</translation>
    </message>
    <message>
        <source> (open plan)</source>
        <translation>（当前方案）</translation>
    </message>
    <message>
        <source>%1 tokens/s</source>
        <translation>%1 token/秒</translation>
    </message>
    <message>
        <source>%1 days</source>
        <translation>%1 天</translation>
    </message>
    <message>
        <source>Figure</source>
        <translation>指标</translation>
    </message>
    <message>
        <source>Lower is better</source>
        <translation>越低越好</translation>
    </message>
    <message>
        <source>Higher is better</source>
        <translation>越高越好</translation>
    </message>
    <message>
        <source>computing…</source>
        <translation>计算中…</translation>
    </message>
    <message>
        <source>This plan cannot run:
%1</source>
        <translation>此方案无法运行：
%1</translation>
    </message>
    <message>
        <source>This plan has no such figure</source>
        <translation>此方案没有这一数值</translation>
    </message>
    <message>
        <source>best</source>
        <translation>最佳</translation>
    </message>
    <message>
        <source>%1 (%2×)</source>
        <translation>%1（%2×）</translation>
    </message>
    <message>
        <source>%1× the best value (%2)</source>
        <translation>最佳值（%2）的 %1 倍</translation>
    </message>
    <message>
        <source>Add a plan to compare with the open one: “Add plan…” above, File &gt; Compare With…, or the planner&apos;s “Compare with current”.</source>
        <translation>添加一个方案与当前方案比较：上方的“添加方案…”、文件 &gt; 与…比较，或规划器中的“与当前方案比较”。</translation>
    </message>
    <message>
        <source>Computing…</source>
        <translation>正在计算…</translation>
    </message>
    <message>
        <source>No plan here can run, so none is faster.</source>
        <translation>这里没有可运行的方案，无从比较快慢。</translation>
    </message>
    <message>
        <source>compute</source>
        <translation>计算</translation>
    </message>
    <message>
        <source>the pipeline bubble</source>
        <translation>流水线气泡</translation>
    </message>
    <message>
        <source>exposed communication</source>
        <translation>暴露的通信</translation>
    </message>
    <message>
        <source>the optimizer step</source>
        <translation>优化器更新</translation>
    </message>
    <message>
        <source>the rest of the simulated step (waits, overlap)</source>
        <translation>模拟单步中的其余部分（等待、重叠）</translation>
    </message>
    <message>
        <source>%1 is faster than %2 by %3× (step %4 vs %5); the biggest difference is %6: %7 vs %8.</source>
        <translation>%1 比 %2 快 %3×（单步 %4 对 %5）；差别最大的是%6：%7 对 %8。</translation>
    </message>
    <message>
        <source>%1 needs %2 more memory per GPU.</source>
        <translation>%1 每个 GPU 多需 %2 显存。</translation>
    </message>
    <message>
        <source>%1 is the only plan here that can run.</source>
        <translation>%1 是这里唯一可运行的方案。</translation>
    </message>
    <message>
        <source>cannot run: %1</source>
        <translation>无法运行：%1</translation>
    </message>
    <message>
        <source>step %1, not simulated: %2</source>
        <translation>单步 %1，未模拟：%2</translation>
    </message>
    <message>
        <source>step %1</source>
        <translation>单步 %1</translation>
    </message>
    <message>
        <source>Compare plans</source>
        <translation>比较方案</translation>
    </message>
    <message>
        <source>Add plan…</source>
        <translation>添加方案…</translation>
    </message>
    <message>
        <source>Add a plan file to the comparison (at most %1 plans)</source>
        <translation>向比较中添加一个方案文件（最多 %1 个方案）</translation>
    </message>
    <message>
        <source>Rows per stage</source>
        <translation>按阶段分行</translation>
    </message>
    <message>
        <source>Show the peak memory of every pipeline stage in the table</source>
        <translation>在表中列出每个流水线阶段的峰值显存</translation>
    </message>
    <message>
        <source>Simulated steps on one time axis (the longest sets it: a faster plan ends sooner)</source>
        <translation>同一时间轴上的模拟单步（以最长者为准：更快的方案更早结束）</translation>
    </message>
    <message>
        <source>Memory per GPU by pipeline stage, on one scale (GiB = 2³⁰ bytes)</source>
        <translation>按流水线阶段的每个 GPU 显存，统一刻度（GiB = 2³⁰ 字节）</translation>
    </message>
    <message>
        <source>GPUs, coloured by pipeline stage</source>
        <translation>GPU，按流水线阶段着色</translation>
    </message>
    <message>
        <source>GPU capacity</source>
        <translation>GPU 显存容量</translation>
    </message>
    <message>
        <source>%1 has not been analysed</source>
        <translation>%1 尚未分析</translation>
    </message>
    <message>
        <source>Cannot compare with %1: the read did not finish.</source>
        <translation>无法与 %1 比较：读取没有完成。</translation>
    </message>
</context>
<context>
    <name>planscope::GpuGridView</name>
    <message>
        <source>GPU Grid</source>
        <translation>GPU 网格</translation>
    </message>
    <message>
        <source>Which coordinate of each GPU its colour shows</source>
        <translation>各 GPU 的颜色所表示的坐标维度</translation>
    </message>
    <message>
        <source>tp (tensor-parallel rank)</source>
        <translation>tp（张量并行秩）</translation>
    </message>
    <message>
        <source>pp (pipeline stage)</source>
        <translation>pp（流水线阶段）</translation>
    </message>
    <message>
        <source>dp (data-parallel replica)</source>
        <translation>dp（数据并行副本）</translation>
    </message>
    <message>
        <source>cp (context-parallel rank)</source>
        <translation>cp（上下文并行秩）</translation>
    </message>
    <message>
        <source>ep (expert-parallel rank)</source>
        <translation>ep（专家并行秩）</translation>
    </message>
    <message>
        <source>node</source>
        <translation>节点</translation>
    </message>
    <message>
        <source>TP group</source>
        <translation>TP 组</translation>
    </message>
    <message>
        <source>CP group</source>
        <translation>CP 组</translation>
    </message>
    <message>
        <source>DP×CP group</source>
        <translation>DP×CP 组</translation>
    </message>
    <message>
        <source>pipeline</source>
        <translation>流水线</translation>
    </message>
    <message>
        <source>EP group</source>
        <translation>EP 组</translation>
    </message>
    <message>
        <source>expert-DP group</source>
        <translation>专家数据并行组</translation>
    </message>
    <message>
        <source>Colour by:</source>
        <translation>着色依据：</translation>
    </message>
    <message>
        <source>Fit</source>
        <translation>适应窗口</translation>
    </message>
    <message>
        <source>Show the whole grid (or double-click it)</source>
        <translation>显示整个网格（或双击网格）</translation>
    </message>
    <message>
        <source>Wheel: zoom · drag: pan · hover: a GPU&apos;s groups · click: select its pipeline rank</source>
        <translation>滚轮：缩放 · 拖动：平移 · 悬停：查看 GPU 所在的组 · 单击：选中其流水线秩</translation>
    </message>
    <message>
        <source>No plan loaded</source>
        <translation>未加载方案</translation>
    </message>
    <message>
        <source>Cannot draw this grid: dp × tp × pp × cp = %L1 GPUs</source>
        <translation>无法绘制该网格：dp × tp × pp × cp = %L1 个 GPU</translation>
    </message>
    <message>
        <source>%L1 GPUs = dp %2 × tp %3 × pp %4 × cp %5%6 on %L7 nodes of %8 GPUs, rank order %9</source>
        <translation>%L1 个 GPU = dp %2 × tp %3 × pp %4 × cp %5%6，分布在 %L7 个节点上（每节点 %8 个 GPU），秩顺序 %9</translation>
    </message>
    <message>
        <source> (ep %1 inside dp × cp)</source>
        <translation> (ep %1 位于 dp × cp 之内)</translation>
    </message>
    <message>
        <source> (the cluster has %L1 GPUs)</source>
        <translation> (集群共有 %L1 个 GPU)</translation>
    </message>
    <message>
        <source>inter-node network: %1 GB/s per GPU per direction; inside a node %2 GB/s per direction</source>
        <translation>节点间网络：每个 GPU 每方向 %1 GB/s；节点内每方向 %2 GB/s</translation>
    </message>
    <message>
        <source>TP group of %1 spans %2 nodes: every layer&apos;s all-reduce crosses InfiniBand (%3 GB/s per GPU per direction instead of %4 GB/s over NVLink)</source>
        <translation>大小为 %1 的 TP 组跨越 %2 个节点：每一层的全归约都要经过 InfiniBand（每个 GPU 每方向 %3 GB/s，而 NVLink 为 %4 GB/s）</translation>
    </message>
    <message>
        <source>CP group of %1 spans %2 nodes: every layer&apos;s K/V exchange crosses InfiniBand</source>
        <translation>大小为 %1 的 CP 组跨越 %2 个节点：每一层的 K/V 交换都要经过 InfiniBand</translation>
    </message>
    <message>
        <source>EP group of %1 spans %2 nodes: every MoE layer&apos;s all-to-all crosses InfiniBand</source>
        <translation>大小为 %1 的 EP 组跨越 %2 个节点：每个 MoE 层的 all-to-all 都要经过 InfiniBand</translation>
    </message>
    <message>
        <source>No simulated timeline: every GPU is drawn at full colour</source>
        <translation>没有模拟的时间线：所有 GPU 均以全色显示</translation>
    </message>
    <message>
        <source>No simulated timeline (%1): every GPU is drawn at full colour</source>
        <translation>没有模拟的时间线（%1）：所有 GPU 均以全色显示</translation>
    </message>
    <message>
        <source>stage %1: %2 mb %3</source>
        <translation>阶段 %1：%2 微批次 %3</translation>
    </message>
    <message>
        <source>Playhead %1 of %2: %3 of %4 pipeline stages computing (lit), the others idle (dimmed)</source>
        <translation>播放头 %1 / %2：%4 个流水线阶段中有 %3 个在计算（高亮），其余空闲（变暗）</translation>
    </message>
    <message>
        <source>Hover a GPU to outline its groups. Cells: rank, then (dp, tp, pp, cp, ep).</source>
        <translation>将鼠标悬停在 GPU 上可勾勒出其所在的组。单元格：秩，然后是 (dp, tp, pp, cp, ep)。</translation>
    </message>
    <message>
        <source>GPU %L1 on node %L2 (GPU %3 there): dp %4, tp %5, pp %6, cp %7, ep %8</source>
        <translation>GPU %L1，位于节点 %L2（该节点的 GPU %3）：dp %4，tp %5，pp %6，cp %7，ep %8</translation>
    </message>
    <message>
        <source>%1 of %2 inside one node</source>
        <translation>%1，共 %2 个 GPU，位于单个节点内</translation>
    </message>
    <message>
        <source>%1 of %2 on %3 nodes</source>
        <translation>%1，共 %2 个 GPU，分布在 %3 个节点上</translation>
    </message>
    <message>
        <source>node %L1</source>
        <translation>节点 %L1</translation>
    </message>
    <message>
        <source>pp %1</source>
        <translation>pp %1</translation>
    </message>
    <message>
        <source>pp %1–%2</source>
        <translation>pp %1–%2</translation>
    </message>
    <message>
        <source>Colour = %1:</source>
        <translation>颜色 = %1：</translation>
    </message>
    <message>
        <source>(zoomed out: each node shows its most common value)</source>
        <translation>（已缩小：每个节点显示其最常见的取值）</translation>
    </message>
    <message>
        <source>computing at the playhead</source>
        <translation>当前时刻正在计算</translation>
    </message>
    <message>
        <source>idle</source>
        <translation>空闲</translation>
    </message>
    <message>
        <source>PlanScope GPU grid</source>
        <translation>PlanScope GPU 网格</translation>
    </message>
    <message>
        <source>, %L1 NVLink domains of %2 nodes</source>
        <translation>，%L1 个 NVLink 域（每域 %2 个节点）</translation>
    </message>
    <message>
        <source>network between NVLink domains: %1 GB/s per GPU per direction; inside a domain (NVLink) %2 GB/s per direction</source>
        <translation>NVLink 域之间的网络：每个 GPU 每方向 %1 GB/s；域内（NVLink）每方向 %2 GB/s</translation>
    </message>
    <message>
        <source>TP group of %1 spans %2 NVLink domains: every layer&apos;s all-reduce crosses the network (%3 GB/s per GPU per direction instead of %4 GB/s over NVLink)</source>
        <translation>大小为 %1 的 TP 组跨越 %2 个 NVLink 域：每一层的全归约都要经过网络（每个 GPU 每方向 %3 GB/s，而 NVLink 为 %4 GB/s）</translation>
    </message>
    <message>
        <source>CP group of %1 spans %2 NVLink domains: every layer&apos;s K/V exchange crosses the network</source>
        <translation>大小为 %1 的 CP 组跨越 %2 个 NVLink 域：每一层的 K/V 交换都要经过网络</translation>
    </message>
    <message>
        <source>EP group of %1 spans %2 NVLink domains: every MoE layer&apos;s all-to-all crosses the network</source>
        <translation>大小为 %1 的 EP 组跨越 %2 个 NVLink 域：每个 MoE 层的 all-to-all 都要经过网络</translation>
    </message>
    <message>
        <source>GPU %L1 on node %L2 (tray %3 of NVLink domain %4, GPU %5 there): dp %6, tp %7, pp %8, cp %9, ep %10</source>
        <translation>GPU %L1，位于节点 %L2（NVLink 域 %4 的第 %3 个托盘，该托盘的 GPU %5）：dp %6，tp %7，pp %8，cp %9，ep %10</translation>
    </message>
    <message>
        <source>%1 of %2 on %3 trays of one NVLink domain</source>
        <translation>%1，共 %2 个 GPU，分布在同一 NVLink 域的 %3 个托盘上</translation>
    </message>
    <message>
        <source>%1 of %2 on %3 nodes in %4 NVLink domains</source>
        <translation>%1，共 %2 个 GPU，分布在 %4 个 NVLink 域的 %3 个节点上</translation>
    </message>
    <message>
        <source>tray %1</source>
        <translation>托盘 %1</translation>
    </message>
    <message>
        <source>NVL domain %1</source>
        <translation>NVL 域 %1</translation>
    </message>
    <message>
        <source>nodes %L1–%L2</source>
        <translation>节点 %L1–%L2</translation>
    </message>
    <message>
        <source>group crossing trays inside an NVLink domain (NVLink)</source>
        <translation>在 NVLink 域内跨托盘的组（NVLink）</translation>
    </message>
    <message>
        <source> (%1 per GPU per step, %2 of collectives, %3 exposed)</source>
        <translation>（每块 GPU 每步 %1，集合通信 %2，其中暴露 %3）</translation>
    </message>
    <message>
        <source>At %1 of %2, the busiest moment (the playhead is at the end of the step): %3 of %4 pipeline stages computing (lit), the others idle (dimmed)</source>
        <translation>%1 / %2，最繁忙的时刻（播放头位于单步末尾）：%4 个流水线阶段中有 %3 个在计算（高亮），其余空闲（变暗）</translation>
    </message>
    <message>
        <source>%1 crossing NVLink domains (network)</source>
        <translation>跨 NVLink 域的%1（网络）</translation>
    </message>
    <message>
        <source>%1 crossing nodes</source>
        <translation>跨节点的%1</translation>
    </message>
    <message>
        <source>%1: %2 per GPU per step</source>
        <translation>%1：每块 GPU 每步 %2</translation>
    </message>
</context>
<context>
    <name>planscope::LaneView</name>
    <message>
        <source>%1 s</source>
        <translation>%1 秒</translation>
    </message>
    <message>
        <source>%1 µs</source>
        <translation>%1 µs</translation>
    </message>
    <message>
        <source>%1 ms</source>
        <translation>%1 ms</translation>
    </message>
    <message>
        <source>time in step</source>
        <translation>单步内时间</translation>
    </message>
    <message>
        <source>PlanScope timeline</source>
        <translation>PlanScope 时间线</translation>
    </message>
</context>
<context>
    <name>planscope::LaunchConfigDialog</name>
    <message>
        <source>Import Launch Config</source>
        <translation>导入启动配置</translation>
    </message>
    <message>
        <source>Open File…</source>
        <translation>打开文件…</translation>
    </message>
    <message>
        <source>Import</source>
        <translation>导入</translation>
    </message>
    <message>
        <source>Open Launch Config</source>
        <translation>打开启动配置</translation>
    </message>
    <message>
        <source>Cannot read %1: %2</source>
        <translation>无法读取 %1：%2</translation>
    </message>
    <message>
        <source>From a launch config</source>
        <translation>来自启动配置</translation>
    </message>
    <message>
        <source>Not imported:</source>
        <translation>未导入：</translation>
    </message>
    <message numerus="yes">
        <source>%n argument(s) of the launch config applied.</source>
        <translation>
            <numerusform>已应用启动配置中的 %n 个参数。</numerusform>
        </translation>
    </message>
    <message>
        <source>Not modelled: %1.</source>
        <translation>未建模：%1。</translation>
    </message>
    <message>
        <source>Paste a Megatron-LM launch line or script (torchrun or srun in front), a torchtitan TOML, a Megatron-Bridge or NeMo YAML or a DeepSpeed JSON, or open one. Every argument PlanScope models becomes a plan field; the others are listed by name. The GPU and the links stay the open plan&apos;s.</source>
        <translation>粘贴一行 Megatron-LM 启动命令或脚本（前面可带 torchrun 或 srun）、torchtitan TOML、Megatron-Bridge 或 NeMo YAML、DeepSpeed JSON，或打开一个文件。PlanScope 建模的每个参数都成为方案字段，其余的按名称列出。GPU 和链路沿用已打开方案的。</translation>
    </message>
    <message>
        <source>Launch configs (*.sh *.txt *.args *.toml *.yaml *.yml *.json);;All files (*)</source>
        <translation>启动配置 (*.sh *.txt *.args *.toml *.yaml *.yml *.json);;所有文件 (*)</translation>
    </message>
</context>
<context>
    <name>planscope::LayerAnatomyView</name>
    <message>
        <source> · %1 GEMMs</source>
        <translation> · %1 个 GEMM</translation>
    </message>
    <message>
        <source> · %1 SMs to communication</source>
        <translation> · %1 个 SM 用于通信</translation>
    </message>
    <message>
        <source>Layer anatomy: one transformer layer, one microbatch, on one GPU</source>
        <translation>层剖析：一个 Transformer 层、一个微批次、一个 GPU</translation>
    </message>
    <message>
        <source>Output layer anatomy (last pipeline stage): final norm, logits and loss, one microbatch, on one GPU</source>
        <translation>输出层剖析（最后一个流水线阶段）：最终归一化、logits 与损失，一个微批次、一个 GPU</translation>
    </message>
    <message>
        <source>%1 — %2</source>
        <translation>%1 — %2</translation>
    </message>
    <message>
        <source>No plan loaded.</source>
        <translation>未加载方案。</translation>
    </message>
    <message>
        <source>This plan cannot run, so it has no operators to show (the reasons are on the Metrics page).</source>
        <translation>此方案无法运行，因此没有可显示的算子（原因见“指标”页）。</translation>
    </message>
    <message>
        <source>This prediction lists no operators.</source>
        <translation>此预测未列出任何算子。</translation>
    </message>
    <message>
        <source>%1 ms on the critical path: forward %2 ms, recompute %3 ms, backward %4 ms.</source>
        <translation>关键路径上共 %1 ms：前向 %2 ms，重计算 %3 ms，反向 %4 ms。</translation>
    </message>
    <message>
        <source>%1 ms on the critical path: forward %2 ms, backward %3 ms.</source>
        <translation>关键路径上共 %1 ms：前向 %2 ms，反向 %3 ms。</translation>
    </message>
    <message>
        <source>Exposed communication %1 ms (%2), memory-bound ops %3 ms (%4), compute-bound ops %5 ms (%6)</source>
        <translation>暴露的通信 %1 ms（%2），受访存限制的算子 %3 ms（%4），受计算限制的算子 %5 ms（%6）</translation>
    </message>
    <message>
        <source>, latency-bound ops %1 ms (%2)</source>
        <translation>，受延迟限制的算子 %1 ms（%2）</translation>
    </message>
    <message>
        <source>; %1 ms of communication hidden behind compute.</source>
        <translation>；另有 %1 ms 通信被计算掩盖。</translation>
    </message>
    <message>
        <source>.</source>
        <translation>。</translation>
    </message>
    <message>
        <source>compute-bound</source>
        <translation>受计算限制</translation>
    </message>
    <message>
        <source>memory-bound</source>
        <translation>受访存限制</translation>
    </message>
    <message>
        <source>communication, exposed</source>
        <translation>通信（暴露）</translation>
    </message>
    <message>
        <source>communication hidden behind compute</source>
        <translation>被计算掩盖的通信</translation>
    </message>
    <message>
        <source>latency-bound</source>
        <translation>受延迟限制</translation>
    </message>
    <message>
        <source>%1 · %2 ms</source>
        <translation>%1 · %2 ms</translation>
    </message>
    <message>
        <source>%1 ms, hidden behind %2</source>
        <translation>%1 ms，被 %2 掩盖</translation>
    </message>
    <message>
        <source>%1 ms, %2 ms not hidden by %3</source>
        <translation>%1 ms，其中 %2 ms 未被 %3 掩盖</translation>
    </message>
    <message>
        <source>%1 ms exposed</source>
        <translation>%1 ms，暴露</translation>
    </message>
    <message>
        <source>%1 ms · %2 of peak</source>
        <translation>%1 ms · 峰值的 %2</translation>
    </message>
    <message>
        <source>%1 ms</source>
        <translation>%1 ms</translation>
    </message>
    <message>
        <source>ms on the critical path of one layer (an overlapped collective is drawn beside the op it overlaps with)</source>
        <translation>一个层的关键路径时间 (ms)（重叠的集合通信画在与其重叠的算子旁）</translation>
    </message>
    <message>
        <source>ms on the critical path of the output layer (an overlapped collective is drawn beside the op it overlaps with)</source>
        <translation>输出层的关键路径时间 (ms)（重叠的集合通信画在与其重叠的算子旁）</translation>
    </message>
    <message>
        <source>Host-bound %1 pass: the GPU waits %2 ms of %3 ms (%4) for the CPU to issue its kernels.</source>
        <translation>%1阶段受主机限制：在 %3 ms 中 GPU 有 %2 ms（%4）在等待 CPU 发射 kernel。</translation>
    </message>
    <message>
        <source>CPU issuing the op (the lane under each pass)</source>
        <translation>CPU 发射该算子（每个阶段下方的一行）</translation>
    </message>
    <message>
        <source>CUDA graph launch</source>
        <translation>CUDA Graph 启动</translation>
    </message>
    <message>
        <source>GPU waiting for the CPU</source>
        <translation>GPU 等待 CPU</translation>
    </message>
    <message>
        <source>sync: the CPU waits for the GPU</source>
        <translation>同步：CPU 等待 GPU</translation>
    </message>
    <message>
        <source>CPU</source>
        <translation>CPU</translation>
    </message>
    <message>
        <source>sync</source>
        <translation>同步</translation>
    </message>
    <message>
        <source>the CPU runs ahead: it issued this pass&apos;s kernels from %1 ms to %2 ms, during earlier layers, so the GPU never waits for it</source>
        <translation>CPU 领先：它在 %1 ms 到 %2 ms 之间（前面的层运行期间）就发射了本阶段的 kernel，因此 GPU 从不等待它</translation>
    </message>
    <message>
        <source>CPU lane of the %1 pass: the host issuing its kernels</source>
        <translation>%1阶段的 CPU 行：主机发射该阶段的 kernel</translation>
    </message>
    <message>
        <source>CUDA graph launch: %1 µs of CPU time for %2 ops (%3 … %4), from %5 ms</source>
        <translation>CUDA Graph 启动：%2 个算子（%3 … %4）共用 %1 µs CPU 时间，从 %5 ms 开始</translation>
    </message>
    <message>
        <source>CPU issues %1: %2 µs, %3 kernel launches, from %4 ms (%5 ms from the pass&apos;s start)</source>
        <translation>CPU 发射 %1：%2 µs，%3 次 kernel 启动，从 %4 ms 开始（距本阶段开始 %5 ms）</translation>
    </message>
    <message>
        <source>Then the CPU waits for it to finish (sync).</source>
        <translation>随后 CPU 等待它完成（同步）。</translation>
    </message>
    <message>
        <source>, the GPU waiting for the CPU %1 ms (%2)</source>
        <translation>，GPU 等待 CPU %1 ms（%2）</translation>
    </message>
</context>
<context>
    <name>planscope::LessonPanel</name>
    <message>
        <source>Lesson: %1 (%2/%3)</source>
        <translation>课程：%1（%2/%3）</translation>
    </message>
    <message>
        <source>Interview question: %1 (seed %2)</source>
        <translation>面试题：%1（种子 %2）</translation>
    </message>
    <message>
        <source>%1 bytes (%2)</source>
        <translation>%1 字节（%2）</translation>
    </message>
    <message>
        <source>%1 days</source>
        <translation>%1 天</translation>
    </message>
    <message>
        <source>a share: 0.25 or 25%</source>
        <translation>比例：0.25 或 25%</translation>
    </message>
    <message>
        <source>bytes (1.5e9, 1.5 GB, 1.4 GiB)</source>
        <translation>字节（1.5e9、1.5 GB、1.4 GiB）</translation>
    </message>
    <message>
        <source>seconds</source>
        <translation>秒</translation>
    </message>
    <message>
        <source>days</source>
        <translation>天</translation>
    </message>
    <message>
        <source>Pipeline bubble</source>
        <translation>流水线气泡</translation>
    </message>
    <message>
        <source>ZeRO memory</source>
        <translation>ZeRO 显存</translation>
    </message>
    <message>
        <source>Ring all-reduce</source>
        <translation>环形 All-Reduce</translation>
    </message>
    <message>
        <source>Data parallelism</source>
        <translation>数据并行</translation>
    </message>
    <message>
        <source>Tensor parallelism</source>
        <translation>张量并行</translation>
    </message>
    <message>
        <source>Interview question: %1</source>
        <translation>面试题：%1</translation>
    </message>
    <message>
        <source>A plan drawn for this question (seed %1) is open in the views; the answer is the model&apos;s figure for it (planscope-cli lessons --interview %2 --seed %1).</source>
        <translation>为这道题抽取的方案（种子 %1）已在各视图中打开；答案是模型对它算出的数值（planscope-cli lessons --interview %2 --seed %1）。</translation>
    </message>
    <message>
        <source>Seed %1</source>
        <translation>种子 %1</translation>
    </message>
    <message>
        <source>Step %1 of %2</source>
        <translation>第 %1 步，共 %2 步</translation>
    </message>
    <message>
        <source>Lessons</source>
        <translation>课程</translation>
    </message>
    <message>
        <source>The lessons could not be computed</source>
        <translation>无法计算课程</translation>
    </message>
    <message>
        <source>Pick a lesson above, or ask for an interview question below. Each step opens a plan in the views and asks a question the model answers.</source>
        <translation>在上方选择一门课程，或在下方出一道面试题。每一步都会在视图中打开一个方案，并提出一个由模型给出答案的问题。</translation>
    </message>
    <message>
        <source>Right. The model&apos;s answer: %1.</source>
        <translation>正确。模型的答案：%1。</translation>
    </message>
    <message>
        <source>That is not a number. Type for example 0.27, 27%, 1.5e9 or 3.2 GB.</source>
        <translation>这不是一个数。请输入例如 0.27、27%、1.5e9 或 3.2 GB。</translation>
    </message>
    <message>
        <source>Solution: %1</source>
        <translation>解答：%1</translation>
    </message>
    <message>
        <source>Model&apos;s answer: %1</source>
        <translation>模型的答案：%1</translation>
    </message>
    <message>
        <source>Lesson:</source>
        <translation>课程：</translation>
    </message>
    <message>
        <source>&amp;Check</source>
        <translation>检查(&amp;C)</translation>
    </message>
    <message>
        <source>Show &amp;Solution</source>
        <translation>显示解答(&amp;S)</translation>
    </message>
    <message>
        <source>Your answer</source>
        <translation>你的答案</translation>
    </message>
    <message>
        <source>← &amp;Previous</source>
        <translation>← 上一步(&amp;P)</translation>
    </message>
    <message>
        <source>&amp;Next →</source>
        <translation>下一步(&amp;N) →</translation>
    </message>
    <message>
        <source>Interview practice: a new question with numbers drawn at random, answered by the model.</source>
        <translation>面试练习：随机抽取数字出一道新题，由模型给出答案。</translation>
    </message>
    <message>
        <source>New &amp;Interview Question</source>
        <translation>新面试题(&amp;I)</translation>
    </message>
    <message>
        <source>Not quite: %1 is too high (within %2 % of the model&apos;s answer counts as right). Try again, or Show Solution.</source>
        <translation>还不对：%1 偏高（与模型答案相差 %2 % 以内算对）。再试一次，或点“显示解答”。</translation>
    </message>
    <message>
        <source>Not quite: %1 is too low (within %2 % of the model&apos;s answer counts as right). Try again, or Show Solution.</source>
        <translation>还不对：%1 偏低（与模型答案相差 %2 % 以内算对）。再试一次，或点“显示解答”。</translation>
    </message>
</context>
<context>
    <name>planscope::MainWindow</name>
    <message>
        <source>&amp;File</source>
        <translation>文件(&amp;F)</translation>
    </message>
    <message>
        <source>&amp;Open…</source>
        <translation>打开(&amp;O)…</translation>
    </message>
    <message>
        <source>&amp;Save</source>
        <translation>保存(&amp;S)</translation>
    </message>
    <message>
        <source>Save &amp;As…</source>
        <translation>另存为(&amp;A)…</translation>
    </message>
    <message>
        <source>&amp;Export View…</source>
        <translation>导出视图(&amp;E)…</translation>
    </message>
    <message>
        <source>&amp;Quit</source>
        <translation>退出(&amp;Q)</translation>
    </message>
    <message>
        <source>&amp;View</source>
        <translation>视图(&amp;V)</translation>
    </message>
    <message>
        <source>&amp;Memory</source>
        <translation>显存(&amp;M)</translation>
    </message>
    <message>
        <source>&amp;Language</source>
        <translation>语言(&amp;L)</translation>
    </message>
    <message>
        <source>Unsaved changes</source>
        <translation>未保存的更改</translation>
    </message>
    <message>
        <source>Untitled</source>
        <translation>未命名</translation>
    </message>
    <message>
        <source>No plan loaded</source>
        <translation>未加载方案</translation>
    </message>
    <message numerus="yes">
        <source>The plan cannot run: %n error(s)</source>
        <translation>
            <numerusform>该方案无法运行：%n 个错误</numerusform>
        </translation>
    </message>
    <message>
        <source>Peak %1 GiB of %2 GiB (%3) · step %4 · MFU %5 %</source>
        <translation>峰值 %1 GiB / 容量 %2 GiB（%3）· 单步 %4 · MFU %5 %</translation>
    </message>
    <message>
        <source>fits</source>
        <translation>放得下</translation>
    </message>
    <message>
        <source>does not fit</source>
        <translation>放不下</translation>
    </message>
    <message>
        <source>Opened %1</source>
        <translation>已打开 %1</translation>
    </message>
    <message>
        <source>Open Plan</source>
        <translation>打开方案</translation>
    </message>
    <message>
        <source>PlanScope plans (*.plan.json *.json);;All files (*)</source>
        <translation>PlanScope 方案 (*.plan.json *.json);;所有文件 (*)</translation>
    </message>
    <message>
        <source>Save failed</source>
        <translation>保存失败</translation>
    </message>
    <message>
        <source>Saved %1</source>
        <translation>已保存 %1</translation>
    </message>
    <message>
        <source>Save Plan As</source>
        <translation>方案另存为</translation>
    </message>
    <message>
        <source>PlanScope plans (*.plan.json)</source>
        <translation>PlanScope 方案 (*.plan.json)</translation>
    </message>
    <message>
        <source>Export View</source>
        <translation>导出视图</translation>
    </message>
    <message>
        <source>PNG image (*.png);;SVG drawing (*.svg);;PDF document (*.pdf)</source>
        <translation>PNG 图像 (*.png);;SVG 矢量图 (*.svg);;PDF 文档 (*.pdf)</translation>
    </message>
    <message>
        <source>Export failed</source>
        <translation>导出失败</translation>
    </message>
    <message>
        <source>Exported %1</source>
        <translation>已导出 %1</translation>
    </message>
    <message>
        <source>&amp;Timeline</source>
        <translation>时间线(&amp;T)</translation>
    </message>
    <message>
        <source>&amp;GPU Grid</source>
        <translation>GPU 网格(&amp;G)</translation>
    </message>
    <message>
        <source>&amp;Communication</source>
        <translation>通信(&amp;C)</translation>
    </message>
    <message>
        <source>M&amp;etrics</source>
        <translation>指标(&amp;E)</translation>
    </message>
    <message>
        <source>Open &amp;Recent</source>
        <translation>最近打开(&amp;R)</translation>
    </message>
    <message>
        <source>&amp;Edit</source>
        <translation>编辑(&amp;E)</translation>
    </message>
    <message>
        <source>&amp;Undo</source>
        <translation>撤销(&amp;U)</translation>
    </message>
    <message>
        <source>&amp;Redo</source>
        <translation>重做(&amp;R)</translation>
    </message>
    <message>
        <source>Plan &amp;Editor</source>
        <translation>方案编辑器(&amp;E)</translation>
    </message>
    <message>
        <source>&amp;Play / Pause</source>
        <translation>播放/暂停(&amp;P)</translation>
    </message>
    <message>
        <source>No view to export</source>
        <translation>没有可导出的视图</translation>
    </message>
    <message>
        <source>&amp;Profile This Machine…</source>
        <translation>测量本机(&amp;P)…</translation>
    </message>
    <message>
        <source>T&amp;heme</source>
        <translation>主题(&amp;H)</translation>
    </message>
    <message>
        <source>&amp;System</source>
        <translation>跟随系统(&amp;S)</translation>
    </message>
    <message>
        <source>&amp;Light</source>
        <translation>浅色(&amp;L)</translation>
    </message>
    <message>
        <source>&amp;Dark</source>
        <translation>深色(&amp;D)</translation>
    </message>
    <message>
        <source>Measured &amp;Run</source>
        <translation>实测运行(&amp;R)</translation>
    </message>
    <message>
        <source>Open &amp;Traces…</source>
        <translation>打开跟踪文件(&amp;T)…</translation>
    </message>
    <message>
        <source>Open Traces</source>
        <translation>打开跟踪文件</translation>
    </message>
    <message>
        <source>PyTorch profiler traces (*.json *.json.gz);;All files (*)</source>
        <translation>PyTorch Profiler 跟踪文件 (*.json *.json.gz);;所有文件 (*)</translation>
    </message>
    <message>
        <source>Layer &amp;Anatomy</source>
        <translation>层剖析(&amp;A)</translation>
    </message>
    <message>
        <source>The plan has changes that are not saved. Save them first?</source>
        <translation>该方案有尚未保存的更改。要先保存吗？</translation>
    </message>
    <message>
        <source>Recover unsaved changes</source>
        <translation>恢复未保存的更改</translation>
    </message>
    <message>
        <source>&amp;Recover</source>
        <translation>恢复(&amp;R)</translation>
    </message>
    <message>
        <source>&amp;Discard</source>
        <translation>丢弃(&amp;D)</translation>
    </message>
    <message>
        <source>&amp;Not Now</source>
        <translation>暂不(&amp;N)</translation>
    </message>
    <message>
        <source>Recover &amp;Unsaved Plans…</source>
        <translation>恢复未保存的方案(&amp;U)…</translation>
    </message>
    <message>
        <source>There are no unsaved plans to recover.</source>
        <translation>没有可恢复的未保存方案。</translation>
    </message>
    <message>
        <source>an untitled plan</source>
        <translation>一个未命名的方案</translation>
    </message>
    <message>
        <source>the untitled plan “%1”</source>
        <translation>未命名的方案“%1”</translation>
    </message>
    <message>
        <source>“%1” (%2)</source>
        <translation>“%1”（%2）</translation>
    </message>
    <message>
        <source>PlanScope ended without saving the changes to %1. They were autosaved at %2.

Recover them? Not now keeps them for the next start.</source>
        <translation>PlanScope 退出时没有保存对 %1 的更改。这些更改已自动保存在 %2。

要恢复它们吗？选择“暂不”会将其保留到下次启动。</translation>
    </message>
    <message>
        <source>Recovered the unsaved changes to %1. Save them to keep them.</source>
        <translation>已恢复对 %1 的未保存更改。请保存以保留它们。</translation>
    </message>
    <message>
        <source>Computing… the pages show the plan before the last edit until it is done.</source>
        <translation>正在计算… 完成之前，各页面显示的是上次编辑之前的方案。</translation>
    </message>
    <message>
        <source>Computing…</source>
        <translation>正在计算…</translation>
    </message>
    <message>
        <source>&amp;Planner</source>
        <translation>规划器(&amp;P)</translation>
    </message>
    <message>
        <source>Compare With Plan</source>
        <translation>与方案比较</translation>
    </message>
    <message>
        <source>C&amp;ompare</source>
        <translation>比较(&amp;O)</translation>
    </message>
    <message>
        <source>&amp;Compare With…</source>
        <translation>与方案比较(&amp;C)…</translation>
    </message>
    <message>
        <source>Compare With Rece&amp;nt</source>
        <translation>与最近的方案比较(&amp;N)</translation>
    </message>
    <message>
        <source>P&amp;resent</source>
        <translation>演示(&amp;R)</translation>
    </message>
    <message>
        <source>There is no analysed plan to report on</source>
        <translation>没有已分析的方案可供报告</translation>
    </message>
    <message>
        <source>Export Report</source>
        <translation>导出报告</translation>
    </message>
    <message>
        <source>PDF document (*.pdf);;HTML page (*.html)</source>
        <translation>PDF 文档 (*.pdf);;HTML 网页 (*.html)</translation>
    </message>
    <message>
        <source>Lessons</source>
        <translation>课程</translation>
    </message>
    <message>
        <source>&amp;Learn</source>
        <translation>学习(&amp;L)</translation>
    </message>
    <message>
        <source>&amp;Interview Question…</source>
        <translation>面试题(&amp;I)…</translation>
    </message>
    <message>
        <source>%1 was changed by another program and has been read again.</source>
        <translation>%1 已被其他程序修改，已重新读取。</translation>
    </message>
    <message>
        <source>%1 was changed by another program. Your unsaved edits are kept; File &gt; Reload From Disk replaces them with the file, Save writes them over it.</source>
        <translation>%1 已被其他程序修改。你未保存的编辑仍然保留；“文件 &gt; 从磁盘重新读取”会用文件内容替换它们，“保存”会用它们覆盖文件。</translation>
    </message>
    <message>
        <source>Reload From Disk</source>
        <translation>从磁盘重新读取</translation>
    </message>
    <message>
        <source>Replace your unsaved edits with the plan as the file holds it now?</source>
        <translation>用文件中现在的方案替换你未保存的编辑吗？</translation>
    </message>
    <message>
        <source>Reload From &amp;Disk</source>
        <translation>从磁盘重新读取(&amp;D)</translation>
    </message>
    <message>
        <source>Read %1 again</source>
        <translation>已重新读取 %1</translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>取消</translation>
    </message>
    <message>
        <source>Stop the simulation of this plan: the step time is then the closed form&apos;s, and the timeline says it was cancelled</source>
        <translation>停止对此方案的模拟：单步时间改用解析式的结果，时间线会注明已取消</translation>
    </message>
    <message>
        <source>File changed on disk</source>
        <translation>文件已在磁盘上被修改</translation>
    </message>
    <message>
        <source>&amp;Overwrite</source>
        <translation>覆盖(&amp;O)</translation>
    </message>
    <message>
        <source>%1 is open in another PlanScope as well (process %2). Both can edit it; a save that would replace the other&apos;s saved changes asks first.</source>
        <translation>%1 也在另一个 PlanScope 中打开（进程 %2）。两边都可以编辑；若一次保存会覆盖另一边已保存的更改，会先询问。</translation>
    </message>
    <message>
        <source>Autosave failed: %1
Your edits are kept in this window; autosave tries again, and Save As can write them elsewhere.</source>
        <translation>自动保存失败：%1
你的编辑仍保留在此窗口中；自动保存会再次尝试，也可以用“另存为”写到别处。</translation>
    </message>
    <message>
        <source>Autosave works again.</source>
        <translation>自动保存已恢复正常。</translation>
    </message>
    <message>
        <source>%1 (now a folder)</source>
        <translation>%1（现在是文件夹）</translation>
    </message>
    <message>
        <source>%1 (not found)</source>
        <translation>%1（找不到）</translation>
    </message>
    <message>
        <source>Remove Missing Files</source>
        <translation>移除找不到的文件</translation>
    </message>
    <message>
        <source>%1
The file is unchanged; your edits are kept.</source>
        <translation>%1
文件未被改动；你的编辑仍然保留。</translation>
    </message>
    <message>
        <source>The analysis of the last edit is still running: the report waits for it</source>
        <translation>最近一次编辑的分析仍在运行：报告需等它完成</translation>
    </message>
    <message>
        <source>The report is written when the analysis of the last edit is done</source>
        <translation>最近一次编辑的分析完成后将写出报告</translation>
    </message>
    <message>
        <source>Stop reading this file: the plan shown now stays</source>
        <translation>停止读取此文件：保留当前显示的方案</translation>
    </message>
    <message>
        <source>Opening %1… the window stays as it was until the plan is read.</source>
        <translation>正在打开 %1……读完方案之前窗口保持原样。</translation>
    </message>
    <message>
        <source>parsing</source>
        <translation>解析中</translation>
    </message>
    <message>
        <source>%1 of %2</source>
        <translation>%1 / %2</translation>
    </message>
    <message>
        <source>⚠ calibrated with %1&apos;s measurements, not this plan&apos;s %2</source>
        <translation>⚠ 使用 %1 的实测数据校准，而非本方案的 %2</translation>
    </message>
    <message>
        <source>Import &amp;Launch Config…</source>
        <translation>导入启动配置(&amp;L)…</translation>
    </message>
    <message>
        <source>A plan from a Megatron-LM launch line or script, pasted or opened</source>
        <translation>由粘贴或打开的 Megatron-LM 启动命令或脚本生成方案</translation>
    </message>
    <message>
        <source>Import launch config</source>
        <translation>导入启动配置</translation>
    </message>
    <message>
        <source>This view has no table: the Metrics, Compare, Planner, Measured Run and Profile pages have</source>
        <translation>此视图没有表格：指标、对比、规划器、实测运行和性能剖析页面有表格</translation>
    </message>
    <message>
        <source>Export Tables</source>
        <translation>导出表格</translation>
    </message>
    <message>
        <source>Excel workbook (*.xlsx);;CSV, one file per table (*.csv)</source>
        <translation>Excel 工作簿 (*.xlsx);;CSV，每个表格一个文件 (*.csv)</translation>
    </message>
    <message>
        <source>Use the layout of the traces</source>
        <translation>使用追踪中的布局</translation>
    </message>
    <message>
        <source>The plan now has the layout the traces imply: %1</source>
        <translation>方案现在采用追踪所示的布局：%1</translation>
    </message>
    <message>
        <source>Open Run Summary</source>
        <translation>打开运行汇总</translation>
    </message>
    <message>
        <source>Run summaries (*.planscope-run *.jsonl);;All files (*)</source>
        <translation>运行汇总 (*.planscope-run *.jsonl);;所有文件 (*)</translation>
    </message>
    <message>
        <source>Open Run Su&amp;mmary…</source>
        <translation>打开运行汇总(&amp;M)…</translation>
    </message>
    <message>
        <source>Export Ta&amp;bles…</source>
        <translation>导出表格(&amp;B)…</translation>
    </message>
    <message>
        <source>Export Re&amp;port…</source>
        <translation>导出报告(&amp;P)…</translation>
    </message>
</context>
<context>
    <name>planscope::MemoryBarsView</name>
    <message>
        <source>Planner&apos;s fit: %1 % of the GPU left free</source>
        <translation>规划器的容纳线：留出 GPU 的 %1 % 空闲</translation>
    </message>
    <message>
        <source>GPU capacity</source>
        <translation>GPU 显存容量</translation>
    </message>
    <message>
        <source>GiB per GPU (2^30 bytes)</source>
        <translation>每 GPU GiB（2^30 字节）</translation>
    </message>
    <message>
        <source>Pipeline stage (every GPU of a stage holds the same)</source>
        <translation>流水线阶段（同一阶段的每个 GPU 占用相同）</translation>
    </message>
    <message>
        <source>No plan loaded</source>
        <translation>未加载方案</translation>
    </message>
    <message>
        <source>over by %1</source>
        <translation>超出 %1</translation>
    </message>
    <message>
        <source>Stage %1</source>
        <translation>阶段 %1</translation>
    </message>
    <message>
        <source>Memory per GPU by pipeline stage: peak %1 on stage %2, capacity %3</source>
        <translation>各流水线阶段每个 GPU 的显存：峰值 %1（阶段 %2），容量 %3</translation>
    </message>
    <message>
        <source>Stage %1: %2 (%3 bytes)</source>
        <translation>阶段 %1：%2（%3 字节）</translation>
    </message>
    <message>
        <source>Memory per GPU at %1 ms of the step (peak %2 on stage %3, capacity %4)</source>
        <translation>单步中 %1 ms 时每个 GPU 的显存（峰值 %2，位于阶段 %3，容量 %4）</translation>
    </message>
    <message>
        <source>GPU capacity
%1 GB = %2</source>
        <translation>GPU 显存容量
%1 GB = %2</translation>
    </message>
    <message>
        <source>No memory to show: this plan cannot run (the Metrics page says why)</source>
        <translation>没有可显示的显存：该方案无法运行（原因见“指标”页）</translation>
    </message>
    <message>
        <source>Simulated peak inside the step</source>
        <translation>模拟的步内峰值</translation>
    </message>
    <message>
        <source>Steady state (no temporaries, no slack)</source>
        <translation>稳态（不含临时张量与余量）</translation>
    </message>
    <message>
        <source>layers %1 (E embedding, L loss, | between chunks)</source>
        <translation>层 %1（E 嵌入层，L 损失，| 分隔块）</translation>
    </message>
    <message>
        <source>transformer layers %1</source>
        <translation>Transformer 层 %1</translation>
    </message>
    <message>
        <source>Allocated %1, reserved %2 (the slack: %3)</source>
        <translation>已分配 %1，预留 %2（余量：%3）</translation>
    </message>
    <message>
        <source>Steady state between ops: %1</source>
        <translation>算子之间的稳态：%1</translation>
    </message>
    <message>
        <source>Simulated peak inside the step: %1</source>
        <translation>模拟的步内峰值：%1</translation>
    </message>
    <message>
        <source>Pipeline stage and its layers (E embedding, L loss, | between chunks); every GPU of a stage holds the same</source>
        <translation>流水线阶段及其层（E 嵌入层，L 损失，| 分隔块）；同一阶段的每个 GPU 持有相同内容</translation>
    </message>
    <message>
        <source>Pipeline stage</source>
        <translation>流水线阶段</translation>
    </message>
    <message>
        <source>Peak %1 on stage %2
of %3</source>
        <translation>峰值 %1（阶段 %2）
容量 %3</translation>
    </message>
</context>
<context>
    <name>planscope::MemoryPage</name>
    <message>
        <source>Memory</source>
        <translation>显存</translation>
    </message>
    <message>
        <source>Bars: peak per stage</source>
        <translation>柱状图：各阶段峰值</translation>
    </message>
    <message>
        <source>Bars: at the playhead</source>
        <translation>柱状图：播放头时刻</translation>
    </message>
    <message>
        <source>Open Memory Snapshot</source>
        <translation>打开显存快照</translation>
    </message>
    <message>
        <source>PyTorch memory snapshots (*.pickle *.pkl);;All files (*)</source>
        <translation>PyTorch 显存快照 (*.pickle *.pkl);;所有文件 (*)</translation>
    </message>
    <message>
        <source>Cannot read the snapshot</source>
        <translation>无法读取快照</translation>
    </message>
    <message>
        <source>Compare with a Memory Snapshot…</source>
        <translation>与显存快照对比…</translation>
    </message>
    <message>
        <source>A PyTorch CUDA memory snapshot (torch.cuda.memory._dump_snapshot): its allocated and reserved peaks beside the predicted memory of the chosen stage</source>
        <translation>PyTorch CUDA 显存快照（torch.cuda.memory._dump_snapshot）：其已分配和已保留峰值与所选阶段的预测显存并列</translation>
    </message>
    <message>
        <source>Stage</source>
        <translation>阶段</translation>
    </message>
    <message>
        <source>Measured memory</source>
        <translation>实测显存</translation>
    </message>
    <message>
        <source>Figure</source>
        <translation>数值</translation>
    </message>
    <message>
        <source>Predicted</source>
        <translation>预测</translation>
    </message>
    <message>
        <source>Measured</source>
        <translation>实测</translation>
    </message>
    <message>
        <source>Difference</source>
        <translation>差值</translation>
    </message>
    <message>
        <source>Difference (%)</source>
        <translation>差值（%）</translation>
    </message>
    <message>
        <source>The plan has no valid prediction to set the snapshot beside.</source>
        <translation>方案没有有效的预测，无法与快照并列比较。</translation>
    </message>
    <message>
        <source>Allocated (peak)</source>
        <translation>已分配（峰值）</translation>
    </message>
    <message>
        <source>Reserved (peak)</source>
        <translation>已保留（峰值）</translation>
    </message>
    <message>
        <source>Reserved - allocated</source>
        <translation>已保留 − 已分配</translation>
    </message>
    <message>
        <source>Total on the GPU vs reserved</source>
        <translation>GPU 上总量 vs 已保留</translation>
    </message>
    <message>
        <source>%1, device %2, against stage %3: %4</source>
        <translation>%1，设备 %2，对照阶段 %3：%4</translation>
    </message>
</context>
<context>
    <name>planscope::MemoryTimelineView</name>
    <message>
        <source>Time in the step (s)</source>
        <translation>单步内时间（秒）</translation>
    </message>
    <message>
        <source>stage %1</source>
        <translation>阶段 %1</translation>
    </message>
    <message>
        <source>GPU capacity</source>
        <translation>GPU 显存容量</translation>
    </message>
    <message>
        <source>GiB in use per GPU</source>
        <translation>每 GPU 占用 GiB</translation>
    </message>
    <message>
        <source>peak inside the step (temporaries included)</source>
        <translation>步内峰值（含临时张量）</translation>
    </message>
</context>
<context>
    <name>planscope::PlanDocument</name>
    <message>
        <source>byte %1</source>
        <translation>第 %1 字节</translation>
    </message>
    <message>
        <source>%1 (byte %2)</source>
        <translation>%1（第 %2 字节）</translation>
    </message>
    <message>
        <source>Cannot load %1:
%2</source>
        <translation>无法加载 %1：
%2</translation>
    </message>
    <message>
        <source>There is no plan to save.</source>
        <translation>没有可保存的方案。</translation>
    </message>
    <message>
        <source>Cannot write %1: %2</source>
        <translation>无法写入 %1：%2</translation>
    </message>
    <message>
        <source>Cannot recover %1:
%2</source>
        <translation>无法恢复 %1：
%2</translation>
    </message>
    <message>
        <source>line %1</source>
        <translation>第 %1 行</translation>
    </message>
    <message>
        <source>%1 was changed by another program or another PlanScope window since this window read it; saving would replace those changes with yours.</source>
        <translation>自此窗口读取以来，%1 已被其他程序或另一个 PlanScope 窗口修改；保存会用你的更改替换那些更改。</translation>
    </message>
    <message>
        <source>Cannot create the folder %1: %2</source>
        <translation>无法创建文件夹 %1：%2</translation>
    </message>
    <message>
        <source>Cannot lock %1: %2</source>
        <translation>无法锁定 %1：%2</translation>
    </message>
    <message>
        <source>the lock file cannot be created</source>
        <translation>无法创建锁文件</translation>
    </message>
    <message>
        <source>Opening %1 was cancelled; nothing was changed.</source>
        <translation>已取消打开 %1；没有任何改动。</translation>
    </message>
</context>
<context>
    <name>planscope::PlanEditorPage</name>
    <message>
        <source>Plan</source>
        <translation>方案</translation>
    </message>
    <message>
        <source>Model</source>
        <translation>模型</translation>
    </message>
    <message>
        <source>Cluster</source>
        <translation>集群</translation>
    </message>
    <message>
        <source>Parallelism</source>
        <translation>并行策略</translation>
    </message>
    <message>
        <source>Training</source>
        <translation>训练</translation>
    </message>
    <message>
        <source>Preset</source>
        <translation>预设</translation>
    </message>
    <message>
        <source>Choosing a model fills every shape field below; editing one makes the model custom</source>
        <translation>选择模型会填充下方所有形状字段；修改其中任意一项会使模型变为自定义</translation>
    </message>
    <message>
        <source>Layers</source>
        <translation>层数</translation>
    </message>
    <message>
        <source>Transformer layers</source>
        <translation>Transformer 层数</translation>
    </message>
    <message>
        <source>Hidden size</source>
        <translation>隐藏层维度</translation>
    </message>
    <message>
        <source>Model width h</source>
        <translation>模型宽度 h</translation>
    </message>
    <message>
        <source>Attention heads</source>
        <translation>注意力头数</translation>
    </message>
    <message>
        <source>Key/value heads</source>
        <translation>键/值头数</translation>
    </message>
    <message>
        <source>Key/value heads (GQA/MQA); equal to the attention heads for multi-head attention</source>
        <translation>键/值头数 (GQA/MQA)；多头注意力时与注意力头数相同</translation>
    </message>
    <message>
        <source>FFN hidden size</source>
        <translation>FFN 隐藏层维度</translation>
    </message>
    <message>
        <source>MLP inner size f</source>
        <translation>MLP 中间维度 f</translation>
    </message>
    <message>
        <source>Vocabulary</source>
        <translation>词表大小</translation>
    </message>
    <message>
        <source>Sequence length</source>
        <translation>序列长度</translation>
    </message>
    <message>
        <source>Tokens per sequence s</source>
        <translation>每条序列的 token 数 s</translation>
    </message>
    <message>
        <source>Gated MLP (SwiGLU/GeGLU)</source>
        <translation>门控 MLP (SwiGLU/GeGLU)</translation>
    </message>
    <message>
        <source>Three h x f matrices in the MLP instead of two</source>
        <translation>MLP 中使用三个 h x f 矩阵而非两个</translation>
    </message>
    <message>
        <source>Tied embeddings</source>
        <translation>共享嵌入权重</translation>
    </message>
    <message>
        <source>The output layer shares the embedding matrix</source>
        <translation>输出层与嵌入层共享嵌入矩阵</translation>
    </message>
    <message>
        <source>MoE experts</source>
        <translation>MoE 专家数</translation>
    </message>
    <message>
        <source>Routed experts per layer; 0 = a dense model</source>
        <translation>每层的路由专家数；0 = 稠密模型</translation>
    </message>
    <message>
        <source>MoE top-k</source>
        <translation>MoE top-k</translation>
    </message>
    <message>
        <source>Experts each token is routed to</source>
        <translation>每个 token 路由到的专家数</translation>
    </message>
    <message>
        <source>Expert FFN hidden size</source>
        <translation>专家 FFN 隐藏层维度</translation>
    </message>
    <message>
        <source>GPU</source>
        <translation>GPU</translation>
    </message>
    <message>
        <source>Choosing a GPU also takes its usual node&apos;s links and GPUs per node</source>
        <translation>选择 GPU 时也会采用其常见节点配置的链路和每节点 GPU 数</translation>
    </message>
    <message>
        <source>custom: %1</source>
        <translation>自定义：%1</translation>
    </message>
    <message>
        <source>%1 GiB per GPU, %2 TFLOP/s dense %3, %4 GPUs in all</source>
        <translation>每个 GPU %1 GiB，%3 稠密算力 %2 TFLOP/s，共 %4 个 GPU</translation>
    </message>
    <message>
        <source>%1 bytes of memory</source>
        <translation>显存 %1 字节</translation>
    </message>
    <message>
        <source>Nodes</source>
        <translation>节点数</translation>
    </message>
    <message>
        <source>GPUs per node</source>
        <translation>每节点 GPU 数</translation>
    </message>
    <message>
        <source>Bytes per second per GPU per direction (A100 NVLink 3 &quot;600 GB/s&quot; is 300 GB/s per direction; HDR InfiniBand 200 Gb/s is 25 GB/s)</source>
        <translation>每个 GPU 每方向每秒的字节数（A100 NVLink 3 的“600 GB/s”即每方向 300 GB/s；HDR InfiniBand 200 Gb/s 即 25 GB/s）</translation>
    </message>
    <message>
        <source>Inside a node, GB/s per direction</source>
        <translation>节点内带宽，每方向 GB/s</translation>
    </message>
    <message>
        <source>Inside a node, latency in µs</source>
        <translation>节点内延迟，单位 µs</translation>
    </message>
    <message>
        <source>Per collective step (alpha)</source>
        <translation>每个集合通信步的延迟 (alpha)</translation>
    </message>
    <message>
        <source>Between nodes, GB/s per direction</source>
        <translation>节点间带宽，每方向 GB/s</translation>
    </message>
    <message>
        <source>Between nodes, latency in µs</source>
        <translation>节点间延迟，单位 µs</translation>
    </message>
    <message>
        <source>Data parallel (dp)</source>
        <translation>数据并行 (dp)</translation>
    </message>
    <message>
        <source>dp*tp*pp*cp must equal the GPU count</source>
        <translation>dp*tp*pp*cp 必须等于 GPU 总数</translation>
    </message>
    <message>
        <source>Tensor parallel (tp)</source>
        <translation>张量并行 (tp)</translation>
    </message>
    <message>
        <source>Must divide the heads, key/value heads and FFN size</source>
        <translation>必须整除注意力头数、键/值头数和 FFN 维度</translation>
    </message>
    <message>
        <source>Pipeline parallel (pp)</source>
        <translation>流水线并行 (pp)</translation>
    </message>
    <message>
        <source>Pipeline stages; must divide the layers for an even split</source>
        <translation>流水线阶段数；须整除层数才能均匀切分</translation>
    </message>
    <message>
        <source>Context parallel (cp)</source>
        <translation>上下文并行 (cp)</translation>
    </message>
    <message>
        <source>Splits the sequence; must divide the sequence length</source>
        <translation>切分序列；必须整除序列长度</translation>
    </message>
    <message>
        <source>Expert parallel (ep)</source>
        <translation>专家并行 (ep)</translation>
    </message>
    <message>
        <source>Carved out of the dp*cp ranks; must divide the experts</source>
        <translation>从 dp*cp 的秩中划分出来；必须整除专家数</translation>
    </message>
    <message>
        <source>Chunks per rank (vpp)</source>
        <translation>每个秩的模型块数 (vpp)</translation>
    </message>
    <message>
        <source>Virtual stages per rank for interleaved-1f1b</source>
        <translation>interleaved-1f1b 中每个秩的虚拟阶段数</translation>
    </message>
    <message>
        <source>Sequence parallelism (with tp &gt; 1)</source>
        <translation>序列并行（需 tp &gt; 1）</translation>
    </message>
    <message>
        <source>ZeRO stage</source>
        <translation>ZeRO 阶段</translation>
    </message>
    <message>
        <source>Sharding over the dp*cp group: 1 optimizer states, 2 also gradients, 3 also parameters (FSDP)</source>
        <translation>在 dp*cp 组内切分：1 切分优化器状态，2 再加上梯度，3 再加上参数 (FSDP)</translation>
    </message>
    <message>
        <source>Rank order</source>
        <translation>秩顺序</translation>
    </message>
    <message>
        <source>Fastest-varying first; Megatron&apos;s default is tp-cp-ep-dp-pp</source>
        <translation>变化最快的维度在前；Megatron 的默认顺序为 tp-cp-ep-dp-pp</translation>
    </message>
    <message>
        <source>Layers on the first stage</source>
        <translation>第一个阶段的层数</translation>
    </message>
    <message>
        <source>0 spreads the layers evenly; otherwise the middle stages share the rest</source>
        <translation>0 表示均匀分配各层；否则由中间各阶段分摊其余层</translation>
    </message>
    <message>
        <source>Layers on the last stage</source>
        <translation>最后一个阶段的层数</translation>
    </message>
    <message>
        <source>Microbatch (sequences)</source>
        <translation>微批次大小（序列数）</translation>
    </message>
    <message>
        <source>Global batch (sequences)</source>
        <translation>全局批次大小（序列数）</translation>
    </message>
    <message>
        <source>Sequences per step; microbatches per step = globalBatch / (microBatch * dp)</source>
        <translation>每步的序列数；每步微批次数 = globalBatch / (microBatch * dp)</translation>
    </message>
    <message>
        <source>= 1 microbatch</source>
        <translation>= 1 个微批次</translation>
    </message>
    <message>
        <source>= %1 microbatches</source>
        <translation>= %1 个微批次</translation>
    </message>
    <message>
        <source>Precision</source>
        <translation>精度</translation>
    </message>
    <message>
        <source>Dtype of the GEMMs and weights (fp8: GEMMs at the fp8 peak, weights kept in bf16)</source>
        <translation>GEMM 和权重的数据类型（fp8：GEMM 按 fp8 峰值算力计，权重仍以 bf16 保存）</translation>
    </message>
    <message>
        <source>Gradient dtype</source>
        <translation>梯度数据类型</translation>
    </message>
    <message>
        <source>Dtype gradients are kept and reduced in (Megatron: fp32 main grads)</source>
        <translation>梯度保存和归约所用的数据类型（Megatron：fp32 主梯度）</translation>
    </message>
    <message>
        <source>Optimizer</source>
        <translation>优化器</translation>
    </message>
    <message>
        <source>Recompute</source>
        <translation>重计算</translation>
    </message>
    <message>
        <source>selective: the attention core; full: every layer keeps only its input</source>
        <translation>selective：仅重计算注意力核心部分；full：每层只保留其输入</translation>
    </message>
    <message>
        <source>Pipeline schedule</source>
        <translation>流水线调度</translation>
    </message>
    <message>
        <source>Flash attention</source>
        <translation>Flash Attention</translation>
    </message>
    <message>
        <source>No s x s score tensors are kept for the backward</source>
        <translation>反向时无需保留 s x s 的注意力分数张量</translation>
    </message>
    <message>
        <source>Training tokens</source>
        <translation>训练 token 数</translation>
    </message>
    <message>
        <source>Tokens to train on, for the training-days estimate; type 3e11 or 2e12</source>
        <translation>用于估算训练天数的训练 token 数；可输入 3e11 或 2e12</translation>
    </message>
    <message>
        <source>Change %1</source>
        <translation>修改 %1</translation>
    </message>
    <message>
        <source>= %1 / (tp*pp*cp)</source>
        <translation>= %1 / (tp*pp*cp)</translation>
    </message>
    <message>
        <source>No plan open</source>
        <translation>未打开方案</translation>
    </message>
    <message>
        <source>valid</source>
        <translation>有效</translation>
    </message>
    <message>
        <source>1 error</source>
        <translation>1 个错误</translation>
    </message>
    <message>
        <source>%1 errors</source>
        <translation>%1 个错误</translation>
    </message>
    <message>
        <source>%1, 1 warning</source>
        <translation>%1，1 个警告</translation>
    </message>
    <message>
        <source>%1, %2 warnings</source>
        <translation>%1，%2 个警告</translation>
    </message>
    <message>
        <source>No prediction: the plan is invalid.</source>
        <translation>无法预测：该方案无效。</translation>
    </message>
    <message>
        <source>Peak memory %1 of %2 GiB per GPU (%3); step %4; MFU %5 %</source>
        <translation>每个 GPU 峰值显存 %1 / %2 GiB（%3）；单步 %4；MFU %5 %</translation>
    </message>
    <message>
        <source>fits</source>
        <translation>放得下</translation>
    </message>
    <message>
        <source>does not fit</source>
        <translation>放不下</translation>
    </message>
    <message>
        <source>; %1 days for %2 tokens</source>
        <translation>；训练 %2 tokens 需 %1 天</translation>
    </message>
    <message>
        <source>0: off</source>
        <translation>0：关闭</translation>
    </message>
    <message>
        <source>1: optimizer states</source>
        <translation>1：优化器状态</translation>
    </message>
    <message>
        <source>2: + gradients</source>
        <translation>2：+ 梯度</translation>
    </message>
    <message>
        <source>3: + parameters (FSDP)</source>
        <translation>3：+ 参数 (FSDP)</translation>
    </message>
    <message>
        <source>Reality check of a claim</source>
        <translation>宣称结果的可行性核查</translation>
    </message>
    <message>
        <source>custom</source>
        <translation>自定义</translation>
    </message>
    <message>
        <source>none (dense)</source>
        <translation>无（稠密）</translation>
    </message>
    <message>
        <source>even split</source>
        <translation>均匀切分</translation>
    </message>
    <message>
        <source>auto</source>
        <translation>自动</translation>
    </message>
    <message>
        <source>dp follows the GPU count: GPUs / (tp*pp*cp)</source>
        <translation>dp 随 GPU 数量而定：GPU 数 / (tp*pp*cp)</translation>
    </message>
    <message>
        <source>TP communication overlap</source>
        <translation>张量并行通信重叠</translation>
    </message>
    <message>
        <source>Tensor-parallel collectives overlap the GEMMs beside them (Transformer Engine, --tp-comm-overlap); off, only the column-parallel backward&apos;s are hidden</source>
        <translation>张量并行的集合通信与相邻的 GEMM 重叠执行（Transformer Engine，--tp-comm-overlap）；关闭时只有列并行反向中的集合通信被掩盖</translation>
    </message>
    <message>
        <source>Overlap gradient reduction</source>
        <translation>梯度归约重叠</translation>
    </message>
    <message>
        <source>Data-parallel gradients are reduced bucket by bucket during the last backward; only the last bucket stays exposed (Megatron-Core --overlap-grad-reduce)</source>
        <translation>数据并行梯度在最后一次反向传播期间按桶逐个归约；只有最后一个桶的归约暴露在外（Megatron-Core --overlap-grad-reduce）</translation>
    </message>
    <message>
        <source>Overlap pipeline sends</source>
        <translation>流水线发送与计算重叠</translation>
    </message>
    <message>
        <source>Pipeline sends run beside the next op (Megatron-Core --overlap-p2p-communication); off, a rank waits for each send to finish before its next op</source>
        <translation>流水线的发送与下一个算子同时进行（Megatron-Core --overlap-p2p-communication）；关闭时，每个 rank 要等发送完成才开始下一个算子</translation>
    </message>
    <message>
        <source>on</source>
        <translation>开</translation>
    </message>
    <message>
        <source>off</source>
        <translation>关</translation>
    </message>
    <message>
        <source>Set %1 to %2</source>
        <translation>将 %1 设为 %2</translation>
    </message>
    <message>
        <source>Embedding counts as a layer of the split</source>
        <translation>嵌入层计入流水线切分的层数</translation>
    </message>
    <message>
        <source>Megatron-Core --account-for-embedding-in-pipeline-split: the first stage holds one transformer layer fewer</source>
        <translation>Megatron-Core --account-for-embedding-in-pipeline-split：第一个阶段少放一个 Transformer 层</translation>
    </message>
    <message>
        <source>Loss counts as a layer of the split</source>
        <translation>损失计算计入流水线切分的层数</translation>
    </message>
    <message>
        <source>Megatron-Core --account-for-loss-in-pipeline-split: the last stage holds one transformer layer fewer</source>
        <translation>Megatron-Core --account-for-loss-in-pipeline-split：最后一个阶段少放一个 Transformer 层</translation>
    </message>
    <message>
        <source>Pipeline layout</source>
        <translation>流水线布局</translation>
    </message>
    <message>
        <source>Megatron-Core --pipeline-model-parallel-layout: E embedding, t layer, m MTP layer, L loss, | between stages, (...)*N repeats; e.g. Et|(tt|)*30mL. Empty: the split above</source>
        <translation>Megatron-Core --pipeline-model-parallel-layout：E 嵌入层，t Transformer 层，m MTP 层，L 损失，| 分隔阶段，(...)*N 表示重复；例如 Et|(tt|)*30mL。留空：使用上面的切分</translation>
    </message>
    <message>
        <source>Cannot balance the stages: %1</source>
        <translation>无法均衡各阶段：%1</translation>
    </message>
    <message>
        <source>No split fits in %1 per GPU: even the split with the least memory (%2) peaks at %3 on stage %4. The layout is left as it was.</source>
        <translation>没有任何划分能放进每 GPU %1：即使内存最少的划分（%2）在阶段 %4 的峰值也达 %3。布局保持不变。</translation>
    </message>
    <message>
        <source>(invalid split)</source>
        <translation>（无效划分）</translation>
    </message>
    <message>
        <source>Balance pipeline stages: %1</source>
        <translation>均衡流水线阶段：%1</translation>
    </message>
    <message>
        <source>Slowest stage %1 → %2 per microbatch (forward + backward); peak memory %3 → %4.</source>
        <translation>最慢阶段每个微批次 %1 → %2（前向 + 反向）；峰值内存 %3 → %4。</translation>
    </message>
    <message>
        <source>Balance stages</source>
        <translation>均衡阶段</translation>
    </message>
    <message>
        <source>Set the layout to the split that makes the slowest pipeline stage fastest while every stage fits in GPU memory (one undo step; planscope-cli balance does the same)</source>
        <translation>将布局设为使最慢流水线阶段最快、且每个阶段都能放进 GPU 内存的划分（一个撤销步骤；planscope-cli balance 的结果相同）</translation>
    </message>
    <message>
        <source>Multi-head latent attention (MLA)</source>
        <translation>多头潜在注意力 (MLA)</translation>
    </message>
    <message>
        <source>Mixture of experts (MoE)</source>
        <translation>混合专家 (MoE)</translation>
    </message>
    <message>
        <source>Host offload</source>
        <translation>卸载到主机</translation>
    </message>
    <message>
        <source>Head size</source>
        <translation>头维度</translation>
    </message>
    <message>
        <source>Size of each query, key and value head; 0 = hidden / heads. Qwen3 and gpt-oss use heads x head size other than hidden (Megatron-Core --kv-channels, Hugging Face head_dim)</source>
        <translation>每个查询、键和值头的维度；0 = hidden / heads。Qwen3 和 gpt-oss 的 heads x 头维度不等于 hidden（Megatron-Core --kv-channels，Hugging Face head_dim）</translation>
    </message>
    <message>
        <source>QK norm</source>
        <translation>QK 归一化</translation>
    </message>
    <message>
        <source>An RMSNorm over each query and key head before the scores (Qwen3; Megatron-Core --qk-layernorm)</source>
        <translation>计算注意力分数前对每个查询头和键头做 RMSNorm（Qwen3；Megatron-Core --qk-layernorm）</translation>
    </message>
    <message>
        <source>Attention sinks</source>
        <translation>注意力汇聚 (sinks)</translation>
    </message>
    <message>
        <source>One learned logit per head in the softmax&apos;s denominator (gpt-oss; Megatron-Core --softmax-type learnable)</source>
        <translation>每个头一个可学习的 logit，加在 softmax 的分母中（gpt-oss；Megatron-Core --softmax-type learnable）</translation>
    </message>
    <message>
        <source>MTP modules</source>
        <translation>MTP 模块数</translation>
    </message>
    <message>
        <source>Multi-token-prediction modules after the last layer, on the last pipeline stage unless the layout places its m (DeepSeek-V3: 1; Megatron-Core --mtp-num-layers)</source>
        <translation>最后一层之后的多 token 预测模块，放在最后一个流水线阶段，除非流水线布局另行放置其 m（DeepSeek-V3：1；Megatron-Core --mtp-num-layers）</translation>
    </message>
    <message>
        <source>Key/value latent rank</source>
        <translation>键/值潜在向量的秩</translation>
    </message>
    <message>
        <source>Rank of the compressed key/value latent; 0 = no MLA (DeepSeek-V3: 512; Megatron-Core --kv-lora-rank, Hugging Face kv_lora_rank)</source>
        <translation>压缩后的键/值潜在向量的秩；0 = 不使用 MLA（DeepSeek-V3：512；Megatron-Core --kv-lora-rank，Hugging Face kv_lora_rank）</translation>
    </message>
    <message>
        <source>Query latent rank</source>
        <translation>查询潜在向量的秩</translation>
    </message>
    <message>
        <source>Rank of the compressed query latent; 0 = queries projected straight from h (DeepSeek-V3: 1536; Megatron-Core --q-lora-rank, Hugging Face q_lora_rank)</source>
        <translation>压缩后的查询潜在向量的秩；0 = 查询直接由 h 投影得到（DeepSeek-V3：1536；Megatron-Core --q-lora-rank，Hugging Face q_lora_rank）</translation>
    </message>
    <message>
        <source>Query/key head size without RoPE</source>
        <translation>查询/键非 RoPE 部分的头维度</translation>
    </message>
    <message>
        <source>Per-head size of the query/key part without rotary embedding (DeepSeek-V3: 128; Megatron-Core --qk-head-dim, Hugging Face qk_nope_head_dim)</source>
        <translation>查询/键中不带旋转位置编码部分的每头维度（DeepSeek-V3：128；Megatron-Core --qk-head-dim，Hugging Face qk_nope_head_dim）</translation>
    </message>
    <message>
        <source>Query/key RoPE head size</source>
        <translation>查询/键 RoPE 部分的头维度</translation>
    </message>
    <message>
        <source>Per-head size of the rotary query/key part; the key&apos;s is shared by all heads (DeepSeek-V3: 64; Megatron-Core --qk-pos-emb-head-dim, Hugging Face qk_rope_head_dim)</source>
        <translation>查询/键中旋转位置编码部分的每头维度；键的这一部分由所有头共享（DeepSeek-V3：64；Megatron-Core --qk-pos-emb-head-dim，Hugging Face qk_rope_head_dim）</translation>
    </message>
    <message>
        <source>Value head size</source>
        <translation>值头维度</translation>
    </message>
    <message>
        <source>Per-head size of the values (DeepSeek-V3: 128; Megatron-Core --v-head-dim, Hugging Face v_head_dim)</source>
        <translation>每个值头的维度（DeepSeek-V3：128；Megatron-Core --v-head-dim，Hugging Face v_head_dim）</translation>
    </message>
    <message>
        <source>Shared experts</source>
        <translation>共享专家数</translation>
    </message>
    <message>
        <source>Experts every token passes through besides its routed ones (DeepSeek-V3: 1; Hugging Face n_shared_experts)</source>
        <translation>每个 token 除其路由专家外都要经过的专家（DeepSeek-V3：1；Hugging Face n_shared_experts）</translation>
    </message>
    <message>
        <source>Shared expert FFN hidden size</source>
        <translation>共享专家 FFN 隐藏层维度</translation>
    </message>
    <message>
        <source>Inner size of each shared expert; 0 = the expert FFN size. Megatron-Core&apos;s --moe-shared-expert-intermediate-size is this times the shared experts</source>
        <translation>每个共享专家的中间维度；0 = 专家 FFN 维度。Megatron-Core 的 --moe-shared-expert-intermediate-size 等于该值乘以共享专家数</translation>
    </message>
    <message>
        <source>Dense first layers</source>
        <translation>前部稠密层数</translation>
    </message>
    <message>
        <source>The first layers keep a dense MLP of the FFN hidden size (DeepSeek-V3: 3, Hugging Face first_k_dense_replace; Megatron-Core --moe-layer-freq [0]*3+[1]*58)</source>
        <translation>前若干层保留维度为 FFN 隐藏层维度的稠密 MLP（DeepSeek-V3：3，Hugging Face first_k_dense_replace；Megatron-Core --moe-layer-freq [0]*3+[1]*58）</translation>
    </message>
    <message>
        <source>Router bias per expert</source>
        <translation>路由器的每专家偏置</translation>
    </message>
    <message>
        <source>A bias per expert on the router (gpt-oss; DeepSeek-V3&apos;s e_score_correction_bias, Megatron-Core --moe-router-enable-expert-bias)</source>
        <translation>路由器上每个专家一个偏置（gpt-oss；DeepSeek-V3 的 e_score_correction_bias，Megatron-Core --moe-router-enable-expert-bias）</translation>
    </message>
    <message>
        <source>Capacity factor</source>
        <translation>容量因子</translation>
    </message>
    <message>
        <source>Tokens an expert takes, as a multiple of its balanced share; the experts compute on that many (padded). 0 = dropless (Megatron-Core --moe-expert-capacity-factor)</source>
        <translation>每个专家接收的 token 数，以其均衡份额的倍数表示；专家按这个数量计算（不足时填充）。0 = 不丢弃 token（Megatron-Core --moe-expert-capacity-factor）</translation>
    </message>
    <message>
        <source>Token dispatcher</source>
        <translation>Token 分发器</translation>
    </message>
    <message>
        <source>alltoall: each token&apos;s top-k copies go to their experts&apos; ranks; allgather: every expert-parallel rank gathers all the group&apos;s tokens (Megatron-Core --moe-token-dispatcher-type)</source>
        <translation>alltoall：每个 token 的 top-k 份副本发往其专家所在的秩；allgather：每个专家并行秩收集组内全部 token（Megatron-Core --moe-token-dispatcher-type）</translation>
    </message>
    <message>
        <source>Grouped expert GEMMs</source>
        <translation>专家 GEMM 分组执行</translation>
    </message>
    <message>
        <source>The local experts&apos; GEMMs run as one grouped kernel; off, one GEMM and one launch per expert (Megatron-Core --moe-grouped-gemm)</source>
        <translation>本地各专家的 GEMM 合并为一个分组内核执行；关闭时每个专家各做一次 GEMM、各启动一次内核（Megatron-Core --moe-grouped-gemm）</translation>
    </message>
    <message>
        <source>Expert TP (etp)</source>
        <translation>专家张量并行 (etp)</translation>
    </message>
    <message>
        <source>Tensor parallelism inside each routed expert; 0 = the same as tp. etp*ep must divide tp*dp*cp (Megatron-Core --expert-tensor-parallel-size)</source>
        <translation>每个路由专家内部的张量并行度；0 = 与 tp 相同。etp*ep 必须整除 tp*dp*cp（Megatron-Core --expert-tensor-parallel-size）</translation>
    </message>
    <message>
        <source>FP8 scaling recipe</source>
        <translation>FP8 缩放方案</translation>
    </message>
    <message>
        <source>With fp8, how Transformer Engine scales fp8 tensors: delayed from an amax history, current per tensor each step, mxfp8 in 32-element blocks (Blackwell), blockwise in 128x128 weight blocks (DeepSeek-V3). Megatron-Core --fp8-recipe, where current is tensorwise</source>
        <translation>使用 fp8 时 Transformer Engine 缩放 fp8 张量的方式：delayed 依据 amax 历史，current 每步按张量计算，mxfp8 按 32 元素块（Blackwell），blockwise 按 128x128 权重块（DeepSeek-V3）。对应 Megatron-Core --fp8-recipe，其中 current 即 tensorwise</translation>
    </message>
    <message>
        <source>FP8 primary weights</source>
        <translation>FP8 主权重</translation>
    </message>
    <message>
        <source>With fp8, the fp8 GEMMs&apos; weights are kept in fp8: no bf16 copy, only the transposed fp8 cache (Megatron-Core --fp8-param-gather)</source>
        <translation>使用 fp8 时，fp8 GEMM 的权重以 fp8 保存：没有 bf16 副本，只有转置的 fp8 缓存（Megatron-Core --fp8-param-gather）</translation>
    </message>
    <message>
        <source>Adam moment dtype</source>
        <translation>Adam 动量数据类型</translation>
    </message>
    <message>
        <source>Dtype of Adam&apos;s two moments; bf16 or fp16 halves them (Megatron-Core&apos;s precision-aware optimizer, --exp-avg-dtype and --exp-avg-sq-dtype)</source>
        <translation>Adam 两个动量的数据类型；bf16 或 fp16 使其减半（Megatron-Core 的精度感知优化器，--exp-avg-dtype 和 --exp-avg-sq-dtype）</translation>
    </message>
    <message>
        <source>Recompute layers (N)</source>
        <translation>重计算层数 (N)</translation>
    </message>
    <message>
        <source>With full recompute: uniform keeps one input per group of N layers, block recomputes the first N layers of each chunk and keeps the rest whole; 0 = every layer (Megatron-Core --recompute-num-layers)</source>
        <translation>完全重计算时：uniform 每 N 层一组、每组保留一个输入；block 重计算每个模型块的前 N 层，其余层完整保留；0 = 每一层（Megatron-Core --recompute-num-layers）</translation>
    </message>
    <message>
        <source>Recompute method</source>
        <translation>重计算方式</translation>
    </message>
    <message>
        <source>With full recompute: uniform splits the layers into groups of N that keep one input each; block recomputes N layers per chunk (Megatron-Core --recompute-method)</source>
        <translation>完全重计算时：uniform 把各层分成每组 N 层、每组保留一个输入；block 在每个模型块中重计算 N 层（Megatron-Core --recompute-method）</translation>
    </message>
    <message>
        <source>The core attention: scores, softmax, dropout and the weighted values</source>
        <translation>注意力核心部分：分数、softmax、dropout 和对值的加权</translation>
    </message>
    <message>
        <source>The dense MLP (dense layers)</source>
        <translation>稠密 MLP（稠密层中）</translation>
    </message>
    <message>
        <source>The whole MoE layer: router, dispatch, experts and combine</source>
        <translation>整个 MoE 层：路由、分发、专家和合并</translation>
    </message>
    <message>
        <source>The activation function inside the experts</source>
        <translation>专家内部的激活函数</translation>
    </message>
    <message>
        <source>The input and pre-MLP norms</source>
        <translation>输入归一化和 MLP 前的归一化</translation>
    </message>
    <message>
        <source>MLA&apos;s up projections and the rotary embedding applied to them</source>
        <translation>MLA 的上投影以及施加其上的旋转位置编码</translation>
    </message>
    <message>
        <source>The shared experts</source>
        <translation>共享专家</translation>
    </message>
    <message>
        <source>Recomputed modules</source>
        <translation>重计算的模块</translation>
    </message>
    <message>
        <source>With selective recompute: the modules re-run in the backward instead of keeping their activations; with none ticked, core_attn (Megatron-Core --recompute-modules)</source>
        <translation>选择性重计算时：在反向中重新运行、而不保留其激活的模块；都不勾选时为 core_attn（Megatron-Core --recompute-modules）</translation>
    </message>
    <message>
        <source>Optimizer share on the CPU</source>
        <translation>优化器在 CPU 上的比例</translation>
    </message>
    <message>
        <source>Share of the optimizer state (master weights and moments) kept and stepped on the CPU, 0 to 1 (Megatron-Core --optimizer-cpu-offload with --optimizer-offload-fraction)</source>
        <translation>保存在 CPU 上并在 CPU 上更新的优化器状态（主权重和动量）所占比例，0 到 1（Megatron-Core --optimizer-cpu-offload 配合 --optimizer-offload-fraction）</translation>
    </message>
    <message>
        <source>Layers with offloaded activations</source>
        <translation>激活卸载的层数</translation>
    </message>
    <message>
        <source>Layers per chunk whose saved activations wait in host memory until the backward (Transformer Engine activation offloading, Megatron-Core --cpu-offloading-num-layers)</source>
        <translation>每个模型块中，保存的激活在主机内存中等待反向的层数（Transformer Engine 激活卸载，Megatron-Core --cpu-offloading-num-layers）</translation>
    </message>
    <message>
        <source>PCIe, bytes/s per direction</source>
        <translation>PCIe，每方向字节/秒</translation>
    </message>
    <message>
        <source>Between a GPU and the host, per direction; 0 = the GPU&apos;s PCIe generation (x16: 63 GB/s on PCIe 5.0, 31.5 GB/s on 4.0). Type 5e10</source>
        <translation>GPU 与主机之间每方向的带宽；0 = 按 GPU 的 PCIe 代次（x16：PCIe 5.0 为 63 GB/s，4.0 为 31.5 GB/s）。可输入 5e10</translation>
    </message>
    <message>
        <source>Host memory, bytes/s per GPU</source>
        <translation>主机内存，每 GPU 字节/秒</translation>
    </message>
    <message>
        <source>Host memory bandwidth one GPU&apos;s offloaded optimizer step gets; 0 = 76.8 GB/s (8 channels of DDR5-4800 shared by 4 GPUs). Type 1e11</source>
        <translation>一个 GPU 卸载的优化器更新所获得的主机内存带宽；0 = 76.8 GB/s（8 通道 DDR5-4800 由 4 个 GPU 共享）。可输入 1e11</translation>
    </message>
    <message>
        <source>set by MLA</source>
        <translation>由 MLA 决定</translation>
    </message>
    <message>
        <source>= hidden / heads (%1)</source>
        <translation>= hidden / heads (%1)</translation>
    </message>
    <message>
        <source>= tp (%1)</source>
        <translation>= tp (%1)</translation>
    </message>
    <message>
        <source>off (no MLA)</source>
        <translation>关（无 MLA）</translation>
    </message>
    <message>
        <source>none: queries from h</source>
        <translation>无：查询直接来自 h</translation>
    </message>
    <message>
        <source>dropless</source>
        <translation>不丢弃 (dropless)</translation>
    </message>
    <message>
        <source>every layer</source>
        <translation>每一层</translation>
    </message>
    <message>
        <source>none</source>
        <translation>无</translation>
    </message>
    <message>
        <source>default</source>
        <translation>默认</translation>
    </message>
    <message>
        <source>Layers per rank (E embedding, L loss, | between chunks): %1</source>
        <translation>各 rank 的层（E 嵌入层，L 损失，| 分隔 chunk）：%1</translation>
    </message>
    <message>
        <source>Host (kernel issue)</source>
        <translation>主机（发出 kernel）</translation>
    </message>
    <message>
        <source>Sync-free dispatch</source>
        <translation>免同步分发</translation>
    </message>
    <message>
        <source>The dispatcher keeps each expert&apos;s token count on the device; off, a dropless dispatcher copies the counts to the host every MoE layer forward (a host sync). Capacity routing never syncs (Megatron-Core HybridEP with --moe-expert-rank-capacity-factor)</source>
        <translation>分发器把每个专家的 token 计数留在设备上；关闭时，不丢弃 token 的分发器在每个 MoE 层的前向中都把计数拷贝到主机（一次主机同步）。按容量路由从不同步（Megatron-Core HybridEP 配合 --moe-expert-rank-capacity-factor）</translation>
    </message>
    <message>
        <source>Expert load imbalance</source>
        <translation>专家负载不均衡度</translation>
    </message>
    <message>
        <source>Tokens the busiest expert-parallel rank&apos;s experts take, as a multiple of the balanced share; at least 1. 1 = balanced, as the published Megatron-Core benchmarks force the routing</source>
        <translation>最忙的专家并行秩上的专家接收的 token 数，以均衡份额的倍数表示；至少为 1。1 = 均衡，与公开的 Megatron-Core 基准测试强制均衡路由的做法一致</translation>
    </message>
    <message>
        <source>Overlap expert-parallel all-to-alls</source>
        <translation>专家并行 all-to-all 与计算重叠</translation>
    </message>
    <message>
        <source>The expert-parallel all-to-alls of one microbatch run beside another microbatch&apos;s compute (the forward of one and the backward of the next merged, as DualPipe does). Needs an MoE model with ep &gt; 1, and the interleaved schedule when pp &gt; 1 (Megatron-Core --overlap-moe-expert-parallel-comm)</source>
        <translation>一个微批次的专家并行 all-to-all 与另一个微批次的计算同时进行（像 DualPipe 那样把一个微批次的前向与下一个的反向合并）。需要 ep &gt; 1 的 MoE 模型，pp &gt; 1 时还需要交错调度（Megatron-Core --overlap-moe-expert-parallel-comm）</translation>
    </message>
    <message>
        <source>CUDA graphs</source>
        <translation>CUDA graph</translation>
    </message>
    <message>
        <source>none: the CPU issues every kernel; per-layer: each layer&apos;s forward and backward is one graph (with a dropless MoE dispatcher that syncs with the host, only the part before the sync); full-iteration: the whole step is one graph and needs a step without host syncs (Megatron-Core --cuda-graph-impl, --cuda-graph-scope)</source>
        <translation>none：每个 kernel 都由 CPU 发出；per-layer：每层的前向和反向各为一个 graph（若不丢弃 token 的 MoE 分发器要与主机同步，则只含同步之前的部分）；full-iteration：整步为一个 graph，要求一步中没有主机同步（Megatron-Core --cuda-graph-impl、--cuda-graph-scope）</translation>
    </message>
    <message>
        <source>CPU time per kernel, µs</source>
        <translation>每个 kernel 的 CPU 时间，µs</translation>
    </message>
    <message>
        <source>CPU time to issue one kernel eagerly (framework dispatch and the launch); 0 = 41 µs, read from real PyTorch-profiler traces (docs/HARDWARE.md, &quot;Host&quot;)</source>
        <translation>以 eager 方式发出一个 kernel 的 CPU 时间（框架分派加上启动）；0 = 41 µs，取自真实的 PyTorch Profiler 跟踪（docs/HARDWARE.md，“Host”一节）</translation>
    </message>
    <message>
        <source>Host sync, µs</source>
        <translation>主机同步，µs</translation>
    </message>
    <message>
        <source>CPU time of a device-to-host copy and its wait, beyond the GPU&apos;s drain; 0 = one kernel&apos;s issue. Only a dropless MoE dispatcher without sync-free dispatch syncs</source>
        <translation>一次设备到主机的拷贝及其等待所用的 CPU 时间，不含 GPU 排空的时间；0 = 发出一个 kernel 的时间。只有未启用免同步分发的不丢弃 token 的 MoE 分发器会同步</translation>
    </message>
    <message>
        <source>CUDA graph launch, µs</source>
        <translation>CUDA graph 启动，µs</translation>
    </message>
    <message>
        <source>CPU time to launch one CUDA graph; 0 = one kernel&apos;s issue</source>
        <translation>启动一个 CUDA graph 的 CPU 时间；0 = 发出一个 kernel 的时间</translation>
    </message>
    <message>
        <source>Launch queue (kernels)</source>
        <translation>启动队列（kernel 数）</translation>
    </message>
    <message>
        <source>Kernels the CPU issues ahead of the GPU before it blocks; 0 = 1,000 (about what a CUDA stream holds)</source>
        <translation>CPU 在阻塞之前可领先 GPU 发出的 kernel 数；0 = 1,000（约为一个 CUDA stream 能容纳的数量）</translation>
    </message>
    <message>
        <source>= one kernel&apos;s issue (%1 µs)</source>
        <translation>= 发出一个 kernel 的时间（%1 µs）</translation>
    </message>
    <message>
        <source>default (%1 µs)</source>
        <translation>默认（%1 µs）</translation>
    </message>
    <message>
        <source>default (%1)</source>
        <translation>默认（%1）</translation>
    </message>
</context>
<context>
    <name>planscope::PlannerPage</name>
    <message>
        <source>GPU counts: &quot;%1&quot; is not a number of GPUs</source>
        <translation>GPU 数：&quot;%1&quot; 不是 GPU 数量</translation>
    </message>
    <message>
        <source>Open a plan to search its space.</source>
        <translation>打开一个方案以搜索其空间。</translation>
    </message>
    <message>
        <source>Cannot search: %1</source>
        <translation>无法搜索：%1</translation>
    </message>
    <message>
        <source>Searching %1 plans on one thread…</source>
        <translation>正在用 1 个线程搜索 %1 个方案…</translation>
    </message>
    <message>
        <source>Searching %1 plans on %2 threads…</source>
        <translation>正在用 %2 个线程搜索 %1 个方案…</translation>
    </message>
    <message>
        <source>Tick the knobs to vary and press Search: every plan of the open plan&apos;s space is evaluated, and the best are listed.</source>
        <translation>勾选要变化的参数并按“搜索”：将评估当前方案空间中的每个方案，并列出最佳方案。</translation>
    </message>
    <message>
        <source>%1 plans, %2 valid, %3 fit with the memory headroom; %4 s on one thread.</source>
        <translation>%1 个方案，%2 个有效，%3 个在保留显存余量后可放入；用 1 个线程耗时 %4 秒。</translation>
    </message>
    <message>
        <source>%1 plans, %2 valid, %3 fit with the memory headroom; %4 s on %5 threads.</source>
        <translation>%1 个方案，%2 个有效，%3 个在保留显存余量后可放入；用 %5 个线程耗时 %4 秒。</translation>
    </message>
    <message>
        <source>Cancelled: the figures count the plans searched before the cancel.</source>
        <translation>已取消：数字只统计取消前搜索过的方案。</translation>
    </message>
    <message>
        <source>Your plan ranks %1 of %2 fitting plans.</source>
        <translation>你的方案在 %2 个可放入显存的方案中排第 %1。</translation>
    </message>
    <message>
        <source>The plan has changed since this search: search again to rank it.</source>
        <translation>方案在这次搜索后已更改：请重新搜索以为其排名。</translation>
    </message>
    <message>
        <source>Your plan is not on the chart: it does not fit (%1).</source>
        <translation>你的方案不在图中：它放不下（%1）。</translation>
    </message>
    <message>
        <source>Your plan is not on the chart: it is invalid (%1).</source>
        <translation>你的方案不在图中：它无效（%1）。</translation>
    </message>
    <message>
        <source>Why not mine? Your plan against the selected plan</source>
        <translation>为什么不是我的？你的方案与选中方案对比</translation>
    </message>
    <message>
        <source>Why not mine? Your plan against the best plan</source>
        <translation>为什么不是我的？你的方案与最佳方案对比</translation>
    </message>
    <message>
        <source>Term</source>
        <translation>项</translation>
    </message>
    <message>
        <source>Your plan</source>
        <translation>你的方案</translation>
    </message>
    <message>
        <source>Selected</source>
        <translation>选中</translation>
    </message>
    <message>
        <source>Best</source>
        <translation>最佳</translation>
    </message>
    <message>
        <source>Difference</source>
        <translation>差值</translation>
    </message>
    <message>
        <source>Your plan is invalid: there are no terms to compare.</source>
        <translation>你的方案无效：没有可比较的项。</translation>
    </message>
    <message>
        <source>Selected: %1 — step %2, peak %3</source>
        <translation>选中：%1 — 单步 %2，峰值 %3</translation>
    </message>
    <message>
        <source>Vary</source>
        <translation>变化</translation>
    </message>
    <message>
        <source>GPU counts:</source>
        <translation>GPU 数：</translation>
    </message>
    <message>
        <source>the plan&apos;s</source>
        <translation>方案自身的</translation>
    </message>
    <message>
        <source>GPU counts to search, e.g. 64, 128, 256; empty: the plan&apos;s cluster</source>
        <translation>要搜索的 GPU 数，例如 64, 128, 256；留空：使用方案的集群</translation>
    </message>
    <message>
        <source>Objective:</source>
        <translation>目标：</translation>
    </message>
    <message>
        <source>step time</source>
        <translation>单步时间</translation>
    </message>
    <message>
        <source>cost (GPU-hours per token)</source>
        <translation>成本（每 token 的 GPU 小时）</translation>
    </message>
    <message>
        <source>peak memory</source>
        <translation>峰值显存</translation>
    </message>
    <message>
        <source>Top:</source>
        <translation>前：</translation>
    </message>
    <message>
        <source>How many of the best plans to list</source>
        <translation>列出多少个最佳方案</translation>
    </message>
    <message>
        <source>Search</source>
        <translation>搜索</translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>取消</translation>
    </message>
    <message>
        <source>Colour by:</source>
        <translation>着色依据：</translation>
    </message>
    <message>
        <source>Open this plan</source>
        <translation>打开此方案</translation>
    </message>
    <message>
        <source>Make the selected plan (the best without a selection) the open plan; Undo brings yours back</source>
        <translation>把选中的方案（未选中时为最佳方案）设为当前方案；撤销可恢复你的方案</translation>
    </message>
    <message>
        <source>Plans turned away, by reason</source>
        <translation>被排除的方案（按原因）</translation>
    </message>
    <message>
        <source>Best plans by step time</source>
        <translation>按单步时间排列的最佳方案</translation>
    </message>
    <message>
        <source>Best plans by cost (GPU-hours per token)</source>
        <translation>按成本（每 token 的 GPU 小时）排列的最佳方案</translation>
    </message>
    <message>
        <source>Best plans by peak memory</source>
        <translation>按峰值显存排列的最佳方案</translation>
    </message>
    <message>
        <source>#</source>
        <translation>#</translation>
    </message>
    <message>
        <source>GPUs</source>
        <translation>GPU 数</translation>
    </message>
    <message>
        <source>ZeRO</source>
        <translation>ZeRO</translation>
    </message>
    <message>
        <source>microbatch</source>
        <translation>微批次</translation>
    </message>
    <message>
        <source>recompute</source>
        <translation>重计算</translation>
    </message>
    <message>
        <source>schedule</source>
        <translation>调度</translation>
    </message>
    <message>
        <source>overlap</source>
        <translation>重叠</translation>
    </message>
    <message>
        <source>offload</source>
        <translation>卸载</translation>
    </message>
    <message>
        <source>tokens/s</source>
        <translation>token/秒</translation>
    </message>
    <message>
        <source>MFU</source>
        <translation>MFU</translation>
    </message>
    <message>
        <source>Reason</source>
        <translation>原因</translation>
    </message>
    <message>
        <source>Plans</source>
        <translation>方案数</translation>
    </message>
    <message>
        <source>Planner</source>
        <translation>规划器</translation>
    </message>
    <message>
        <source>GPU counts: set them in the line beside</source>
        <translation>GPU 数：在旁边的输入框中设置</translation>
    </message>
    <message>
        <source>Tensor parallelism: the divisors of the GPU count up to the attention heads</source>
        <translation>张量并行：GPU 数的因数，不超过注意力头数</translation>
    </message>
    <message>
        <source>Context parallelism: the divisors of the GPU count that divide the sequence</source>
        <translation>上下文并行：GPU 数的因数，且能整除序列长度</translation>
    </message>
    <message>
        <source>Expert parallelism (MoE models): the divisors of the GPU count up to the experts</source>
        <translation>专家并行（MoE 模型）：GPU 数的因数，不超过专家数</translation>
    </message>
    <message>
        <source>Sequence parallelism: off and on</source>
        <translation>序列并行：关和开</translation>
    </message>
    <message>
        <source>Microbatch size: the divisors of the global batch up to 64</source>
        <translation>微批次大小：全局批大小的因数，不超过 64</translation>
    </message>
    <message>
        <source>Activation recomputation: none, selective (two module sets) and full</source>
        <translation>激活重计算：无、选择性（两组模块）和完全</translation>
    </message>
    <message>
        <source>Communication overlap: every combination of gradient-reduce, TP-comm and P2P overlap</source>
        <translation>通信重叠：梯度归约、TP 通信和 P2P 重叠的所有组合</translation>
    </message>
    <message>
        <source>Pipeline schedule: gpipe, 1f1b, interleaved-1f1b, zb-h1, zb-h2, zb-v, dualpipe, dualpipe-v</source>
        <translation>流水线调度：gpipe、1f1b、interleaved-1f1b、zb-h1、zb-h2、zb-v、dualpipe、dualpipe-v</translation>
    </message>
    <message>
        <source>Pipeline parallelism: the divisors of the GPU count up to the layers</source>
        <translation>流水线并行：GPU 数的因数，不超过层数</translation>
    </message>
    <message>
        <source>Data parallelism: what is left of the GPUs (GPUs / (tp × pp × cp))</source>
        <translation>数据并行：剩余的 GPU（GPU 数 / (tp × pp × cp)）</translation>
    </message>
    <message>
        <source>Virtual pipeline stages per rank: the divisors of the layers</source>
        <translation>每个 rank 的虚拟流水线阶段数：层数的因数</translation>
    </message>
    <message>
        <source>ZeRO stage: 0, 1, 2 and 3</source>
        <translation>ZeRO 阶段：0、1、2 和 3</translation>
    </message>
    <message>
        <source>Optimizer offload to the host: 0, 50 % and 100 % of the optimizer state</source>
        <translation>优化器卸载到主机：优化器状态的 0、50 % 和 100 %</translation>
    </message>
    <message>
        <source>Open the planner&apos;s plan: %1</source>
        <translation>打开规划器的方案：%1</translation>
    </message>
    <message>
        <source>%1 tokens: set a deadline to find the fewest GPUs that finish in time.</source>
        <translation>%1 个 token：设定期限，即可找出按时训完所需的最少 GPU 数。</translation>
    </message>
    <message>
        <source>%1 tokens in %2 days: %3 GPUs (%4 days).</source>
        <translation>%2 天内训完 %1 个 token：%3 块 GPU（%4 天）。</translation>
    </message>
    <message>
        <source>%1 tokens: no searched GPU count finishes in %2 days.</source>
        <translation>%1 个 token：所搜索的 GPU 数都无法在 %2 天内训完。</translation>
    </message>
    <message>
        <source>No searched GPU count has a plan that fits.</source>
        <translation>所搜索的 GPU 数都没有可放入显存的方案。</translation>
    </message>
    <message>
        <source>Smallest cluster that fits: %1 GPUs.</source>
        <translation>可放入显存的最小集群：%1 块 GPU。</translation>
    </message>
    <message>
        <source>Fewest GPU-hours: %1 GPUs.</source>
        <translation>GPU 时最少：%1 块 GPU。</translation>
    </message>
    <message>
        <source>Press Search to try the plan&apos;s GPU count from a quarter to sixteen times.</source>
        <translation>按“搜索”可尝试方案 GPU 数的四分之一到十六倍。</translation>
    </message>
    <message>
        <source>nothing fits</source>
        <translation>均放不下</translation>
    </message>
    <message>
        <source>The fewest GPUs that finish within the deadline</source>
        <translation>在期限内训完所需的最少 GPU 数</translation>
    </message>
    <message>
        <source>the plan&apos;s ×¼ … ×16</source>
        <translation>方案的 ×¼ … ×16</translation>
    </message>
    <message>
        <source>GPU counts to search, e.g. 64, 128, 256; empty: with a deadline, the plan&apos;s count from a quarter to sixteen times, in whole nodes (%1)</source>
        <translation>要搜索的 GPU 数，如 64, 128, 256；留空：设有期限时，取方案 GPU 数的四分之一到十六倍，按整节点计（%1）</translation>
    </message>
    <message>
        <source>Tokens:</source>
        <translation>Token 数：</translation>
    </message>
    <message>
        <source>Tokens to train, for the cluster size (e.g. 3e11); the plan&apos;s training tokens unless typed</source>
        <translation>用于估算集群规模的训练 token 数（如 3e11）；未输入时取方案的训练 token 数</translation>
    </message>
    <message>
        <source>Deadline (days):</source>
        <translation>期限（天）：</translation>
    </message>
    <message>
        <source>none</source>
        <translation>无</translation>
    </message>
    <message>
        <source>Days the training may take: the cluster-size table names the fewest GPUs that finish in time. With no GPU counts typed, the search covers the plan&apos;s count from a quarter to sixteen times. None: no deadline</source>
        <translation>训练允许的天数：集群规模表给出按时训完所需的最少 GPU 数。未输入 GPU 数时，搜索方案 GPU 数的四分之一到十六倍。无：不设期限</translation>
    </message>
    <message>
        <source>Cluster size: the fastest plan per GPU count</source>
        <translation>集群规模：各 GPU 数下最快的方案</translation>
    </message>
    <message>
        <source>fit</source>
        <translation>可放入</translation>
    </message>
    <message>
        <source>fastest plan</source>
        <translation>最快方案</translation>
    </message>
    <message>
        <source>days</source>
        <translation>天数</translation>
    </message>
    <message>
        <source>GPU-hours</source>
        <translation>GPU 时</translation>
    </message>
    <message>
        <source>Plans of this GPU count that fit with the memory headroom</source>
        <translation>该 GPU 数下保留显存余量后可放入的方案数</translation>
    </message>
    <message>
        <source>Days to train the tokens with the fastest plan</source>
        <translation>用最快方案训完这些 token 所需的天数</translation>
    </message>
    <message>
        <source>GPUs × hours to train the tokens with the fastest plan</source>
        <translation>用最快方案训完这些 token 所需的 GPU 数 × 小时数</translation>
    </message>
    <message>
        <source>Planner: %1</source>
        <translation>规划器：%1</translation>
    </message>
    <message>
        <source>Compare with current</source>
        <translation>与当前方案比较</translation>
    </message>
    <message>
        <source>Show the selected plan (the best without a selection) beside the open plan on the Compare page</source>
        <translation>在比较页上将所选方案（未选择时为最佳方案）与当前方案并列显示</translation>
    </message>
    <message>
        <source>memory</source>
        <translation>显存</translation>
    </message>
    <message>
        <source>beyond: %1</source>
        <translation>超出：%1</translation>
    </message>
    <message>
        <source>, </source>
        <translation>、</translation>
    </message>
    <message>
        <source>within</source>
        <translation>在范围内</translation>
    </message>
    <message>
        <source>MFU not checked</source>
        <translation>MFU 未核对</translation>
    </message>
    <message>
        <source>Held to %1.</source>
        <translation>对照：%1。</translation>
    </message>
    <message numerus="yes">
        <source>%n of the listed plans lie beyond published evidence (marked): predictions no run confirms.</source>
        <translation>
            <numerusform>所列方案中有 %n 个超出已发表证据（已标出）：只是预测，没有运行证实。</numerusform>
        </translation>
    </message>
    <message>
        <source>MFU is held to %1, the best published on this GPU and precision at 100B parameters or more.</source>
        <translation>MFU 以 %1 为上限对照：此 GPU 与精度下 1000 亿参数及以上已发表的最高值。</translation>
    </message>
    <message>
        <source>MFU is held to %1, the best published on this GPU and precision.</source>
        <translation>MFU 以 %1 为上限对照：此 GPU 与精度下已发表的最高值。</translation>
    </message>
    <message>
        <source>No published run on this GPU and precision to hold the MFU to.</source>
        <translation>此 GPU 与精度下没有可对照 MFU 的已发表运行。</translation>
    </message>
    <message>
        <source>evidence</source>
        <translation>证据</translation>
    </message>
    <message>
        <source>Where a plan lies beyond what published runs reached: its MFU above the best published on this GPU and precision (samples/published/mfu-ceilings.json), or its peak within %1 % of the GPU&apos;s memory (the memory model&apos;s largest measured shortfall, docs/MEMORY-ACCURACY.md). Such a plan is a prediction no run confirms.</source>
        <translation>方案超出已发表运行所达到的范围之处：MFU 高于此 GPU 与精度下已发表的最高值（samples/published/mfu-ceilings.json），或峰值距 GPU 显存不足 %1 %（显存模型实测的最大低估，docs/MEMORY-ACCURACY.md）。这样的方案只是预测，没有运行证实。</translation>
    </message>
    <message>
        <source>Best plans</source>
        <translation>最佳方案</translation>
    </message>
</context>
<context>
    <name>planscope::PlannerScatter</name>
    <message>
        <source>planner&apos;s fit: %1 % left free</source>
        <translation>规划器的容纳线：留出 %1 % 空闲</translation>
    </message>
    <message>
        <source>on</source>
        <translation>开</translation>
    </message>
    <message>
        <source>off</source>
        <translation>关</translation>
    </message>
    <message>
        <source>none</source>
        <translation>无</translation>
    </message>
    <message>
        <source>Step time (s)</source>
        <translation>单步时间（秒）</translation>
    </message>
    <message>
        <source>Peak memory per GPU (GiB)</source>
        <translation>每块 GPU 的峰值显存（GiB）</translation>
    </message>
    <message>
        <source>selected plan</source>
        <translation>选中的方案</translation>
    </message>
    <message>
        <source>Pareto front (%1 plans)</source>
        <translation>帕累托前沿（%1 个方案）</translation>
    </message>
    <message>
        <source>best plan</source>
        <translation>最佳方案</translation>
    </message>
    <message>
        <source>your plan</source>
        <translation>你的方案</translation>
    </message>
    <message>
        <source>GPU memory (%1 GiB)</source>
        <translation>GPU 显存（%1 GiB）</translation>
    </message>
    <message>
        <source>Step time (s, logarithmic)</source>
        <translation>单步时间（秒，对数坐标）</translation>
    </message>
    <message numerus="yes">
        <source>%n GPUs</source>
        <translation>
            <numerusform>%n 个 GPU</numerusform>
        </translation>
    </message>
    <message>
        <source>beyond published runs: MFU &gt; %1 %</source>
        <translation>超出已发表运行：MFU &gt; %1 %</translation>
    </message>
    <message>
        <source>beyond published runs: &lt; %1 % free</source>
        <translation>超出已发表运行：空闲 &lt; %1 %</translation>
    </message>
</context>
<context>
    <name>planscope::PlaybackBar</name>
    <message>
        <source>Back to the start of the step</source>
        <translation>回到单步开始处</translation>
    </message>
    <message>
        <source>Previous event (the start or end of an op on any lane)</source>
        <translation>上一个事件（任一泳道上某个操作的开始或结束）</translation>
    </message>
    <message>
        <source>Next event (the start or end of an op on any lane)</source>
        <translation>下一个事件（任一泳道上某个操作的开始或结束）</translation>
    </message>
    <message>
        <source>Play or pause the step</source>
        <translation>播放或暂停该步</translation>
    </message>
    <message>
        <source>Drag to move the playhead through the step</source>
        <translation>拖动以在单步中移动播放头</translation>
    </message>
    <message>
        <source>Speed</source>
        <translation>速度</translation>
    </message>
    <message>
        <source>1x plays the whole step in 10 s</source>
        <translation>1x 速度下用 10 秒播放完整个单步</translation>
    </message>
    <message>
        <source>%1x</source>
        <translation>%1x</translation>
    </message>
    <message>
        <source>%1 / %2 ms</source>
        <translation>%1 / %2 ms</translation>
    </message>
    <message>
        <source>%1 / %2 s</source>
        <translation>%1 / %2 s</translation>
    </message>
    <message>
        <source>%1 / %2 h</source>
        <translation>%1 / %2 h</translation>
    </message>
</context>
<context>
    <name>planscope::PresentationMode</name>
    <message>
        <source>%1 / %2 · %3   (← → views, ↑ ↓ playhead, Space play, L laser, Esc leave)</source>
        <translation>%1 / %2 · %3   （← → 切换视图，↑ ↓ 移动播放头，空格 播放，L 激光笔，Esc 退出）</translation>
    </message>
</context>
<context>
    <name>planscope::ProfilePage</name>
    <message>
        <source>Profile</source>
        <translation>性能测量</translation>
    </message>
    <message>
        <source>Open Profile</source>
        <translation>打开测量结果</translation>
    </message>
    <message>
        <source>PlanScope profiles and nccl-tests output (*.profile.json *.json *.txt *.log);;All files (*)</source>
        <translation>PlanScope 测量结果与 nccl-tests 输出 (*.profile.json *.json *.txt *.log);;所有文件 (*)</translation>
    </message>
    <message>
        <source>planscope-profile could not be started: %1</source>
        <translation>无法启动 planscope-profile：%1</translation>
    </message>
    <message>
        <source>Profiling is unavailable: planscope-profile was not built, because CUDA and NCCL were not found when PlanScope was compiled. Open a profile or nccl-tests output instead.</source>
        <translation>无法进行性能测量：编译 PlanScope 时未找到 CUDA 和 NCCL，因此没有构建 planscope-profile。请改为打开测量结果或 nccl-tests 输出。</translation>
    </message>
    <message>
        <source>Profiling this machine…</source>
        <translation>正在测量本机…</translation>
    </message>
    <message>
        <source>Profiling cancelled.</source>
        <translation>已取消测量。</translation>
    </message>
    <message>
        <source>No GPU found on this machine.</source>
        <translation>本机上没有找到 GPU。</translation>
    </message>
    <message>
        <source>planscope-profile failed (exit code %1).</source>
        <translation>planscope-profile 运行失败（退出码 %1）。</translation>
    </message>
    <message>
        <source>%1: %2</source>
        <translation>%1：%2</translation>
    </message>
    <message>
        <source>Profiling is unavailable in this build (no CUDA/NCCL at compile time). Open a profile or nccl-tests output.</source>
        <translation>此构建无法进行性能测量（编译时没有 CUDA/NCCL）。请打开测量结果或 nccl-tests 输出。</translation>
    </message>
    <message>
        <source>Run a short profiling pass on this machine&apos;s GPUs, or open a profile or nccl-tests output.</source>
        <translation>在本机 GPU 上运行一次简短的性能测量，或打开测量结果或 nccl-tests 输出。</translation>
    </message>
    <message>
        <source>Profile of %1 (%2): %3 GPUs, %4 collective measurements, %5 GEMM shapes.</source>
        <translation>%1 的测量结果（%2）：%3 个 GPU，%4 条集合通信测量，%5 种 GEMM 形状。</translation>
    </message>
    <message>
        <source>Message size S (bytes)</source>
        <translation>消息大小 S（字节）</translation>
    </message>
    <message>
        <source>Bus bandwidth (GB/s, nccl-tests busBw)</source>
        <translation>总线带宽（GB/s，nccl-tests busBw）</translation>
    </message>
    <message>
        <source>fit: α %1 µs, busBw %2 GB/s</source>
        <translation>拟合：α %1 µs，busBw %2 GB/s</translation>
    </message>
    <message>
        <source>preset default</source>
        <translation>预设默认值</translation>
    </message>
    <message>
        <source>preset default: AllReduce on %1 GPUs in a node</source>
        <translation>预设默认值：单节点内 %1 个 GPU 的 AllReduce</translation>
    </message>
    <message>
        <source>preset default: AllReduce across %1 nodes, one GPU each</source>
        <translation>预设默认值：跨 %1 个节点（每节点 1 个 GPU）的 AllReduce</translation>
    </message>
    <message>
        <source>Preset value in use</source>
        <translation>当前使用的预设值</translation>
    </message>
    <message>
        <source>Value</source>
        <translation>数值</translation>
    </message>
    <message>
        <source>NVLink per GPU per direction</source>
        <translation>每个 GPU 每方向的 NVLink 带宽</translation>
    </message>
    <message>
        <source>%1 GB/s × efficiency %2</source>
        <translation>%1 GB/s × 效率 %2</translation>
    </message>
    <message>
        <source>NVLink latency per step</source>
        <translation>NVLink 每步延迟</translation>
    </message>
    <message>
        <source>%1 µs</source>
        <translation>%1 µs</translation>
    </message>
    <message>
        <source>Network per GPU per direction</source>
        <translation>每个 GPU 每方向的网络带宽</translation>
    </message>
    <message>
        <source>Network latency per step</source>
        <translation>网络每步延迟</translation>
    </message>
    <message>
        <source>GEMM efficiency (of the dense peak)</source>
        <translation>GEMM 效率（相对稠密峰值）</translation>
    </message>
    <message>
        <source>not measured (0.75 assumed)</source>
        <translation>未测量（假定为 0.75）</translation>
    </message>
    <message>
        <source>HBM bandwidth</source>
        <translation>HBM 带宽</translation>
    </message>
    <message>
        <source>%1 GB/s</source>
        <translation>%1 GB/s</translation>
    </message>
    <message>
        <source>m</source>
        <translation>m</translation>
    </message>
    <message>
        <source>n</source>
        <translation>n</translation>
    </message>
    <message>
        <source>k</source>
        <translation>k</translation>
    </message>
    <message>
        <source>dtype</source>
        <translation>数据类型</translation>
    </message>
    <message>
        <source>TFLOP/s</source>
        <translation>TFLOP/s</translation>
    </message>
    <message>
        <source>of dense peak</source>
        <translation>占稠密峰值</translation>
    </message>
    <message>
        <source>Quantity</source>
        <translation>指标</translation>
    </message>
    <message>
        <source>Preset defaults</source>
        <translation>预设默认值</translation>
    </message>
    <message>
        <source>Calibrated</source>
        <translation>校准后</translation>
    </message>
    <message>
        <source>Step time</source>
        <translation>单步时间</translation>
    </message>
    <message>
        <source>MFU</source>
        <translation>MFU</translation>
    </message>
    <message>
        <source>Exposed communication</source>
        <translation>暴露的通信</translation>
    </message>
    <message>
        <source>Training time</source>
        <translation>训练时长</translation>
    </message>
    <message>
        <source>%1 days</source>
        <translation>%1 天</translation>
    </message>
    <message>
        <source>Measure this machine: NCCL collectives, GEMM and HBM, fitted into the cost model</source>
        <translation>测量本机：NCCL 集合通信、GEMM 与 HBM，拟合进代价模型</translation>
    </message>
    <message>
        <source>Profile this machine…</source>
        <translation>测量本机…</translation>
    </message>
    <message>
        <source>Open profile…</source>
        <translation>打开测量结果…</translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>取消</translation>
    </message>
    <message>
        <source>Use this calibration</source>
        <translation>使用此校准</translation>
    </message>
    <message numerus="yes">
        <source>… and %n more warning(s).</source>
        <translation>
            <numerusform>……另有 %n 条警告。</numerusform>
        </translation>
    </message>
    <message>
        <source>%1, rank count unknown</source>
        <translation>%1，rank 数未知</translation>
    </message>
    <message>
        <source>%1 on %2 GPUs (%3 nodes)</source>
        <translation>%1，%2 个 GPU（%3 个节点）</translation>
    </message>
    <message>
        <source>%1 on %2 GPUs (one node)</source>
        <translation>%1，%2 个 GPU（单节点）</translation>
    </message>
    <message>
        <source>%1 on %2 GPUs (nodes unknown)</source>
        <translation>%1，%2 个 GPU（节点数未知）</translation>
    </message>
    <message>
        <source>%1: measured</source>
        <translation>%1：实测</translation>
    </message>
    <message>
        <source>in-place</source>
        <translation>原地（in-place）</translation>
    </message>
    <message>
        <source>Measured on %1, applied anyway to this plan&apos;s %2: its numbers may not describe this GPU.</source>
        <translation>在 %1 上测得，仍用于本方案的 %2：这些数值可能并不反映这块 GPU。</translation>
    </message>
    <message>
        <source>Measured on %1, not this plan&apos;s %2: not applied (tick &quot;Apply to another GPU&quot; to use it anyway).</source>
        <translation>在 %1 上测得，不是本方案的 %2：未采用（勾选“用于其他 GPU”可强制使用）。</translation>
    </message>
    <message>
        <source>Apply to another GPU</source>
        <translation>用于其他 GPU</translation>
    </message>
</context>
<context>
    <name>planscope::RankHeatMap</name>
    <message>
        <source>below median</source>
        <translation>低于中位数</translation>
    </message>
    <message>
        <source>above median</source>
        <translation>高于中位数</translation>
    </message>
    <message>
        <source>Step</source>
        <translation>单步</translation>
    </message>
    <message>
        <source>Compute</source>
        <translation>计算</translation>
    </message>
    <message>
        <source>Exposed comm.</source>
        <translation>暴露的通信</translation>
    </message>
    <message>
        <source>Idle</source>
        <translation>空闲</translation>
    </message>
    <message>
        <source>Wait</source>
        <translation>等待</translation>
    </message>
    <message>
        <source>Straggler lag</source>
        <translation>掉队延迟</translation>
    </message>
    <message>
        <source>Peak memory</source>
        <translation>显存峰值</translation>
    </message>
    <message>
        <source>%1 GiB</source>
        <translation>%1 GiB</translation>
    </message>
    <message>
        <source>%1 ms</source>
        <translation>%1 ms</translation>
    </message>
    <message>
        <source>No run summary open</source>
        <translation>未打开运行汇总</translation>
    </message>
    <message>
        <source>Rank %1 (node %2)
%3: %4, median %5</source>
        <translation>Rank %1（节点 %2）
%3：%4，中位数 %5</translation>
    </message>
    <message>
        <source>Rank %1 (node %2): not in the run</source>
        <translation>Rank %1（节点 %2）：不在本次运行中</translation>
    </message>
    <message>
        <source>median, ms</source>
        <translation>中位数，ms</translation>
    </message>
    <message>
        <source>%1; a row per node of %2 GPUs</source>
        <translation>%1；每行一个 %2 卡节点</translation>
    </message>
</context>
<context>
    <name>planscope::RealityCheckBox</name>
    <message>
        <source>no verdict</source>
        <translation>无结论</translation>
    </message>
    <message>
        <source>The plan is invalid; fix its errors to check a claim.</source>
        <translation>该方案无效；请先修复其中的错误再核查宣称结果。</translation>
    </message>
    <message>
        <source>Open a plan to check a claim.</source>
        <translation>请先打开一个方案再核查宣称结果。</translation>
    </message>
    <message>
        <source>Enter the claimed days, tokens and MFU to check the claim.</source>
        <translation>请输入宣称的天数、token 数和 MFU 以核查该宣称结果。</translation>
    </message>
    <message>
        <source>possible</source>
        <translation>可行</translation>
    </message>
    <message>
        <source>short by %1x</source>
        <translation>差 %1 倍</translation>
    </message>
    <message>
        <source>required %1 FLOP, available %2 FLOP, ratio %3</source>
        <translation>所需 %1 FLOP，可用 %2 FLOP，比值 %3</translation>
    </message>
    <message>
        <source>&amp;Days claimed</source>
        <translation>宣称天数(&amp;D)</translation>
    </message>
    <message>
        <source>&amp;Tokens</source>
        <translation>Token 数(&amp;T)</translation>
    </message>
    <message>
        <source>&amp;MFU (0 to 1)</source>
        <translation>MFU（0 到 1）(&amp;M)</translation>
    </message>
    <message>
        <source>none</source>
        <translation>无</translation>
    </message>
    <message>
        <source>Wall-clock days the claim allows for training</source>
        <translation>宣称结果允许用于训练的实际天数（挂钟时间）</translation>
    </message>
    <message>
        <source>Tokens to train on; scientific notation works (1e12)</source>
        <translation>要训练的 token 数；支持科学计数法 (1e12)</translation>
    </message>
    <message>
        <source>Model FLOPs utilisation assumed: achieved model FLOP/s over the GPUs&apos; dense peak</source>
        <translation>假定的模型 FLOPs 利用率：实际达到的模型 FLOP/s 与 GPU 稠密峰值算力之比</translation>
    </message>
</context>
<context>
    <name>planscope::RunPage</name>
    <message>
        <source>%1 ms</source>
        <translation>%1 ms</translation>
    </message>
    <message>
        <source>intra-node</source>
        <translation>节点内</translation>
    </message>
    <message>
        <source>inter-node</source>
        <translation>跨节点</translation>
    </message>
    <message>
        <source>unknown</source>
        <translation>未知</translation>
    </message>
    <message>
        <source>Open Run Summary</source>
        <translation>打开运行汇总</translation>
    </message>
    <message>
        <source>Run summaries (*.planscope-run *.jsonl);;All files (*)</source>
        <translation>运行汇总 (*.planscope-run *.jsonl);;所有文件 (*)</translation>
    </message>
    <message>
        <source>Compare With Another Run</source>
        <translation>与另一次运行对比</translation>
    </message>
    <message>
        <source>Run Summary</source>
        <translation>运行汇总</translation>
    </message>
    <message>
        <source>Reading %1…</source>
        <translation>正在读取 %1…</translation>
    </message>
    <message numerus="yes">
        <source>%n picked trace(s) not reachable from here (the run was reduced on another machine): %1</source>
        <translation>
            <numerusform>有 %n 个所选 trace 在本机无法访问（该运行是在另一台机器上归约的）：%1</numerusform>
        </translation>
    </message>
    <message>
        <source>Open a run summary: planscope-reduce (under srun or mpirun) or planscope-cli reduce writes one from the traces of every rank.</source>
        <translation>请打开运行汇总：planscope-reduce（在 srun 或 mpirun 下运行）或 planscope-cli reduce 会根据每个 rank 的 trace 写出一份。</translation>
    </message>
    <message>
        <source>%1 could not be read: %2</source>
        <translation>无法读取 %1：%2</translation>
    </message>
    <message numerus="yes">
        <source>%1: %n rank(s) of world size %2 from %3 trace files (%4), %5 GPUs per node%6; %7 process groups.</source>
        <translation>
            <numerusform>%1：world size %2 中的 %n 个 rank，来自 %3 个 trace 文件（%4），每节点 %5 块 GPU%6；%7 个进程组。</numerusform>
        </translation>
    </message>
    <message>
        <source> (inferred from the CUDA devices)</source>
        <translation>（由 CUDA 设备号推断）</translation>
    </message>
    <message>
        <source>%1 files not read, %2 left out (Files tab).</source>
        <translation>%1 个文件未能读取，%2 个被排除（见“文件”标签页）。</translation>
    </message>
    <message>
        <source>Median rank: step %1, compute %2, exposed communication %3, idle %4.</source>
        <translation>中位 rank：单步 %1，计算 %2，暴露的通信 %3，空闲 %4。</translation>
    </message>
    <message>
        <source>compute %1 against a median %2 (a slower GPU or more work)</source>
        <translation>计算 %1，中位数 %2（GPU 较慢或工作量更多）</translation>
    </message>
    <message>
        <source>GPU idle %1 against a median %2 (its CPU launches late)</source>
        <translation>GPU 空闲 %1，中位数 %2（其 CPU 发射内核较晚）</translation>
    </message>
    <message>
        <source>exposed communication %1 against a median %2</source>
        <translation>暴露的通信 %1，中位数 %2</translation>
    </message>
    <message>
        <source>last to arrive at %1 of %2 collectives of %3</source>
        <translation>在 %3 的 %2 次集合通信中有 %1 次最后到达</translation>
    </message>
    <message>
        <source>no cause above 1% of the median step in its own trace</source>
        <translation>其自身 trace 中没有超过中位单步 1% 的原因</translation>
    </message>
    <message>
        <source>Rank</source>
        <translation>Rank</translation>
    </message>
    <message>
        <source>Node</source>
        <translation>节点</translation>
    </message>
    <message>
        <source>Straggler lag</source>
        <translation>掉队延迟</translation>
    </message>
    <message>
        <source>Step</source>
        <translation>单步</translation>
    </message>
    <message>
        <source>Why</source>
        <translation>原因</translation>
    </message>
    <message>
        <source>Group</source>
        <translation>进程组</translation>
    </message>
    <message>
        <source>Members</source>
        <translation>成员数</translation>
    </message>
    <message>
        <source>Scope</source>
        <translation>范围</translation>
    </message>
    <message>
        <source>Collectives</source>
        <translation>集合通信</translation>
    </message>
    <message>
        <source>Median kernel</source>
        <translation>内核时长中位数</translation>
    </message>
    <message>
        <source>Median spread</source>
        <translation>到达时差中位数</translation>
    </message>
    <message>
        <source>Last to arrive most</source>
        <translation>最常最后到达</translation>
    </message>
    <message>
        <source>Unmatched</source>
        <translation>未匹配</translation>
    </message>
    <message>
        <source>All-to-all in step</source>
        <translation>单步内第几次 all-to-all</translation>
    </message>
    <message>
        <source>Instances</source>
        <translation>次数</translation>
    </message>
    <message>
        <source>Max/mean bytes</source>
        <translation>最大/平均字节</translation>
    </message>
    <message>
        <source>Worst</source>
        <translation>最差</translation>
    </message>
    <message>
        <source>Heaviest rank</source>
        <translation>发送最多的 rank</translation>
    </message>
    <message>
        <source>not read</source>
        <translation>未能读取</translation>
    </message>
    <message>
        <source>left out</source>
        <translation>已排除</translation>
    </message>
    <message>
        <source>File</source>
        <translation>文件</translation>
    </message>
    <message>
        <source>What happened</source>
        <translation>情况</translation>
    </message>
    <message>
        <source>Reason</source>
        <translation>原因</translation>
    </message>
    <message>
        <source>Median rank</source>
        <translation>中位 rank</translation>
    </message>
    <message>
        <source>Collective</source>
        <translation>集合通信</translation>
    </message>
    <message>
        <source>Step of</source>
        <translation>单步时间</translation>
    </message>
    <message>
        <source>Only in this run: %1</source>
        <translation>仅本次运行有：%1</translation>
    </message>
    <message>
        <source>Only in %1: %2</source>
        <translation>仅 %1 有：%2</translation>
    </message>
    <message>
        <source>Biggest difference: %1</source>
        <translation>最大差异：%1</translation>
    </message>
    <message>
        <source>B</source>
        <translation>B</translation>
    </message>
    <message>
        <source>What</source>
        <translation>项目</translation>
    </message>
    <message>
        <source>A</source>
        <translation>A</translation>
    </message>
    <message>
        <source>Difference</source>
        <translation>差值</translation>
    </message>
    <message>
        <source>Measured run of many ranks</source>
        <translation>多 rank 的实测运行</translation>
    </message>
    <message>
        <source>Open Run Summary…</source>
        <translation>打开运行汇总…</translation>
    </message>
    <message>
        <source>Compare With Another Run…</source>
        <translation>与另一次运行对比…</translation>
    </message>
    <message>
        <source>Open Timelines of Picked Ranks</source>
        <translation>打开所选 rank 的时间线</translation>
    </message>
    <message>
        <source>Loads the full traces of the ranks picked in the heat map, the grid or the slowest-ranks table onto the Measured Run page</source>
        <translation>把在热力图、GPU 网格或最慢 rank 表中选中的 rank 的完整 trace 加载到“实测运行”页</translation>
    </message>
    <message>
        <source>Grid colour:</source>
        <translation>网格着色：</translation>
    </message>
    <message>
        <source>Slowest ranks</source>
        <translation>最慢的 rank</translation>
    </message>
    <message>
        <source>Process groups</source>
        <translation>进程组</translation>
    </message>
    <message>
        <source>All-to-all imbalance</source>
        <translation>All-to-all 不均衡</translation>
    </message>
    <message>
        <source>Files</source>
        <translation>文件</translation>
    </message>
    <message>
        <source>Comparison</source>
        <translation>对比</translation>
    </message>
</context>
<context>
    <name>planscope::SummaryPage</name>
    <message>
        <source>stage %1; fits, but with %2 free, less than the planner&apos;s headroom</source>
        <translation>阶段 %1；可容纳，但仅剩 %2 空闲，少于规划器的余量</translation>
    </message>
    <message>
        <source>Planner&apos;s fit (capacity less the headroom)</source>
        <translation>规划器的容纳线（容量减去余量）</translation>
    </message>
    <message>
        <source>memoryOverheads.headroom: the memory model&apos;s largest measured shortfall</source>
        <translation>memoryOverheads.headroom：显存模型实测的最大低估</translation>
    </message>
    <message>
        <source>simulated schedule; the closed form gives %1</source>
        <translation>按调度模拟得出；解析公式给出 %1</translation>
    </message>
    <message>
        <source>Metrics</source>
        <translation>指标</translation>
    </message>
    <message>
        <source>%1 bytes
= %2 GiB (2^30 bytes)
= %3 GB (10^9 bytes)</source>
        <translation>%1 字节
= %2 GiB（2^30 字节）
= %3 GB（10^9 字节）</translation>
    </message>
    <message>
        <source>%1 s</source>
        <translation>%1 秒</translation>
    </message>
    <message>
        <source>Tensor parallel (TP)</source>
        <translation>张量并行 (TP)</translation>
    </message>
    <message>
        <source>Pipeline parallel (PP)</source>
        <translation>流水线并行 (PP)</translation>
    </message>
    <message>
        <source>Data parallel (DP)</source>
        <translation>数据并行 (DP)</translation>
    </message>
    <message>
        <source>Context parallel (CP)</source>
        <translation>上下文并行 (CP)</translation>
    </message>
    <message>
        <source>Expert parallel (EP)</source>
        <translation>专家并行 (EP)</translation>
    </message>
    <message>
        <source>Quantity</source>
        <translation>指标</translation>
    </message>
    <message>
        <source>Value</source>
        <translation>数值</translation>
    </message>
    <message>
        <source>Note</source>
        <translation>说明</translation>
    </message>
    <message>
        <source>Warnings and errors</source>
        <translation>警告与错误</translation>
    </message>
    <message>
        <source>No plan loaded.</source>
        <translation>未加载方案。</translation>
    </message>
    <message>
        <source>(unnamed plan)</source>
        <translation>（未命名方案）</translation>
    </message>
    <message>
        <source>This plan cannot run; the reasons are listed below.</source>
        <translation>该方案无法运行，原因列在下方。</translation>
    </message>
    <message>
        <source>Schedule: %1, %2 microbatches of %3, global batch %4, %5, recompute %6</source>
        <translation>调度：%1，%2 个微批次（每个 %3），全局批次 %4，%5，重计算 %6</translation>
    </message>
    <message>
        <source>Why this plan cannot run</source>
        <translation>该方案无法运行的原因</translation>
    </message>
    <message>
        <source>byte %1</source>
        <translation>第 %1 字节</translation>
    </message>
    <message>
        <source>%1 (byte %2)</source>
        <translation>%1（第 %2 字节）</translation>
    </message>
    <message>
        <source>Parameters</source>
        <translation>参数</translation>
    </message>
    <message>
        <source>Total</source>
        <translation>合计</translation>
    </message>
    <message>
        <source>Active per token</source>
        <translation>每个 token 激活的参数</translation>
    </message>
    <message>
        <source>Stage %1</source>
        <translation>阶段 %1</translation>
    </message>
    <message>
        <source>Memory per GPU, by pipeline stage</source>
        <translation>每个 GPU 的显存（按流水线阶段）</translation>
    </message>
    <message>
        <source>GPU capacity</source>
        <translation>GPU 显存容量</translation>
    </message>
    <message>
        <source>%1 GB (%2)</source>
        <translation>%1 GB（%2）</translation>
    </message>
    <message>
        <source>Peak</source>
        <translation>峰值</translation>
    </message>
    <message>
        <source>stage %1; fits</source>
        <translation>阶段 %1；放得下</translation>
    </message>
    <message>
        <source>stage %1; over capacity by %2</source>
        <translation>阶段 %1；超出容量 %2</translation>
    </message>
    <message numerus="yes">
        <source>%n layer(s)</source>
        <translation>
            <numerusform>%n 层</numerusform>
        </translation>
    </message>
    <message>
        <source>embedding</source>
        <translation>嵌入层</translation>
    </message>
    <message>
        <source>output layer</source>
        <translation>输出层</translation>
    </message>
    <message>
        <source>over by %1</source>
        <translation>超出 %1</translation>
    </message>
    <message>
        <source>fits</source>
        <translation>放得下</translation>
    </message>
    <message>
        <source>Microbatches in flight</source>
        <translation>在途微批次</translation>
    </message>
    <message>
        <source>activations held at the peak, in microbatch-equivalents</source>
        <translation>峰值时保留的激活值，以微批次当量计</translation>
    </message>
    <message>
        <source>Activations of one layer, one microbatch</source>
        <translation>单层、单个微批次的激活值</translation>
    </message>
    <message>
        <source>FLOPs</source>
        <translation>浮点运算量 (FLOPs)</translation>
    </message>
    <message>
        <source>Model FLOPs per token</source>
        <translation>每 token 模型 FLOPs</translation>
    </message>
    <message>
        <source>Model FLOPs per step</source>
        <translation>每步模型 FLOPs</translation>
    </message>
    <message>
        <source>without recompute (for MFU)</source>
        <translation>不含重计算（用于 MFU）</translation>
    </message>
    <message>
        <source>Hardware FLOPs per step</source>
        <translation>每步硬件 FLOPs</translation>
    </message>
    <message>
        <source>with recompute (for HFU)</source>
        <translation>含重计算（用于 HFU）</translation>
    </message>
    <message>
        <source>Time</source>
        <translation>时间</translation>
    </message>
    <message>
        <source>Step time</source>
        <translation>单步时间</translation>
    </message>
    <message>
        <source>compute + bubble + exposed communication + optimizer</source>
        <translation>计算 + 气泡 + 暴露的通信 + 优化器</translation>
    </message>
    <message>
        <source>Compute</source>
        <translation>计算</translation>
    </message>
    <message>
        <source>Bubble fraction</source>
        <translation>气泡占比</translation>
    </message>
    <message>
        <source>Bubble overhead</source>
        <translation>气泡开销</translation>
    </message>
    <message>
        <source>Exposed communication</source>
        <translation>暴露的通信</translation>
    </message>
    <message>
        <source>Optimizer step</source>
        <translation>优化器更新</translation>
    </message>
    <message>
        <source>MFU</source>
        <translation>MFU</translation>
    </message>
    <message>
        <source>model FLOPs utilisation</source>
        <translation>模型 FLOPs 利用率</translation>
    </message>
    <message>
        <source>HFU</source>
        <translation>HFU</translation>
    </message>
    <message>
        <source>hardware FLOPs utilisation</source>
        <translation>硬件 FLOPs 利用率</translation>
    </message>
    <message>
        <source>Throughput</source>
        <translation>吞吐量</translation>
    </message>
    <message>
        <source>%1 tokens/s</source>
        <translation>%1 tokens/秒</translation>
    </message>
    <message>
        <source>Training time</source>
        <translation>训练时长</translation>
    </message>
    <message>
        <source>%1 days</source>
        <translation>%1 天</translation>
    </message>
    <message>
        <source>%1 tokens</source>
        <translation>%1 tokens</translation>
    </message>
    <message>
        <source>Communication per step</source>
        <translation>每步通信</translation>
    </message>
    <message>
        <source>inside one node</source>
        <translation>节点内</translation>
    </message>
    <message>
        <source>%1, group of %2</source>
        <translation>%1，组大小 %2</translation>
    </message>
    <message>
        <source>Sent per GPU</source>
        <translation>每个 GPU 发送量</translation>
    </message>
    <message>
        <source>%1 GB</source>
        <translation>%1 GB</translation>
    </message>
    <message>
        <source>Exposed (on the critical path)</source>
        <translation>暴露部分（位于关键路径上）</translation>
    </message>
    <message>
        <source>Error: %1: %2</source>
        <translation>错误：%1：%2</translation>
    </message>
    <message>
        <source>File: %1: %2</source>
        <translation>文件：%1：%2</translation>
    </message>
    <message>
        <source>Warning: %1</source>
        <translation>警告：%1</translation>
    </message>
    <message>
        <source>No warnings.</source>
        <translation>没有警告。</translation>
    </message>
    <message>
        <source>This plan cannot run, so nothing was computed.

%1</source>
        <translation>该方案无法运行，因此没有计算任何结果。

%1</translation>
    </message>
    <message>
        <source>Select a number to see how it was computed: the formula, the values put in, and where it comes from.</source>
        <translation>选择一个数值，查看它是如何算出的：公式、代入的数值以及出处。</translation>
    </message>
    <message>
        <source>Per pipeline stage</source>
        <translation>各流水线阶段</translation>
    </message>
    <message>
        <source>The model&apos;s parameters in each stage, all TP ranks of the stage together</source>
        <translation>每个阶段的模型参数（该阶段所有 TP 秩合计）</translation>
    </message>
    <message>
        <source>all TP ranks of a stage together</source>
        <translation>该阶段所有 TP 秩合计</translation>
    </message>
    <message>
        <source>%1, %2; %3</source>
        <translation>%1，%2；%3</translation>
    </message>
    <message>
        <source>Link bandwidth</source>
        <translation>链路带宽</translation>
    </message>
    <message>
        <source>%1 GB/s</source>
        <translation>%1 GB/s</translation>
    </message>
    <message>
        <source>%1 bytes/s per GPU per direction</source>
        <translation>每个 GPU 每方向 %1 字节/秒</translation>
    </message>
    <message>
        <source>per direction, the slowest link the group uses</source>
        <translation>单方向；该组所经过的最慢链路</translation>
    </message>
    <message>
        <source>Model: %1 (%2 parameters)</source>
        <translation>模型：%1（%2 参数）</translation>
    </message>
    <message>
        <source>Model: %1</source>
        <translation>模型：%1</translation>
    </message>
    <message>
        <source>GPUs: %1 × %2 (%3 nodes × %4)</source>
        <translation>GPU：%1 × %2（%3 个节点 × %4）</translation>
    </message>
    <message>
        <source>crosses nodes: %1 nodes, %2 of its GPUs per node</source>
        <translation>跨节点：%1 个节点，每节点 %2 个该组的 GPU</translation>
    </message>
    <message>
        <source>Expert data parallel (EDP)</source>
        <translation>专家数据并行 (EDP)</translation>
    </message>
    <message>
        <source>Operators of one transformer layer, one microbatch, one GPU, in execution order (then the output layer&apos;s, on the last stage); the Layer Anatomy page draws them</source>
        <translation>一个 Transformer 层在一个微批次、一个 GPU 上的算子，按执行顺序排列（随后是最后一个阶段上输出层的算子）；“层剖析”页将其绘出</translation>
    </message>
    <message>
        <source>Pass</source>
        <translation>阶段</translation>
    </message>
    <message>
        <source>Op</source>
        <translation>算子</translation>
    </message>
    <message>
        <source>Shape (M×N×K) or collective</source>
        <translation>形状 (M×N×K) 或集合通信</translation>
    </message>
    <message>
        <source>GFLOP</source>
        <translation>GFLOP</translation>
    </message>
    <message>
        <source>MB</source>
        <translation>MB</translation>
    </message>
    <message>
        <source>Bound</source>
        <translation>受限于</translation>
    </message>
    <message>
        <source>Efficiency</source>
        <translation>效率</translation>
    </message>
    <message>
        <source>ms</source>
        <translation>ms</translation>
    </message>
    <message>
        <source>Exposed ms</source>
        <translation>暴露 ms</translation>
    </message>
    <message>
        <source>Floating-point operations on this GPU, in 10^9</source>
        <translation>此 GPU 上的浮点运算次数，单位 10^9</translation>
    </message>
    <message>
        <source>Memory traffic of a kernel, or the buffer of a collective as nccl-tests counts it, in 10^6 bytes</source>
        <translation>内核的显存流量，或按 nccl-tests 口径计的集合通信缓冲区大小，单位 10^6 字节</translation>
    </message>
    <message>
        <source>Achieved FLOP/s over the GPU&apos;s dense peak</source>
        <translation>实际 FLOP/s 与 GPU 稠密峰值之比</translation>
    </message>
    <message>
        <source>What the op takes</source>
        <translation>算子的耗时</translation>
    </message>
    <message>
        <source>The part of it on the critical path: all of it, or what the op it overlaps with does not hide</source>
        <translation>位于关键路径上的部分：全部耗时，或与其重叠的算子未能掩盖的部分</translation>
    </message>
    <message>
        <source>%1, overlaps with %2</source>
        <translation>%1，与 %2 重叠</translation>
    </message>
    <message>
        <source>total</source>
        <translation>合计</translation>
    </message>
    <message>
        <source>One transformer layer</source>
        <translation>一个 Transformer 层</translation>
    </message>
    <message>
        <source>Output layer (last pipeline stage)</source>
        <translation>输出层（最后一个流水线阶段）</translation>
    </message>
    <message>
        <source>p = %1, m = %2, v = %3</source>
        <translation>p = %1，m = %2，v = %3</translation>
    </message>
    <message>
        <source>p = %1, m = %2</source>
        <translation>p = %1，m = %2</translation>
    </message>
    <message>
        <source>Schedule bubble</source>
        <translation>调度气泡</translation>
    </message>
    <message>
        <source>the schedule&apos;s fill and drain at the slowest stage&apos;s pace</source>
        <translation>调度的填充与排空，按最慢阶段的节奏计</translation>
    </message>
    <message>
        <source>schedule bubble over the pipeline: %1 with %2</source>
        <translation>调度气泡占流水线时间：%1，其中 %2</translation>
    </message>
    <message>
        <source>schedule bubble over the pipeline: %1</source>
        <translation>调度气泡占流水线时间：%1</translation>
    </message>
    <message>
        <source>schedule bubble over ideal compute: %1 with %2</source>
        <translation>调度气泡相对理想计算：%1，其中 %2</translation>
    </message>
    <message>
        <source>schedule bubble over ideal compute: %1</source>
        <translation>调度气泡相对理想计算：%1</translation>
    </message>
    <message>
        <source>Idle, all causes</source>
        <translation>空闲（全部原因）</translation>
    </message>
    <message>
        <source>all ranks&apos; idle share: the bubble %1 plus %2 waiting on slower stages and sends</source>
        <translation>所有秩的空闲占比：气泡 %1，加上等待较慢阶段和发送的 %2</translation>
    </message>
    <message>
        <source>Peak inside the simulated step</source>
        <translation>仿真步内峰值</translation>
    </message>
    <message>
        <source>over capacity by %1</source>
        <translation>超出容量 %1</translation>
    </message>
    <message>
        <source>Host memory per node (offload)</source>
        <translation>每节点主机内存（卸载）</translation>
    </message>
    <message>
        <source>offloaded optimizer state and activations</source>
        <translation>卸载的优化器状态和激活值</translation>
    </message>
    <message numerus="yes">
        <source>%n with the dense MLP</source>
        <translation>
            <numerusform>其中 %n 层带稠密 MLP</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n MTP module(s)</source>
        <translation>
            <numerusform>%n 个 MTP 模块</numerusform>
        </translation>
    </message>
    <message>
        <source>FP8 weight copies (in weights)</source>
        <translation>FP8 权重副本（计入权重）</translation>
    </message>
    <message>
        <source>the forward cast and the transposed copy of each fp8 GEMM weight</source>
        <translation>每个 fp8 GEMM 权重的前向转换副本和转置副本</translation>
    </message>
    <message>
        <source>FP8 scaling state (in weights)</source>
        <translation>FP8 缩放状态（计入权重）</translation>
    </message>
    <message>
        <source>On the host (offload)</source>
        <translation>主机上（卸载）</translation>
    </message>
    <message>
        <source>not in this GPU&apos;s total</source>
        <translation>不计入本 GPU 的合计</translation>
    </message>
    <message>
        <source>Degrees: %1</source>
        <translation>并行度：%1</translation>
    </message>
    <message>
        <source>Operators</source>
        <translation>算子</translation>
    </message>
</context>
<context>
    <name>planscope::TimelineLegend</name>
    <message>
        <source>bubble (idle)</source>
        <translation>气泡（空闲）</translation>
    </message>
    <message>
        <source>not yet played (after the playhead)</source>
        <translation>尚未播放（播放头之后）</translation>
    </message>
</context>
<context>
    <name>planscope::TimelinePage</name>
    <message>
        <source>Timeline of one training step</source>
        <translation>单个训练步的时间线</translation>
    </message>
    <message>
        <source>Timeline</source>
        <translation>时间线</translation>
    </message>
    <message>
        <source>%1: one step %2, %3 schedule, %4 pipeline ranks, %5 microbatches; schedule bubble %6 %, idle %7 %</source>
        <translation>%1：单步 %2，%3 调度，%4 个流水线秩，%5 个微批次；调度气泡 %6 %，空闲 %7 %</translation>
    </message>
</context>
<context>
    <name>planscope::TimelineView</name>
    <message>
        <source>%1 ms</source>
        <translation>%1 ms</translation>
    </message>
    <message>
        <source>rank %1</source>
        <translation>秩 %1</translation>
    </message>
    <message>
        <source>rank %1 · stage %2</source>
        <translation>秩 %1 · 阶段 %2</translation>
    </message>
    <message>
        <source>idle %1 %</source>
        <translation>空闲 %1 %</translation>
    </message>
    <message>
        <source>No timeline: load a plan</source>
        <translation>没有时间线：请加载方案</translation>
    </message>
    <message>
        <source>No timeline: %1</source>
        <translation>没有时间线：%1</translation>
    </message>
    <message numerus="yes">
        <source>%n ops folded here (mostly %1); zoom in to see them</source>
        <translation>
            <numerusform>此处折叠了 %n 个操作（主要为 %1）；放大即可查看</numerusform>
        </translation>
    </message>
    <message>
        <source>stage %1</source>
        <translation>阶段 %1</translation>
    </message>
    <message>
        <source>chunk %1</source>
        <translation>模型块 %1</translation>
    </message>
    <message>
        <source>microbatch %1</source>
        <translation>微批次 %1</translation>
    </message>
    <message>
        <source>backward half: stage %1 · microbatch %2</source>
        <translation>其中的反向部分：阶段 %1 · 微批次 %2</translation>
    </message>
    <message>
        <source>start %1 · duration %2</source>
        <translation>开始 %1 · 时长 %2</translation>
    </message>
    <message>
        <source>idle (bubble) on rank %1: %2, from %3 to %4</source>
        <translation>秩 %1 空闲（气泡）：%2，从 %3 到 %4</translation>
    </message>
    <message>
        <source>No timeline for this plan</source>
        <translation>该方案没有时间线</translation>
    </message>
    <message>
        <source>layers %1</source>
        <translation>层 %1</translation>
    </message>
    <message>
        <source>transformer layers %1</source>
        <translation>Transformer 层 %1</translation>
    </message>
    <message>
        <source>%1 (E embedding, L loss, | between chunks)</source>
        <translation>%1（E 嵌入层，L 损失，| 分隔块）</translation>
    </message>
    <message>
        <source>No timeline: the plan cannot run.
%1</source>
        <translation>没有时间线：该方案无法运行。
%1</translation>
    </message>
</context>
<context>
    <name>planscope::TracePage</name>
    <message>
        <source>Measured Run</source>
        <translation>实测运行</translation>
    </message>
    <message>
        <source>Open Traces</source>
        <translation>打开跟踪文件</translation>
    </message>
    <message>
        <source>PyTorch profiler traces (*.json *.json.gz);;All files (*)</source>
        <translation>PyTorch Profiler 跟踪文件 (*.json *.json.gz);;所有文件 (*)</translation>
    </message>
    <message>
        <source>Measured run</source>
        <translation>实测运行</translation>
    </message>
    <message>
        <source>Open Traces…</source>
        <translation>打开跟踪文件…</translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>取消</translation>
    </message>
    <message>
        <source>Align at</source>
        <translation>对齐到</translation>
    </message>
    <message>
        <source>CPU threads</source>
        <translation>CPU 线程</translation>
    </message>
    <message>
        <source>Prediction vs measurement</source>
        <translation>预测与实测对比</translation>
    </message>
    <message>
        <source>Collectives</source>
        <translation>集合通信</translation>
    </message>
    <message>
        <source>Top kernels</source>
        <translation>耗时最多的内核</translation>
    </message>
    <message>
        <source>Memory</source>
        <translation>显存</translation>
    </message>
    <message>
        <source>median step</source>
        <translation>中位数步</translation>
    </message>
    <message>
        <source>%1 (%2)</source>
        <translation>%1（%2）</translation>
    </message>
    <message>
        <source>rank %1</source>
        <translation>秩 %1</translation>
    </message>
    <message>
        <source>%1: %2 (byte %3); what came before was imported where possible</source>
        <translation>%1：%2（字节偏移 %3）；已尽可能导入此前的内容</translation>
    </message>
    <message>
        <source>Drop PyTorch profiler traces here (one .json or .json.gz per rank, or a folder of them), or use Open Traces…. With a plan open, the measured lanes are drawn against the predicted ones and the gap is split into compute, exposed communication and idle time.</source>
        <translation>将 PyTorch Profiler 跟踪文件拖放到这里（每个秩一个 .json 或 .json.gz，或包含它们的文件夹），或使用“打开跟踪文件…”。打开方案后，实测泳道将与预测泳道对照绘制，差距被拆分为计算、暴露通信和空闲时间。</translation>
    </message>
    <message>
        <source>Aligned at the start of %1&apos;s GPU work on the earliest rank.</source>
        <translation>对齐于最早的秩上 %1 的 GPU 工作起点。</translation>
    </message>
    <message numerus="yes">
        <source>%n rank(s) measured. Open a plan to compare them with its prediction.</source>
        <translation>
            <numerusform>已实测 %n 个秩。打开一个方案即可与其预测进行对比。</numerusform>
        </translation>
    </message>
    <message>
        <source>%1 × %2 over %3 ranks: median %4 in %5, busBw %6 (a lower bound)</source>
        <translation>%1 × %2，%3 个秩：中位数 %4，耗时 %5，busBw %6（下界）</translation>
    </message>
    <message>
        <source>compute</source>
        <translation>计算</translation>
    </message>
    <message>
        <source>exposed communication</source>
        <translation>暴露通信</translation>
    </message>
    <message>
        <source>idle (bubbles, waits)</source>
        <translation>空闲（气泡、等待）</translation>
    </message>
    <message>
        <source>GPU step</source>
        <translation>GPU 单步</translation>
    </message>
    <message>
        <source>PP:%1 ops (median of %2)</source>
        <translation>PP:%1 操作（%2 个的中位数）</translation>
    </message>
    <message>
        <source>No PP: actions in the trace; phases are compared on GPU kernels only.</source>
        <translation>跟踪中没有 PP: 操作；仅按 GPU 内核比较各阶段。</translation>
    </message>
    <message>
        <source>Phase</source>
        <translation>阶段</translation>
    </message>
    <message>
        <source>Predicted</source>
        <translation>预测</translation>
    </message>
    <message>
        <source>Measured</source>
        <translation>实测</translation>
    </message>
    <message>
        <source>Δ</source>
        <translation>Δ</translation>
    </message>
    <message>
        <source>Ratio</source>
        <translation>比值</translation>
    </message>
    <message>
        <source>Action</source>
        <translation>操作</translation>
    </message>
    <message>
        <source>Rank</source>
        <translation>秩</translation>
    </message>
    <message>
        <source>Predicted start</source>
        <translation>预测开始</translation>
    </message>
    <message>
        <source>Measured start</source>
        <translation>实测开始</translation>
    </message>
    <message>
        <source>Δ start</source>
        <translation>Δ 开始</translation>
    </message>
    <message>
        <source>Δ duration</source>
        <translation>Δ 时长</translation>
    </message>
    <message>
        <source>no metadata</source>
        <translation>无元数据</translation>
    </message>
    <message>
        <source>Collective</source>
        <translation>集合通信</translation>
    </message>
    <message>
        <source>Group</source>
        <translation>通信组</translation>
    </message>
    <message>
        <source>Kernels</source>
        <translation>内核数</translation>
    </message>
    <message>
        <source>Bytes (median)</source>
        <translation>字节数（中位数）</translation>
    </message>
    <message>
        <source>Time (median)</source>
        <translation>耗时（中位数）</translation>
    </message>
    <message>
        <source>algBw</source>
        <translation>algBw</translation>
    </message>
    <message>
        <source>busBw (lower bound)</source>
        <translation>busBw（下界）</translation>
    </message>
    <message>
        <source>Kernel</source>
        <translation>内核</translation>
    </message>
    <message>
        <source>Count</source>
        <translation>次数</translation>
    </message>
    <message>
        <source>GPU time</source>
        <translation>GPU 时间</translation>
    </message>
    <message>
        <source>Share</source>
        <translation>占比</translation>
    </message>
    <message>
        <source>time from the aligned step start (ms)</source>
        <translation>距对齐步起点的时间 (ms)</translation>
    </message>
    <message>
        <source>GiB</source>
        <translation>GiB</translation>
    </message>
    <message>
        <source>measured allocated (GPU %1)</source>
        <translation>实测已分配（GPU %1）</translation>
    </message>
    <message>
        <source>measured reserved</source>
        <translation>实测已预留</translation>
    </message>
    <message>
        <source>measured peak allocated (GPU %1)</source>
        <translation>实测峰值已分配（GPU %1）</translation>
    </message>
    <message>
        <source>measured peak reserved (GPU %1)</source>
        <translation>实测峰值已预留（GPU %1）</translation>
    </message>
    <message>
        <source>predicted (PP rank %1)</source>
        <translation>预测（PP 秩 %1）</translation>
    </message>
    <message>
        <source>predicted peak (all terms)</source>
        <translation>预测峰值（全部项）</translation>
    </message>
    <message>
        <source>predicted static (weights, gradients, optimizer, buffers)</source>
        <translation>预测静态部分（权重、梯度、优化器、缓冲区）</translation>
    </message>
    <message>
        <source>This trace has no [memory] events (record with profile_memory=True).</source>
        <translation>该跟踪没有 [memory] 事件（请使用 profile_memory=True 记录）。</translation>
    </message>
    <message>
        <source>Value</source>
        <translation>数值</translation>
    </message>
    <message>
        <source>Nothing to compare: no rank has GPU kernels.</source>
        <translation>无可比较：没有任何秩有 GPU 内核。</translation>
    </message>
    <message>
        <source>idle time (bubbles and waits)</source>
        <translation>空闲时间（气泡与等待）</translation>
    </message>
    <message>
        <source>The aligned step has no measured GPU time.</source>
        <translation>对齐的这一步没有实测的 GPU 时间。</translation>
    </message>
    <message>
        <source>GPU step measured %1, predicted %2: the prediction is on target.</source>
        <translation>GPU 单步实测 %1，预测 %2：预测准确。</translation>
    </message>
    <message>
        <source>GPU step measured %1, predicted %2: the prediction is %3% optimistic.</source>
        <translation>GPU 单步实测 %1，预测 %2：预测偏乐观 %3%。</translation>
    </message>
    <message>
        <source>GPU step measured %1, predicted %2: the prediction is %3% pessimistic.</source>
        <translation>GPU 单步实测 %1，预测 %2：预测偏保守 %3%。</translation>
    </message>
    <message>
        <source>The largest gap is %1 (%2 measured vs predicted).</source>
        <translation>差距最大的是%1（实测比预测 %2）。</translation>
    </message>
    <message>
        <source>rank %1 has no GPU kernels in the step and is left out</source>
        <translation>秩 %1 在该步中没有 GPU 内核，已略去</translation>
    </message>
    <message>
        <source>rank %1 has no ProfilerStep: the whole trace is taken as one step</source>
        <translation>秩 %1 没有 ProfilerStep：整个跟踪视为一步</translation>
    </message>
    <message>
        <source>the traces come from a job of %1 ranks and the plan has %2 GPUs: ranks are mapped to pipeline ranks by the plan&apos;s order</source>
        <translation>跟踪来自 %1 个秩的作业，而方案有 %2 个 GPU：按方案的秩顺序将各秩映射到流水线秩</translation>
    </message>
    <message>
        <source>tensor-parallel collectives are inside the predicted compute spans, but are NCCL kernels (communication) in the trace</source>
        <translation>张量并行的集合通信包含在预测的计算区间内，但在跟踪中是 NCCL 内核（通信）</translation>
    </message>
    <message>
        <source>the trace has CPU-side PP: annotations only; their times lead the GPU work they launch</source>
        <translation>跟踪中只有 CPU 侧的 PP: 标注；其时间早于它们所启动的 GPU 工作</translation>
    </message>
    <message>
        <source>forward</source>
        <translation>前向</translation>
    </message>
    <message>
        <source>backward</source>
        <translation>反向</translation>
    </message>
    <message>
        <source>optimizer step</source>
        <translation>优化器步骤</translation>
    </message>
    <message>
        <source>compute kernel</source>
        <translation>计算内核</translation>
    </message>
    <message>
        <source>NCCL collective</source>
        <translation>NCCL 集合通信</translation>
    </message>
    <message>
        <source>NCCL send/recv</source>
        <translation>NCCL 发送/接收</translation>
    </message>
    <message>
        <source>memcpy/memset</source>
        <translation>内存拷贝/置位</translation>
    </message>
    <message>
        <source>annotation</source>
        <translation>标注</translation>
    </message>
    <message>
        <source>predicted (ghost, by kind)</source>
        <translation>预测（虚影，按类型着色）</translation>
    </message>
    <message>
        <source>Across ranks: %1 collectives matched; rank %2 starts them last, a median %3 after the earliest rank.</source>
        <translation>跨秩：匹配了 %1 个集合通信；秩 %2 最晚开始，中位数比最早的秩晚 %3。</translation>
    </message>
    <message>
        <source>%1: %2</source>
        <translation>%1：%2</translation>
    </message>
    <message>
        <source>Job</source>
        <translation>作业</translation>
    </message>
    <message>
        <source>world size %1</source>
        <translation>总秩数 %1</translation>
    </message>
    <message>
        <source>unknown world size</source>
        <translation>总秩数未知</translation>
    </message>
    <message>
        <source>%1; ranks here: %2; traced %3</source>
        <translation>%1；此处的秩：%2 个；记录于 %3</translation>
    </message>
    <message>
        <source>%1; ranks here: %2</source>
        <translation>%1；此处的秩：%2 个</translation>
    </message>
    <message>
        <source>%1: left out, rank %2 is already shown from %3</source>
        <translation>%1：已略去，秩 %2 已由 %3 显示</translation>
    </message>
    <message>
        <source>%1: left out, the same trace as %2</source>
        <translation>%1：已略去，与 %2 是同一份跟踪</translation>
    </message>
    <message>
        <source>%1: left out, from another job (%2, traced %3)</source>
        <translation>%1：已略去，来自另一个作业（%2，记录于 %3）</translation>
    </message>
    <message>
        <source>%1: left out, from another job (%2)</source>
        <translation>%1：已略去，来自另一个作业（%2）</translation>
    </message>
    <message numerus="yes">
        <source>The files come from %n different jobs; one job is compared at a time: the one with the most ranks, or the one picked under Job.</source>
        <translation>
            <numerusform>这些文件来自 %n 个不同的作业；每次只对比一个作业：秩最多的那个，或在“作业”中选定的那个。</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>… and %n more file(s) left out, damaged or refused</source>
        <translation>
            <numerusform>… 另有 %n 个文件被略去、损坏或拒绝</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n rank(s) (%1) have no GPU kernels in the step and are left out</source>
        <translation>
            <numerusform>%n 个秩（%1）在该步中没有 GPU kernel，已略去</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n rank(s) (%1) have no ProfilerStep: the whole trace is taken as one step</source>
        <translation>
            <numerusform>%n 个秩（%1）没有 ProfilerStep：整个跟踪被视为一步</numerusform>
        </translation>
    </message>
    <message>
        <source>Use This Plan</source>
        <translation>使用此方案</translation>
    </message>
    <message>
        <source>Make the layout the traces imply the open plan&apos;s (one undo step)</source>
        <translation>把追踪所示的布局用于当前方案（一步撤销）</translation>
    </message>
    <message>
        <source>The traces&apos; process groups imply: %1.</source>
        <translation>追踪中的进程组表明：%1。</translation>
    </message>
    <message>
        <source>Not inferred: %1 (hover for why).</source>
        <translation>未推断出：%1（悬停查看原因）。</translation>
    </message>
    <message>
        <source>Open a plan to use this layout with its model and GPU.</source>
        <translation>打开一个方案，才能把此布局与其模型和 GPU 一起使用。</translation>
    </message>
    <message>
        <source>The open plan has this layout.</source>
        <translation>当前方案已是此布局。</translation>
    </message>
    <message>
        <source>It does not make a valid plan: %1</source>
        <translation>它不能构成有效方案：%1</translation>
    </message>
</context>
<context>
    <name>planscope::TraceSet</name>
    <message numerus="yes">
        <source>Importing %n trace file(s)…</source>
        <translation>
            <numerusform>正在导入 %n 个跟踪文件…</numerusform>
        </translation>
    </message>
    <message>
        <source>Import cancelled; the previous traces are kept.</source>
        <translation>导入已取消；保留之前的跟踪。</translation>
    </message>
    <message numerus="yes">
        <source>%n rank(s) imported</source>
        <translation>
            <numerusform>已导入 %n 个秩</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>; %n file(s) left out</source>
        <translation>
            <numerusform>；已略去 %n 个文件</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source> from %n file(s)</source>
        <translation>
            <numerusform>，来自 %n 个文件</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>; %n file(s) damaged, only their head kept</source>
        <translation>
            <numerusform>；%n 个文件已损坏，只保留了开头部分</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>; %n file(s) refused</source>
        <translation>
            <numerusform>；%n 个文件被拒绝</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>planscope::TraceTimelineView</name>
    <message>
        <source>predicted</source>
        <translation>预测</translation>
    </message>
    <message>
        <source>predicted comm.</source>
        <translation>预测通信</translation>
    </message>
    <message>
        <source>annotations</source>
        <translation>标注</translation>
    </message>
    <message>
        <source>stream %1</source>
        <translation>流 %1</translation>
    </message>
    <message>
        <source>thread %1</source>
        <translation>线程 %1</translation>
    </message>
    <message>
        <source>No measured lanes. Open or drop PyTorch profiler traces (.json, .json.gz, or a folder with one file per rank).</source>
        <translation>没有实测泳道。请打开或拖放 PyTorch Profiler 跟踪文件（.json、.json.gz，或每个秩一个文件的文件夹）。</translation>
    </message>
    <message>
        <source>rank %1 · PP %2</source>
        <translation>秩 %1 · PP %2</translation>
    </message>
    <message>
        <source>rank ? · PP %1</source>
        <translation>秩 ? · PP %1</translation>
    </message>
    <message>
        <source>Predicted %1</source>
        <translation>预测的%1</translation>
    </message>
    <message>
        <source>starts %1, lasts %2</source>
        <translation>开始于 %1，持续 %2</translation>
    </message>
    <message>
        <source>%1 · starts %2, lasts %3</source>
        <translation>%1 · 开始于 %2，持续 %3</translation>
    </message>
    <message>
        <source>NCCL %1</source>
        <translation>NCCL %1</translation>
    </message>
    <message>
        <source>: %1 over %2 ranks, algBw %3 GB/s, busBw %4 GB/s (lower bounds)</source>
        <translation>：%1，%2 个秩，algBw %3 GB/s，busBw %4 GB/s（下界）</translation>
    </message>
    <message>
        <source>predicted: starts %1, lasts %2</source>
        <translation>预测：开始于 %1，持续 %2</translation>
    </message>
    <message>
        <source>measured − predicted: start %1, duration %2</source>
        <translation>实测 − 预测：开始 %1，时长 %2</translation>
    </message>
</context>
</TS>
