#include "detail/p2p.hpp"

#include <algorithm>
#include <climits>
#include <new>
#include <cstdlib>
#include <string>

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
    MPI_Request& request = requests_.emplace_back();
    check_mpi(MPI_Irecv(p + offset, count, MPI_BYTE, peer, tag, comm, &request), "MPI_Irecv");
  }
}

void Requests::wait_all() {
  if (requests_.empty()) return;
  check_mpi(MPI_Waitall(static_cast<int>(requests_.size()), requests_.data(), MPI_STATUSES_IGNORE),
            "MPI_Waitall");
  requests_.clear();
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
