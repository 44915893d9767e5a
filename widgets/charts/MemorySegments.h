// The five memory segments of a GPU, in the order and colours every view uses, so a segment reads the same in
// the bars, the plot over time and the tooltips: weights, gradients, optimizer states, activations, buffers/other.
#pragma once

#include "cost/Prediction.h"

#include <QColor>
#include <QString>
#include <array>
#include <cstdint>

namespace planscope {

enum class MemorySegment { Weights, Gradients, Optimizer, Activations, Buffers };

inline constexpr std::array<MemorySegment, 5> kMemorySegments { MemorySegment::Weights,
    MemorySegment::Gradients, MemorySegment::Optimizer, MemorySegment::Activations, MemorySegment::Buffers };

std::int64_t segmentBytes(const StageMemory& stage, MemorySegment segment);
// The StageMemory field in the prediction JSON, e.g. "weightsBytes".
const char* segmentField(MemorySegment segment);
// Translated display name, e.g. "Optimizer states".
QString segmentName(MemorySegment segment);
QColor segmentColor(MemorySegment segment);

} // namespace planscope
