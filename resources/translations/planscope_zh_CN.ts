<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="zh_CN">
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
            <source>Buffers and other</source>
            <translation>缓冲区及其他</translation>
        </message>
    </context>
    <context>
        <name>WidgetExporter</name>
        <message>
            <source>Cannot write %1</source>
            <translation>无法写入 %1</translation>
        </message>
        <message>
            <source>Unknown file type "%1"; use one of: %2</source>
            <translation>未知的文件类型“%1”；请使用以下之一：%2</translation>
        </message>
        <message>
            <source>Nothing was written to %1</source>
            <translation>没有向 %1 写入任何内容</translation>
        </message>
    </context>
    <context>
        <name>planscope::MainWindow</name>
        <message>
            <source>Summary</source>
            <translation>概览</translation>
        </message>
        <message>
            <source>Memory</source>
            <translation>显存</translation>
        </message>
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
            <source>&amp;Summary</source>
            <translation>概览(&amp;S)</translation>
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
            <source>The plan has changes that are not saved. Save them before quitting?</source>
            <translation>方案有尚未保存的更改。退出前要保存吗？</translation>
        </message>
        <message>
            <source>Untitled</source>
            <translation>未命名</translation>
        </message>
        <message>
            <source>Evaluating…</source>
            <translation>正在计算…</translation>
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
            <source>Could not open %1</source>
            <translation>无法打开 %1</translation>
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
            <source>Cannot write %1</source>
            <translation>无法写入 %1</translation>
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
    </context>
    <context>
        <name>planscope::MemoryBarsView</name>
        <message>
            <source>GPU capacity</source>
            <translation>GPU 显存容量</translation>
        </message>
        <message>
            <source>Memory per GPU (GiB, 2^30 bytes)</source>
            <translation>每个 GPU 的显存（GiB，2^30 字节）</translation>
        </message>
        <message>
            <source>Pipeline stage (every GPU of a stage holds the same)</source>
            <translation>流水线阶段（同一阶段的每个 GPU 占用相同）</translation>
        </message>
        <message>
            <source>No memory to show: this plan cannot run (see the Summary page)</source>
            <translation>没有可显示的显存：该方案无法运行（见“概览”页）</translation>
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
            <source>GPU capacity %1 GB = %2</source>
            <translation>GPU 显存容量 %1 GB = %2</translation>
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
            <source>Cannot create the folder for %1</source>
            <translation>无法为 %1 创建文件夹</translation>
        </message>
        <message>
            <source>Cannot write %1: %2</source>
            <translation>无法写入 %1：%2</translation>
        </message>
    </context>
    <context>
        <name>planscope::SummaryPage</name>
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
            <source>ZeRO-%1</source>
            <translation>ZeRO-%1</translation>
        </message>
        <message>
            <source>FSDP %1</source>
            <translation>FSDP %1</translation>
        </message>
        <message>
            <source>Degrees: TP %1 · PP %2 · DP %3 · CP %4 · EP %5 · VPP %6 · SP %7 · %8</source>
            <translation>并行度：TP %1 · PP %2 · DP %3 · CP %4 · EP %5 · VPP %6 · SP %7 · %8</translation>
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
            <source>Pipeline bubble</source>
            <translation>流水线气泡</translation>
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
            <source>The model's parameters in each stage, all TP ranks of the stage together</source>
            <translation>每个阶段的模型参数（该阶段所有 TP 秩合计）</translation>
        </message>
        <message>
            <source>all TP ranks of a stage together</source>
            <translation>该阶段所有 TP 秩合计</translation>
        </message>
        <message>
            <source>idle share of the step; (p-1)/(m+p-1) for GPipe and 1F1B</source>
            <translation>空闲时间占单步的比例；GPipe 与 1F1B 为 (p-1)/(m+p-1)</translation>
        </message>
        <message>
            <source>idle time over ideal compute; (p-1)/m for GPipe and 1F1B</source>
            <translation>空闲时间与理想计算时间之比；GPipe 与 1F1B 为 (p-1)/m</translation>
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
    </context>
</TS>
