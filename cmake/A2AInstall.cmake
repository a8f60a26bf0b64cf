# Installs a2a::alltoall, a2a::transpose and a2a::fft with a CMake package so that another
# project can find_package(a2a) and link them.
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

set(_a2a_targets a2a_alltoall a2a_transpose)
if(TARGET a2a_fft)
  list(APPEND _a2a_targets a2a_fft)
  install(DIRECTORY transpose/fft/include/ DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
endif()
if(TARGET a2a_fortran)
  list(APPEND _a2a_targets a2a_fortran)
  install(DIRECTORY ${PROJECT_BINARY_DIR}/transpose/fortran_modules/
          DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/a2a/fortran FILES_MATCHING PATTERN "*.mod")
endif()
install(TARGETS ${_a2a_targets} EXPORT a2aTargets
        ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
        LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
        INCLUDES DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
# pkg-config: `pkg-config --cflags --libs a2a` for C programs built with the MPI's own mpicc.
if(TARGET a2a_fft)
  set(A2A_PC_FFT_LIBS "-la2a_fft ")
  set(A2A_PC_REQUIRES "Requires.private: fftw3 fftw3f")
endif()
file(RELATIVE_PATH A2A_PC_TO_PREFIX "/prefix/${CMAKE_INSTALL_LIBDIR}/pkgconfig" "/prefix")
configure_file(cmake/a2a.pc.in ${CMAKE_CURRENT_BINARY_DIR}/a2a.pc @ONLY)
install(FILES ${CMAKE_CURRENT_BINARY_DIR}/a2a.pc DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig)
install(DIRECTORY alltoall/include/ transpose/include/ DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
if(TARGET a2a_interpose)
  install(TARGETS a2a_interpose LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR})
endif()
if(TARGET a2a)
  install(TARGETS a2a RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
endif()

install(EXPORT a2aTargets NAMESPACE a2a:: DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/a2a)
configure_package_config_file(cmake/a2aConfig.cmake.in
  ${CMAKE_CURRENT_BINARY_DIR}/a2aConfig.cmake
  INSTALL_DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/a2a)
write_basic_package_version_file(${CMAKE_CURRENT_BINARY_DIR}/a2aConfigVersion.cmake
  COMPATIBILITY SameMinorVersion)
install(FILES ${CMAKE_CURRENT_BINARY_DIR}/a2aConfig.cmake
              ${CMAKE_CURRENT_BINARY_DIR}/a2aConfigVersion.cmake
        DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/a2a)
