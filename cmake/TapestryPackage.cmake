# Install rules, the exported CMake package and the Debian package.
# find_package(Tapestry) gives Tapestry::Tapestry (plugin flag, headers,
# runtime), Tapestry::LTO / tapestry_enable_lto() for multi-file programs,
# Tapestry::runtime, TAPESTRY_PLUGIN and TAPESTRY_CLANG_FLAGS
# (cmake/TapestryConfig.cmake.in). Every header a user includes is
# installed: <tapestry/...> with detail/, and Enzyme's <enzyme/...>.
include(CMakePackageConfigHelpers)
include(GNUInstallDirs)

# <tapestry/...> and Enzyme's C++ header <enzyme/enzyme>, which includes
# <tapestry/detail/lowering.hpp>.
install(DIRECTORY include/tapestry include/enzyme
  DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
install(TARGETS TapestryPlugin TapestryClang
  LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR})
# tapestry-explain finds the plugin in ../lib beside its bin/.
install(PROGRAMS tools/tapestry-explain DESTINATION ${CMAKE_INSTALL_BINDIR})
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
install(DIRECTORY docs/ DESTINATION ${CMAKE_INSTALL_DOCDIR}
  FILES_MATCHING PATTERN "*.md")
install(FILES README.md LICENSE DESTINATION ${CMAKE_INSTALL_DOCDIR})

# `cpack -G DEB` (in the build directory): a Debian package installing under
# /usr (/usr/lib/TapestryPlugin-19.so, /usr/include/{tapestry,enzyme},
# /usr/lib/cmake/Tapestry), usable with plain
# `clang-19 -fpass-plugin=/usr/lib/TapestryPlugin-19.so`.
set(CPACK_PACKAGE_NAME tapestry)
set(CPACK_PACKAGE_VENDOR "Tapestry")
set(CPACK_PACKAGE_CONTACT "Tapestry developers <tapestry@localhost>")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY
  "Automatic differentiation of C and C++ programs: an LLVM 19 plugin")
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_RESOURCE_FILE_LICENSE ${PROJECT_SOURCE_DIR}/LICENSE)
set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SECTION devel)
# The plugin loads into clang 19 and its clang part links libclang-cpp 19.
set(CPACK_DEBIAN_PACKAGE_DEPENDS "clang-19, libclang-cpp19, libc6")
set(CPACK_DEBIAN_PACKAGE_RECOMMENDS "lld-19")
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS OFF)
# The build is RelWithDebInfo: ship the modules without their debug info.
set(CPACK_STRIP_FILES TRUE)
set(CPACK_PACKAGE_DIRECTORY ${CMAKE_BINARY_DIR}/package)
include(CPack)
