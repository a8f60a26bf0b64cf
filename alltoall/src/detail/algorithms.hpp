// One describe_*() per algorithm source file; registry.cpp lists them.
#pragma once

#include "a2a/registry.hpp"

namespace a2a::detail {

AlgorithmInfo describe_mpi();
AlgorithmInfo describe_linear();
AlgorithmInfo describe_pairwise();
AlgorithmInfo describe_bruck();
AlgorithmInfo describe_tra();
AlgorithmInfo describe_tra_modified();
AlgorithmInfo describe_tra2();
AlgorithmInfo describe_sloav();
AlgorithmInfo describe_sloavx();
AlgorithmInfo describe_tra_v();
AlgorithmInfo describe_padded_bruck_v();
AlgorithmInfo describe_random_scatter();
AlgorithmInfo describe_random_sendrecv();
AlgorithmInfo describe_random_segmented();
AlgorithmInfo describe_random_auto();
AlgorithmInfo describe_auto();

}  // namespace a2a::detail
