# a2a_add_mpi_test(NAME RANKS COMMAND cmd args... [TIMEOUT s] [ENVIRONMENT k=v...] [LABELS l...]
#                  [WILL_FAIL])
#
# Runs COMMAND under ${MPIEXEC_EXECUTABLE} ${MPIEXEC_NUMPROC_FLAG} RANKS ${MPIEXEC_PREFLAGS}.
# Open MPI refuses more ranks than cores and refuses root unless told, so the preflags gain
# --oversubscribe and the environment the two OMPI_ALLOW_RUN_AS_ROOT variables. Every test gets
# a timeout (a deadlock fails fast) and PROCESSORS = RANKS so ctest -j does not overload.
# Tests with more than 5 ranks also get the label `many_ranks` (the MPICH leg of scripts/test
# leaves them out: oversubscribed 6-12 ranks take most of its time, and P = 1..5 already
# covers power-of-two, odd and prime counts).
set(A2A_TEST_TIMEOUT 120 CACHE STRING "Default per-test timeout in seconds")

execute_process(COMMAND ${MPIEXEC_EXECUTABLE} --version OUTPUT_VARIABLE _a2a_mpiexec_version
                ERROR_QUIET)
set(A2A_MPIEXEC_PREFLAGS ${MPIEXEC_PREFLAGS})
set(A2A_MPI_TEST_ENV "")
# Which MPI the tests run under: Open MPI or MPICH (its Hydra launcher).
set(A2A_MPI_FLAVOUR other)
if(_a2a_mpiexec_version MATCHES "HYDRA")
  set(A2A_MPI_FLAVOUR mpich)
endif()
if(_a2a_mpiexec_version MATCHES "Open MPI|OpenRTE")
  set(A2A_MPI_FLAVOUR openmpi)
  list(APPEND A2A_MPIEXEC_PREFLAGS --oversubscribe)
  list(APPEND A2A_MPI_TEST_ENV OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
       OMPI_MCA_rmaps_base_oversubscribe=1)
endif()

function(a2a_add_mpi_test NAME RANKS)
  cmake_parse_arguments(ARG "WILL_FAIL" "TIMEOUT" "COMMAND;ENVIRONMENT;LABELS" ${ARGN})
  if(NOT ARG_COMMAND)
    message(FATAL_ERROR "a2a_add_mpi_test(${NAME}): COMMAND is required")
  endif()
  if(NOT ARG_TIMEOUT)
    set(ARG_TIMEOUT ${A2A_TEST_TIMEOUT})
  endif()
  add_test(NAME ${NAME}
           COMMAND ${MPIEXEC_EXECUTABLE} ${MPIEXEC_NUMPROC_FLAG} ${RANKS} ${A2A_MPIEXEC_PREFLAGS}
                   ${ARG_COMMAND} ${MPIEXEC_POSTFLAGS})
  set_tests_properties(${NAME} PROPERTIES
    TIMEOUT ${ARG_TIMEOUT}
    PROCESSORS ${RANKS}
    ENVIRONMENT "${A2A_MPI_TEST_ENV};${ARG_ENVIRONMENT}"
    LABELS "mpi;${ARG_LABELS}")
  if(RANKS GREATER 5)
    set_property(TEST ${NAME} APPEND PROPERTY LABELS many_ranks)
  endif()
  if(ARG_WILL_FAIL)
    set_tests_properties(${NAME} PROPERTIES WILL_FAIL TRUE)
  endif()
endfunction()
