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
    case MemorySegment::Runtime:
        return stage.buffers.runtimeBytes();
    case MemorySegment::Communication:
        return stage.buffers.communicationBytes();
    case MemorySegment::Temporaries:
        return stage.buffers.temporaryBytes();
    case MemorySegment::Slack:
        return stage.buffers.fragmentationBytes;
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
    case MemorySegment::Runtime:
        return "buffers.runtimeBytes";
    case MemorySegment::Communication:
        return "buffers.communicationBytes";
    case MemorySegment::Temporaries:
        return "buffers.temporaryBytes";
    case MemorySegment::Slack:
        return "buffers.fragmentationBytes";
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
    case MemorySegment::Runtime:
        return QCoreApplication::translate("MemorySegments", "CUDA context and workspaces");
    case MemorySegment::Communication:
        return QCoreApplication::translate("MemorySegments", "NCCL and ZeRO buffers");
    case MemorySegment::Temporaries:
        return QCoreApplication::translate("MemorySegments", "Temporaries (logits, gathered weights)");
    case MemorySegment::Slack:
        return QCoreApplication::translate("MemorySegments", "Allocator slack");
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
    case MemorySegment::Runtime:
        return palette::grey();
    case MemorySegment::Communication:
        return palette::reddishPurple();
    case MemorySegment::Temporaries:
        return palette::vermillion();
    case MemorySegment::Slack:
        return palette::grey().lighter(150);
    }
    return {};
}

} // namespace planscope
