// PyTorch CUDA memory snapshot bytes (a pickle) -> readMemorySnapshot (core/io/Pickle.h, core/trace/MemorySnapshot.h):
// read or refused with a reason and a byte offset, never a crash.
#include "FuzzCheck.h"

#include "trace/MemorySnapshot.h"

using namespace planscope;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    auto snapshot = readMemorySnapshot(fuzz::text(data, size));
    fuzz::checkFailureHasReason(snapshot);
    return 0;
}
