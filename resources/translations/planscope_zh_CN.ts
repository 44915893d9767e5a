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
    <name>TimelinePalette</name>
    <message>
        <source>forward</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>backward</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>input-grad</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>weight-grad</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>F&amp;B overlapped</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>send activation</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>send gradient</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>gradient reduction</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>parameter all-gather</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>optimizer</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>grad reduce</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>all-gather</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>compute</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>p2p</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>data parallel</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>ZeRO-3 gather</source>
        <translation type="unfinished"></translation>
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
    <name>planscope::CommRingWidget</name>
    <message>
        <source>%1 GPUs: too many to draw the chunks.
Step %2 of %3</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>GPU %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>start</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>reduce-scatter %1/%2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>all-gather %1/%2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>A number is how many GPUs&apos; inputs that copy of the chunk sums; Σ and full colour: fully reduced. Solid frame: the chunk a GPU sends now; dotted: where it arrives.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>planscope::CommView</name>
    <message>
        <source>Pause</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Play</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Communication groups of this plan (one GPU, one training step)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Group</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>GPUs</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Crosses nodes</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Collective</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Algorithm</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Link (GB/s per direction)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Sent per step (GiB)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Time per step</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Exposed per step</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The slowest link the group uses, in GB/s (1e9 bytes) per GPU per direction</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Bytes one GPU sends per step, in GiB (2^30 bytes)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The part of the time on the critical path (not hidden behind compute)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Ring all-reduce, step by step</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>GPUs on the ring (n):</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Step</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Reset</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>ring</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>tree (2·log2 n latency steps)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>hierarchical (%1 GPUs per node)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>parameter server (1 server)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No plan loaded</source>
        <translation type="unfinished">未加载方案</translation>
    </message>
    <message>
        <source>No communication to show: this plan cannot run (see the Summary page)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Every group has one GPU: nothing is communicated</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>yes (%1 nodes)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>no (inside one node)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 GPUs of the group on the fullest node</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 bytes/s per direction</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 bytes</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 s</source>
        <translation type="unfinished">%1 秒</translation>
    </message>
    <message>
        <source>GPUs in the group (log scale)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Time of one all-reduce (log scale)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>one node = %1 GPUs</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>this plan: dp×cp = %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>stage %1&apos;s gradients on one GPU, %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>an example size: no valid prediction</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>All-reduce of %1 (%2) against the number of GPUs</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Links per GPU per direction: inside a node %1 GB/s × efficiency %2, α %3 µs; between nodes %4 GB/s × %5, α %6 µs.
Ring, tree and the server run on NVLink up to %7 GPUs and on the inter-node link beyond.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Message size per GPU (log scale; KiB = 2^10 bytes, GiB = 2^30)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>this plan&apos;s gradients: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>inside one node: %1 GB/s per direction</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>across %1 nodes: %2 GB/s per GPU per direction</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>All-reduce on n = %1 GPUs against the message size (%2)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Small messages pay the latency α of every step (ring 2(n−1) steps, tree 2·log2 n);
large ones the bandwidth term 2(n−1)/n × S / B.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Start: each of the %1 GPUs holds its own buffer of S bytes, cut into %1 chunks of S/%1. Ring all-reduce takes 2(n−1) = %2 steps: %3 of reduce-scatter, then %3 of all-gather.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>reduce-scatter step %1/%2: each GPU sends 1/%3 of the buffer (one chunk) to the next GPU on the ring, which adds it to its own copy; the chunks sent now sum %4 GPUs&apos; inputs.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Every GPU now holds one chunk fully reduced (framed).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>all-gather step %1/%2: each GPU sends 1/%3 of the buffer (a fully reduced chunk) to the next GPU, which keeps a copy; every GPU now has %4 of the %3 reduced chunks.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Done after 2(n−1) = %1 steps: every GPU holds the full sum. Each GPU sent 2(n−1)/n × S = %2 × S (%3 for S = %4), close to 2S however many GPUs there are: the ring spreads the traffic evenly, where a parameter server&apos;s link carries n × S.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Hover a GPU in the GPU grid to see the groups it communicates in.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 %2 (inside one node)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 %2 (%3 nodes)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>GPU %1 on node %2: %3</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>planscope::GpuGridView</name>
    <message>
        <source>Which coordinate of each GPU its colour shows</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>tp (tensor-parallel rank)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>pp (pipeline stage)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>dp (data-parallel replica)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>cp (context-parallel rank)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>ep (expert-parallel rank)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>node</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>TP group</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>CP group</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>DP×CP group</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>pipeline</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>EP group</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>expert-DP group</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Colour by:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Fit</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Show the whole grid (or double-click it)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Wheel: zoom · drag: pan · hover: a GPU&apos;s groups · click: select its pipeline rank</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No plan loaded</source>
        <translation type="unfinished">未加载方案</translation>
    </message>
    <message>
        <source>Cannot draw this grid: dp × tp × pp × cp = %L1 GPUs</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%L1 GPUs = dp %2 × tp %3 × pp %4 × cp %5%6 on %L7 nodes of %8 GPUs, rank order %9</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source> (ep %1 inside dp × cp)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source> (the cluster has %L1 GPUs)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>inter-node network: %1 GB/s per GPU per direction; inside a node %2 GB/s per direction</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>TP group of %1 spans %2 nodes: every layer&apos;s all-reduce crosses InfiniBand (%3 GB/s per GPU per direction instead of %4 GB/s over NVLink)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>CP group of %1 spans %2 nodes: every layer&apos;s K/V exchange crosses InfiniBand</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>EP group of %1 spans %2 nodes: every MoE layer&apos;s all-to-all crosses InfiniBand</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No simulated timeline: every GPU is drawn at full colour</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No simulated timeline (%1): every GPU is drawn at full colour</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>stage %1: %2 mb %3</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Playhead %1 of %2: %3 of %4 pipeline stages computing (lit), the others idle (dimmed)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Hover a GPU to outline its groups. Cells: rank, then (dp, tp, pp, cp, ep).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>GPU %L1 on node %L2 (GPU %3 there): dp %4, tp %5, pp %6, cp %7, ep %8</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 of %2 inside one node</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 of %2 on %3 nodes</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>node %L1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>pp %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>pp %1–%2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Colour = %1:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>(zoomed out: each node shows its most common value)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>computing at the playhead</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>idle</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>group crossing nodes</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cannot write %1</source>
        <translation type="unfinished">无法写入 %1</translation>
    </message>
    <message>
        <source>PlanScope GPU grid</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Unknown file type &quot;%1&quot;; use png, svg or pdf</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Nothing was written to %1</source>
        <translation type="unfinished">没有向 %1 写入任何内容</translation>
    </message>
</context>
<context>
    <name>planscope::MainWindow</name>
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
        <source>Timeline</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>GPU Grid</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Communication</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Metrics</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Timeline</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;GPU Grid</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Communication</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>M&amp;etrics</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Plan</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Open &amp;Recent</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Open the &amp;Autosaved Plan</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Edit</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Undo</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Redo</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Plan &amp;Editor</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Play / Pause</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No view to export</source>
        <translation type="unfinished"></translation>
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
    <message>
        <source>Memory per GPU at %1 ms of the step (peak %2 on stage %3, capacity %4)</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>planscope::MemoryPage</name>
    <message>
        <source>Bars: peak per stage</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Bars: at the playhead</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>planscope::MemoryTimelineView</name>
    <message>
        <source>Time in the step (s)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Memory per GPU (GiB, 2^30 bytes)</source>
        <translation type="unfinished">每个 GPU 的显存（GiB，2^30 字节）</translation>
    </message>
    <message>
        <source>stage %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>GPU capacity</source>
        <translation type="unfinished">GPU 显存容量</translation>
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
    <name>planscope::PlanEditorPage</name>
    <message>
        <source>Model</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cluster</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Parallelism</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Training</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Preset</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Choosing a model fills every shape field below; editing one makes the model custom</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Layers</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Transformer layers</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Hidden size</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Model width h</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Attention heads</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Key/value heads</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Key/value heads (GQA/MQA); equal to the attention heads for multi-head attention</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>FFN hidden size</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>MLP inner size f</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Vocabulary</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Sequence length</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Tokens per sequence s</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Gated MLP (SwiGLU/GeGLU)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Three h x f matrices in the MLP instead of two</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Tied embeddings</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The output layer shares the embedding matrix</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>MoE experts</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Routed experts per layer; 0 = a dense model</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>MoE top-k</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Experts each token is routed to</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Expert FFN hidden size</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>GPU</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Choosing a GPU also takes its usual node&apos;s links and GPUs per node</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>custom: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 GiB per GPU, %2 TFLOP/s dense %3, %4 GPUs in all</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 bytes of memory</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Nodes</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>GPUs per node</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Bytes per second per GPU per direction (A100 NVLink 3 &quot;600 GB/s&quot; is 300 GB/s per direction; HDR InfiniBand 200 Gb/s is 25 GB/s)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Inside a node, GB/s per direction</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Inside a node, latency in µs</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Per collective step (alpha)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Between nodes, GB/s per direction</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Between nodes, latency in µs</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Data parallel (dp)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>dp*tp*pp*cp must equal the GPU count</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Tensor parallel (tp)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Must divide the heads, key/value heads and FFN size</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Pipeline parallel (pp)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Pipeline stages; must divide the layers for an even split</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Context parallel (cp)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Splits the sequence; must divide the sequence length</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Expert parallel (ep)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Carved out of the dp*cp ranks; must divide the experts</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Chunks per rank (vpp)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Virtual stages per rank for interleaved-1f1b</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Sequence parallelism (with tp &gt; 1)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>ZeRO stage</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Sharding over the dp*cp group: 1 optimizer states, 2 also gradients, 3 also parameters (FSDP)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Rank order</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Fastest-varying first; Megatron&apos;s default is tp-cp-ep-dp-pp</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Layers on the first stage</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>0 spreads the layers evenly; otherwise the middle stages share the rest</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Layers on the last stage</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Microbatch (sequences)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Global batch (sequences)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Sequences per step; microbatches per step = globalBatch / (microBatch * dp)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>= 1 microbatch</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>= %1 microbatches</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Precision</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Dtype of the GEMMs and weights (fp8: GEMMs at the fp8 peak, weights kept in bf16)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Gradient dtype</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Dtype gradients are kept and reduced in (Megatron: fp32 main grads)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Optimizer</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Recompute</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>selective: the attention core; full: every layer keeps only its input</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Pipeline schedule</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Flash attention</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No s x s score tensors are kept for the backward</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Training tokens</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Tokens to train on, for the training-days estimate; type 3e11 or 2e12</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Change %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>= %1 / (tp*pp*cp)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No plan open</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>valid</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>1 error</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 errors</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1, 1 warning</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1, %2 warnings</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No prediction: the plan is invalid.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Peak memory %1 of %2 GiB per GPU (%3); step %4; MFU %5 %</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>fits</source>
        <translation type="unfinished">放得下</translation>
    </message>
    <message>
        <source>does not fit</source>
        <translation type="unfinished">放不下</translation>
    </message>
    <message>
        <source>; %1 days for %2 tokens</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>0: off</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>1: optimizer states</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>2: + gradients</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>3: + parameters (FSDP)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Reality check of a claim</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>custom</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>none (dense)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>even split</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>auto</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>dp follows the GPU count: GPUs / (tp*pp*cp)</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>planscope::PlaybackBar</name>
    <message>
        <source>Back to the start of the step</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Previous event (the start or end of an op on any lane)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Next event (the start or end of an op on any lane)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Play or pause the step</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Drag to move the playhead through the step</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Speed</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>1x plays the whole step in 10 s</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1x</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 / %2 ms</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>planscope::RealityCheckBox</name>
    <message>
        <source>no verdict</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The plan is invalid; fix its errors to check a claim.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Open a plan to check a claim.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Enter the claimed days, tokens and MFU to check the claim.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>possible</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>short by %1x</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>required %1 FLOP, available %2 FLOP, ratio %3</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Days claimed</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Tokens</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;MFU (0 to 1)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>none</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Wall-clock days the claim allows for training</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Tokens to train on; scientific notation works (1e12)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Model FLOPs utilisation assumed: achieved model FLOP/s over the GPUs&apos; dense peak</source>
        <translation type="unfinished"></translation>
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
        <source>The model&apos;s parameters in each stage, all TP ranks of the stage together</source>
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
<context>
    <name>planscope::TimelineLegend</name>
    <message>
        <source>bubble (idle)</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>planscope::TimelinePage</name>
    <message>
        <source>Timeline of one training step</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1: one step %2 ms, %3 schedule, %4 pipeline ranks, %5 microbatches; pipeline bubble %6 %</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Timeline</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>planscope::TimelineView</name>
    <message>
        <source>%1 ms</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>rank %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>rank %1 · stage %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>idle %1 %</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No timeline: load a plan</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Simulating the step…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No timeline: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 s</source>
        <translation type="unfinished">%1 秒</translation>
    </message>
    <message>
        <source>%1 µs</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>time in step</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>%n ops folded here (mostly %1); zoom in to see them</source>
        <translation type="unfinished">
            <numerusform></numerusform>
        </translation>
    </message>
    <message>
        <source>stage %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>chunk %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>microbatch %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>backward half: stage %1 · microbatch %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>start %1 · duration %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>idle (bubble) on rank %1: %2, from %3 to %4</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Unknown file type &quot;%1&quot;; use one of: %2</source>
        <translation type="unfinished">未知的文件类型“%1”；请使用以下之一：%2</translation>
    </message>
    <message>
        <source>PlanScope timeline</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cannot write %1</source>
        <translation type="unfinished">无法写入 %1</translation>
    </message>
</context>
</TS>
