// Memos of pure functions, keyed by the function's whole input: the function takes one struct and nothing else, so a
// field it reads is a field of the key (a cache keyed by a hand-written list of fields can miss one: docs/ARCHITECTURE.md
// section 2, "one plan, one answer").
#pragma once

#include <cstdint>
#include <optional>

namespace planscope {

// Every memo of core forgets, on the calling thread, what it holds: the next call of each computes afresh. For tests
// that compare an evaluation against a fresh one (tests/core/tst_purity.cpp) and for the fuzz target of pairs.
void clearThreadMemos();

namespace detail {
std::uint64_t threadMemoEpoch();
} // namespace detail

// Compute(in), remembered for the last `in` seen on this thread (a hit compares the whole In with its operator==).
template<typename In, typename Out, Out (*Compute)(const In&)>
const Out& memoLast(const In& in)
{
    struct Last {
        std::uint64_t epoch = 0;
        std::optional<In> in;
        Out out {};
    };
    thread_local Last last;
    const std::uint64_t epoch = detail::threadMemoEpoch();
    if (last.epoch != epoch || !last.in || !(*last.in == in)) {
        last.out = Compute(in);
        last.in = in;
        last.epoch = epoch;
    }
    return last.out;
}

} // namespace planscope
