// Ring all-reduce step by step (Patarasuk & Yuan 2009; NCCL's ring): n GPUs, each buffer cut into n chunks.
// Reduce-scatter: in step s (1..n-1) GPU i sends chunk (i - s + 1) mod n to GPU i+1, which adds it to its
// own copy; after n-1 steps GPU i holds the full sum of chunk (i + 1) mod n. All-gather: in step s GPU i
// forwards the reduced chunk (i - s + 2) mod n, which the next GPU copies. 2(n-1) steps of S/n bytes each:
// every GPU sends 2(n-1)/n * S, the volume term of docs/MODEL.md section 6. No widgets here: testable headless.
#pragma once

#include <vector>

namespace planscope {

class CommRingAllReduce {
public:
    struct Transfer {
        int from = 0;
        int to = 0;
        int chunk = 0;
        bool operator==(const Transfer&) const = default;
    };
    // contributions[gpu][chunk]: how many GPUs' inputs that GPU's copy of the chunk sums (n = fully reduced).
    using State = std::vector<std::vector<int>>;

    explicit CommRingAllReduce(int gpus = 4);

    int gpus() const { return m_n; }
    int stepCount() const { return 2 * (m_n - 1); }
    // Step 1..n-1 reduce-scatter, n..2(n-1) all-gather.
    bool isReduceScatter(int step) const { return step >= 1 && step <= m_n - 1; }
    bool isAllGather(int step) const { return step >= m_n && step <= stepCount(); }
    // Step within its phase, 1..n-1.
    int phaseStep(int step) const { return isReduceScatter(step) ? step : step - (m_n - 1); }
    // The n sends of one step (empty outside 1..stepCount()).
    std::vector<Transfer> transfers(int step) const;
    // Every GPU's chunks after `step` steps (0 = each holds only its own input).
    State stateAfter(int step) const;
    // Bytes each GPU sends over the whole all-reduce of a buffer of `bytes`: 2(n-1)/n * bytes.
    double bytesSentPerGpu(double bytes) const { return m_n > 1 ? 2.0 * (m_n - 1) / m_n * bytes : 0.0; }

private:
    int m_n;
};

} // namespace planscope
