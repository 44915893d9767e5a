// Opening a file the user named, to read it: only a regular file is read. The open never blocks: open(2) of a FIFO
// for reading waits for a writer unless O_NONBLOCK is given (fifo(7)), so the file is opened with it, and what fstat(2)
// then says is no regular file (a FIFO, a device such as /dev/zero that never ends, a socket, a folder) is refused by
// its type before a byte is read. The one rule for plans, profiles, nccl-tests outputs and traces.
#pragma once

#include "util/Result.h"

#include <cstddef>
#include <cstdint>
#include <string>

namespace planscope {

// A regular file open for reading: a POSIX descriptor, closed with the object unless released.
class InputFile {
public:
    InputFile() = default;
    InputFile(int fd, std::int64_t size) : m_fd(fd), m_size(size) { }
    InputFile(InputFile&& other) noexcept;
    InputFile& operator=(InputFile&& other) noexcept;
    InputFile(const InputFile&) = delete;
    InputFile& operator=(const InputFile&) = delete;
    ~InputFile();

    int fd() const { return m_fd; }
    // Its size when opened (st_size); 0 for files whose size the system does not know (procfs, proc(5)).
    std::int64_t size() const { return m_size; }
    // Hands the descriptor over (to fdopen(3), gzdopen): the caller closes it.
    int release();
    // Up to n bytes into dst, retried when a signal interrupts; 0 at the end, -1 on an error (errno says which).
    std::int64_t read(char* dst, std::size_t n);

private:
    int m_fd = -1;
    std::int64_t m_size = 0;
};

// Opens `path` for reading. A failure's issue has `path` as its path and one of these messages:
//   "cannot open file"                                   the path names nothing (ENOENT)
//   "cannot open file: permission denied"                any other open(2) error, as errorText() words it
//   "cannot open file: too many levels of symbolic links"
//   "is a folder, not a file; not read"
//   "is a FIFO, not a regular file; not read"            likewise a character device, a block device, a socket
Result<InputFile> openInputFile(const std::string& path);

// An errno value in words, as strerror(3) gives it with its first letter lower-cased ("permission denied");
// thread-safe (strerror_r).
std::string errorText(int error);

} // namespace planscope
