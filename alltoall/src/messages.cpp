#include "detail/messages.hpp"

#include <algorithm>
#include <climits>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <new>
#include <string>

#include "a2a/agree.hpp"
#include "a2a/error.hpp"

namespace a2a::detail {

std::size_t max_message_bytes() {
  static const std::size_t limit = [] {
    constexpr std::size_t default_limit = std::size_t{1} << 30;
    const char* text = std::getenv("A2A_MAX_MESSAGE_BYTES");
    if (text == nullptr || *text == '\0') return default_limit;
    char* end = nullptr;
    const unsigned long long value = std::strtoull(text, &end, 10);
    if (*end != '\0' || value == 0) return default_limit;
    return static_cast<std::size_t>(std::min<unsigned long long>(value, INT_MAX));
  }();
  return limit;
}

std::size_t message_pieces(std::size_t bytes) {
  const std::size_t limit = max_message_bytes();
  return (bytes + limit - 1) / limit;
}

void check_mpi(int code, const char* what) {
  if (code == MPI_SUCCESS) return;
  char text[MPI_MAX_ERROR_STRING];
  int length = 0;
  MPI_Error_string(code, text, &length);
  throw Error(std::string(what) + " failed: " + std::string(text, static_cast<std::size_t>(length)),
              ErrorKind::mpi);
}

void Requests::isend(const void* buf, std::size_t bytes, int peer, int tag, MPI_Comm comm) {
  const std::size_t limit = max_message_bytes();
  const auto* p = static_cast<const char*>(buf);
  for (std::size_t offset = 0; offset < bytes; offset += limit) {
    const int count = static_cast<int>(std::min(limit, bytes - offset));
    MPI_Request& request = requests_.emplace_back();
    check_mpi(MPI_Isend(p + offset, count, MPI_BYTE, peer, tag, comm, &request), "MPI_Isend");
  }
}

void Requests::irecv(void* buf, std::size_t bytes, int peer, int tag, MPI_Comm comm) {
  const std::size_t limit = max_message_bytes();
  auto* p = static_cast<char*>(buf);
  for (std::size_t offset = 0; offset < bytes; offset += limit) {
    const int count = static_cast<int>(std::min(limit, bytes - offset));
    receives_.push_back({requests_.size(), p + offset, count, peer});
    MPI_Request& request = requests_.emplace_back();
    check_mpi(MPI_Irecv(p + offset, count, MPI_BYTE, peer, tag, comm, &request), "MPI_Irecv");
  }
}

namespace {

#if defined(MPICH_VERSION) && !defined(A2A_SMPI)
// MPICH raises the errors of MPI_Waitall (a truncated receive: mismatched Alltoallv counts) on
// MPI_COMM_WORLD's error handler, not on the requests' communicator, and so aborts the job
// where a2a promises an error. While any a2a wait is in progress MPI_COMM_WORLD's handler is
// MPI_ERRORS_RETURN (the first waiter sets it, the last restores the caller's). A comm-less
// error of another thread of the caller's in that window returns instead of aborting.
class WorldErrorsReturn {
 public:
  WorldErrorsReturn() {
    const std::lock_guard<std::mutex> hold(lock());
    if (waiters()++ == 0) {
      MPI_Comm_get_errhandler(MPI_COMM_WORLD, &saved());
      MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    }
  }
  ~WorldErrorsReturn() {
    const std::lock_guard<std::mutex> hold(lock());
    if (--waiters() == 0) {
      MPI_Comm_set_errhandler(MPI_COMM_WORLD, saved());
      MPI_Errhandler_free(&saved());
    }
  }
  WorldErrorsReturn(const WorldErrorsReturn&) = delete;
  WorldErrorsReturn& operator=(const WorldErrorsReturn&) = delete;

 private:
  static std::mutex& lock() {
    static std::mutex m;
    return m;
  }
  static int& waiters() {
    static int n = 0;
    return n;
  }
  static MPI_Errhandler& saved() {
    static MPI_Errhandler h = MPI_ERRHANDLER_NULL;
    return h;
  }
};
#else
struct WorldErrorsReturn {};  // other MPIs raise them on the requests' communicator
#endif

}  // namespace

void Requests::wait_all(std::string* mismatch) {
  if (requests_.empty()) return;
  statuses_.resize(requests_.size());
  int code = MPI_SUCCESS;
  {
    [[maybe_unused]] const WorldErrorsReturn returning;
    code = MPI_Waitall(static_cast<int>(requests_.size()), requests_.data(), statuses_.data());
  }
  // The statuses' error fields are set only when Waitall reports MPI_ERR_IN_STATUS.
  const bool in_status = code == MPI_ERR_IN_STATUS;
  auto error_class = [](int error) {
    int cls = MPI_SUCCESS;
    MPI_Error_class(error, &cls);
    return cls;
  };
  if (in_status) {
    // Some request failed (a truncated receive): finish those still pending, then report
    // anything but a truncation as the MPI error it is.
    code = MPI_SUCCESS;
    for (std::size_t i = 0; i < requests_.size(); ++i) {
      if (statuses_[i].MPI_ERROR == MPI_ERR_PENDING) {
        [[maybe_unused]] const WorldErrorsReturn returning;
        statuses_[i].MPI_ERROR = MPI_Wait(&requests_[i], &statuses_[i]);
      }
      const int cls = error_class(statuses_[i].MPI_ERROR);
      if (cls != MPI_SUCCESS && cls != MPI_ERR_TRUNCATE && code == MPI_SUCCESS) {
        code = statuses_[i].MPI_ERROR;
      }
    }
  }
  std::string error;
  for (const Receive& r : receives_) {
    const MPI_Status& status = statuses_[r.request];
    int got = 0;
    MPI_Get_count(&status, MPI_BYTE, &got);
    const bool truncated = in_status && error_class(status.MPI_ERROR) == MPI_ERR_TRUNCATE;
    if (got == r.bytes && !truncated) continue;
    if (!truncated && got >= 0 && got < r.bytes) {
      std::memset(r.buffer + got, 0, static_cast<std::size_t>(r.bytes - got));
    }
    if (error.empty()) {
      error = "rank " + std::to_string(r.peer) + " sent " +
              (truncated ? "more than " + std::to_string(r.bytes) : std::to_string(got)) +
              " bytes where " + std::to_string(r.bytes) +
              " were expected (mismatched Alltoallv counts; A2A_CHECK_COUNTS=1 checks them on "
              "every rank before any data moves)";
      if (!truncated) error += "; the rest of the block is zero-filled";
    }
  }
  requests_.clear();
  receives_.clear();
  check_mpi(code, "MPI_Waitall");
  if (error.empty()) return;
  if (mismatch == nullptr) throw Error(error, ErrorKind::argument);
  if (mismatch->empty()) *mismatch = error;
}

void sendrecv(const void* send, std::size_t send_bytes, int dst, void* recv, std::size_t recv_bytes,
              int src, int tag, MPI_Comm comm, Requests& requests) {
  requests.irecv(recv, recv_bytes, src, tag, comm);
  requests.isend(send, send_bytes, dst, tag, comm);
  requests.wait_all();
}

MPI_Datatype contiguous_bytes_type(std::size_t n) {
  MPI_Datatype type = MPI_DATATYPE_NULL;
  if (n <= static_cast<std::size_t>(INT_MAX)) {
    MPI_Type_contiguous(static_cast<int>(n), MPI_BYTE, &type);
  } else {
    // n = q * 1 GiB + rest: a contiguous type of q chunk types, followed by the rest.
    constexpr std::size_t chunk = std::size_t{1} << 30;
    MPI_Datatype chunk_type = MPI_DATATYPE_NULL, chunks = MPI_DATATYPE_NULL;
    MPI_Datatype rest = MPI_DATATYPE_NULL;
    MPI_Type_contiguous(static_cast<int>(chunk), MPI_BYTE, &chunk_type);
    MPI_Type_contiguous(static_cast<int>(n / chunk), chunk_type, &chunks);
    MPI_Type_contiguous(static_cast<int>(n % chunk), MPI_BYTE, &rest);
    int lengths[2] = {1, 1};
    MPI_Aint displs[2] = {0, static_cast<MPI_Aint>(n / chunk * chunk)};
    MPI_Datatype types[2] = {chunks, rest};
    MPI_Type_create_struct(2, lengths, displs, types, &type);
    MPI_Type_free(&chunk_type);
    MPI_Type_free(&chunks);
    MPI_Type_free(&rest);
  }
  MPI_Type_commit(&type);
  return type;
}

MPI_Datatype displaced_bytes_type(std::size_t n, std::size_t disp) {
  MPI_Datatype bytes = contiguous_bytes_type(n);
  MPI_Datatype type = MPI_DATATYPE_NULL;
  int length = 1;
  MPI_Aint displacement = static_cast<MPI_Aint>(disp);
  MPI_Type_create_struct(1, &length, &displacement, &bytes, &type);
  MPI_Type_commit(&type);
  MPI_Type_free(&bytes);
  return type;
}

Failure current_failure(const std::string& prefix) {
  Failure failure;
  try {
    throw;
  } catch (const Error& e) {
    failure = {e.kind(), e.what()};
  } catch (const std::bad_alloc&) {
    failure = {ErrorKind::resource, "out of memory"};
  } catch (const std::exception& e) {
    failure = {ErrorKind::internal, e.what()};
  } catch (...) {
    failure = {ErrorKind::internal, "unknown error"};
  }
  if (failure.message.empty()) failure.message = "unknown error";
  if (failure.message.rfind(prefix, 0) != 0) failure.message = prefix + failure.message;
  return failure;
}

Failure agree_on_failure(MPI_Comm comm, const Failure& local) {
  a2a::require_intracommunicator(comm, "a2a");
  int rank = 0, procs = 1;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &procs);
  int first = local ? rank : procs;
  MPI_Allreduce(MPI_IN_PLACE, &first, 1, MPI_INT, MPI_MIN, comm);
  if (first == procs) return {};
  Failure agreed = local;
  unsigned long long header[2] = {agreed.message.size(),
                                  static_cast<unsigned long long>(agreed.kind)};
  MPI_Bcast(header, 2, MPI_UNSIGNED_LONG_LONG, first, comm);
  agreed.message.resize(header[0]);
  agreed.kind = static_cast<ErrorKind>(header[1]);
  MPI_Bcast(agreed.message.data(), static_cast<int>(header[0]), MPI_CHAR, first, comm);
  return agreed;
}

void agree_or_throw(MPI_Comm comm, const Failure& local) {
  const Failure agreed = agree_on_failure(comm, local);
  if (agreed) throw_error(agreed.kind, agreed.message);
}

std::string agree_on_error(MPI_Comm comm, const std::string& local_error) {
  return agree_on_failure(comm, {ErrorKind::argument, local_error}).message;
}

}  // namespace a2a::detail

void a2a::require_mpi_running(const char* what) {
  int initialized = 0, finalized = 0;
  MPI_Initialized(&initialized);
  MPI_Finalized(&finalized);
  const std::string who(what);
  if (!initialized) throw Error(who + ": MPI is not initialized (call MPI_Init first)");
  if (finalized) throw Error(who + ": MPI has been finalized (MPI_Finalize was called)");
}

void a2a::require_intracommunicator(MPI_Comm comm, const char* what) {
  require_mpi_running(what);
  const std::string who(what);
  if (comm == MPI_COMM_NULL) throw Error(who + ": the communicator is MPI_COMM_NULL");
  int inter = 0;
  if (MPI_Comm_test_inter(comm, &inter) != MPI_SUCCESS) {
    throw Error(who + ": the communicator is not a valid communicator");
  }
  if (inter) {
    throw Error(who +
                ": the communicator is an inter-communicator; a2a needs an "
                "intra-communicator (MPI_Intercomm_merge makes one of both groups)");
  }
}

std::string a2a::agree_on_error(MPI_Comm comm, const std::string& local_error) {
  return detail::agree_on_error(comm, local_error);
}

std::string a2a::root_value(MPI_Comm comm, const std::string& mine) {
  std::string root = mine;
  unsigned long long length = root.size();
  MPI_Bcast(&length, 1, MPI_UNSIGNED_LONG_LONG, 0, comm);
  root.resize(length);
  MPI_Bcast(root.data(), static_cast<int>(length), MPI_CHAR, 0, comm);
  return root;
}

bool a2a::root_decides(MPI_Comm comm, bool mine) {
  int value = mine ? 1 : 0;
  MPI_Bcast(&value, 1, MPI_INT, 0, comm);
  return value != 0;
}
