// Reading a file on a worker thread while another waits for it (the app opens plans this way, so that a slow or
// stalled file system never freezes its window): the reader publishes the bytes read and the file's size, and stops
// between pieces when asked.
#pragma once

#include "io/PlanJson.h"
#include "spec/Presets.h"

#include <atomic>
#include <cstdint>
#include <string>

namespace planscope {

struct ReadControl {
    std::atomic<bool> cancel { false };            // set by the waiting thread; checked before each 64 KiB piece
    std::atomic<std::int64_t> bytesRead { 0 };     // so far
    std::atomic<std::int64_t> bytesTotal { 0 };    // the file's size once it is open (0: not known yet, or procfs)
    std::atomic<bool> parsing { false };           // the bytes are in; the text is being parsed
};

// readTextFile() and loadPlanFile() (io/PlanJson.h) reporting to `control`: a cancelled read ends with an error whose
// message is "cancelled" and whose path is `path`.
Result<std::string> readTextFile(const std::string& path, std::int64_t maxBytes, ReadControl& control);
Result<LoadedPlan> loadPlanFile(const std::string& path, ReadControl& control, const PresetCatalog& presets = PresetCatalog::builtin());

} // namespace planscope
