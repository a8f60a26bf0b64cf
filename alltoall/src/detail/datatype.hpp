// Whether an MPI datatype's data is plain bytes: count elements of the type at buf are then
// count * size bytes in a row starting at buf + true_lb, in type-map order, and an exchange
// may treat them as bytes. Decided from the type's envelope and contents (recursively):
// every block dense, blocks in increasing address order, each starting where the previous
// ended, and extent = size so consecutive elements abut. Anything that cannot be proven so
// (permuted struct members, holes, negative strides, subarrays) is not dense, and callers
// stage it through MPI_Pack/MPI_Unpack instead. The answer is cached on derived types (an
// attribute freed with the type), so a repeated call costs one attribute lookup.
#pragma once

#include <mpi.h>

#include <cstddef>

namespace a2a::detail {

struct TypeShape {
  std::size_t size = 0;  // bytes of data per element (MPI_Type_size)
  MPI_Aint extent = 0;   // stride between consecutive elements
  MPI_Aint true_lb = 0;  // where element 0's data starts, relative to buf
  bool dense = false;    // the data of any count of elements is size * count bytes at true_lb
};

TypeShape type_shape(MPI_Datatype type);

// The one staging path of typed buffers (Plan::from_alltoallv and the interposer): `count`
// elements of `type` at `buf` to and from count * shape.size packed bytes. MPI_Pack and
// MPI_Unpack count in int, so the elements go in pieces of at most INT_MAX bytes; an MPI error
// is an a2a::Error (kind mpi), and an element of more than INT_MAX bytes an argument error.
// Dense types are copied, not packed.
void pack_elements(const void* buf, std::size_t count, MPI_Datatype type, const TypeShape& shape,
                   std::byte* packed);
void unpack_elements(const std::byte* packed, std::size_t count, MPI_Datatype type,
                     const TypeShape& shape, void* buf);

}  // namespace a2a::detail
