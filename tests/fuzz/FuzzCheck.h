// Shared by the libFuzzer targets (https://llvm.org/docs/LibFuzzer.html): a broken invariant stops the run with a
// trap, which libFuzzer reports as a crash and saves the input for.
#pragma once

#include "util/Result.h"

#include <cstddef>
#include <cstdint>
#include <string_view>

#define FUZZ_CHECK(cond)                                                                                             \
    do {                                                                                                             \
        if (!(cond)) __builtin_trap();                                                                               \
    } while (0)

namespace planscope::fuzz {

inline std::string_view text(const std::uint8_t* data, std::size_t size)
{
    return { reinterpret_cast<const char*>(data), size };
}

// A failed Result always says why: the app and the CLI show its first error.
template<typename T>
void checkFailureHasReason(const Result<T>& r)
{
    FUZZ_CHECK(r.ok() || !r.errors().empty());
}

} // namespace planscope::fuzz
