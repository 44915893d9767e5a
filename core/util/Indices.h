// Strong index types so that a rank is never passed where a stage is expected (heaptrack's indices.h).
#pragma once

#include <compare>
#include <cstdint>

namespace planscope {

template<typename Tag>
struct StrongIndex {
    std::int32_t value = 0;
    constexpr StrongIndex() = default;
    constexpr explicit StrongIndex(std::int32_t v) : value(v) { }
    constexpr auto operator<=>(const StrongIndex&) const = default;
};

using RankId = StrongIndex<struct RankTag>;
using StageId = StrongIndex<struct StageTag>;
using MicrobatchId = StrongIndex<struct MicrobatchTag>;

} // namespace planscope
