#!/usr/bin/env bash
# One command from a fresh Debian 12 machine to a working Tapestry:
# installs what is missing (LLVM/Clang 19, CMake, Ninja, GoogleTest,
# clang-format-14 for test/Plugin/clang-format-clean.test),
# configures and builds, then compiles and runs examples/gradient.c with the
# plugin. Idempotent: a second run only rebuilds what changed.
#
#   tools/setup.sh            # build into ./build (RelWithDebInfo)
#   BUILD_DIR=build-asan CMAKE_ARGS=-DTAPESTRY_SANITIZE=ON tools/setup.sh
set -euo pipefail
cd "$(dirname "$0")/.."
BUILD_DIR=${BUILD_DIR:-build}

packages=(llvm-19-dev clang-19 libclang-19-dev llvm-19-tools lld-19
          libclang-rt-19-dev cmake ninja-build googletest libgtest-dev
          python3 libopenblas-dev libomp-19-dev libopenmpi-dev openmpi-bin
          libeigen3-dev clang-format-14 valgrind)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" \
    || missing+=("$p")
done
if ((${#missing[@]})); then
  echo "setup: installing ${missing[*]}"
  SUDO=""
  [ "$(id -u)" -ne 0 ] && SUDO=sudo
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${missing[@]}"
fi

if [ ! -f "$BUILD_DIR/build.ninja" ]; then
  cmake -S . -B "$BUILD_DIR" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    ${CMAKE_ARGS:-}
fi
cmake --build "$BUILD_DIR"

if [ "${TAPESTRY_SKIP_EXAMPLE:-0}" != 1 ]; then
  echo "setup: compiling examples/gradient.c with the plugin"
  clang-19 -O2 -fpass-plugin="$BUILD_DIR/plugin/TapestryPlugin-19.so" \
    examples/gradient.c -lm -o "$BUILD_DIR/gradient"
  "$BUILD_DIR/gradient"
fi
