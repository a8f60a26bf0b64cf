# The FFTs: a2a fft and a2a fft1d against serial FFTW, round trips, plane waves, FFTW-MPI.
# Included by validation/CMakeLists.txt.

# The 3D FFT through the transposes, against serial FFTW, a round trip and a plane wave.
if(A2A_WITH_FFTW)
  function(a2a_fft_test name ranks)
    a2a_add_mpi_test(fft.${name}.P${ranks} ${ranks} COMMAND $<TARGET_FILE:a2a> fft --iters 1 ${ARGN}
                     TIMEOUT 300)
  endfunction()
  # The serial benchmark of one slab rank's local transforms runs every way it names (a
  # benchmark: nothing is timed against anything), and refuses a P that does not divide N.
  add_test(NAME fft.local_ffts_benchmark COMMAND $<TARGET_FILE:a2a_local_ffts> 16 2 1)
  set_tests_properties(fft.local_ffts_benchmark PROPERTIES TIMEOUT 120
                       PASS_REGULAR_EXPRESSION "panels of 16 lines.*FFTW-MPI's layout.*per y-plane.*memcpy")
  add_test(NAME fft.local_ffts_benchmark_refuses COMMAND $<TARGET_FILE:a2a_local_ffts> 16 3)
  set_tests_properties(fft.local_ffts_benchmark_refuses PROPERTIES TIMEOUT 60 WILL_FAIL TRUE)
  # The library's benchmark (scripts/measure box-fft) runs every series on 3 ranks and on one
  # (where serial FFTW's DCT-I joins them), each round trip back to its input (an error of 1e-9
  # or more, NaN or Inf fails).
  a2a_add_mpi_test(fft.box_ffts_benchmark.P3 3 COMMAND $<TARGET_FILE:a2a_box_ffts> 12 1 TIMEOUT 120)
  a2a_add_mpi_test(fft.box_ffts_benchmark.P1 1 COMMAND $<TARGET_FILE:a2a_box_ffts> 12 1 TIMEOUT 120)
  set_tests_properties(fft.box_ffts_benchmark.P3 PROPERTIES
    PASS_REGULAR_EXPRESSION "fft3d_c2c.*box_c2c.*box_c2c_general.*box_c2c_x3.*box_dct2"
    FAIL_REGULAR_EXPRESSION "round_trip_error\": ([0-9.]+,|[0-9.]+e-0|[0-9.]+e\\+|-?nan|-?inf)")
  set_tests_properties(fft.box_ffts_benchmark.P1 PROPERTIES
    PASS_REGULAR_EXPRESSION "fft3d_c2c.*box_c2c.*box_dct1_n_plus_1.*fftw_r2r_dct1"
    FAIL_REGULAR_EXPRESSION "round_trip_error\": ([0-9.]+,|[0-9.]+e-0|[0-9.]+e\\+|-?nan|-?inf)")
  foreach(ranks 1 2 3 4 6)
    a2a_fft_test(slab_17x13x11_serial ${ranks} --grid 17x13x11 --decomp slab)
    a2a_fft_test(pencil_30x21x17_serial ${ranks} --grid 30x21x17 --decomp pencil --backend sloav)
    a2a_fft_test(pencil_8x8x8_planewave ${ranks} --grid 8x8x8 --check planewave --backend pairwise)
    a2a_fft_test(r2c_pencil_30x21x17_serial ${ranks} --grid 30x21x17 --transform r2c --backend sloav)
    a2a_fft_test(r2c_slab_8x8x8_serial ${ranks} --grid 8x8x8 --decomp slab --transform r2c)
  endforeach()
  # --spectrum-layout natural: the spectrum back in the input's boxes (one more exchange each
  # way), checked through those boxes against serial FFTW and by the round trip.
  a2a_fft_test(natural_slab_17x13x11_serial 3 --grid 17x13x11 --decomp slab
               --spectrum-layout natural)
  a2a_fft_test(natural_pencil_30x21x17_serial 4 --grid 30x21x17 --decomp pencil --backend sloav
               --spectrum-layout natural)
  a2a_fft_test(natural_r2c_pencil_30x21x17_serial 6 --grid 30x21x17 --transform r2c
               --proc-grid 2x3 --spectrum-layout natural)
  a2a_fft_test(natural_in_place_pencil_30x21x17_serial 4 --grid 30x21x17 --decomp pencil
               --in-place --spectrum-layout natural)
  a2a_fft_test(natural_chunks_30x21x17_serial 3 --grid 30x21x17 --proc-grid 3x1 --chunks 3
               --backend linear --spectrum-layout natural)
  a2a_fft_test(natural_float_16x12x10_serial 4 --grid 16x12x10 --decomp pencil --precision float
               --backend shared_window --spectrum-layout natural)
  if(A2A_WITH_FFTW_MPI)
    # Like for like: with a natural spectrum the headline baseline is FFTW-MPI's natural form,
    # and both forms agree with a2a's spectrum.
    string(JOIN " " _preflags ${A2A_MPIEXEC_PREFLAGS})
    add_test(NAME fft.natural_baseline_like_for_like.P4
             COMMAND bash -o pipefail -c "${MPIEXEC_EXECUTABLE} ${MPIEXEC_NUMPROC_FLAG} 4 ${_preflags} $<TARGET_FILE:a2a> fft --grid 24x20x16 --decomp pencil --spectrum-layout natural --baseline fftw-mpi --iters 2 --format json | /usr/bin/python3 -c \"import json,sys; r=json.loads(sys.stdin.read()); assert r['spectrum_layout'] == 'natural' and r['check'] == 'passed', r; assert r['baseline'] == 'fftw-mpi' and r['baseline_transposed'] == 'fftw-mpi-transposed', r; assert r['baseline_relative_difference'] <= 1e-10 and r['baseline_transposed_relative_difference'] <= 1e-10, r; print('natural baseline: 1 passed, 0 failed')\"")
    set_tests_properties(fft.natural_baseline_like_for_like.P4 PROPERTIES TIMEOUT 300
                         PROCESSORS 4 ENVIRONMENT "${A2A_MPI_TEST_ENV}")
  endif()
  # --in-place: one array in and out (one 3D FFTW plan without a copy on one rank; uneven
  # pencils, whose input and output boxes differ in size, and a pipelined pencil).
  a2a_fft_test(in_place_17x13x11_serial 1 --grid 17x13x11 --in-place)
  a2a_fft_test(in_place_pencil_30x21x17_serial 4 --grid 30x21x17 --decomp pencil --in-place)
  a2a_fft_test(in_place_chunks_30x21x17_serial 3 --grid 30x21x17 --proc-grid 3x1 --chunks 3
               --in-place --backend linear)
  a2a_cli_failure(fft_in_place_r2c 2 "--in-place is for --transform c2c" fft --grid 8x8x8
                  --transform r2c --in-place)
  # --decomp auto: a slab where P <= NX and P <= NY, else a pencil; the record must say which,
  # and the transform must match serial FFTW. The default backend (auto) on one node takes the
  # selection table's single-copy rule: shared_window.
  string(JOIN " " a2a_preflags ${A2A_MPIEXEC_PREFLAGS})
  foreach(case "slab:3:16x12x8" "pencil:4:2x16x16")
    string(REPLACE ":" ";" case ${case})
    list(GET case 0 expected)
    list(GET case 1 ranks)
    list(GET case 2 grid)
    add_test(NAME fft.decomp_auto_${expected}.P${ranks}
             COMMAND bash -o pipefail -c "${MPIEXEC_EXECUTABLE} ${MPIEXEC_NUMPROC_FLAG} ${ranks} ${a2a_preflags} $<TARGET_FILE:a2a> fft --grid ${grid} --decomp auto --iters 1 --format json | tee /dev/stderr | grep '\"decomp\":\"${expected}\"' | grep -q 'single_copy=on->shared_window'")
    set_tests_properties(fft.decomp_auto_${expected}.P${ranks} PROPERTIES TIMEOUT 300
                         PROCESSORS ${ranks} ENVIRONMENT "${A2A_MPI_TEST_ENV}")
  endforeach()
  # The transposes' phases: every one timed, each rate positive, and memcpy's reference; the
  # default slab's, fused with the plane transforms, without a pack or unpack of their own.
  add_test(NAME fft.transpose_phases.P3
           COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/fft_transpose_phases.sh $<TARGET_FILE:a2a>
                   ${MPIEXEC_EXECUTABLE} ${MPIEXEC_NUMPROC_FLAG} 3 ${A2A_MPIEXEC_PREFLAGS})
  set_tests_properties(fft.transpose_phases.P3 PROPERTIES TIMEOUT 300 PROCESSORS 3
                       ENVIRONMENT "${A2A_MPI_TEST_ENV}"
                       PASS_REGULAR_EXPRESSION "transpose phases: 2 passed, 0 failed")
  a2a_cli_failure(fft_decomp_auto_with_proc_grid 2 "--proc-grid applies to --decomp pencil only"
                  fft --grid 8x8x8 --decomp auto --proc-grid 2x1)
  # A uniform-only backend on a grid that divides evenly; different backends per transpose.
  a2a_fft_test(pencil_8x8x8_tra_2x2 4 --grid 8x8x8 --proc-grid 2x2 --backend tra --backend2 bruck)
  a2a_fft_test(slab_8x8x8_tra 4 --grid 8x8x8 --decomp slab --backend tra:r=2)
  a2a_fft_test(pencil_12x12x12_tra2_2x3 6 --grid 12x12x12 --proc-grid 2x3 --backend tra_modified --backend2 random_sendrecv)
  a2a_fft_test(pencil_30x21x17_3x2 6 --grid 30x21x17 --proc-grid 3x2 --backend tra_v --check roundtrip)
  a2a_fft_test(pencil_17x13x11_float 4 --grid 17x13x11 --precision float --backend sloavx)
  # Pipelined transposes (--chunks): overlapping backends (mpi, linear) and blocking ones,
  # slab and pencil, c2c and r2c, float, and more chunks than planes (empty chunks).
  a2a_fft_test(slab_17x13x11_chunks_mpi 3 --grid 17x13x11 --decomp slab --chunks 4 --backend mpi)
  a2a_fft_test(pencil_30x21x17_chunks_linear 4 --grid 30x21x17 --proc-grid 2x2 --chunks 3
               --backend linear)
  a2a_fft_test(r2c_pencil_12x10x9_chunks_pairwise 6 --grid 12x10x9 --proc-grid 3x2
               --transform r2c --chunks 5 --backend pairwise --backend2 mpi)
  a2a_fft_test(r2c_slab_8x8x8_chunks_empty 2 --grid 8x8x8 --decomp slab --transform r2c
               --chunks 16 --backend linear)
  a2a_fft_test(pencil_17x13x11_float_chunks 4 --grid 17x13x11 --precision float --chunks 2
               --backend mpi)
  # One rank per column (a 1 x P grid): the x transforms go from y- to x-pencils with nothing
  # exchanged, whole and pipelined.
  a2a_fft_test(pencil_17x13x11_1x3 3 --grid 17x13x11 --proc-grid 1x3 --backend pairwise)
  a2a_fft_test(r2c_pencil_17x13x11_1x3_chunks 3 --grid 17x13x11 --proc-grid 1x3 --transform r2c
               --chunks 2 --backend linear)
  a2a_fft_test(pencil_16x12x10_float_1x2_chunks 2 --grid 16x12x10 --proc-grid 1x2
               --precision float --chunks 3)
  a2a_cli_failure(fft_chunks_zero 2 "--chunks" fft --grid 8x8x8 --chunks 0)
  foreach(ranks 2 3 4)
    a2a_add_mpi_test(fft1d.serial_64P2.P${ranks} ${ranks} COMMAND $<TARGET_FILE:a2a> fft1d
                     --points 2304 --backend sloav --iters 1 TIMEOUT 300)
    a2a_add_mpi_test(fft1d.serial_uneven.P${ranks} ${ranks} COMMAND $<TARGET_FILE:a2a> fft1d
                     --points 1000 --n1 8 --iters 1 TIMEOUT 300)
  endforeach()
  a2a_add_mpi_test(fft1d.serial_tra.P4 4 COMMAND $<TARGET_FILE:a2a> fft1d --points 1024
                   --backend tra --iters 1 TIMEOUT 300)
  # Single copy: uneven (vector) transposes through the shared windows, the second received
  # into the column block by the plan's own execute.
  a2a_add_mpi_test(fft1d.serial_shared_window.P3 3 COMMAND $<TARGET_FILE:a2a> fft1d
                   --points 1000 --n1 8 --backend shared_window --iters 2 TIMEOUT 300)
  # The six-step's column panels at their edges: one or no column per rank (N1 = 2 on 5 ranks),
  # and columns longer than a cache-sized panel (N1 = 32768: four columns at a time).
  a2a_add_mpi_test(fft1d.serial_narrow_columns.P5 5 COMMAND $<TARGET_FILE:a2a> fft1d
                   --points 65536 --n1 2 --iters 1 TIMEOUT 300)
  a2a_add_mpi_test(fft1d.serial_long_columns.P2 2 COMMAND $<TARGET_FILE:a2a> fft1d
                   --points 524288 --n1 32768 --iters 1 TIMEOUT 300)
  # FFTW wisdom across runs: a measure run writes it, a wisdom-only run must find every plan in
  # it (and fails, on every rank, for a grid it does not hold, or for a file that is not wisdom).
  file(REMOVE ${CMAKE_CURRENT_BINARY_DIR}/fft.wisdom ${CMAKE_CURRENT_BINARY_DIR}/fft1d.wisdom)
  a2a_fft_test(wisdom_write 3 --grid 12x10x9 --fftw-plan measure
               --wisdom ${CMAKE_CURRENT_BINARY_DIR}/fft.wisdom)
  a2a_fft_test(wisdom_only_read 3 --grid 12x10x9 --fftw-plan wisdom-only
               --wisdom ${CMAKE_CURRENT_BINARY_DIR}/fft.wisdom)
  set_tests_properties(fft.wisdom_write.P3 PROPERTIES FIXTURES_SETUP fft_wisdom)
  set_tests_properties(fft.wisdom_only_read.P3 PROPERTIES FIXTURES_REQUIRED fft_wisdom)
  a2a_cli_failure(fft_wisdom_only_other_grid 3 "WISDOM_ONLY: the wisdom has no plan" fft
                  --grid 14x10x9 --fftw-plan wisdom-only --wisdom ${CMAKE_CURRENT_BINARY_DIR}/fft.wisdom)
  set_tests_properties(cli.rejects.fft_wisdom_only_other_grid PROPERTIES FIXTURES_REQUIRED fft_wisdom)
  a2a_cli_failure(fft_wisdom_only_without_file 2 "wisdom-only needs --wisdom FILE" fft
                  --grid 8x8x8 --fftw-plan wisdom-only)
  a2a_cli_failure(fft_wisdom_not_wisdom 2 "is not FFTW wisdom|not FFTW wisdom" fft --grid 8x8x8
                  --wisdom ${CMAKE_CURRENT_SOURCE_DIR}/decks/tiny.toml)
  a2a_add_mpi_test(fft1d.wisdom_write.P3 3 COMMAND $<TARGET_FILE:a2a> fft1d --points 4096
                   --fftw-plan measure --wisdom ${CMAKE_CURRENT_BINARY_DIR}/fft1d.wisdom --iters 1)
  a2a_add_mpi_test(fft1d.wisdom_only_read.P3 3 COMMAND $<TARGET_FILE:a2a> fft1d --points 4096
                   --fftw-plan wisdom-only --wisdom ${CMAKE_CURRENT_BINARY_DIR}/fft1d.wisdom
                   --iters 1)
  set_tests_properties(fft1d.wisdom_write.P3 PROPERTIES FIXTURES_SETUP fft1d_wisdom)
  set_tests_properties(fft1d.wisdom_only_read.P3 PROPERTIES FIXTURES_REQUIRED fft1d_wisdom)
  # The local ways timed at plan time are kept with the wisdom (FILE.ways) and reused.
  add_test(NAME fft.remembered_ways.P2
           COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/fft_remembered_ways.sh $<TARGET_FILE:a2a>
                   ${MPIEXEC_EXECUTABLE} ${MPIEXEC_NUMPROC_FLAG} 2 ${A2A_MPIEXEC_PREFLAGS})
  set_tests_properties(fft.remembered_ways.P2 PROPERTIES TIMEOUT 300 PROCESSORS 2
                       ENVIRONMENT "${A2A_MPI_TEST_ENV}" PASS_REGULAR_EXPRESSION
                       "remembered ways: passed")
  # Wisdom written by FFTW's own fftw-wisdom tool (libfftw3-bin) is merged with a2a's, not lost.
  find_program(A2A_FFTW_WISDOM fftw-wisdom)
  if(A2A_FFTW_WISDOM)
    add_test(NAME fft1d.wisdom_from_fftw_tool.P3
             COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/wisdom_from_fftw_tool.sh ${A2A_FFTW_WISDOM}
                     $<TARGET_FILE:a2a> ${MPIEXEC_EXECUTABLE} ${MPIEXEC_NUMPROC_FLAG} 3
                     ${A2A_MPIEXEC_PREFLAGS})
    set(_wisdom_env ${A2A_MPI_TEST_ENV})
    if(A2A_WITH_FFTW_MPI)
      list(APPEND _wisdom_env A2A_TEST_FFTW_MPI=1)
    endif()
    set_tests_properties(fft1d.wisdom_from_fftw_tool.P3 PROPERTIES TIMEOUT 300 PROCESSORS 3
                         ENVIRONMENT "${_wisdom_env}" PASS_REGULAR_EXPRESSION "added: passed")
  else()
    message(STATUS "a2a: no fftw-wisdom (Debian libfftw3-bin): its wisdom test is left out")
  endif()
  # configurable-alltoall Fig. 13's sizes, written relative to P, through its backends.
  a2a_add_mpi_test(fft1d.fig13_64P2_tra2.P4 4 COMMAND $<TARGET_FILE:a2a> fft1d --points 64P^2
                   --backend tra2 --iters 1 TIMEOUT 300)
  a2a_add_mpi_test(fft1d.fig13_P2_tra.P3 3 COMMAND $<TARGET_FILE:a2a> fft1d --points P^2
                   --backend tra:r=sqrt --iters 1 TIMEOUT 300)
  a2a_cli_failure(fft1d_points_expression 2 "--points '64Q.2': expected N, B.E, P.E" fft1d
                  --points 64Q^2)
  if(A2A_WITH_FFTW_MPI)
    a2a_fft_test(baseline_fftw_mpi_pencil 4 --grid 17x13x11 --baseline fftw-mpi)
    a2a_fft_test(baseline_fftw_mpi_slab 3 --grid 30x21x17 --decomp slab --baseline fftw-mpi
                 --backend random_scatter)
    a2a_fft_test(r2c_baseline_fftw_mpi 4 --grid 17x13x11 --transform r2c --baseline fftw-mpi)
  endif()
  a2a_fft_test(r2c_roundtrip_float_3x2 6 --grid 17x13x11 --transform r2c --proc-grid 3x2 --check roundtrip --precision float)
  if(A2A_WITH_HDF5)
    # Write at P = 4 (pencils), read at P = 3 (slabs) with the serial check and the baseline.
    a2a_fft_test(hdf5_output 4 --grid 17x13x11 --output ${CMAKE_CURRENT_BINARY_DIR}/fft_io.h5)
    a2a_fft_test(hdf5_input 3 --grid 17x13x11 --decomp slab --baseline fftw-mpi
                 --input ${CMAKE_CURRENT_BINARY_DIR}/fft_io.h5)
    set_tests_properties(fft.hdf5_output.P4 PROPERTIES FIXTURES_SETUP fft_io)
    set_tests_properties(fft.hdf5_input.P3 PROPERTIES FIXTURES_REQUIRED fft_io)
    a2a_cli_failure(fft_hdf5_wrong_grid 2 "wrong grid" fft --grid 17x13x12
                    --input ${CMAKE_CURRENT_BINARY_DIR}/fft_io.h5)
    set_tests_properties(cli.rejects.fft_hdf5_wrong_grid PROPERTIES FIXTURES_REQUIRED fft_io)
    a2a_cli_failure(fft_hdf5_missing_file 2 "cannot open HDF5 file" fft --grid 8x8x8
                    --input /nonexistent/none.h5)
    # Writes that cannot succeed are errors on every rank before HDF5 writes (no crash in
    # MPI_Finalize): a device, and a file-size limit below the arrays' size.
    a2a_cli_failure(fft_output_dev_full 2 "'/dev/full' is not a regular file" fft --grid 8x8x8
                    --output /dev/full --iters 1)
    # a2a on 2 ranks under a file size limit of `kib` KiB must fail with `pattern`.
    function(a2a_file_limit_failure name pattern kib)
      string(JOIN " " arguments ${ARGN})
      add_test(NAME cli.rejects.${name}
               COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/expect_failure.sh "${pattern}"
                       ${MPIEXEC_EXECUTABLE} ${MPIEXEC_NUMPROC_FLAG} 2 ${A2A_MPIEXEC_PREFLAGS}
                       bash -c "ulimit -f ${kib}; exec $<TARGET_FILE:a2a> ${arguments}")
      set_tests_properties(cli.rejects.${name} PROPERTIES TIMEOUT 120 PROCESSORS 2
                           ENVIRONMENT "${A2A_MPI_TEST_ENV}")
    endfunction()
    a2a_file_limit_failure(fft_output_file_size_limit "cannot write .* MiB to .*File too large" 32768
                           fft --grid 128x128x128 --check none --iters 1
                           --output ${CMAKE_CURRENT_BINARY_DIR}/fft_limited.h5)
    # The same limit on shared_window's window file: a clear error on every rank (Open MPI
    # aborted in MPI_Win_allocate_shared before); the run above, whose auto would take
    # shared_window, passes only because auto falls through to a plain backend.
    a2a_file_limit_failure(shared_window_file_size_limit
                           "shared_window.: a shared-memory window of 32 MiB does not fit: the file size limit .ulimit -f. is 16 MiB"
                           16384 fft --grid 128x128x128 --decomp slab --backend shared_window
                           --check none --iters 1)
    # Checks that can fail: an input written by h5py with one NaN (or Inf) must fail the
    # serial, round-trip and FFTW-MPI checks (std::max used to skip the NaN: "0.000e+00").
    foreach(kind string integers)
      add_test(NAME fft.make_${kind}_input
               COMMAND /usr/bin/python3 ${CMAKE_CURRENT_SOURCE_DIR}/make_bad_input.py
                       ${CMAKE_CURRENT_BINARY_DIR}/fft_${kind}.h5 8x6x5 ${kind})
      set_tests_properties(fft.make_${kind}_input PROPERTIES FIXTURES_SETUP fft_${kind} TIMEOUT 60)
      a2a_cli_failure(fft_${kind}_input 2 "dataset .input. of .* holds ${kind}s?, expected floating-point"
                      fft --grid 8x6x5 --input ${CMAKE_CURRENT_BINARY_DIR}/fft_${kind}.h5)
      set_tests_properties(cli.rejects.fft_${kind}_input PROPERTIES FIXTURES_REQUIRED fft_${kind})
    endforeach()
    foreach(kind nan inf)
      add_test(NAME fft.make_${kind}_input
               COMMAND /usr/bin/python3 ${CMAKE_CURRENT_SOURCE_DIR}/make_bad_input.py
                       ${CMAKE_CURRENT_BINARY_DIR}/fft_${kind}.h5 8x6x5 ${kind})
      set_tests_properties(fft.make_${kind}_input PROPERTIES FIXTURES_SETUP fft_${kind} TIMEOUT 60)
      a2a_cli_failure(fft_${kind}_input_serial 2 "check serial .*inf .*FAILED" fft --grid 8x6x5
                      --input ${CMAKE_CURRENT_BINARY_DIR}/fft_${kind}.h5 --check serial --iters 1)
      a2a_cli_failure(fft_${kind}_input_roundtrip 3 "check roundtrip .*inf .*FAILED" fft
                      --grid 8x6x5 --decomp slab --input ${CMAKE_CURRENT_BINARY_DIR}/fft_${kind}.h5
                      --check roundtrip --iters 1)
      a2a_cli_failure(fft_${kind}_input_baseline 2 "fftw-mpi baseline.*inf .DISAGREE" fft --grid 8x6x5 --input
                      ${CMAKE_CURRENT_BINARY_DIR}/fft_${kind}.h5 --check none --baseline fftw-mpi
                      --iters 1)
      set_tests_properties(cli.rejects.fft_${kind}_input_serial cli.rejects.fft_${kind}_input_roundtrip
                           cli.rejects.fft_${kind}_input_baseline PROPERTIES FIXTURES_REQUIRED fft_${kind})
    endforeach()
  endif()
  if(A2A_WITH_HDF5)
    # A valid input written by h5py through the one-rank 3D plans and a 1 x P grid (x panels
    # with nothing exchanged): serial FFTW's spectrum and the round trip; and a NaN in it must
    # fail the round trip on one rank too.
    add_test(NAME fft.make_ok_input
             COMMAND /usr/bin/python3 ${CMAKE_CURRENT_SOURCE_DIR}/make_bad_input.py
                     ${CMAKE_CURRENT_BINARY_DIR}/fft_ok.h5 16x12x10 ok)
    set_tests_properties(fft.make_ok_input PROPERTIES FIXTURES_SETUP fft_ok TIMEOUT 60)
    a2a_fft_test(h5py_input_one_rank 1 --grid 16x12x10 --check serial
                 --input ${CMAKE_CURRENT_BINARY_DIR}/fft_ok.h5)
    a2a_fft_test(h5py_input_1x2 2 --grid 16x12x10 --proc-grid 1x2 --check serial
                 --input ${CMAKE_CURRENT_BINARY_DIR}/fft_ok.h5)
    set_tests_properties(fft.h5py_input_one_rank.P1 fft.h5py_input_1x2.P2 PROPERTIES
                         FIXTURES_REQUIRED fft_ok)
    a2a_cli_failure(fft_nan_input_one_rank 1 "check roundtrip .*inf .*FAILED" fft --grid 8x6x5
                    --input ${CMAKE_CURRENT_BINARY_DIR}/fft_nan.h5 --check roundtrip --iters 1)
    set_tests_properties(cli.rejects.fft_nan_input_one_rank PROPERTIES FIXTURES_REQUIRED fft_nan)
    # The same h5py files through --in-place (one array, the spectrum copied out for the check):
    # the valid one matches serial FFTW, and the NaN must fail it.
    a2a_fft_test(h5py_input_in_place 1 --grid 16x12x10 --check serial --in-place
                 --input ${CMAKE_CURRENT_BINARY_DIR}/fft_ok.h5)
    set_tests_properties(fft.h5py_input_in_place.P1 PROPERTIES FIXTURES_REQUIRED fft_ok)
    a2a_cli_failure(fft_nan_input_in_place 2 "check serial .*inf .*FAILED" fft --grid 8x6x5
                    --input ${CMAKE_CURRENT_BINARY_DIR}/fft_nan.h5 --in-place --check serial
                    --iters 1)
    set_tests_properties(cli.rejects.fft_nan_input_in_place PROPERTIES FIXTURES_REQUIRED fft_nan)
    # --spectrum-layout natural on h5py's files: a complex one through 2 x 2 pencils (c2c) and a
    # real one through a 2 x 3 grid (r2c), the spectra written in the input's boxes and checked
    # by numpy.fft from h5py; the NaN must fail the serial check.
    add_test(NAME fft.make_real_input
             COMMAND /usr/bin/python3 ${CMAKE_CURRENT_SOURCE_DIR}/make_bad_input.py
                     ${CMAKE_CURRENT_BINARY_DIR}/fft_real.h5 16x12x10 real)
    set_tests_properties(fft.make_real_input PROPERTIES FIXTURES_SETUP fft_real TIMEOUT 60)
    foreach(case "c2c;4;ok;--decomp;pencil" "r2c;6;real;--proc-grid;2x3")
      list(GET case 0 transform)
      list(GET case 1 ranks)
      list(GET case 2 input)
      list(SUBLIST case 3 2 grid_args)
      a2a_fft_test(h5py_input_natural_${transform} ${ranks} --grid 16x12x10 ${grid_args}
                   --transform ${transform} --spectrum-layout natural --check serial
                   --input ${CMAKE_CURRENT_BINARY_DIR}/fft_${input}.h5
                   --output ${CMAKE_CURRENT_BINARY_DIR}/fft_natural_${transform}.h5)
      set_tests_properties(fft.h5py_input_natural_${transform}.P${ranks} PROPERTIES
                           FIXTURES_REQUIRED fft_${input} FIXTURES_SETUP fft_natural_${transform})
      add_test(NAME fft.natural_${transform}_output_vs_numpy
               COMMAND /usr/bin/python3 ${CMAKE_CURRENT_SOURCE_DIR}/check_spectrum_file.py
                       ${CMAKE_CURRENT_BINARY_DIR}/fft_natural_${transform}.h5)
      set_tests_properties(fft.natural_${transform}_output_vs_numpy PROPERTIES TIMEOUT 60
                           FIXTURES_REQUIRED fft_natural_${transform})
    endforeach()
    a2a_cli_failure(fft_nan_input_natural 4 "check serial .*inf .*FAILED" fft --grid 8x6x5
                    --decomp pencil --spectrum-layout natural --check serial --iters 1
                    --input ${CMAKE_CURRENT_BINARY_DIR}/fft_nan.h5)
    set_tests_properties(cli.rejects.fft_nan_input_natural PROPERTIES FIXTURES_REQUIRED fft_nan)
  endif()
  a2a_cli_failure(fft_r2c_planewave 2 "planewave is for" fft --grid 8x8x8 --transform r2c --check planewave)
  a2a_cli_failure(fft_baseline_float 2 "needs --precision double" fft --grid 8x8x8 --precision float --baseline fftw-mpi)
  if(A2A_WITH_FFTW_MPI)
    a2a_add_mpi_test(fft1d.baseline_fftw_mpi.P4 4 COMMAND $<TARGET_FILE:a2a> fft1d --points 1024
                     --baseline fftw-mpi --backend random_sendrecv --iters 2 TIMEOUT 300)
    a2a_add_mpi_test(fft1d.baseline_fftw_mpi_uneven.P3 3 COMMAND $<TARGET_FILE:a2a> fft1d
                     --points 1000 --baseline fftw-mpi --iters 2 TIMEOUT 300)
    # Both forms checked: natural order element by element, scrambled by its round trip and
    # its energy. A pass regex (the exit status alone would not show the scrambled form ran)
    # ignores the exit status, so a disagreement or a failed check is a fail regex.
    foreach(test fft1d.baseline_fftw_mpi.P4 fft1d.baseline_fftw_mpi_uneven.P3)
      set_tests_properties(${test} PROPERTIES
        PASS_REGULAR_EXPRESSION "fftw-mpi-scrambled baseline: [^;]*[(]agree[)]"
        FAIL_REGULAR_EXPRESSION "DISAGREE;FAILED")
    endforeach()
  else()
    # Without FFTW-MPI (the MPICH build) the baseline is a clear error on every rank.
    a2a_cli_failure(fft1d_no_fftw_mpi 2 "this build has no FFTW-MPI" fft1d --points 1024
                    --baseline fftw-mpi)
    a2a_cli_failure(fft_no_fftw_mpi 2 "this build has no FFTW-MPI" fft --grid 8x8x8
                    --baseline fftw-mpi)
  endif()
  a2a_cli_failure(fft1d_n1_not_dividing 2 "does not divide" fft1d --points 100 --n1 7)
  a2a_cli_failure(fft_bad_grid 2 "expected NXxNYxNZ" fft --grid 8x8)
  a2a_cli_failure(fft_grid_overflow 2 "more than 2.63 points" fft --grid 4194304x4194304x4194304)
  a2a_cli_failure(fft_grid_memory 2 "fft 2048x2048x2048 needs about .* per rank" fft
                  --grid 2048x2048x2048)
  a2a_cli_failure(fft_proc_grid_overflow 4 "--proc-grid 4x4611686018427387905: 4611686018427387905 is too large"
                  fft --grid 8x8x8 --proc-grid 4x4611686018427387905)
  a2a_cli_failure(fft1d_points_memory 2 "fft1d of 1099511627776 points needs about" fft1d
                  --points 1099511627776)
  # Decks: in-place FFTs against serial FFTW, MEASURE plans whose wisdom a wisdom-only
  # experiment must then find (the file is removed at configure time, as fft.wisdom above);
  # a wisdom file that is not wisdom (a file every build directory has) names its deck line.
  file(REMOVE ${CMAKE_CURRENT_BINARY_DIR}/deck_in_place.wisdom)
  a2a_add_mpi_test(run.in_place_wisdom_deck.P3 3 COMMAND $<TARGET_FILE:a2a> run
                   ${CMAKE_CURRENT_SOURCE_DIR}/decks/in_place_wisdom.toml --output none TIMEOUT 300)
  a2a_cli_failure(deck_wisdom_not_wisdom 2 "bad_wisdom.toml:5: .*not FFTW wisdom"
                  run ${CMAKE_CURRENT_SOURCE_DIR}/decks/bad_wisdom.toml --output none)
  # Decks accept uniform-only backends in FFT experiments where the grid divides evenly.
  a2a_add_mpi_test(run.uniform_backends_in_fft_decks.P4 4 COMMAND $<TARGET_FILE:a2a> run
                   ${CMAKE_CURRENT_SOURCE_DIR}/decks/uniform_fft.toml --output none TIMEOUT 300)
  a2a_cli_failure(fft_zero_grid 2 "positive integers" fft --grid 8x0x8)
  a2a_cli_failure(fft_proc_grid_mismatch 4 "does not have P=4" fft --grid 8x8x8 --proc-grid 3x2)
  a2a_cli_failure(fft_uniform_backend_uneven_grid 4 "does not support the vector" fft --grid 17x13x11 --backend tra)
endif()

# A plain C program on a2a/fft.h (validation/capi/NAME.c, built with the MPI C compiler as a
# user builds it) run as fft.c_program_NAME.P<ranks> for each of RANKS; it passes when it
# prints "NAME: <count> passed, 0 failed".
function(a2a_fft_c_program name count)
  add_executable(capi_fft_${name} ${PROJECT_SOURCE_DIR}/validation/capi/fft_${name}.c)
  target_link_libraries(capi_fft_${name} PRIVATE a2a::fft PkgConfig::FFTW3 MPI::MPI_C m)
  foreach(ranks ${ARGN})
    a2a_add_mpi_test(fft.c_program_${name}.P${ranks} ${ranks}
                     COMMAND $<TARGET_FILE:capi_fft_${name}> TIMEOUT 120)
    set_tests_properties(fft.c_program_${name}.P${ranks} PROPERTIES
                         PASS_REGULAR_EXPRESSION "${name}: ${count} passed, 0 failed")
  endforeach()
endfunction()

if(TARGET a2a_fft)
  # FFTW-MPI's slab boxes, which BoxFft runs on Fft3d: c2c and r2c, in and out of place, odd
  # sizes, empty ranks (P = 5), estimate and measure (the ways timed, two calls each way),
  # against serial FFTW.
  a2a_fft_c_program(tuned_slabs 20 2 3 5)
  # The real-to-real kinds: every type against serial FFTW's fftw_plan_r2r_3d, odd and even
  # sizes, empty ranks at P = 5, float, a NaN field in a batch.
  a2a_fft_c_program(r2r_kinds 18 1 2 5)
  # Batches (interleaved, contiguous: field by field, and on FFTW-MPI's boxes one field at a
  # time on the tuned path) and the general path's first and last transforms on malloc'd
  # arrays, aligned and not; an r2c along z alone, whose backward must leave the spectrum as it
  # was.
  a2a_fft_c_program(batches 14 1 2 3 4)
  # The general path on the docs' boxes (x-slabs in, x-pencils out): the scaling that rides in
  # ColumnFfts' panels where they run on every rank, on grids where they run on some ranks only
  # (P = 2) and with empty ranks (P = 8); P = 1's 1 x 1 slab under estimate.
  a2a_fft_c_program(general_path 60 1 2 8)
endif()

# Port check: an FFTW-MPI program (plain C, slab, FFTW_MPI_TRANSPOSED_OUT, in place) and the
# same program on a2a/fft.h give the same global spectrum to rounding (docs/fft.md counts the
# lines the port changed).
if(A2A_WITH_FFTW_MPI)
  add_executable(port_fftw_mpi_original ${PROJECT_SOURCE_DIR}/validation/ports/fftw_mpi_slab.c)
  target_link_libraries(port_fftw_mpi_original PRIVATE FFTW3::mpi MPI::MPI_C m)
  add_executable(port_fftw_mpi_a2a ${PROJECT_SOURCE_DIR}/validation/ports/fftw_mpi_slab_a2a.c)
  target_link_libraries(port_fftw_mpi_a2a PRIVATE a2a::fft MPI::MPI_C m)
  string(JOIN " " _launch ${MPIEXEC_EXECUTABLE} ${MPIEXEC_NUMPROC_FLAG})
  string(JOIN " " _preflags ${A2A_MPIEXEC_PREFLAGS})
  foreach(ranks 1 3 4)
    set(_out ${CMAKE_CURRENT_BINARY_DIR}/port_fftw_mpi_P${ranks})
    add_test(NAME fft.port_of_fftw_mpi.P${ranks}
             COMMAND bash -c "${_launch} ${ranks} ${_preflags} $<TARGET_FILE:port_fftw_mpi_original> ${_out}_fftw && ${_launch} ${ranks} ${_preflags} $<TARGET_FILE:port_fftw_mpi_a2a> ${_out}_a2a && /usr/bin/python3 ${PROJECT_SOURCE_DIR}/validation/ports/compare_spectra.py ${_out}_fftw ${ranks} ${_out}_a2a ${ranks}")
    set_tests_properties(fft.port_of_fftw_mpi.P${ranks} PROPERTIES TIMEOUT 120 PROCESSORS ${ranks}
      LABELS mpi ENVIRONMENT "${A2A_MPI_TEST_ENV}" PASS_REGULAR_EXPRESSION "ports: 1 passed, 0 failed")
  endforeach()
endif()

# A heFFTe-style program (boxes in, boxes out, heFFTe's memory order) on BoxFft: its spectrum
# against the closed form and the round trip (validation/ports/heffte_style_a2a.cpp).
if(A2A_WITH_FFTW)
  add_executable(port_heffte_style ${PROJECT_SOURCE_DIR}/validation/ports/heffte_style_a2a.cpp)
  target_link_libraries(port_heffte_style PRIVATE a2a::fft MPI::MPI_CXX)
  a2a_add_mpi_test(fft.port_of_heffte_style.P2 2 COMMAND $<TARGET_FILE:port_heffte_style>
                   TIMEOUT 60)
  set_property(TEST fft.port_of_heffte_style.P2 APPEND PROPERTY
               PASS_REGULAR_EXPRESSION "ports: 1 passed, 0 failed")
endif()
