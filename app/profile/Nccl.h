// NCCL communicators for planscope-profile. Every communicator is nonblocking (config.blocking = 0) so that no
// NCCL call can hang: each wait polls ncclCommGetAsyncError (and CUDA events) against a deadline, and any
// failure or timeout aborts every live communicator (abortAllComms) and exits 4.
#pragma once

#include "Common.h"

#include <nccl.h>

#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace planscope::profile {

std::string ncclVersionString(); // of the library loaded at run time, e.g. "2.28.3"

// Throws Failure(kExitNccl) naming the call, NCCL's error and its last message.
void checkNccl(ncclResult_t status, const char* what, ncclComm_t comm = nullptr);
#define PS_NCCL(call) ::planscope::profile::checkNccl((call), #call)

// Aborts every communicator created here and not yet destroyed (on any failure, before exiting).
void abortAllComms();

// Polls until no communicator is ncclInProgress; throws on an error or when `timeoutSeconds` pass.
void waitReady(const std::vector<ncclComm_t>& comms, double timeoutSeconds, const std::string& what);
// Polls until every event has completed, checking the communicators' async errors; same deadline rule.
void waitEvents(const std::vector<cudaEvent_t>& events, const std::vector<ncclComm_t>& comms, double timeoutSeconds,
    const std::string& what);

// One rank driven by this process.
struct LocalRank {
    int device = 0;
    int rank = 0;              // in the communicator it belongs to
    cudaStream_t stream = nullptr;
    ncclComm_t comm = nullptr;
};

// The ranks 0..size-1 of the world as one communicator; `members` are this process's ranks in it (none where
// this process takes no part).
struct Group {
    int size = 0;
    int nodes = 1;
    std::vector<LocalRank> members;
    bool owned = false;        // split from the world, destroyed by destroyGroup
    std::vector<ncclComm_t> comms() const;
};

struct World {
    bool multiProcess = false;  // one rank per process under a launcher
    int size = 0;
    int nodes = 1;
    std::vector<int> nodeOfRank; // per global rank, filled by setNodes
    std::vector<LocalRank> local;
    double timeout = 300;
    std::shared_ptr<DeviceBuffer> scratch; // for worldMax across processes
    Group all() const;
    std::vector<ncclComm_t> comms() const;
    int nodesSpanned(int firstRanks) const; // nodes holding ranks 0..firstRanks-1
};

// Creates the world: one communicator per (device, global rank) of this process, in one NCCL group (in a
// single process this is what ncclCommInitAll does, with a configuration so that it cannot hang).
World initWorld(const ncclUniqueId& id, int worldSize, const std::vector<std::pair<int, int>>& deviceAndRank,
    bool multiProcess, double timeoutSeconds);
// Ranks 0..size-1 as a communicator (ncclCommSplit); the world itself where size is the world's size.
Group splitGroup(const World& world, int size);
void destroyGroup(Group& group, double timeoutSeconds);
void destroyWorld(World& world);
void setNodes(World& world, const std::vector<std::string>& hostOfRank);

// Elementwise maximum over every rank of the world (each rank of this process gives one vector, all of the
// same length): host-side in one process, an NCCL all-reduce across processes.
std::vector<double> worldMax(const World& world, const std::vector<std::vector<double>>& perLocal);
// Each rank's `bytes`-long record, in global rank order (an NCCL all-gather across processes).
std::vector<std::string> worldGather(const World& world, const std::vector<std::string>& perLocal, std::size_t bytes);

} // namespace planscope::profile
