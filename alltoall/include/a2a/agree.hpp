// Errors found on some ranks of a collective call, agreed on before anything else happens, so
// that every rank throws the same message and none is left waiting. The libraries use it for
// every argument they check; it is public for layers built on them (the transpose layer).
#pragma once

#include <mpi.h>

#include <memory>
#include <string>

namespace a2a {

namespace detail {
struct PrivateComm;
}

// Collective over comm: the first (lowest) failing rank's message on every rank, or "" when no
// rank has one.
std::string agree_on_error(MPI_Comm comm, const std::string& local_error);

// Collective over comm: rank 0's value on every rank (a decision one rank makes for all, such as
// a deadline read from its clock, or what every rank must match).
std::string root_value(MPI_Comm comm, const std::string& mine);
bool root_decides(MPI_Comm comm, bool mine);

// Local, and the same on every rank of a collective call: throws a2a::Error, naming `what`,
// where comm cannot carry a2a's collectives: MPI not initialized or already finalized,
// MPI_COMM_NULL, or an inter-communicator (its collectives join two groups, which a2a's
// exchanges and agreements do not). Every public entry point that takes a communicator calls it
// before its first collective, so such a call is an error, never an abort or a hang.
void require_intracommunicator(MPI_Comm comm, const char* what);

// Local: throws a2a::Error, naming `what`, unless MPI is initialized and not yet finalized (any
// MPI call but a few is erroneous then: Open MPI aborts the job in MPI_Comm_f2c).
void require_mpi_running(const char* what);

// Whether the communicator a handle was made on is still alive: the rule of a2a's plans, for
// handles of layers built on them that keep communicators of their own (split from the caller's)
// and so would otherwise keep running after the caller freed its communicator. Collective over
// comm the first time a2a meets comm (it makes a2a's private duplicate, freed with comm).
class CommunicatorWatch {
 public:
  explicit CommunicatorWatch(MPI_Comm comm);
  // Local: throws a2a::Error (argument), naming `what` and the freed communicator, once the
  // caller has freed comm: on every rank, since each frees its own.
  void require_alive(const char* what) const;
  // Collective over comm (on a2a's private duplicate of it: one small allreduce): throws
  // a2a::Error, the same on every rank, where comm was freed or where any rank's `problem` is
  // not empty (the lowest such rank's), so that one rank's bad argument to a collective call is
  // an error on every rank, never a hang.
  void require_agreed(const char* what, const std::string& problem) const;

 private:
  std::shared_ptr<const detail::PrivateComm> owner_;
};

}  // namespace a2a
