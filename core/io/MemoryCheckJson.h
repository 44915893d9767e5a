// The document of `planscope-cli memory-check` (docs/FORMATS.md section 12): a memory snapshot's devices and
// the check of one against a plan's pipeline stage (trace/MemorySnapshot.h).
#pragma once

#include "trace/MemorySnapshot.h"

#include <nlohmann/json_fwd.hpp>
#include <string>

namespace planscope {

inline constexpr const char* kMemoryCheckSchema = "planscope/memory-check/v1";

nlohmann::json deviceMemoryToJson(const DeviceMemory& device);
nlohmann::json memoryCheckToJson(const MemoryCheck& check);
// The whole document: the plan's and the snapshot's names, the check and every device of the snapshot.
nlohmann::json memoryCheckDocument(const MemoryCheck& check, const MemorySnapshot& snapshot,
    const std::string& plan, const std::string& snapshotFile);

} // namespace planscope
