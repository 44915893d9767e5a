#include "Memo.h"

namespace planscope {

namespace {
// Starts at 1 so that a memo never filled (epoch 0) is never taken for a filled one.
thread_local std::uint64_t epoch = 1;
} // namespace

void clearThreadMemos() { ++epoch; }

namespace detail {
std::uint64_t threadMemoEpoch() { return epoch; }
} // namespace detail

} // namespace planscope
