#include "AtomicFile.h"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fcntl.h>
#include <sys/stat.h>
#include <sys/resource.h>
#include <sys/statvfs.h>
#include <unistd.h>

namespace planscope {

bool writeFileAtomically(const std::string& path, std::string_view data, std::string& error)
{
    std::string tmp = path + ".XXXXXX";
    const int fd = mkstemp(tmp.data());
    if (fd < 0) {
        const int why = errno;
        const std::string diagnosed = whyCannotWrite(path);
        error = "cannot create a temporary file beside " + path + ": " + (diagnosed.empty() ? std::strerror(why) : diagnosed);
        return false;
    }
    const char* p = data.data();
    std::size_t left = data.size();
    bool ok = true;
    while (left > 0) {
        const ssize_t n = ::write(fd, p, left);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) {
            ok = false;
            break;
        }
        p += n;
        left -= std::size_t(n);
    }
    const int savedErrno = errno;
    if (ok && ::fsync(fd) != 0) ok = false;
    // mkstemp creates the file 0600; a saved document gets the usual permissions (0666 less the umask).
    const mode_t mask = ::umask(0);
    ::umask(mask);
    ::fchmod(fd, 0666 & ~mask);
    if (::close(fd) != 0) ok = false;
    if (ok && std::rename(tmp.c_str(), path.c_str()) != 0) ok = false;
    if (!ok) {
        const std::string why = whyCannotWrite(path);
        error = "cannot write " + path + ": " + (why.empty() ? std::strerror(savedErrno ? savedErrno : errno) : why);
        std::remove(tmp.c_str());
        return false;
    }
    return true;
}

std::string whyCannotWrite(const std::string& path)
{
    const std::size_t slash = path.find_last_of('/');
    const std::string dir = slash == std::string::npos ? std::string(".") : slash == 0 ? std::string("/") : path.substr(0, slash);
    struct statvfs fs {};
    const bool known = ::statvfs(dir.c_str(), &fs) == 0;
    if (known && (fs.f_flag & ST_RDONLY)) return std::strerror(EROFS);
    if (::faccessat(AT_FDCWD, dir.c_str(), W_OK, AT_EACCESS) != 0) return std::strerror(errno);
    if (known && fs.f_bavail == 0) return std::strerror(ENOSPC);
    if (rlimit limit {}; ::getrlimit(RLIMIT_FSIZE, &limit) == 0 && limit.rlim_cur != RLIM_INFINITY)
        return std::string(std::strerror(EFBIG)) + " (this process may write files of at most " + std::to_string(limit.rlim_cur)
            + " bytes: ulimit -f)";
    return {};
}

} // namespace planscope
