// Plan::from_alltoallv: a plan over MPI datatypes, as MPI_Alltoallv takes them. Contiguous
// byte-like types run as a byte plan; any other is staged: packed peer after peer before the
// exchange and unpacked after it (detail/datatype.hpp's pack_elements/unpack_elements).
#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <numeric>
#include <tuple>

#include "a2a/alltoall.hpp"
#include "a2a/buffer.hpp"
#include "a2a/registry.hpp"
#include "a2a/spec.hpp"
#include "detail/datatype.hpp"
#include "detail/messages.hpp"
#include "detail/mpi_entry.hpp"
#include "detail/plan.hpp"

namespace a2a {

namespace detail {
namespace {

// One side of an MPI_Alltoallv-style call in elements of a datatype.
struct TypedSide {
  std::vector<int> counts, displs;
  MPI_Datatype type = MPI_DATATYPE_NULL;  // our own duplicate
  TypeShape shape;
  bool staged = false;  // packed through MPI_Pack/MPI_Unpack
};

// A plan over packed bytes for datatypes that are not plain bytes in order: the send blocks
// are packed peer after peer before the exchange, the received ones unpacked after it.
class StagedPlan final : public PlanImpl {
 public:
  StagedPlan(std::unique_ptr<PlanImpl> inner, TypedSide send, TypedSide recv,
             const VectorLayout& packed)
      : inner_(std::move(inner)),
        send_(std::move(send)),
        recv_(std::move(recv)),
        layout_(packed),
        send_stage_(send_.staged ? packed.send_extent() : 0),
        recv_stage_(recv_.staged ? packed.recv_extent() : 0) {}
  ~StagedPlan() override {
    int finalized = 0;
    MPI_Finalized(&finalized);
    if (finalized) return;
    MPI_Type_free(&send_.type);
    MPI_Type_free(&recv_.type);
  }
  void execute(const std::byte* send, std::byte* recv, Counters& c) override {
    inner_->execute(stage(send), recv_.staged ? recv_stage_.data() : recv, c);
    unstage(recv);
  }
  void start(const std::byte* send, std::byte* recv, Counters& c) override {
    inner_->start(stage(send), recv_.staged ? recv_stage_.data() : recv, c);
    recv_at_ = recv;
  }
  void finish(Counters& c) override {
    inner_->finish(c);
    unstage(recv_at_);
  }
  bool overlaps() const override { return inner_->overlaps(); }
  std::string delegate_name() const override { return inner_->delegate_name(); }
  std::string delegate_label() const override { return inner_->delegate_label(); }
  std::size_t scratch_bytes() const override {
    return send_stage_.capacity() + recv_stage_.capacity() + inner_->scratch_bytes();
  }

 private:
  // The send buffer the inner plan reads: the caller's, or its blocks packed peer after peer.
  const std::byte* stage(const std::byte* send) {
    if (!send_.staged) return send;
    for (std::size_t i = 0; i < send_.counts.size(); ++i) {
      pack_elements(send + static_cast<MPI_Aint>(send_.displs[i]) * send_.shape.extent,
                    static_cast<std::size_t>(send_.counts[i]), send_.type, send_.shape,
                    send_stage_.data() + layout_.send_displs[i]);
    }
    return send_stage_.data();
  }
  void unstage(std::byte* recv) {
    if (!recv_.staged) return;
    for (std::size_t i = 0; i < recv_.counts.size(); ++i) {
      unpack_elements(recv_stage_.data() + layout_.recv_displs[i],
                      static_cast<std::size_t>(recv_.counts[i]), recv_.type, recv_.shape,
                      recv + static_cast<MPI_Aint>(recv_.displs[i]) * recv_.shape.extent);
    }
  }

  std::unique_ptr<PlanImpl> inner_;
  TypedSide send_, recv_;
  VectorLayout layout_;
  ByteBuffer send_stage_, recv_stage_;
  std::byte* recv_at_ = nullptr;  // between start() and finish()
};

}  // namespace
}  // namespace detail

Plan Plan::from_alltoallv(std::string_view spec, MPI_Comm comm, const int* send_counts,
                          const int* send_displs, MPI_Datatype send_type, const int* recv_counts,
                          const int* recv_displs, MPI_Datatype recv_type) {
  int procs = 1;
  MPI_Comm_size(comm, &procs);
  std::string error;
  VectorLayout layout;
  // The byte layout of one side: straight into the caller's buffer when the type is plain
  // bytes (data at displacement * extent + true_lb), else packed peer after peer (staged).
  auto convert = [&](const int* counts, const int* displs, MPI_Datatype type,
                     std::vector<std::size_t>& byte_counts, std::vector<std::size_t>& byte_displs,
                     const char* side) {
    detail::TypedSide t;
    t.shape = detail::type_shape(type);
    std::size_t packed = 0;
    for (int i = 0; i < procs; ++i) {
      if (counts[i] < 0) {
        error = std::string(side) + " count of peer " + std::to_string(i) + " is negative";
        return t;
      }
      t.counts.push_back(counts[i]);
      t.displs.push_back(displs[i]);
      const MPI_Aint at = static_cast<MPI_Aint>(displs[i]) * t.shape.extent + t.shape.true_lb;
      t.staged = t.staged || !t.shape.dense || (counts[i] > 0 && at < 0);
      byte_counts.push_back(static_cast<std::size_t>(counts[i]) * t.shape.size);
      byte_displs.push_back(static_cast<std::size_t>(std::max<MPI_Aint>(at, 0)));
      packed += byte_counts.back();
    }
    if (t.staged) {  // packed peer after peer
      packed = 0;
      for (std::size_t i = 0; i < byte_counts.size(); ++i) {
        byte_displs[i] = packed;
        packed += byte_counts[i];
      }
    }
    MPI_Type_dup(type, &t.type);
    return t;
  };
  detail::TypedSide send =
      convert(send_counts, send_displs, send_type, layout.send_counts, layout.send_displs, "send");
  detail::TypedSide recv;
  if (error.empty()) {
    recv = convert(recv_counts, recv_displs, recv_type, layout.recv_counts, layout.recv_displs,
                   "recv");
  }
  error = detail::agree_on_error(comm, error);
  auto release = [](detail::TypedSide& t) {
    if (t.type != MPI_DATATYPE_NULL) MPI_Type_free(&t.type);
  };
  if (!error.empty()) {
    release(send);
    release(recv);
    throw Error("a2a::Plan::from_alltoallv: " + error);
  }
  const bool staged = send.staged || recv.staged;
  // (Where a side is not staged, a NULL buffer is MPI_BOTTOM plus absolute displacements.)
  Plan plan = [&] {
    try {
      return Plan(spec, comm, layout);
    } catch (...) {
      release(send);
      release(recv);
      throw;
    }
  }();
  plan.state_->typed = true;
  if (staged) {
    plan.state_->impl = std::make_unique<detail::StagedPlan>(
        std::move(plan.state_->impl), std::move(send), std::move(recv), layout);
  } else {
    release(send);
    release(recv);
  }
  return plan;
}

}  // namespace a2a
