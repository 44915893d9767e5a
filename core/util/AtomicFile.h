// Writing a file so that readers see the old contents or the new, never a half-written file: the bytes go to a
// temporary file beside the target, are flushed to disk, and the temporary is renamed over the target (rename(2) is
// atomic within a file system, POSIX.1-2017). The core's counterpart of Qt's QSaveFile, for the command line.
#pragma once

#include <string>
#include <string_view>

namespace planscope {

// True on success; otherwise false with `error` saying what failed, and the target untouched.
bool writeFileAtomically(const std::string& path, std::string_view data, std::string& error);

} // namespace planscope
