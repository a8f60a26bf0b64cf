# The C API, the Fortran module, the Python package and find_package(a2a), as users call them.
# Included by validation/CMakeLists.txt.

# The C API, the Fortran module and the Python package, as their users call them: P = 1..4,
# uniform and vector backends (the C and Python programs compare with MPI's own collectives
# and closed forms; the Fortran and Python FFTs with serial FFTW and numpy.fft.fftn).
add_executable(capi_test capi/capi_test.c)
target_link_libraries(capi_test PRIVATE a2a::transpose MPI::MPI_C)
# a2a_backend_tests(NAME PAIRS RANKS:BACKEND... COMMAND cmd... [ENVIRONMENT k=v...]): one test
# NAME.P<RANKS> per pair, running `cmd... BACKEND` on RANKS ranks.
function(a2a_backend_tests name)
  cmake_parse_arguments(ARG "" "" "PAIRS;COMMAND;ENVIRONMENT" ${ARGN})
  foreach(pair ${ARG_PAIRS})
    string(REPLACE ":" ";" pair ${pair})
    list(GET pair 0 ranks)
    list(GET pair 1 backend)
    a2a_add_mpi_test(${name}.P${ranks} ${ranks} COMMAND ${ARG_COMMAND} ${backend}
                     ENVIRONMENT ${ARG_ENVIRONMENT} TIMEOUT 120)
  endforeach()
endfunction()
# The API programs' (uniform, vector) backend pair for P ranks: entry P mod 5.
set(A2A_API_BACKENDS "tra:r=2 sloav" "pairwise tra_v:r=sqrt" "bruck:window=all linear"
    "auto auto" "tra:r=max,window=all sloavx")
foreach(ranks 1 2 3 4 5)
  math(EXPR index "${ranks} % 5")
  list(GET A2A_API_BACKENDS ${index} pair)
  separate_arguments(pair)
  a2a_add_mpi_test(capi.c.P${ranks} ${ranks} COMMAND $<TARGET_FILE:capi_test> ${pair} TIMEOUT 120)
endforeach()
# A C program under `ulimit -f` below a shared window: a clear error, and auto going on.
add_executable(capi_shared_window_limit capi/shared_window_limit.c)
target_link_libraries(capi_shared_window_limit PRIVATE a2a::alltoall MPI::MPI_C)
add_test(NAME capi.c_shared_window_file_size_limit.P2
         COMMAND ${MPIEXEC_EXECUTABLE} ${MPIEXEC_NUMPROC_FLAG} 2 ${A2A_MPIEXEC_PREFLAGS} bash -c
                 "ulimit -f 8192; exec $<TARGET_FILE:capi_shared_window_limit>")
set_tests_properties(capi.c_shared_window_file_size_limit.P2 PROPERTIES TIMEOUT 120 PROCESSORS 2
                     ENVIRONMENT "${A2A_MPI_TEST_ENV}")
find_package(PkgConfig REQUIRED)
pkg_check_modules(A2A_FFTW3_SERIAL IMPORTED_TARGET fftw3)
if(A2A_FFTW3_SERIAL_FOUND)
  add_executable(capi_pencil_fft_c capi/pencil_fft.c)
  target_link_libraries(capi_pencil_fft_c PRIVATE a2a::transpose MPI::MPI_C
                                                  PkgConfig::A2A_FFTW3_SERIAL m)
  a2a_backend_tests(capi.c_pencil_fft PAIRS 1:tra_v 2:auto 3:pairwise 4:sloav
                    COMMAND $<TARGET_FILE:capi_pencil_fft_c>)
  # The C program's transposes through the single-copy backend (a 2 x 2 grid: both rows and
  # columns write into each other's windows).
  a2a_add_mpi_test(capi.c_pencil_fft_shared_window.P4 4 COMMAND $<TARGET_FILE:capi_pencil_fft_c>
                   shared_window TIMEOUT 120)
endif()
if(TARGET a2a_fortran AND TARGET MPI::MPI_Fortran)
  # gfortran does not search /usr/include for `include 'fftw3.f03'`, so name the folder.
  find_path(A2A_FFTW3_F03_DIR fftw3.f03 HINTS ${A2A_FFTW3_SERIAL_INCLUDE_DIRS})
  if(A2A_FFTW3_SERIAL_FOUND AND A2A_FFTW3_F03_DIR)
    add_executable(capi_pencil_fft capi/pencil_fft.f90)
    target_include_directories(capi_pencil_fft PRIVATE ${A2A_FFTW3_F03_DIR})
    target_link_libraries(capi_pencil_fft PRIVATE a2a::fortran MPI::MPI_Fortran
                                                  PkgConfig::A2A_FFTW3_SERIAL)
    a2a_backend_tests(capi.fortran_pencil_fft PAIRS 1:auto 2:pairwise 3:sloav 4:tra_v
                      COMMAND $<TARGET_FILE:capi_pencil_fft>)
  endif()
  # docs/fft.md's Fortran program (validation/consumer/fft3d.f90: `use a2a_fft`).
  if(TARGET a2a_fft)
    add_executable(fft_library_example_fortran ${PROJECT_SOURCE_DIR}/validation/consumer/fft3d.f90)
    target_link_libraries(fft_library_example_fortran PRIVATE a2a::fortran MPI::MPI_Fortran)
    foreach(ranks 1 3 4)
      a2a_add_mpi_test(fft.library_example_fortran.P${ranks} ${ranks}
                       COMMAND $<TARGET_FILE:fft_library_example_fortran> TIMEOUT 120)
      set_property(TEST fft.library_example_fortran.P${ranks} APPEND PROPERTY
                   PASS_REGULAR_EXPRESSION ": passed")
    endforeach()
  endif()
endif()
# The complete examples shown in docs/c.md, fortran.md and python.md are these programs.
if(A2A_PYTHON3)
  add_test(NAME docs.examples_are_the_tested_programs
           COMMAND ${A2A_PYTHON3} ${CMAKE_CURRENT_SOURCE_DIR}/docs_examples.py ${PROJECT_SOURCE_DIR})
  # Every relative link and #anchor of the README and docs/ resolves.
  add_test(NAME docs.links_resolve
           COMMAND ${A2A_PYTHON3} ${CMAKE_CURRENT_SOURCE_DIR}/docs_links.py ${PROJECT_SOURCE_DIR})
  # The dated records name no path of the machine that made them and nothing of how the work
  # was organised: anyone can rerun them from the commands they show.
  add_test(NAME docs.records_rerunnable
           COMMAND ${A2A_PYTHON3} ${CMAKE_CURRENT_SOURCE_DIR}/docs_records.py ${PROJECT_SOURCE_DIR})
  # The rules docs/algorithms.md shows for `auto` are the shipped table's.
  add_test(NAME docs.rules_match_table
           COMMAND ${A2A_PYTHON3} ${CMAKE_CURRENT_SOURCE_DIR}/docs_rules.py ${PROJECT_SOURCE_DIR})
  set_tests_properties(docs.rules_match_table PROPERTIES
                       PASS_REGULAR_EXPRESSION "docs_rules: [0-9]+ passed, 0 failed")
  # Every `a2a SUB --option` the README and docs show is an option of SUB, and docs/cli.md
  # names every option of every subcommand (read from --help).
  add_test(NAME docs.commands_parse
           COMMAND ${A2A_PYTHON3} ${CMAKE_CURRENT_SOURCE_DIR}/docs_commands.py $<TARGET_FILE:a2a>
                   ${PROJECT_SOURCE_DIR})
  set_tests_properties(docs.commands_parse PROPERTIES TIMEOUT 120 ENVIRONMENT "${A2A_MPI_TEST_ENV}")
endif()
# Every shell command of the README (its tour included) and of docs/*.md, as written, in a new
# shell with a clean environment, on the main job's build installed into /usr/local
# (build/release: the pages' paths), after the simulator's build (scripts/simulate makes it on
# first use; the smpi tests' first does that).
if(CMAKE_BINARY_DIR STREQUAL "${PROJECT_SOURCE_DIR}/build/release" AND A2A_WITH_FFTW_MPI
   AND A2A_MPI_FLAVOUR STREQUAL "openmpi" AND TEST smpi.dragonfly_uniform.P64 AND A2A_PYTHON3)
  add_test(NAME docs.commands_run
           COMMAND ${A2A_PYTHON3} ${CMAKE_CURRENT_SOURCE_DIR}/docs_run.py ${PROJECT_SOURCE_DIR} 300)
  set_tests_properties(docs.commands_run PROPERTIES TIMEOUT 2400 PROCESSORS 2
                       LABELS "tour;many_ranks" FIXTURES_REQUIRED smpi_uniform
                       PASS_REGULAR_EXPRESSION "docs_run: [0-9]+ passed, 0 failed")
endif()
# Python: Debian's mpi4py is built for its default MPI, Open MPI.
if(A2A_PYTHON3 AND A2A_MPI_FLAVOUR STREQUAL "openmpi")
  execute_process(COMMAND ${A2A_PYTHON3} -c "import mpi4py, numpy" RESULT_VARIABLE _no_mpi4py
                  OUTPUT_QUIET ERROR_QUIET)
  if(_no_mpi4py EQUAL 0)
    foreach(ranks 1 2 3 4 5)
      math(EXPR index "${ranks} % 5")
      list(GET A2A_API_BACKENDS ${index} pair)
      separate_arguments(pair)
      a2a_add_mpi_test(capi.python.P${ranks} ${ranks} COMMAND ${A2A_PYTHON3}
                       ${CMAKE_CURRENT_SOURCE_DIR}/capi/python_test.py ${pair}
                       ENVIRONMENT PYTHONPATH=${PROJECT_BINARY_DIR}/python TIMEOUT 120)
    endforeach()
    a2a_backend_tests(capi.python_pencil_fft PAIRS 1:auto 2:pairwise 3:sloav 4:tra_v
                      COMMAND ${A2A_PYTHON3} ${CMAKE_CURRENT_SOURCE_DIR}/capi/pencil_fft.py
                      ENVIRONMENT PYTHONPATH=${PROJECT_BINARY_DIR}/python)
    # a2a.Fft (the FFT library's BoxFft through a2a/fft.h) against NumPy and SciPy, and
    # docs/fft.md's Python program (validation/consumer/fft3d.py).
    if(A2A_WITH_FFTW)
      foreach(ranks 1 2 3 4 5)
        a2a_add_mpi_test(capi.python_fft.P${ranks} ${ranks} COMMAND ${A2A_PYTHON3}
                         ${CMAKE_CURRENT_SOURCE_DIR}/capi/python_fft_test.py
                         ENVIRONMENT PYTHONPATH=${PROJECT_BINARY_DIR}/python TIMEOUT 180)
      endforeach()
      foreach(ranks 1 3 4)
        a2a_add_mpi_test(fft.library_example_python.P${ranks} ${ranks} COMMAND ${A2A_PYTHON3}
                         ${PROJECT_SOURCE_DIR}/validation/consumer/fft3d.py
                         ENVIRONMENT PYTHONPATH=${PROJECT_BINARY_DIR}/python TIMEOUT 120)
        set_property(TEST fft.library_example_python.P${ranks} APPEND PROPERTY
                     PASS_REGULAR_EXPRESSION ": passed")
      endforeach()
    endif()
  else()
    message(STATUS "a2a: no mpi4py/numpy for ${A2A_PYTHON3}: the Python tests are left out")
  endif()
endif()

# find_package(a2a) from a separate project against an installed tree.
# mpi4py is Debian's, built for Open MPI: the Python consumer only runs in that build.
if(A2A_MPI_FLAVOUR STREQUAL "openmpi")
  set(_python_consumer 1)
else()
  set(_python_consumer 0)
endif()
add_test(NAME install.find_package_consumer
         COMMAND ${CMAKE_COMMAND} -E env A2A_MPICC=${MPI_C_COMPILER}
                 A2A_PYTHON_TESTS=${_python_consumer}
                 ${CMAKE_CURRENT_SOURCE_DIR}/find_package_test.sh ${CMAKE_BINARY_DIR}
                 ${CMAKE_SOURCE_DIR} ${MPIEXEC_EXECUTABLE} ${MPIEXEC_NUMPROC_FLAG} 3
                 ${A2A_MPIEXEC_PREFLAGS})
set_tests_properties(install.find_package_consumer PROPERTIES TIMEOUT 300 PROCESSORS 3
                     ENVIRONMENT "${A2A_MPI_TEST_ENV}")  # its exit status
