#include "InputFile.h"

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>
#include <utility>

namespace planscope {

namespace {

// strerror_r is the XSI one (int) or the GNU one (char*) by the C library's choice; both are taken.
[[maybe_unused]] const char* strerrorResult(int result, const char* buffer) { return result == 0 ? buffer : nullptr; }
[[maybe_unused]] const char* strerrorResult(const char* result, const char*) { return result; }

// What a file of this type is called, for one that is not regular (inode(7) lists the types): a phrase inside the
// message that refuses it.
Text typeName(mode_t mode)
{
    if (S_ISFIFO(mode)) return Text(PS_TEXT("CoreText", "a FIFO"));
    if (S_ISCHR(mode)) return Text(PS_TEXT("CoreText", "a character device"));
    if (S_ISBLK(mode)) return Text(PS_TEXT("CoreText", "a block device"));
    if (S_ISSOCK(mode)) return Text(PS_TEXT("CoreText", "a socket"));
    return Text(PS_TEXT("CoreText", "a special file"));
}

} // namespace

std::string errorText(int error)
{
    char buffer[256] = { 0 };
    const char* text = strerrorResult(strerror_r(error, buffer, sizeof buffer), buffer);
    std::string s = text && *text ? text : "error " + std::to_string(error);
    if (!s.empty() && s[0] >= 'A' && s[0] <= 'Z' && !(s.size() > 1 && s[1] >= 'A' && s[1] <= 'Z')) s[0] = char(s[0] - 'A' + 'a');
    return s;
}

InputFile::InputFile(InputFile&& other) noexcept
    : m_fd(std::exchange(other.m_fd, -1)), m_size(other.m_size)
{
}

InputFile& InputFile::operator=(InputFile&& other) noexcept
{
    if (this != &other) {
        if (m_fd >= 0) ::close(m_fd);
        m_fd = std::exchange(other.m_fd, -1);
        m_size = other.m_size;
    }
    return *this;
}

InputFile::~InputFile()
{
    if (m_fd >= 0) ::close(m_fd);
}

int InputFile::release() { return std::exchange(m_fd, -1); }

std::int64_t InputFile::read(char* dst, std::size_t n)
{
    for (;;) {
        const ssize_t got = ::read(m_fd, dst, n);
        if (got >= 0 || errno != EINTR) return std::int64_t(got);
    }
}

Result<InputFile> openInputFile(const std::string& path)
{
    // O_NONBLOCK: a FIFO opens at once rather than waiting for a writer (fifo(7)); O_NOCTTY: a terminal named by
    // mistake does not become the controlling one (open(2)).
    int fd = -1;
    do {
        fd = ::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
    } while (fd < 0 && errno == EINTR);
    if (fd < 0) {
        const int error = errno;
        return Result<InputFile>::failure(path,
            error == ENOENT ? Text(PS_TEXT("CoreText", "cannot open file"))
                            : Text(PS_TEXT("CoreText", "cannot open file: %1"), errorText(error)));
    }
    InputFile file(fd, 0);
    struct stat st {};
    if (::fstat(fd, &st) != 0)
        return Result<InputFile>::failure(path, Text(PS_TEXT("CoreText", "cannot open file: %1"), errorText(errno)));
    if (S_ISDIR(st.st_mode))
        return Result<InputFile>::failure(path, Text(PS_TEXT("CoreText", "is a folder, not a file; not read")));
    if (!S_ISREG(st.st_mode))
        return Result<InputFile>::failure(path,
            Text(PS_TEXT("CoreText", "is %1, not a regular file; not read"), typeName(st.st_mode)));
    // A regular file never blocks a read; the flag is dropped so that the descriptor reads as any other.
    const int flags = ::fcntl(fd, F_GETFL);
    if (flags >= 0) (void)::fcntl(fd, F_SETFL, flags & ~O_NONBLOCK);
    return InputFile(file.release(), std::int64_t(st.st_size));
}

} // namespace planscope
