// Eigen's dynamic matrices compiled for AVX2 (and -march=native, AVX-512
// on some machines) at -O0, where every Eigen function stays a call with a
// derivative of its own: Eigen's aligned allocator rounds each block's
// address to 32 (64) bytes, and the shadow sits at the same offset in a
// shadow block only malloc-aligned, so a callee's derivative loading its
// shadow argument with Eigen's aligned vector load (vmovapd) faulted: a
// segmentation fault in the gradient of |A x|^2 (eigen-avx2-dynamic.cpp,
// whose usual runs compile for the baseline CPU) and of a Cholesky solve
// (eigen-llt-solve.cpp, all -O levels with -march=native). Derivatives
// assume no more than a double's alignment now; a stack buffer moved to the
// heap for a kept call keeps its alignment.
// REQUIRES: x86-avx2-fma
// RUN: %clangxx -O0 -mavx2 -mfma %eigen_flags %S/eigen-avx2-dynamic.cpp -o %t0 && %t0 | FileCheck %s
// RUN: %clangxx -O0 -march=native %eigen_flags %S/eigen-avx2-dynamic.cpp -o %t1 && %t1 | FileCheck %s
// RUN: %clangxx -O0 -march=native %eigen_flags %S/eigen-llt-solve.cpp -o %t2 && %t2 | FileCheck %s
// RUN: %clangxx -O2 -march=native %eigen_flags %S/eigen-llt-solve.cpp -o %t3 && %t3 | FileCheck %s
// RUN: %clangxx -O1 -mavx2 -mfma %eigen_flags %S/eigen-llt-solve.cpp -o %t4 && %t4 | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: ALL PASSED
