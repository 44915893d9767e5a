// Writing a file so that readers see the old contents or the new, never a half-written file: the bytes go to a
// temporary file beside the target, are flushed to disk, and the temporary is renamed over the target (rename(2) is
// atomic within a file system, POSIX.1-2017). The core's counterpart of Qt's QSaveFile, for the command line.
#pragma once

#include <string>
#include <string_view>

namespace planscope {

// True on success; otherwise false with `error` saying what failed, and the target untouched.
bool writeFileAtomically(const std::string& path, std::string_view data, std::string& error);

// Why a file cannot be written at `path`, as the system says it (strerror(3)), found after a write failed: the folder's
// file system is mounted read-only (statvfs(3) ST_RDONLY: EROFS), the folder may not be written by this process
// (faccessat(2) with AT_EACCESS, so the effective IDs and capabilities count), or the file system has no free
// block left for this process (f_bavail 0: ENOSPC), or the process may not write files as large (a finite RLIMIT_FSIZE,
// getrlimit(2): EFBIG). Empty when none of these holds (the caller has its own reason).
std::string whyCannotWrite(const std::string& path);

} // namespace planscope
