# Every external dependency is found here, as imported targets only.
find_package(MPI REQUIRED COMPONENTS C CXX)
if(CMAKE_Fortran_COMPILER)
  # The Fortran tests' `use mpi`: the same MPI's Fortran wrapper (mpif90 beside mpicc).
  string(REGEX REPLACE "mpicc([^/]*)$" "mpif90\\1" _a2a_mpif90_guess "${MPI_C_COMPILER}")
  if(NOT MPI_Fortran_COMPILER AND EXISTS "${_a2a_mpif90_guess}")
    set(MPI_Fortran_COMPILER "${_a2a_mpif90_guess}")
  endif()
  find_package(MPI QUIET COMPONENTS Fortran)
endif()
find_package(nlohmann_json 3 REQUIRED)
find_package(toml11 3 REQUIRED)  # run decks (libtoml11-dev)
find_package(CLI11 CONFIG QUIET)
if(NOT CLI11_FOUND)
  # Debian 12's libcli11-dev ships the headers without a CMake package.
  find_path(CLI11_INCLUDE_DIR CLI/CLI.hpp REQUIRED)
  add_library(CLI11::CLI11 INTERFACE IMPORTED)
  target_include_directories(CLI11::CLI11 INTERFACE "${CLI11_INCLUDE_DIR}")
endif()

# Eigen (header only): the least-squares fit of `a2a model --fit`.
find_package(Eigen3 3.3 REQUIRED NO_MODULE)

if(A2A_WITH_FFTW)
  find_package(PkgConfig REQUIRED)
  pkg_check_modules(FFTW3 REQUIRED IMPORTED_TARGET fftw3 fftw3f)
  if(A2A_WITH_FFTW_MPI)
    # FFTW's MPI libraries have no pkg-config file on Debian: find them beside libfftw3.
    find_library(FFTW3_MPI_LIBRARY fftw3_mpi HINTS ${FFTW3_LIBRARY_DIRS} REQUIRED)
    find_library(FFTW3F_MPI_LIBRARY fftw3f_mpi HINTS ${FFTW3_LIBRARY_DIRS} REQUIRED)
    add_library(a2a_fftw3_mpi INTERFACE)
    add_library(FFTW3::mpi ALIAS a2a_fftw3_mpi)
    target_link_libraries(a2a_fftw3_mpi INTERFACE ${FFTW3_MPI_LIBRARY} ${FFTW3F_MPI_LIBRARY}
                                                  PkgConfig::FFTW3 MPI::MPI_C)
  endif()
endif()

if(A2A_WITH_HDF5)
  set(HDF5_PREFER_PARALLEL ON)
  find_package(HDF5 REQUIRED COMPONENTS C)
  if(NOT HDF5_IS_PARALLEL)
    message(FATAL_ERROR "a2a needs a parallel HDF5 (Debian: libhdf5-openmpi-dev)")
  endif()
endif()
