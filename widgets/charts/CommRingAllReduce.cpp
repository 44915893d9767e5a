#include "charts/CommRingAllReduce.h"

#include <algorithm>

namespace planscope {

CommRingAllReduce::CommRingAllReduce(int gpus)
    : m_n(std::max(2, gpus))
{
}

std::vector<CommRingAllReduce::Transfer> CommRingAllReduce::transfers(int step) const
{
    std::vector<Transfer> out;
    if (step < 1 || step > stepCount()) return out;
    const int s = phaseStep(step);
    // Reduce-scatter sends chunk i - s + 1, all-gather forwards chunk i - s + 2 (the one completed last).
    const int offset = isReduceScatter(step) ? 1 - s : 2 - s;
    out.reserve(std::size_t(m_n));
    for (int i = 0; i < m_n; ++i)
        out.push_back({ i, (i + 1) % m_n, ((i + offset) % m_n + m_n) % m_n });
    return out;
}

CommRingAllReduce::State CommRingAllReduce::stateAfter(int step) const
{
    State state(std::size_t(m_n), std::vector<int>(std::size_t(m_n), 1));
    step = std::clamp(step, 0, stepCount());
    for (int k = 1; k <= step; ++k) {
        const State before = state; // every GPU sends what it held at the start of the step
        for (const Transfer& t : transfers(k)) {
            int& into = state[std::size_t(t.to)][std::size_t(t.chunk)];
            const int sent = before[std::size_t(t.from)][std::size_t(t.chunk)];
            into = isReduceScatter(k) ? into + sent : sent;
        }
    }
    return state;
}

} // namespace planscope
