# Installs a2a::alltoall (and a2a::transpose) with a CMake package so that another project can
# find_package(a2a) and link a2a::alltoall.
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

install(TARGETS a2a_alltoall a2a_transpose EXPORT a2aTargets
        ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
        LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
        INCLUDES DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
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
