// Every message tag the algorithms use, in one place. Plans on one communicator share its
// private duplicate (plan.cpp) and run in the same order on every rank, so a tag only tells
// one protocol's messages from another's within an exchange: each protocol has its own.
#pragma once

namespace a2a::detail::tag {

inline constexpr int point_to_point = 4242;  // one message per peer (linear, pairwise, random_*)
inline constexpr int tra = 4343;             // TRA's rounds
inline constexpr int tra_modified = 4444;    // modified Bruck's rounds
inline constexpr int tra2_intra = 4545;      // TRA2 within a node
inline constexpr int tra2_inter = 4546;      // TRA2 between nodes
// The vector radix engine (tra_v, sloav, SLOAVx's leaders) sends three kinds of message per
// round: each protocol that runs it has its own three tags.
struct VectorRadixTags {
  int sizes, payload, wide_sizes;  // sizes below 4 GiB, the blocks, sizes past 4 GiB
};
inline constexpr VectorRadixTags vector_radix = {4646, 4647, 4648};  // tra_v, sloav
inline constexpr int sloavx_up = 4747;    // SLOAVx's sweeps up the node's tree
inline constexpr int sloavx_down = 4748;  // ... and down
inline constexpr VectorRadixTags sloavx_leaders = {4750, 4751, 4752};  // SLOAVx's leaders' SLOAV
inline constexpr int padded = 4848;  // padded_bruck_v's TRA rounds

}  // namespace a2a::detail::tag
