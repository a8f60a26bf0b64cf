# The exchanges themselves: every algorithm of the registry against MPI's own collectives,
# uniform and vector, the randomized ones, node topology, the transpose layer, the FFT class,
# parallel HDF5 arrays, allocation-free execution and a real message over 2 GiB.
# Included by validation/CMakeLists.txt.

# The randomized algorithms: segment boundaries, queues, seeds, vector distributions.
a2a_test_executable(test_randomized)
foreach(ranks 1 2 3 5 7 8 12)
  a2a_add_mpi_test(randomized.algorithms.P${ranks} ${ranks}
                   COMMAND $<TARGET_FILE:test_randomized> TIMEOUT 300)
endforeach()

# Every uniform algorithm of the registry, byte-exact against MPI_Alltoall.
a2a_test_executable(test_uniform)
foreach(ranks 1 2 3 4 5 7 8 12)
  a2a_add_mpi_test(uniform.all_algorithms.P${ranks} ${ranks} COMMAND $<TARGET_FILE:test_uniform>
                   TIMEOUT 300)
endforeach()
# Messages split into 1000-byte pieces: exercises the >2 GiB splitting path with small data.
a2a_add_mpi_test(uniform.split_messages.P4 4 COMMAND $<TARGET_FILE:test_uniform>
                 ENVIRONMENT A2A_MAX_MESSAGE_BYTES=1000 TIMEOUT 300)

# The node topology layer, and tra2 on emulated nodes.
a2a_test_executable(test_topology)
foreach(ranks 1 4 6 12)
  a2a_add_mpi_test(topology.layer.P${ranks} ${ranks} COMMAND $<TARGET_FILE:test_topology>
                   TIMEOUT 120)
endforeach()
a2a_test_executable(test_tra2)
foreach(ranks 4 6 8 9 12)
  a2a_add_mpi_test(tra2.emulated_nodes.P${ranks} ${ranks} COMMAND $<TARGET_FILE:test_tra2>
                   TIMEOUT 300)
endforeach()
a2a_add_mpi_test(cli.tra2_bench_check.P12 12 COMMAND $<TARGET_FILE:a2a> bench
                 --algorithms tra2:q=3,tra2:q=4 --check --sizes 1:4096 --iters 2 --warmup 1)

# The transpose layer: slab and pencil redistributions.
a2a_test_executable(test_transpose)
target_link_libraries(test_transpose PRIVATE a2a::transpose)
foreach(ranks 1 2 3 4 6)
  a2a_add_mpi_test(transpose.redistribution.P${ranks} ${ranks}
                   COMMAND $<TARGET_FILE:test_transpose> TIMEOUT 300)
endforeach()

# The 3D FFT class with callers' arrays at FFTW's alignment and off it, against serial FFTW.
if(A2A_WITH_FFTW)
  # docs/fft.md's C++ program (validation/consumer/fft3d.cpp) on the library as users link it:
  # a plane wave's spectrum (one bin, N) and the round trip; uneven slabs at P = 3.
  add_executable(fft_library_example ${PROJECT_SOURCE_DIR}/validation/consumer/fft3d.cpp)
  target_link_libraries(fft_library_example PRIVATE a2a::fft MPI::MPI_CXX)
  # And its C version (validation/consumer/fft3d.c: a2a/fft.h, slabs to x-pencils).
  add_executable(fft_library_example_c ${PROJECT_SOURCE_DIR}/validation/consumer/fft3d.c)
  target_link_libraries(fft_library_example_c PRIVATE a2a::fft MPI::MPI_C m)
  foreach(ranks 1 3 4)
    a2a_add_mpi_test(fft.library_example.P${ranks} ${ranks}
                     COMMAND $<TARGET_FILE:fft_library_example> TIMEOUT 120)
    a2a_add_mpi_test(fft.library_example_c.P${ranks} ${ranks}
                     COMMAND $<TARGET_FILE:fft_library_example_c> TIMEOUT 120)
    set_property(TEST fft.library_example_c.P${ranks} APPEND PROPERTY
                 PASS_REGULAR_EXPRESSION ": passed")
  endforeach()
  a2a_test_executable(test_fft3d)
  # White-box: the library's local-transform ways (columns.hpp, planes.hpp) too.
  target_include_directories(test_fft3d PRIVATE ${PROJECT_SOURCE_DIR}/transpose/fft/src)
  target_link_libraries(test_fft3d PRIVATE a2a::fft)
  foreach(ranks 1 2 4 8)  # 8: a slab with a rank of no x-planes (7 x 13 x 6)
    a2a_add_mpi_test(fft.class_alignment.P${ranks} ${ranks} COMMAND $<TARGET_FILE:test_fft3d>
                     TIMEOUT 120)
  endforeach()
  # BoxFft (the caller's boxes, a kind per axis, batches) against NumPy's and SciPy's transforms
  # in a file h5py writes (validation/fft_reference.py); its plan logic without MPI.
  if(A2A_WITH_HDF5)
    add_test(NAME fft.reference_file COMMAND /usr/bin/python3
             ${PROJECT_SOURCE_DIR}/validation/fft_reference.py
             ${CMAKE_CURRENT_BINARY_DIR}/fft_reference.h5)
    set_tests_properties(fft.reference_file PROPERTIES TIMEOUT 120 FIXTURES_SETUP fft_reference
                         PASS_REGULAR_EXPRESSION "cases written")
    a2a_test_executable(test_box_fft)
    target_link_libraries(test_box_fft PRIVATE a2a::fft HDF5::HDF5)
    foreach(ranks 1 2 3 4 5 8)
      a2a_add_mpi_test(fft.boxes_against_numpy.P${ranks} ${ranks}
                       COMMAND $<TARGET_FILE:test_box_fft>
                               ${CMAKE_CURRENT_BINARY_DIR}/fft_reference.h5 TIMEOUT 300)
      set_tests_properties(fft.boxes_against_numpy.P${ranks} PROPERTIES
                           FIXTURES_REQUIRED fft_reference)
    endforeach()
  endif()
endif()

# Parallel HDF5 of distributed arrays.
if(A2A_WITH_HDF5)
  add_executable(test_hdf5 test_hdf5.cpp)
  target_link_libraries(test_hdf5 PRIVATE a2a_hdf5_io a2a_compile_options)
  foreach(ranks 1 3 4)
    a2a_add_mpi_test(hdf5.write_then_read.P${ranks} ${ranks} COMMAND $<TARGET_FILE:test_hdf5>
                     TIMEOUT 120)
    set_tests_properties(hdf5.write_then_read.P${ranks} PROPERTIES
                         WORKING_DIRECTORY ${CMAKE_CURRENT_BINARY_DIR})
  endforeach()
endif()

# Every vector algorithm against MPI_Alltoallv (P = 7 left out for CI time: 3 and 5 cover odd
# P, 8 and 12 the larger ones).
a2a_test_executable(test_vector)
foreach(ranks 1 2 3 5 8 12)
  a2a_add_mpi_test(vector.all_algorithms.P${ranks} ${ranks} COMMAND $<TARGET_FILE:test_vector>
                   TIMEOUT 300)
endforeach()
# ... and per-call lengths escaped from 100 bytes on (the path of elements past 4 GiB).
a2a_add_mpi_test(vector.split_messages.P3 3 COMMAND $<TARGET_FILE:test_vector>
                 ENVIRONMENT A2A_MAX_MESSAGE_BYTES=999 A2A_LENGTH_ESCAPE_BYTES=100 TIMEOUT 300)

# execute() allocates nothing: fixed plans from the first call, per-call exchanges after their
# scratch has grown (operator new replaced in the test binary).
a2a_test_executable(test_alloc)
target_link_libraries(test_alloc PRIVATE a2a::transpose)
if(TARGET a2a::fft)  # and BoxFft's memory_bytes() and calls
  target_link_libraries(test_alloc PRIVATE a2a::fft)
  target_compile_definitions(test_alloc PRIVATE A2A_TEST_FFT)
endif()
foreach(ranks 1 3 4)
  a2a_add_mpi_test(alloc.execute_allocates_nothing.P${ranks} ${ranks}
                   COMMAND $<TARGET_FILE:test_alloc> TIMEOUT 300)
endforeach()

# A real 2 GiB + 5 B message (about 5 GiB of memory: run alone).
a2a_test_executable(test_large)
a2a_add_mpi_test(large.message_over_2GiB.P2 2 COMMAND $<TARGET_FILE:test_large> TIMEOUT 600
                 LABELS large)
set_tests_properties(large.message_over_2GiB.P2 PROPERTIES RUN_SERIAL TRUE)
