#include "charts/MemorySegments.h"

#include "Palette.h"

#include <QCoreApplication>

namespace planscope {

std::int64_t segmentBytes(const StageMemory& stage, MemorySegment segment)
{
    switch (segment) {
    case MemorySegment::Weights:
        return stage.weightsBytes;
    case MemorySegment::Gradients:
        return stage.gradientsBytes;
    case MemorySegment::Optimizer:
        return stage.optimizerBytes;
    case MemorySegment::Activations:
        return stage.activationsBytes;
    case MemorySegment::Buffers:
        return stage.buffersBytes;
    }
    return 0;
}

const char* segmentField(MemorySegment segment)
{
    switch (segment) {
    case MemorySegment::Weights:
        return "weightsBytes";
    case MemorySegment::Gradients:
        return "gradientsBytes";
    case MemorySegment::Optimizer:
        return "optimizerBytes";
    case MemorySegment::Activations:
        return "activationsBytes";
    case MemorySegment::Buffers:
        return "buffersBytes";
    }
    return "";
}

QString segmentName(MemorySegment segment)
{
    switch (segment) {
    case MemorySegment::Weights:
        return QCoreApplication::translate("MemorySegments", "Weights");
    case MemorySegment::Gradients:
        return QCoreApplication::translate("MemorySegments", "Gradients");
    case MemorySegment::Optimizer:
        return QCoreApplication::translate("MemorySegments", "Optimizer states");
    case MemorySegment::Activations:
        return QCoreApplication::translate("MemorySegments", "Activations");
    case MemorySegment::Buffers:
        return QCoreApplication::translate("MemorySegments", "Buffers and other");
    }
    return {};
}

QColor segmentColor(MemorySegment segment)
{
    switch (segment) {
    case MemorySegment::Weights:
        return palette::blue();
    case MemorySegment::Gradients:
        return palette::skyBlue();
    case MemorySegment::Optimizer:
        return palette::bluishGreen();
    case MemorySegment::Activations:
        return palette::orange();
    case MemorySegment::Buffers:
        return palette::grey();
    }
    return {};
}

} // namespace planscope
