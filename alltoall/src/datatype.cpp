#include "detail/datatype.hpp"

#include <algorithm>
#include <climits>
#include <cstring>
#include <string>

#include "a2a/error.hpp"
#include "detail/messages.hpp"

#include <mutex>

#include <vector>

namespace a2a::detail {
namespace {

struct Basic {
  std::size_t size = 0;
  MPI_Aint extent = 0, true_lb = 0, true_extent = 0;
};

Basic basic(MPI_Datatype type) {
  Basic b;
  int size = 0;
  MPI_Aint lb = 0;
  MPI_Type_size(type, &size);
  MPI_Type_get_extent(type, &lb, &b.extent);
  MPI_Type_get_true_extent(type, &b.true_lb, &b.true_extent);
  b.size = static_cast<std::size_t>(size);
  return b;
}

bool dense_ordered(MPI_Datatype type);

// Blocks of `count` elements of `element` at byte displacements, in type-map order: dense when
// every element is, repeated elements abut (extent = size) and each non-empty block starts
// where the previous one ended.
class BlockChain {
 public:
  explicit BlockChain(MPI_Datatype element)
      : element_(basic(element)), ok_(dense_ordered(element)) {}
  void add(MPI_Aint displacement, long long count) {
    if (!ok_ || count == 0 || element_.size == 0) return;
    if (count < 0 || (count > 1 && element_.extent != static_cast<MPI_Aint>(element_.size))) {
      ok_ = false;
      return;
    }
    const MPI_Aint start = displacement + element_.true_lb;
    if (started_ && start != end_) ok_ = false;
    started_ = true;
    end_ = start + static_cast<MPI_Aint>(count) * static_cast<MPI_Aint>(element_.size);
  }
  bool ok() const { return ok_; }
  MPI_Aint element_extent() const { return element_.extent; }

 private:
  Basic element_;
  bool ok_;
  bool started_ = false;
  MPI_Aint end_ = 0;
};

// Types from MPI_Type_get_contents that are not predefined must be freed.
void free_if_derived(MPI_Datatype type) {
  int ni = 0, na = 0, nd = 0, combiner = 0;
  MPI_Type_get_envelope(type, &ni, &na, &nd, &combiner);
  if (combiner != MPI_COMBINER_NAMED) MPI_Type_free(&type);
}

// A struct's members, of different types: dense and ordered when each member is, and each
// starts where the one before it ends (empty members aside).
bool dense_struct(const std::vector<int>& ints, const std::vector<MPI_Aint>& addresses,
                  const std::vector<MPI_Datatype>& types) {
  bool started = false;
  MPI_Aint end = 0;
  for (int i = 0; i < ints[0]; ++i) {
    const auto k = static_cast<std::size_t>(i);
    const long long length = ints[1 + k];
    const Basic b = basic(types[k]);
    if (length == 0 || b.size == 0) continue;
    if (!dense_ordered(types[k]) || (length > 1 && b.extent != static_cast<MPI_Aint>(b.size))) {
      return false;
    }
    const MPI_Aint start = addresses[k] + b.true_lb;
    if (started && start != end) return false;
    started = true;
    end = start + static_cast<MPI_Aint>(length) * static_cast<MPI_Aint>(b.size);
  }
  return true;
}

bool dense_ordered(MPI_Datatype type) {
  int ni = 0, na = 0, nd = 0, combiner = 0;
  MPI_Type_get_envelope(type, &ni, &na, &nd, &combiner);
  if (combiner == MPI_COMBINER_NAMED) {
    const Basic b = basic(type);  // a predefined type lists its members in order
    return static_cast<MPI_Aint>(b.size) == b.true_extent;
  }
  std::vector<int> ints(static_cast<std::size_t>(ni));
  std::vector<MPI_Aint> addresses(static_cast<std::size_t>(na));
  std::vector<MPI_Datatype> types(static_cast<std::size_t>(nd));
  MPI_Type_get_contents(type, ni, na, nd, ints.data(), addresses.data(), types.data());
  bool dense = false;
  switch (combiner) {
    case MPI_COMBINER_DUP:
    case MPI_COMBINER_RESIZED:  // resizing changes the extent, not the type map
      dense = dense_ordered(types[0]);
      break;
    case MPI_COMBINER_CONTIGUOUS: {
      BlockChain chain(types[0]);
      chain.add(0, ints[0]);
      dense = chain.ok();
      break;
    }
    case MPI_COMBINER_VECTOR:
    case MPI_COMBINER_HVECTOR: {
      BlockChain chain(types[0]);
      const MPI_Aint stride = combiner == MPI_COMBINER_VECTOR
                                  ? static_cast<MPI_Aint>(ints[2]) * chain.element_extent()
                                  : addresses[0];
      for (int i = 0; i < ints[0]; ++i)
        chain.add(i * stride, ints[1]);
      dense = chain.ok();
      break;
    }
    case MPI_COMBINER_INDEXED:
    case MPI_COMBINER_HINDEXED: {
      BlockChain chain(types[0]);
      const int count = ints[0];
      for (int i = 0; i < count; ++i) {
        const MPI_Aint at =
            combiner == MPI_COMBINER_INDEXED
                ? static_cast<MPI_Aint>(ints[static_cast<std::size_t>(1 + count + i)]) *
                      chain.element_extent()
                : addresses[static_cast<std::size_t>(i)];
        chain.add(at, ints[static_cast<std::size_t>(1 + i)]);
      }
      dense = chain.ok();
      break;
    }
    case MPI_COMBINER_INDEXED_BLOCK:
    case MPI_COMBINER_HINDEXED_BLOCK: {
      BlockChain chain(types[0]);
      const int count = ints[0];
      for (int i = 0; i < count; ++i) {
        const MPI_Aint at = combiner == MPI_COMBINER_INDEXED_BLOCK
                                ? static_cast<MPI_Aint>(ints[static_cast<std::size_t>(2 + i)]) *
                                      chain.element_extent()
                                : addresses[static_cast<std::size_t>(i)];
        chain.add(at, ints[1]);
      }
      dense = chain.ok();
      break;
    }
    case MPI_COMBINER_STRUCT:
      dense = dense_struct(ints, addresses, types);
      break;
    default:  // subarray, darray, Fortran parameterised types: not proven, so staged
      dense = false;
      break;
  }
  for (MPI_Datatype t : types)
    free_if_derived(t);
  return dense;
}

int delete_shape(MPI_Datatype, int, void* value, void*) {
  delete static_cast<TypeShape*>(value);
  return MPI_SUCCESS;
}

}  // namespace

TypeShape type_shape(MPI_Datatype type) {
  // Predefined types live as long as MPI: their shapes are kept by handle (a few slots).
  struct Slot {
    MPI_Datatype type = MPI_DATATYPE_NULL;
    TypeShape shape;
  };
  // Threads (the interposer under MPI_THREAD_MULTIPLE) share the slots and the attributes:
  // looked up and stored under one lock (local MPI calls only).
  static std::mutex lock;
  static Slot predefined[8];
  static std::size_t next_slot = 0;
  static const int keyval = [] {
    int k = MPI_KEYVAL_INVALID;
    MPI_Type_create_keyval(MPI_TYPE_NULL_COPY_FN, delete_shape, &k, nullptr);
    return k;
  }();
  const std::lock_guard<std::mutex> hold(lock);
  for (const Slot& slot : predefined) {
    if (slot.type == type && type != MPI_DATATYPE_NULL) return slot.shape;
  }
  int ni = 0, na = 0, nd = 0, combiner = 0;
  MPI_Type_get_envelope(type, &ni, &na, &nd, &combiner);
  const bool named = combiner == MPI_COMBINER_NAMED;
  if (!named) {
    void* cached = nullptr;
    int found = 0;
    MPI_Type_get_attr(type, keyval, &cached, &found);
    if (found) return *static_cast<TypeShape*>(cached);
  }
  const Basic b = basic(type);
  TypeShape shape;
  shape.size = b.size;
  shape.extent = b.extent;
  shape.true_lb = b.true_lb;
  shape.dense = static_cast<MPI_Aint>(b.size) == b.true_extent &&
                static_cast<MPI_Aint>(b.size) == b.extent && dense_ordered(type);
  if (!named) {
    MPI_Type_set_attr(type, keyval, new TypeShape(shape));
  } else {
    predefined[next_slot] = {type, shape};
    next_slot = (next_slot + 1) % 8;
  }
  return shape;
}

namespace {

// Elements per MPI_Pack call: as many as fit in INT_MAX packed bytes.
std::size_t elements_per_piece(const TypeShape& shape) {
  constexpr auto limit = static_cast<std::size_t>(INT_MAX);
  if (shape.size > limit) {
    throw Error("an element of " + std::to_string(shape.size) +
                " bytes cannot be packed (MPI_Pack counts bytes in int)");
  }
  return shape.size == 0 ? limit : limit / shape.size;
}

}  // namespace

void pack_elements(const void* buf, std::size_t count, MPI_Datatype type, const TypeShape& shape,
                   std::byte* packed) {
  if (count == 0 || shape.size == 0) return;
  const auto* in = static_cast<const std::byte*>(buf);
  if (shape.dense) {
    std::memcpy(packed, in + shape.true_lb, count * shape.size);
    return;
  }
  const std::size_t piece = elements_per_piece(shape);
  for (std::size_t done = 0; done < count;) {
    const std::size_t n = std::min(piece, count - done);
    int position = 0;
    check_mpi(MPI_Pack(in + static_cast<MPI_Aint>(done) * shape.extent, static_cast<int>(n), type,
                       packed + done * shape.size, static_cast<int>(n * shape.size), &position,
                       MPI_COMM_SELF),
              "MPI_Pack");
    done += n;
  }
}

void unpack_elements(const std::byte* packed, std::size_t count, MPI_Datatype type,
                     const TypeShape& shape, void* buf) {
  if (count == 0 || shape.size == 0) return;
  auto* out = static_cast<std::byte*>(buf);
  if (shape.dense) {
    std::memcpy(out + shape.true_lb, packed, count * shape.size);
    return;
  }
  const std::size_t piece = elements_per_piece(shape);
  for (std::size_t done = 0; done < count;) {
    const std::size_t n = std::min(piece, count - done);
    int position = 0;
    check_mpi(MPI_Unpack(packed + done * shape.size, static_cast<int>(n * shape.size), &position,
                         out + static_cast<MPI_Aint>(done) * shape.extent, static_cast<int>(n),
                         type, MPI_COMM_SELF),
              "MPI_Unpack");
    done += n;
  }
}

}  // namespace a2a::detail
