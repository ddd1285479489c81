# Finds LLVM 19 and Clang 19 and exposes the flags the plugin needs.
find_package(LLVM REQUIRED CONFIG
  HINTS /usr/lib/llvm-19/lib/cmake/llvm NO_DEFAULT_PATH)
if(NOT LLVM_VERSION_MAJOR EQUAL 19)
  message(FATAL_ERROR "Tapestry needs LLVM 19, found ${LLVM_PACKAGE_VERSION}")
endif()
message(STATUS "Tapestry: LLVM ${LLVM_PACKAGE_VERSION} in ${LLVM_DIR}")

set(TAPESTRY_LLVM_BIN "${LLVM_TOOLS_BINARY_DIR}")
find_program(TAPESTRY_CLANG NAMES clang-19 clang
  HINTS "${LLVM_TOOLS_BINARY_DIR}" NO_DEFAULT_PATH REQUIRED)
find_program(TAPESTRY_OPT NAMES opt-19 opt
  HINTS "${LLVM_TOOLS_BINARY_DIR}" NO_DEFAULT_PATH REQUIRED)
find_program(TAPESTRY_FILECHECK NAMES FileCheck-19 FileCheck
  HINTS "${LLVM_TOOLS_BINARY_DIR}" NO_DEFAULT_PATH REQUIRED)
find_program(TAPESTRY_LIT NAMES lit.py lit llvm-lit
  HINTS "${LLVM_TOOLS_BINARY_DIR}" "${LLVM_TOOLS_BINARY_DIR}/../build/utils/lit"
  REQUIRED)
