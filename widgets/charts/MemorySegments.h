// The memory segments of a GPU, in the order and colours every view uses, so a segment reads the same in the bars,
// the plot over time and the tooltips: weights, gradients, optimizer states, activations, then what the runtime
// adds (docs/MODEL.md section 4): the CUDA context and library workspaces, NCCL's buffers and the ZeRO bucket, the
// temporaries held at the peak inside the step, and the allocator's slack (reserved - allocated).
#pragma once

#include "cost/Prediction.h"

#include <QColor>
#include <QString>
#include <array>
#include <cstdint>

namespace planscope {

enum class MemorySegment { Weights, Gradients, Optimizer, Activations, Runtime, Communication, Temporaries, Slack };

inline constexpr std::array<MemorySegment, 8> kMemorySegments { MemorySegment::Weights, MemorySegment::Gradients,
    MemorySegment::Optimizer, MemorySegment::Activations, MemorySegment::Runtime, MemorySegment::Communication,
    MemorySegment::Temporaries, MemorySegment::Slack };

std::int64_t segmentBytes(const StageMemory& stage, MemorySegment segment);
// The StageMemory field in the prediction JSON, e.g. "weightsBytes" or "buffers.temporaryBytes".
const char* segmentField(MemorySegment segment);
// Translated display name, e.g. "Optimizer states".
QString segmentName(MemorySegment segment);
QColor segmentColor(MemorySegment segment);

} // namespace planscope
