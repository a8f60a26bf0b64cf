# a2a run (decks, results files, plots) and a2a tune.
# Included by validation/CMakeLists.txt.

# a2a run: the results file written then read back, with the C API and, end to end, with
# h5py; the plots made from it; decks rejected on every rank before anything runs, naming the
# line.
if(A2A_WITH_HDF5)
  add_executable(test_results test_results.cpp)
  target_link_libraries(test_results PRIVATE a2a_hdf5_io a2a_compile_options)
  a2a_add_mpi_test(results.write_then_read.P1 1 COMMAND $<TARGET_FILE:test_results> TIMEOUT 60)
  if(A2A_WITH_FFTW)
    add_test(NAME run.tiny_deck.P3
             COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/run_deck_test.sh $<TARGET_FILE:a2a>
                     ${MPIEXEC_EXECUTABLE} ${MPIEXEC_NUMPROC_FLAG} 3 ${A2A_MPIEXEC_PREFLAGS} --
                     ${CMAKE_CURRENT_SOURCE_DIR}/decks/tiny.toml)
    set_tests_properties(run.tiny_deck.P3 PROPERTIES TIMEOUT 300 PROCESSORS 3
                         ENVIRONMENT "${A2A_MPI_TEST_ENV}")
    # The slab's fused transposes: each call's transpose and compute parts, with the copies into
    # and out of the peers' memory counted as transpose, lie within the call (a fused run
    # subtracting them three times from the local time failed here, tried).
    add_test(NAME run.fused_fft_deck.P2
             COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/run_deck_test.sh $<TARGET_FILE:a2a>
                     ${MPIEXEC_EXECUTABLE} ${MPIEXEC_NUMPROC_FLAG} 2 ${A2A_MPIEXEC_PREFLAGS} --
                     ${CMAKE_CURRENT_SOURCE_DIR}/decks/fused_fft.toml c2c-fft r2c-fft)
    set_tests_properties(run.fused_fft_deck.P2 PROPERTIES TIMEOUT 300 PROCESSORS 2
                         ENVIRONMENT "${A2A_MPI_TEST_ENV}"
                         PASS_REGULAR_EXPRESSION "check_results: [^\n]*: OK.*run_deck_test: passed")
  endif()
  # scripts/plot's twin heatmap and C s^K fit (randomized Fig. 2, 3) against closed forms.
  # scripts/plot --best-map and --fft-ratios on the dated records' raw lines.
  add_test(NAME plot.from_records COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/plot_records.sh)
  set_tests_properties(plot.from_records PROPERTIES TIMEOUT 120)
  add_test(NAME plot.shuffle_fit COMMAND /usr/bin/python3
                                         ${CMAKE_CURRENT_SOURCE_DIR}/plot_shuffle_fit.py)
  set_tests_properties(plot.shuffle_fit PROPERTIES TIMEOUT 120)
  # Finished work survives: SIGTERM in the second experiment (to mpirun, to the process group),
  # a file-size limit mid-run.
  # (The limit runs one rank: Open MPI's shared memory between ranks needs larger files.)
  foreach(mode_ranks signal:2 group:2 limit:1)
    string(REPLACE ":" ";" mode_ranks ${mode_ranks})
    list(GET mode_ranks 0 mode)
    list(GET mode_ranks 1 ranks)
    add_test(NAME results.survive_${mode}.P${ranks}
             COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/results_survive.sh ${mode} $<TARGET_FILE:a2a>
                     ${CMAKE_CURRENT_SOURCE_DIR}/decks/interrupted.toml
                     ${CMAKE_CURRENT_BINARY_DIR}/interrupted_${mode}.h5
                     ${MPIEXEC_EXECUTABLE} ${MPIEXEC_NUMPROC_FLAG} ${ranks} ${A2A_MPIEXEC_PREFLAGS})
    # Open MPI's mpirun SIGKILLs the ranks 1 s after forwarding SIGTERM: under the parallel
    # tests' load that can come before rank 0 has run its handler (decks.md); 10 s.
    set_tests_properties(results.survive_${mode}.P${ranks} PROPERTIES TIMEOUT 120
                         PROCESSORS ${ranks}
                         ENVIRONMENT "${A2A_MPI_TEST_ENV};OMPI_MCA_odls_base_sigkill_timeout=10"
                         PASS_REGULAR_EXPRESSION "1 passed, 0 failed")
  endforeach()
  # An unwritable --output fails before the sweep (which would run for minutes here).
  a2a_cli_failure(bench_output_not_a_file 2 "results file '/dev/full' exists and is not a regular file"
                  bench --algorithms mpi,pairwise --sizes 65536 --iters 1000000 --output /dev/full)
  # a2a bench --output writes the same layout (one bench experiment).
  a2a_add_mpi_test(bench.output_hdf5.P3 3 COMMAND $<TARGET_FILE:a2a> bench
                   --algorithms mpi,tra,random_scatter --sizes 8,1000 --iters 5 --check
                   --output ${CMAKE_CURRENT_BINARY_DIR}/bench_output.h5 TIMEOUT 120)
  add_test(NAME bench.output_hdf5_layout
           COMMAND /usr/bin/python3 ${CMAKE_CURRENT_SOURCE_DIR}/check_results.py
                   ${CMAKE_CURRENT_BINARY_DIR}/bench_output.h5)
  set_tests_properties(bench.output_hdf5.P3 PROPERTIES FIXTURES_SETUP bench_output)
  set_tests_properties(bench.output_hdf5_layout PROPERTIES FIXTURES_REQUIRED bench_output
                       TIMEOUT 60)
endif()
# a2a tune end to end: its table against its raw results (h5py; the JSON lines without HDF5),
# auto with the table, the model refitted from the raw results (a2a model --fit).
add_test(NAME tune.table_roundtrip.P3
         COMMAND /usr/bin/python3 ${CMAKE_CURRENT_SOURCE_DIR}/tune_roundtrip.py $<TARGET_FILE:a2a>
                 ${CMAKE_CURRENT_BINARY_DIR}/tune_roundtrip ${MPIEXEC_EXECUTABLE}
                 ${MPIEXEC_NUMPROC_FLAG} 3 ${A2A_MPIEXEC_PREFLAGS})
set_tests_properties(tune.table_roundtrip.P3 PROPERTIES TIMEOUT 300 PROCESSORS 3
                     ENVIRONMENT "${A2A_MPI_TEST_ENV}")
a2a_cli_failure(tune_bad_budget 2 "--budget 'soon': expected a positive duration" tune --budget soon)
a2a_cli_failure(tune_unknown_distribution 2 "--distributions: unknown distribution 'skewed'"
                tune --distributions random,skewed)
a2a_cli_failure(tune_output_unwritable 2 "cannot write selection table '/nonexistent/dir/t.json' \\(open"
                tune --sizes 8 --output /nonexistent/dir/t.json)
a2a_cli_failure(tune_update_not_json 2 "--update: selection table /proc/version is not valid JSON"
                tune --sizes 8 --update --output /proc/version)
a2a_cli_failure(deck_unknown_key 3 "bad_unknown_key.toml:7: unknown key 'itres'"
                run ${CMAKE_CURRENT_SOURCE_DIR}/decks/bad_unknown_key.toml)
a2a_cli_failure(deck_syntax 3 " 5 \\| iters = \\[3"
                run ${CMAKE_CURRENT_SOURCE_DIR}/decks/bad_syntax.toml)
a2a_cli_failure(deck_q_not_dividing 3 "bad_q_not_dividing.toml:9: backend 'tra2:q=2' cannot run"
                run ${CMAKE_CURRENT_SOURCE_DIR}/decks/bad_q_not_dividing.toml --output none)
a2a_cli_failure(deck_missing 2 "cannot read deck" run /nonexistent/deck.toml)
if(A2A_WITH_FFTW)
  a2a_cli_failure(deck_proc_grid 3 "bad_proc_grid.toml:6: .*2x2 has 4 ranks"
                  run ${CMAKE_CURRENT_SOURCE_DIR}/decks/bad_proc_grid.toml --output none)
  a2a_cli_failure(deck_uniform_backend_uneven_grid 2 "bad_uniform_grid.toml:4: backend 'tra'"
                  run ${CMAKE_CURRENT_SOURCE_DIR}/decks/bad_uniform_grid.toml --output none)
endif()
