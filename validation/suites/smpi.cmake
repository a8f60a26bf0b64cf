# SimGrid SMPI: simulated machines.
# Included by validation/CMakeLists.txt.

# SimGrid SMPI: scripts/simulate builds the smpi preset (build/smpi, smpicxx) and runs a small
# simulated case on the Dragonfly platform, every exchange checked against SMPI's own
# MPI_Alltoall[v]. Needs libsimgrid-dev (scripts/install-deps installs it).
find_program(A2A_SMPIRUN smpirun)
find_program(A2A_SMPICXX smpicxx)
if(A2A_SMPIRUN AND A2A_SMPICXX AND NOT A2A_SMPI)
  add_test(NAME smpi.dragonfly_uniform.P64
           COMMAND ${PROJECT_SOURCE_DIR}/scripts/simulate dragonfly -np 64 -q 4 --timeout 600
                   --out ${CMAKE_CURRENT_BINARY_DIR}/smpi_uniform.jsonl
                   -- bench --algorithms mpi,linear,bruck,tra,tra2:q=4,random_sendrecv
                   --sizes 16,4096 --check)
  add_test(NAME smpi.dragonfly_vector.P64
           COMMAND ${PROJECT_SOURCE_DIR}/scripts/simulate dragonfly -np 64 -q 4 --timeout 600
                   --out ${CMAKE_CURRENT_BINARY_DIR}/smpi_vector.jsonl
                   -- bench --vector random --algorithms mpi,linear,sloav,sloavx:q=4,tra_v
                   --sizes 64 --check)
  add_test(NAME smpi.slimfly_npb_is.P16
           COMMAND ${PROJECT_SOURCE_DIR}/scripts/simulate slimfly -np 16 --timeout 600
                   -- is --class S --backend random_sendrecv)
  # The FFTs in simulation (serial FFTW for the local transforms, computation free): the
  # six-step FFT at configurable-alltoall Fig. 13's size through tra2, and a 3D pencil FFT,
  # each checked against serial FFTW.
  add_test(NAME smpi.dragonfly_fft1d_fig13.P16
           COMMAND ${PROJECT_SOURCE_DIR}/scripts/simulate dragonfly -np 16 -q 4 --timeout 600
                   -- fft1d --points 64P^2 --backend tra2 --iters 1)
  add_test(NAME smpi.dragonfly_fft3d.P16
           COMMAND ${PROJECT_SOURCE_DIR}/scripts/simulate dragonfly -np 16 -q 4 --timeout 600
                   -- fft --grid 32x32x32 --backend tra:r=sqrt --iters 1)
  set_tests_properties(smpi.dragonfly_fft1d_fig13.P16 smpi.dragonfly_fft3d.P16 PROPERTIES
                       TIMEOUT 900 RESOURCE_LOCK smpi_build LABELS smpi
                       PASS_REGULAR_EXPRESSION "check serial +relative max error [0-9.e+-]+ .bound 1e-10.: passed")
  set_tests_properties(smpi.dragonfly_uniform.P64 PROPERTIES TIMEOUT 900 RESOURCE_LOCK smpi_build
                       FAIL_REGULAR_EXPRESSION "failed|FAILED" LABELS smpi)
  set_tests_properties(smpi.dragonfly_vector.P64 PROPERTIES TIMEOUT 900 RESOURCE_LOCK smpi_build
                       FAIL_REGULAR_EXPRESSION "failed|FAILED" LABELS smpi)
  set_tests_properties(smpi.slimfly_npb_is.P16 PROPERTIES TIMEOUT 900 RESOURCE_LOCK smpi_build
                       PASS_REGULAR_EXPRESSION "Verification += +SUCCESSFUL" LABELS smpi)
  # --shared-buffers: folded buffers leave every simulated time as it was and cut the memory.
  add_test(NAME smpi.shared_buffers_same_times
           COMMAND /usr/bin/python3 ${CMAKE_CURRENT_SOURCE_DIR}/shared_buffers.py
                   ${PROJECT_SOURCE_DIR}/scripts/simulate ${CMAKE_CURRENT_BINARY_DIR}/shared_buffers)
  set_tests_properties(smpi.shared_buffers_same_times PROPERTIES TIMEOUT 900
                       RESOURCE_LOCK smpi_build LABELS smpi)
  # The packet-level network: 8-byte messages from every rank (they deadlocked the simulation
  # before cpu/optim:Full), checked exchanges, and --append gathering two simulations.
  add_test(NAME smpi.ns3_slimfly.P16
           COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/simulate_ns3.sh ${PROJECT_SOURCE_DIR}/scripts/simulate)
  set_tests_properties(smpi.ns3_slimfly.P16 PROPERTIES TIMEOUT 900 RESOURCE_LOCK smpi_build
                       PASS_REGULAR_EXPRESSION "simulate_ns3: passed" LABELS smpi)
  # NPB IS with every message by rendezvous (how docs/reproduction.md simulates 512 ranks):
  # officially verified, and the setting must change the simulated times.
  add_test(NAME smpi.rendezvous_npb_is.P64
           COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/simulate_rendezvous.sh ${PROJECT_SOURCE_DIR}/scripts/simulate)
  set_tests_properties(smpi.rendezvous_npb_is.P64 PROPERTIES TIMEOUT 600 RESOURCE_LOCK smpi_build
                       PASS_REGULAR_EXPRESSION "simulate_rendezvous: passed" LABELS smpi)
  # --hugepages: refused without --shared-buffers or a hugetlbfs mount; where the machine has
  # a mount with huge pages, the same simulated times as 4 KiB pages (else skipped, code 77).
  add_test(NAME smpi.hugepages_refused
           COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/simulate_hugepages.sh
                   ${PROJECT_SOURCE_DIR}/scripts/simulate refused)
  add_test(NAME smpi.hugepages_same_times
           COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/simulate_hugepages.sh
                   ${PROJECT_SOURCE_DIR}/scripts/simulate same-times)
  set_tests_properties(smpi.hugepages_refused PROPERTIES TIMEOUT 60 LABELS smpi)
  set_tests_properties(smpi.hugepages_same_times PROPERTIES TIMEOUT 600 SKIP_RETURN_CODE 77
                       RESOURCE_LOCK smpi_build LABELS smpi)
  # A user's C program (pencil_fft.c) built with smpicc against the smpi libraries, unfolded
  # and folded.
  if(A2A_WITH_FFTW)
    add_test(NAME smpi.c_program_pencil_fft.P4
             COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/smpi_c_program.sh ${PROJECT_SOURCE_DIR}
                     ${CMAKE_CURRENT_BINARY_DIR}/smpi_c_program)
    set_tests_properties(smpi.c_program_pencil_fft.P4 PROPERTIES TIMEOUT 900
                         RESOURCE_LOCK smpi_build LABELS smpi
                         PASS_REGULAR_EXPRESSION "smpi_c_program: 1 passed, 0 failed")
  endif()
  # shared_window needs one node: on two simulated nodes a request for it is refused on every
  # rank with the reason, and `--algorithms all` skips it.
  set(A2A_TWO_NODES ${PROJECT_SOURCE_DIR}/scripts/simulate dragonfly -np 8 -q 4 --timeout 300)
  # shared_window is refused on two simulated nodes and on one (SMPI's windows are not shared
  # memory); the 3D FFT's auto (single_copy=on) then falls through to the next rule.
  add_test(NAME smpi.shared_window_one_node_only.P8
           COMMAND sh -c "bash '${CMAKE_CURRENT_SOURCE_DIR}/expect_failure.sh' 'shared_window.: needs every rank on one node .shared memory., but only 4 of the P=8' $<JOIN:${A2A_TWO_NODES}, > -- bench --algorithms shared_window --sizes 16 && $<JOIN:${A2A_TWO_NODES}, > -- bench --algorithms all --sizes 16 2>&1 | grep 'skipping shared_window: .*only 4 of the P=8 ranks share a node' && bash '${CMAKE_CURRENT_SOURCE_DIR}/expect_failure.sh' 'shared_window.: cannot run under SimGrid SMPI' ${PROJECT_SOURCE_DIR}/scripts/simulate dragonfly -np 4 -q 4 --timeout 300 -- bench --algorithms shared_window --sizes 16 && $<JOIN:${A2A_TWO_NODES}, > -- fft --grid 16x12x10 --decomp slab --check serial --iters 1 2>&1 | grep -A1 -E 'single_copy=on->(mpi|linear) ' | grep 'check serial .*passed'")
  set_tests_properties(smpi.shared_window_one_node_only.P8 PROPERTIES TIMEOUT 600
                       RESOURCE_LOCK smpi_build LABELS smpi)
  # The simulated records also as a results file (scripts/plot reads it).
  add_test(NAME smpi.results_file_layout
           COMMAND /usr/bin/python3 ${CMAKE_CURRENT_SOURCE_DIR}/check_results.py
                   ${CMAKE_CURRENT_BINARY_DIR}/smpi_uniform.h5)
  set_tests_properties(smpi.dragonfly_uniform.P64 PROPERTIES FIXTURES_SETUP smpi_uniform)
  set_tests_properties(smpi.results_file_layout PROPERTIES FIXTURES_REQUIRED smpi_uniform
                       TIMEOUT 60 LABELS smpi)
endif()
