// Eigen's dynamic-size matrices compiled for a machine with AVX2 and FMA
// (what -march=native gives on most x86-64 machines). Eigen's packet
// multiply-add is then inline assembly (asm("vfmadd231pd ...")), which is
// llvm.fma (Synthesis/KnownInlineAsm.h): it was "an inline assembly
// statement (asm) takes or gives active values", for every product.
// Expected: d/dx |A x|^2 = 2 A^T A x, d/dA |A x|^2 = 2 (A x) x^T.
// REQUIRES: x86-avx2-fma
// The program is eigen-avx2-dynamic.cpp's.
// RUN: %clangxx -O2 -mavx2 -mfma %eigen_flags %S/eigen-avx2-dynamic.cpp -o %t2 && %t2 | FileCheck %S/eigen-avx2-dynamic.cpp
// RUN: %clangxx -O3 -march=native %eigen_flags %S/eigen-avx2-dynamic.cpp -o %t3 && %t3 | FileCheck %S/eigen-avx2-dynamic.cpp
