// How planscope-profile was started, and the NCCL unique id every rank shares.
//   no launcher: one process drives every local GPU (rank = GPU index);
//   torchrun: RANK, WORLD_SIZE, LOCAL_RANK (LOCAL_WORLD_SIZE);
//   srun: SLURM_PROCID, SLURM_STEP_NUM_TASKS (or SLURM_NTASKS inside a step), SLURM_LOCALID;
//   mpirun (Open MPI): OMPI_COMM_WORLD_RANK, OMPI_COMM_WORLD_SIZE, OMPI_COMM_WORLD_LOCAL_RANK.
// The id: NCCL_COMM_ID where set (NCCL's own bootstrap: every rank calls ncclGetUniqueId), else rank 0 serves
// it over TCP on MASTER_ADDR:port (POSIX sockets, every step under the deadline).
#pragma once

#include <nccl.h>

#include <string>

namespace planscope::profile {

struct Launch {
    std::string launcher = "none"; // "none", "torchrun", "srun", "mpirun"
    int rank = 0;
    int worldSize = 1;
    int localRank = 0;
    int localWorldSize = 0;        // 0 where the launcher does not say
    bool multiProcess() const { return worldSize > 1; }
};

// Reads the launcher's environment; throws Failure(kExitUsage) where it is inconsistent.
Launch detectLaunch();

// The rendezvous port: PLANSCOPE_PORT, else MASTER_PORT (+1 under torchrun, whose store holds MASTER_PORT),
// else 29500 (+1 under torchrun). The address: MASTER_ADDR, else 127.0.0.1 where every rank is on this node.
struct Rendezvous {
    std::string address;
    int port = 0;
};
Rendezvous rendezvousAddress(const Launch& launch);

// The id every rank passes to ncclCommInitRankConfig. Throws Failure(kExitNccl) on a timeout or a protocol
// error, Failure(kExitUsage) where no address is known.
ncclUniqueId bootstrapUniqueId(const Launch& launch, double timeoutSeconds);

} // namespace planscope::profile
