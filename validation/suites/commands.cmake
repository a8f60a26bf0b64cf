# The applications and the command line: NPB IS verified, bad specs, bench --check, the CLI's
# refusals (one message on every rank, no hang), list and model outputs.
# Included by validation/CMakeLists.txt.

# NPB IS with the official verification values, through many backends.
a2a_test_executable(test_is)
foreach(ranks 1 2 3 4 8)
  a2a_add_mpi_test(is.npb_verification.P${ranks} ${ranks} COMMAND $<TARGET_FILE:test_is>
                   TIMEOUT 600)
endforeach()
a2a_add_mpi_test(cli.is_class_S.P4 4 COMMAND $<TARGET_FILE:a2a> is --class S --backend sloav
                 --counts-backend tra:r=2 TIMEOUT 120)
set_tests_properties(cli.is_class_S.P4 PROPERTIES PASS_REGULAR_EXPRESSION
                     "Verification += +SUCCESSFUL")

# Bad specs and layouts: the same error on every rank, no hang.
a2a_test_executable(test_errors)
target_compile_definitions(test_errors PRIVATE A2A_SOURCE_DIR="${CMAKE_SOURCE_DIR}")
foreach(ranks 1 3 4)
  a2a_add_mpi_test(errors.bad_specs.P${ranks} ${ranks} COMMAND $<TARGET_FILE:test_errors>
                   TIMEOUT 60)
endforeach()
set_tests_properties(errors.bad_specs.P1 errors.bad_specs.P3 errors.bad_specs.P4 PROPERTIES
                     WORKING_DIRECTORY ${CMAKE_CURRENT_BINARY_DIR})

# The command line: bench --check over everything, and bad input through the CLI.
set(A2A_RUN ${MPIEXEC_EXECUTABLE} ${MPIEXEC_NUMPROC_FLAG})
a2a_add_mpi_test(cli.bench_all_check.P8 8 COMMAND $<TARGET_FILE:a2a> bench --algorithms all
                 --check --sizes 0:4096 --iters 3 --warmup 1 TIMEOUT 300)
a2a_add_mpi_test(cli.bench_all_check.P7 7 COMMAND $<TARGET_FILE:a2a> bench --algorithms all
                 --check --sizes 1,100,65537 --iters 2 --warmup 1 --format json TIMEOUT 300)

foreach(dist random powerlaw onesender)
  a2a_add_mpi_test(cli.bench_vector_${dist}_check.P8 8 COMMAND $<TARGET_FILE:a2a> bench
                   --vector ${dist} --algorithms all --check --sizes 1,64,5000 --iters 2
                   --warmup 1 TIMEOUT 300)
endforeach()
a2a_add_mpi_test(cli.bench_vector_sloavx_check.P12 12 COMMAND $<TARGET_FILE:a2a> bench
                 --vector hot --algorithms sloavx:q=2,sloavx:q=3,sloavx:q=4,sloavx:q=6,sloav
                 --check --sizes 1,1000 --iters 2 --warmup 1 TIMEOUT 300)

function(a2a_cli_failure name ranks pattern)
  add_test(NAME cli.rejects.${name}
           COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/expect_failure.sh "${pattern}"
                   ${MPIEXEC_EXECUTABLE} ${MPIEXEC_NUMPROC_FLAG} ${ranks} ${A2A_MPIEXEC_PREFLAGS}
                   $<TARGET_FILE:a2a> ${ARGN})
  set_tests_properties(cli.rejects.${name} PROPERTIES TIMEOUT 60 PROCESSORS ${ranks}
                       ENVIRONMENT "${A2A_MPI_TEST_ENV}")
endfunction()
a2a_cli_failure(unknown_backend 3 "unknown backend 'nosuch'" bench --algorithms mpi,nosuch)
a2a_cli_failure(bad_radix 3 "r=1 is outside \\[2, 3\\]" bench --algorithms tra:r=1)
a2a_cli_failure(radix_above_P 4 "r=9 is outside" bench --algorithms tra_modified:r=9)
a2a_cli_failure(unknown_key 2 "unknown parameter 'radix'" bench --algorithms tra:radix=2)
a2a_cli_failure(bad_sizes 2 "not a byte count" bench --sizes 8:lots)
a2a_cli_failure(bad_iters 2 "iters" bench --iters 0)
a2a_cli_failure(tra2_q_not_dividing_P 10 "P=10 is not a multiple of q=4" bench --algorithms tra2:q=4)
a2a_cli_failure(tra2_r1_above_Q 4 "r1=3 is outside \\[2, 2\\]" bench --algorithms tra2:q=2,r1=3)
a2a_cli_failure(unknown_distribution 2 "vector" bench --vector nosuch)
a2a_cli_failure(vector_only_backend_for_uniform 2 "does not support the uniform" bench --algorithms sloav)
a2a_cli_failure(uniform_only_backend_for_vector 2 "does not support the vector" bench --vector random --algorithms tra)
a2a_cli_failure(sloavx_q_not_dividing_P 8 "P=8 is not a multiple of q=3" bench --vector random --algorithms sloavx:q=3)
a2a_cli_failure(is_drops_a_key 3 "Verification += +UNSUCCESSFUL" is --class S --test-drop-key)
# A flipped bit (the key stays in its bucket: sorted, counts right) and a key duplicated in
# place of another (count right) must fail too: the multiset check (keys as sent).
a2a_cli_failure(is_flips_a_key_bit 3 "Keys as sent += +NO" is --class S --test-flip-key)
a2a_cli_failure(is_duplicates_a_key 4 "Keys as sent += +NO" is --class W --test-duplicate-key
                --backend sloav)
a2a_cli_failure(is_bad_class 2 "class" is --class X)
a2a_cli_failure(is_uniform_only_backend 3 "does not support the vector" is --class S --backend tra)
a2a_cli_failure(is_vector_only_counts_backend 3 "does not support the uniform" is --class S --counts-backend sloav)
a2a_cli_failure(segment_zero 3 "segment=0 is outside" bench --algorithms random_segmented:segment=0)
a2a_cli_failure(queue_zero 3 "queue=0 is outside" bench --algorithms random_sendrecv:queue=0)
a2a_cli_failure(seed_not_a_number 3 "seed=abc is not an integer" bench --algorithms random_scatter:seed=abc)
a2a_cli_failure(shuffle_not_bool 2 "shuffle=maybe is not on or off" bench --algorithms random_scatter:shuffle=maybe)
a2a_cli_failure(unknown_subcommand 1 "subcommand|nosuch" nosuch)
a2a_cli_failure(model_bad_radix 1 "expected an integer in \\[2, 16\\]" model --procs 16 --radix 1)
a2a_cli_failure(model_missing_procs 1 "procs" model --radix 2)
a2a_cli_failure(model_fit_unreadable 1 "cannot read --fit '/nonexistent.jsonl'" model --fit
                /nonexistent.jsonl)
a2a_cli_failure(model_fit_no_records 1 "no a2a bench records" model --fit
                ${CMAKE_CURRENT_SOURCE_DIR}/decks/tiny.toml)
# Times that do not follow the counters: the fit is printed with why it does not hold, and no
# prediction is made from it.
a2a_cli_failure(model_fit_does_not_hold 1 "the fit does not hold \\(R\\^2 = .* is below 0.9.*predicts nothing"
                model --fit ${CMAKE_CURRENT_SOURCE_DIR}/fit/unrelated.jsonl --procs 1024 --block-bytes 256)

# a2a list/model outputs.
add_test(NAME cli.list_json COMMAND sh -c "$<TARGET_FILE:a2a> list --format json | python3 -c \"import json,sys; names=[json.loads(l)['name'] for l in sys.stdin]; assert {'mpi','linear','pairwise','bruck','tra','tra_modified','random_scatter','random_sendrecv','random_segmented','random_auto','tra2','sloav','sloavx','tra_v','padded_bruck_v','auto'} <= set(names), names; print(len(names), 'algorithms listed; 1 passed, 0 failed')\"")
set_tests_properties(cli.list_json PROPERTIES ENVIRONMENT "${A2A_MPI_TEST_ENV}" TIMEOUT 30)
add_test(NAME cli.model_paper_example COMMAND $<TARGET_FILE:a2a> model --procs 16384 --radix 128)
set_tests_properties(cli.model_paper_example PROPERTIES ENVIRONMENT "${A2A_MPI_TEST_ENV}"
                     PASS_REGULAR_EXPRESSION "16384 +128 +2 +254 +32512" TIMEOUT 30)

add_test(NAME cli.model_tra2 COMMAND $<TARGET_FILE:a2a> model --procs 16 --ranks-per-node 4
         --r1 2 --r2 2)
set_tests_properties(cli.model_tra2 PROPERTIES ENVIRONMENT "${A2A_MPI_TEST_ENV}" TIMEOUT 30
                     PASS_REGULAR_EXPRESSION "16 +4 +4 +2 +2 +2 +16 +2 +16 +4 +32")
a2a_cli_failure(model_tra2_q_not_dividing 1 "does not divide" model --procs 16 --ranks-per-node 3)
# Inputs that used to crash, loop or be misread: refused on every rank with a clear message.
a2a_cli_failure(bench_sizes_too_large 2 "'17179869184G' is too large" bench --sizes 17179869184G)
a2a_cli_failure(bench_sizes_doubling_wraps 2 "needs about .* per rank" bench --sizes 1:8589934592G)
# (through bash: CMake drops empty arguments)
add_test(NAME cli.rejects.bench_empty_algorithms
         COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/expect_failure.sh "--algorithms is empty"
                 ${MPIEXEC_EXECUTABLE} ${MPIEXEC_NUMPROC_FLAG} 2 ${A2A_MPIEXEC_PREFLAGS}
                 bash -c "exec $<TARGET_FILE:a2a> bench --algorithms '' --check")
set_tests_properties(cli.rejects.bench_empty_algorithms PROPERTIES TIMEOUT 60 PROCESSORS 2
                     ENVIRONMENT "${A2A_MPI_TEST_ENV}")
a2a_cli_failure(model_all_radices_bounded 1 "would print 4194303 rows" model --procs 4194304
                --radix all)
a2a_cli_failure(radix_too_large_for_int 2 "r=99999999999999999999 is outside" bench
                --algorithms tra:r=99999999999999999999)
a2a_cli_failure(deck_memory_second_experiment 2 "bad_memory.toml:10: .*needs about .* per rank"
                run ${CMAKE_CURRENT_SOURCE_DIR}/decks/bad_memory.toml --output none)
# Under a memory limit (ulimit -v, 3 GiB per rank) 1 GiB per peer is refused, not bad_alloc.
add_test(NAME cli.rejects.bench_memory_limit
         COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/expect_failure.sh "bench needs about .* per rank"
                 ${MPIEXEC_EXECUTABLE} ${MPIEXEC_NUMPROC_FLAG} 2 ${A2A_MPIEXEC_PREFLAGS}
                 bash -c "ulimit -v 3145728; exec $<TARGET_FILE:a2a> bench --sizes 1G --algorithms mpi")
set_tests_properties(cli.rejects.bench_memory_limit PROPERTIES TIMEOUT 60 PROCESSORS 2
                     ENVIRONMENT "${A2A_MPI_TEST_ENV}")
