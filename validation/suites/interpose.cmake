# The interposition library under programs a2a did not build.
# Included by validation/CMakeLists.txt.

# The interposition library under programs a2a did not build: its symbols (MPI C library
# only), a C program built with the MPI's mpicc, the C++ probe with the MPI C++ bindings,
# Fortran programs (use mpi, use mpi_f08) built with mpif90, a Python program through mpi4py,
# NPB IS (a2a is), and FFTW-MPI's 3D transform from C. Not under A2A_SANITIZE: an instrumented library cannot be preloaded
# into uninstrumented programs.
if(NOT A2A_SANITIZE)
  set(_interpose ${CMAKE_CURRENT_SOURCE_DIR}/interpose)
  add_test(NAME interpose.symbols COMMAND ${_interpose}/symbols.sh $<TARGET_FILE:a2a_interpose>)
  set_tests_properties(interpose.symbols PROPERTIES TIMEOUT 60 LABELS interpose)
  # a2a_interpose_test(NAME RANKS MODE [COMPILE WRAPPER SOURCE] COMMAND PROGRAM ARGS...)
  function(a2a_interpose_test name ranks mode)
    cmake_parse_arguments(ARG "" "" "COMPILE;COMMAND" ${ARGN})
    set(compile "")
    if(ARG_COMPILE)
      set(compile --compile ${ARG_COMPILE})
    endif()
    add_test(NAME interpose.${name}.P${ranks}
             COMMAND ${_interpose}/run.sh ${compile} ${mode} $<TARGET_FILE:a2a_interpose>
                     ${MPIEXEC_EXECUTABLE} ${MPIEXEC_NUMPROC_FLAG} ${ranks} ${A2A_MPIEXEC_PREFLAGS}
                     -- ${ARG_COMMAND})
    set_tests_properties(interpose.${name}.P${ranks} PROPERTIES TIMEOUT 300 PROCESSORS ${ranks}
                         ENVIRONMENT "${A2A_MPI_TEST_ENV}" LABELS "mpi;interpose")
  endfunction()
  # MPI's own compiler wrappers, as a user would call them (mpicc -> mpif90 beside it).
  string(REGEX REPLACE "mpicc([^/]*)$" "mpif90\\1" _a2a_mpif90 "${MPI_C_COMPILER}")
  foreach(ranks 3 4)
    a2a_interpose_test(c_program ${ranks} check COMPILE ${MPI_C_COMPILER} ${_interpose}/probe.c
                       COMMAND ${CMAKE_CURRENT_BINARY_DIR}/interpose_probe_c)
  endforeach()
  if(EXISTS "${_a2a_mpif90}")
    a2a_interpose_test(fortran_use_mpi 4 check COMPILE ${_a2a_mpif90} ${_interpose}/probe_mpi.f90
                       COMMAND ${CMAKE_CURRENT_BINARY_DIR}/interpose_probe_mpi)
    a2a_interpose_test(fortran_use_mpi_f08 4 check COMPILE ${_a2a_mpif90}
                       ${_interpose}/probe_f08.f90 COMMAND ${CMAKE_CURRENT_BINARY_DIR}/interpose_probe_f08)
  else()
    message(STATUS "a2a: no ${_a2a_mpif90}: the Fortran interposer tests are left out")
  endif()
  a2a_interpose_test(overhead_tool 3 mpi COMPILE ${MPI_C_COMPILER} ${_interpose}/overhead.c
                     COMMAND ${CMAKE_CURRENT_BINARY_DIR}/interpose_overhead 20)
  add_executable(interpose_probe_cxx interpose/probe_cxx.cpp)
  target_link_libraries(interpose_probe_cxx PRIVATE MPI::MPI_CXX)  # with the C++ bindings
  foreach(ranks 3 4)
    a2a_interpose_test(cxx_program ${ranks} check COMMAND $<TARGET_FILE:interpose_probe_cxx>)
  endforeach()
  a2a_interpose_test(npb_is 4 is COMMAND $<TARGET_FILE:a2a> is --class S --backend mpi)
  # A Python program through mpi4py (Debian's is built for Open MPI): python3 preloaded.
  if(A2A_PYTHON3 AND A2A_MPI_FLAVOUR STREQUAL "openmpi" AND _no_mpi4py EQUAL 0)
    foreach(ranks 3 4)
      a2a_interpose_test(python_mpi4py ${ranks} check
                         COMMAND ${A2A_PYTHON3} ${_interpose}/probe_mpi4py.py)
    endforeach()
  endif()
  if(A2A_WITH_FFTW_MPI)
    add_executable(fftw_mpi_3d interpose/fftw_mpi_3d.c)
    target_link_libraries(fftw_mpi_3d PRIVATE FFTW3::mpi MPI::MPI_C m)
    a2a_interpose_test(fftw_mpi_3d 4 fftw COMMAND $<TARGET_FILE:fftw_mpi_3d> 24 2 measure)
  endif()
endif()
