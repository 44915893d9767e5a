#include "Launcher.h"

#include "Common.h"
#include "Nccl.h"

#include <arpa/inet.h>
#include <cerrno>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <sys/socket.h>
#include <thread>
#include <unistd.h>

namespace planscope::profile {

namespace {
constexpr char kMagic[8] = { 'P', 'S', 'P', 'R', 'O', 'F', '0', '1' };

const char* env(const char* name)
{
    const char* v = std::getenv(name);
    return v && *v ? v : nullptr;
}

int envInt(const char* name, int fallback, bool& ok)
{
    const char* v = env(name);
    if (!v) return fallback;
    char* end = nullptr;
    errno = 0;
    const long x = std::strtol(v, &end, 10);
    if (errno || *end || x < 0 || x > (1 << 24)) {
        ok = false;
        return fallback;
    }
    return int(x);
}

// A socket closed on scope exit.
struct Socket {
    int fd = -1;
    Socket() = default;
    explicit Socket(int f) : fd(f) { }
    ~Socket()
    {
        if (fd >= 0) ::close(fd);
    }
    Socket(const Socket&) = delete;
    Socket& operator=(const Socket&) = delete;
};

void setNonBlocking(int fd)
{
    const int flags = ::fcntl(fd, F_GETFL, 0);
    ::fcntl(fd, F_SETFL, flags | O_NONBLOCK);
}

// Waits for `events` on fd until the deadline; false on timeout.
bool waitFd(int fd, short events, const Deadline& deadline)
{
    for (;;) {
        const double left = deadline.secondsLeft();
        if (left <= 0) return false;
        pollfd p { fd, events, 0 };
        const int ms = int(std::min(left * 1000.0, 1000.0)) + 1;
        const int r = ::poll(&p, 1, ms);
        if (r > 0) return true;
        if (r < 0 && errno != EINTR) return false;
    }
}

bool sendAll(int fd, const void* data, std::size_t size, const Deadline& deadline)
{
    const char* p = static_cast<const char*>(data);
    while (size > 0) {
        const ssize_t n = ::send(fd, p, size, MSG_NOSIGNAL);
        if (n > 0) {
            p += n;
            size -= std::size_t(n);
        } else if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR)) {
            if (!waitFd(fd, POLLOUT, deadline)) return false;
        } else {
            return false;
        }
    }
    return true;
}

bool recvAll(int fd, void* data, std::size_t size, const Deadline& deadline)
{
    char* p = static_cast<char*>(data);
    while (size > 0) {
        const ssize_t n = ::recv(fd, p, size, 0);
        if (n > 0) {
            p += n;
            size -= std::size_t(n);
        } else if (n == 0) {
            return false; // closed
        } else if (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR) {
            if (!waitFd(fd, POLLIN, deadline)) return false;
        } else {
            return false;
        }
    }
    return true;
}

struct Hello {
    char magic[8];
    std::uint32_t rank;  // network order
    std::uint32_t world; // network order
};

struct Reply {
    char magic[8];
    char id[NCCL_UNIQUE_ID_BYTES];
};

std::string where(const Rendezvous& r)
{
    return r.address + ":" + std::to_string(r.port);
}

// Rank 0: listens and hands the id to every other rank.
void serveId(const Launch& launch, const Rendezvous& at, const ncclUniqueId& id, double timeoutSeconds)
{
    const Deadline deadline(timeoutSeconds);
    Socket listener(::socket(AF_INET, SOCK_STREAM, 0));
    if (listener.fd < 0) fail(kExitNccl, std::string("rendezvous: socket: ") + std::strerror(errno));
    const int one = 1;
    ::setsockopt(listener.fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
    sockaddr_in addr {};
    addr.sin_family = AF_INET;
    addr.sin_addr.s_addr = htonl(INADDR_ANY);
    addr.sin_port = htons(std::uint16_t(at.port));
    if (::bind(listener.fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr) != 0)
        fail(kExitNccl, "rendezvous: cannot listen on port " + std::to_string(at.port) + ": " + std::strerror(errno)
                + " (set PLANSCOPE_PORT or MASTER_PORT to a free port)");
    if (::listen(listener.fd, 128) != 0) fail(kExitNccl, std::string("rendezvous: listen: ") + std::strerror(errno));
    setNonBlocking(listener.fd);
    int served = 0;
    const int expected = launch.worldSize - 1;
    while (served < expected) {
        if (!waitFd(listener.fd, POLLIN, deadline))
            fail(kExitNccl, "rendezvous timed out on port " + std::to_string(at.port) + ": " + std::to_string(served)
                    + " of " + std::to_string(expected) + " ranks connected");
        Socket client(::accept(listener.fd, nullptr, nullptr));
        if (client.fd < 0) continue;
        setNonBlocking(client.fd);
        Hello hello {};
        const Deadline perClient(std::min(10.0, std::max(0.1, deadline.secondsLeft())));
        if (!recvAll(client.fd, &hello, sizeof hello, perClient) || std::memcmp(hello.magic, kMagic, sizeof kMagic) != 0)
            continue; // not one of ours (a port scanner, a stale client): ignore
        if (int(ntohl(hello.world)) != launch.worldSize)
            fail(kExitUsage, "rendezvous: rank " + std::to_string(ntohl(hello.rank)) + " says the world has "
                    + std::to_string(ntohl(hello.world)) + " ranks, rank 0 says " + std::to_string(launch.worldSize));
        Reply reply {};
        std::memcpy(reply.magic, kMagic, sizeof kMagic);
        std::memcpy(reply.id, id.internal, NCCL_UNIQUE_ID_BYTES);
        if (sendAll(client.fd, &reply, sizeof reply, perClient)) ++served;
    }
}

// Every other rank: connects (retrying until rank 0 listens) and reads the id.
ncclUniqueId fetchId(const Launch& launch, const Rendezvous& at, double timeoutSeconds)
{
    const Deadline deadline(timeoutSeconds);
    addrinfo hints {};
    hints.ai_family = AF_INET;
    hints.ai_socktype = SOCK_STREAM;
    std::string lastError = "no answer";
    while (!deadline.expired()) {
        addrinfo* list = nullptr;
        const int gai = ::getaddrinfo(at.address.c_str(), std::to_string(at.port).c_str(), &hints, &list);
        if (gai != 0) {
            lastError = std::string("cannot resolve ") + at.address + ": " + ::gai_strerror(gai);
            std::this_thread::sleep_for(std::chrono::milliseconds(500));
            continue;
        }
        for (addrinfo* a = list; a && !deadline.expired(); a = a->ai_next) {
            Socket s(::socket(a->ai_family, a->ai_socktype, a->ai_protocol));
            if (s.fd < 0) continue;
            setNonBlocking(s.fd);
            if (::connect(s.fd, a->ai_addr, a->ai_addrlen) != 0) {
                if (errno != EINPROGRESS) {
                    lastError = std::strerror(errno);
                    continue;
                }
                const Deadline connectDeadline(std::min(2.0, std::max(0.05, deadline.secondsLeft())));
                if (!waitFd(s.fd, POLLOUT, connectDeadline)) {
                    lastError = "connect timed out";
                    continue;
                }
                int err = 0;
                socklen_t len = sizeof err;
                ::getsockopt(s.fd, SOL_SOCKET, SO_ERROR, &err, &len);
                if (err != 0) {
                    lastError = std::strerror(err);
                    continue;
                }
            }
            Hello hello {};
            std::memcpy(hello.magic, kMagic, sizeof kMagic);
            hello.rank = htonl(std::uint32_t(launch.rank));
            hello.world = htonl(std::uint32_t(launch.worldSize));
            Reply reply {};
            if (!sendAll(s.fd, &hello, sizeof hello, deadline) || !recvAll(s.fd, &reply, sizeof reply, deadline)
                || std::memcmp(reply.magic, kMagic, sizeof kMagic) != 0) {
                lastError = "no reply from rank 0";
                continue;
            }
            ::freeaddrinfo(list);
            ncclUniqueId id {};
            std::memcpy(id.internal, reply.id, NCCL_UNIQUE_ID_BYTES);
            return id;
        }
        ::freeaddrinfo(list);
        std::this_thread::sleep_for(std::chrono::milliseconds(200));
    }
    fail(kExitNccl, "rendezvous timed out: rank " + std::to_string(launch.rank) + " could not get the NCCL id from rank 0 at "
            + where(at) + " (" + lastError + ")");
}
} // namespace

Launch detectLaunch()
{
    Launch l;
    bool ok = true;
    if (env("RANK") && env("WORLD_SIZE")) {
        l.launcher = "torchrun";
        l.rank = envInt("RANK", 0, ok);
        l.worldSize = envInt("WORLD_SIZE", 1, ok);
        l.localRank = envInt("LOCAL_RANK", 0, ok);
        l.localWorldSize = envInt("LOCAL_WORLD_SIZE", 0, ok);
    } else if (env("OMPI_COMM_WORLD_RANK") && env("OMPI_COMM_WORLD_SIZE")) {
        l.launcher = "mpirun";
        l.rank = envInt("OMPI_COMM_WORLD_RANK", 0, ok);
        l.worldSize = envInt("OMPI_COMM_WORLD_SIZE", 1, ok);
        l.localRank = envInt("OMPI_COMM_WORLD_LOCAL_RANK", 0, ok);
        l.localWorldSize = envInt("OMPI_COMM_WORLD_LOCAL_SIZE", 0, ok);
    } else if (env("SLURM_PROCID") && (env("SLURM_STEP_NUM_TASKS") || (env("SLURM_NTASKS") && env("SLURM_STEP_ID")))) {
        // Only inside an srun step: a batch script run without srun has SLURM_NTASKS but is one process.
        l.launcher = "srun";
        l.rank = envInt("SLURM_PROCID", 0, ok);
        l.worldSize = env("SLURM_STEP_NUM_TASKS") ? envInt("SLURM_STEP_NUM_TASKS", 1, ok) : envInt("SLURM_NTASKS", 1, ok);
        l.localRank = envInt("SLURM_LOCALID", 0, ok);
        const int nodes = env("SLURM_STEP_NUM_NODES") ? envInt("SLURM_STEP_NUM_NODES", 0, ok) : envInt("SLURM_NNODES", 0, ok);
        if (nodes == 1) l.localWorldSize = l.worldSize;
    }
    if (!ok) fail(kExitUsage, "the " + l.launcher + " environment holds a value that is not a number");
    if (l.worldSize < 1 || l.rank >= l.worldSize)
        fail(kExitUsage, l.launcher + ": rank " + std::to_string(l.rank) + " is outside a world of " + std::to_string(l.worldSize));
    if (l.worldSize == 1) {
        // A launcher with one rank is the single-process mode.
        l.launcher = l.launcher == "none" ? "none" : l.launcher + " (1 rank)";
        l.rank = 0;
        l.localRank = 0;
    }
    return l;
}

Rendezvous rendezvousAddress(const Launch& launch)
{
    Rendezvous r;
    const bool torchrun = launch.launcher == "torchrun";
    bool ok = true;
    if (env("PLANSCOPE_PORT")) r.port = envInt("PLANSCOPE_PORT", 0, ok);
    else if (env("MASTER_PORT")) r.port = envInt("MASTER_PORT", 0, ok) + (torchrun ? 1 : 0);
    else r.port = 29500 + (torchrun ? 1 : 0);
    if (!ok || r.port < 1 || r.port > 65535) fail(kExitUsage, "PLANSCOPE_PORT / MASTER_PORT is not a TCP port");
    if (env("MASTER_ADDR")) r.address = env("MASTER_ADDR");
    else if (launch.localWorldSize == launch.worldSize) r.address = "127.0.0.1";
    else
        fail(kExitUsage, launch.launcher + " over " + std::to_string(launch.worldSize)
                + " ranks: set MASTER_ADDR (and MASTER_PORT) to rank 0's host, or NCCL_COMM_ID");
    return r;
}

ncclUniqueId bootstrapUniqueId(const Launch& launch, double timeoutSeconds)
{
    ncclUniqueId id {};
    if (env("NCCL_COMM_ID")) {
        // NCCL's bootstrap: the id encodes NCCL_COMM_ID and rank 0's ncclCommInitRank serves it.
        PS_NCCL(ncclGetUniqueId(&id));
        return id;
    }
    const Rendezvous at = rendezvousAddress(launch);
    if (launch.rank == 0) {
        PS_NCCL(ncclGetUniqueId(&id));
        if (launch.worldSize > 1) serveId(launch, at, id, timeoutSeconds);
        return id;
    }
    return fetchId(launch, at, timeoutSeconds);
}

} // namespace planscope::profile
