// Messages with std::size_t byte counts (Requests, sendrecv), and failures agreed across ranks.
// MPI counts are int, so a message above max_message_bytes() travels as several messages with
// the same tag, which MPI's non-overtaking rule delivers in order.
#pragma once

#include <mpi.h>

#include <cstddef>
#include <string>
#include <vector>

#include "a2a/error.hpp"

namespace a2a::detail {

// A2A_MAX_MESSAGE_BYTES if set (tests set it small to exercise splitting), else 1 GiB; always
// in [1, INT_MAX].
std::size_t max_message_bytes();
// How many MPI messages carry `bytes` (0 for 0 bytes: nothing is posted).
std::size_t message_pieces(std::size_t bytes);

void check_mpi(int code, const char* what);

// A reusable request list: reserve() at plan time, then post/wait without allocating.
// wait_all() checks what every receive got against what it expected: a message shorter than
// its receive (the sender's count is smaller than the receiver's: an erroneous Alltoallv) has
// the rest of its receive zero-filled, one longer is truncated (MPI_ERR_TRUNCATE); either way
// every request is completed first, then an Error names the peer and both lengths, or, given
// `mismatch`, the first such message is stored there (if it holds none yet) for the caller to
// report once its whole protocol is done (a rank that left mid-way would leave its peers
// waiting).
class Requests {
 public:
  void reserve(std::size_t n) {
    requests_.reserve(n);
    receives_.reserve(n);
    statuses_.reserve(n);
  }
  void isend(const void* buf, std::size_t bytes, int peer, int tag, MPI_Comm comm);
  void irecv(void* buf, std::size_t bytes, int peer, int tag, MPI_Comm comm);
  void wait_all(std::string* mismatch = nullptr);
  std::size_t pending() const { return requests_.size(); }

 private:
  struct Receive {
    std::size_t request;  // index into requests_
    char* buffer;
    int bytes, peer;
  };
  std::vector<MPI_Request> requests_;
  std::vector<Receive> receives_;
  std::vector<MPI_Status> statuses_;
};

// Blocking exchange with one partner (send to dst, receive from src).
void sendrecv(const void* send, std::size_t send_bytes, int dst, void* recv, std::size_t recv_bytes,
              int src, int tag, MPI_Comm comm, Requests& requests);

// A committed datatype that spans n contiguous bytes, for any n (types of types past INT_MAX).
// The caller frees it with MPI_Type_free.
MPI_Datatype contiguous_bytes_type(std::size_t n);
// A committed type of n bytes starting at byte displacement disp (for MPI_Alltoallw).
MPI_Datatype displaced_bytes_type(std::size_t n, std::size_t disp);

// A rank's failure: its kind and message (no failure when the message is empty).
struct Failure {
  ErrorKind kind = ErrorKind::internal;
  std::string message;
  explicit operator bool() const { return !message.empty(); }
};

// The failure the exception being handled stands for (call inside a catch block): its kind
// (std::bad_alloc is a resource failure, any other non-a2a exception an internal one) and its
// message, with `prefix` put in front unless the message already starts with it.
Failure current_failure(const std::string& prefix = "");

// Collective: all ranks learn the first failing rank's failure, kind and message; none if no
// rank failed.
Failure agree_on_failure(MPI_Comm comm, const Failure& local);
// Collective: the same, thrown on every rank (SpecError or Error, with its kind) if any failed.
void agree_or_throw(MPI_Comm comm, const Failure& local);
// Collective, for messages only: all ranks learn the first rank's error text ("" if none).
std::string agree_on_error(MPI_Comm comm, const std::string& local_error);

}  // namespace a2a::detail
