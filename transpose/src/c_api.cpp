// The C API of a2a::transpose (a2a/transpose.h): handles over a2a::Redistribution.
#include "a2a/transpose.h"

#include <memory>
#include <string>
#include <vector>

#include "a2a/agree.hpp"
#include "a2a/box_c.hpp"
#include "a2a/c_status.hpp"
#include "a2a/transpose.hpp"

struct a2a_redistribution_s {
  a2a::Redistribution redistribution;
};

extern "C" {

int a2a_redistribution_create(MPI_Comm comm, const a2a_box* in, const a2a_box* out,
                              size_t element_bytes, const char* backend, a2a_redistribution* r) {
  return a2a::c_api::guarded([&] {
    if (r != nullptr) *r = nullptr;
    a2a::require_intracommunicator(comm, "a2a_redistribution_create");
    // A null pointer on one rank is agreed on before the collective construction.
    int ok = in != nullptr && out != nullptr && r != nullptr;
    MPI_Allreduce(MPI_IN_PLACE, &ok, 1, MPI_INT, MPI_LAND, comm);
    if (!ok)
      throw a2a::Error("a2a_redistribution_create: a box or the handle is NULL on some rank");
    *r = new a2a_redistribution_s{a2a::Redistribution(comm, a2a::box_of(*in), a2a::box_of(*out),
                                                      element_bytes,
                                                      backend != nullptr ? backend : "auto")};
  });
}

int a2a_redistribution_create_f(MPI_Fint comm, const a2a_box* in, const a2a_box* out,
                                size_t element_bytes, const char* backend, a2a_redistribution* r) {
  MPI_Comm c = MPI_COMM_NULL;
  if (const int code = a2a::c_api::comm_from_fortran(comm, c, r)) return code;
  return a2a_redistribution_create(c, in, out, element_bytes, backend, r);
}

int a2a_redistribution_execute(a2a_redistribution r, const void* in, void* out) {
  return a2a::c_api::guarded([&] {
    if (r == nullptr) throw a2a::Error("redistribution is NULL");
    r->redistribution.execute(in, out);
  });
}

int a2a_redistribution_start(a2a_redistribution r, const void* in, void* out) {
  return a2a::c_api::guarded([&] {
    if (r == nullptr) throw a2a::Error("redistribution is NULL");
    r->redistribution.start(in, out);
  });
}

int a2a_redistribution_share(a2a_redistribution r, a2a_redistribution with) {
  return a2a::c_api::guarded([&] {
    if (r == nullptr || with == nullptr) throw a2a::Error("redistribution is NULL");
    r->redistribution.share_with(with->redistribution);
  });
}

size_t a2a_redistribution_memory_bytes(const a2a_redistribution* rs, int count) {
  std::vector<const a2a::Redistribution*> group;
  for (int i = 0; rs != nullptr && i < count; ++i)
    if (rs[i] != nullptr) group.push_back(&rs[i]->redistribution);
  return a2a::Redistribution::held_bytes(group);
}

int a2a_redistribution_finish(a2a_redistribution r) {
  return a2a::c_api::guarded([&] {
    if (r == nullptr) throw a2a::Error("redistribution is NULL");
    r->redistribution.finish();
  });
}

const char* a2a_redistribution_backend(a2a_redistribution r) {
  return r != nullptr ? r->redistribution.plan().name().c_str() : nullptr;
}

int a2a_redistribution_uniform(a2a_redistribution r) {
  return r != nullptr && r->redistribution.uniform() ? 1 : 0;
}

int a2a_redistribution_counters(a2a_redistribution r, a2a_counters* counters) {
  return a2a::c_api::guarded([&] {
    if (r == nullptr || counters == nullptr) throw a2a::Error("redistribution or counters is NULL");
    const a2a::Counters& c = r->redistribution.plan().counters();
    *counters = {c.rounds, c.waits, c.messages_sent, c.blocks_sent, c.bytes_sent};
  });
}

int a2a_redistribution_free(a2a_redistribution* r) {
  return a2a::c_api::guarded([&] {
    if (r == nullptr) return;
    delete *r;
    *r = nullptr;
  });
}

int64_t a2a_block_start(int64_t n, int parts, int index) {
  int64_t start = -1;
  a2a::c_api::guarded([&] { start = a2a::block_start(n, parts, index); });
  return start;
}

}  // extern "C"
