# Install rules and the exported CMake package: find_package(Tapestry) gives
# Tapestry::runtime, TAPESTRY_PLUGIN and the TAPESTRY_CLANG_FLAGS to use it.
include(CMakePackageConfigHelpers)
include(GNUInstallDirs)

# <tapestry/...> and Enzyme's C++ header <enzyme/enzyme>, which includes
# <tapestry/detail/lowering.hpp>.
install(DIRECTORY include/tapestry include/enzyme
  DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
install(TARGETS TapestryPlugin TapestryClang
  LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR})
install(TARGETS tapestry-rt EXPORT TapestryTargets
  ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
  INCLUDES DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
install(EXPORT TapestryTargets NAMESPACE Tapestry::
  DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/Tapestry)

configure_package_config_file(cmake/TapestryConfig.cmake.in
  ${CMAKE_CURRENT_BINARY_DIR}/TapestryConfig.cmake
  INSTALL_DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/Tapestry
  PATH_VARS CMAKE_INSTALL_LIBDIR)
write_basic_package_version_file(
  ${CMAKE_CURRENT_BINARY_DIR}/TapestryConfigVersion.cmake
  COMPATIBILITY SameMajorVersion)
install(FILES
  ${CMAKE_CURRENT_BINARY_DIR}/TapestryConfig.cmake
  ${CMAKE_CURRENT_BINARY_DIR}/TapestryConfigVersion.cmake
  DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/Tapestry)
