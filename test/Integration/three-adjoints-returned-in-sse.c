// A kept callee with three active arguments: its reverse returns three
// adjoints, and a request for three active values returns three. Under the
// x86-64 C convention the third double came back on the x87 stack, which
// LLVM 19 moves to an SSE register with a legacy `movsd` that its -O0
// register allocator may give XMM16 under AVX-512: an illegal instruction
// at run time (fuzz seed 15374, -O0 -march=native on an AVX-512 machine).
// Tapestry's functions returning more than two floating-point values use
// the regcall convention (every double in an SSE register): no x87 store
// is left in the code. Then the numbers, against analytic derivatives of
// f = sum_i g(a + i, b, c) g(b, c, a), g(a, b, c) = sin(a) b c.
// RUN: %clang -O0 -S %s -o - | FileCheck %s --check-prefix=ASM
// RUN: %clang -O0 %s -lm -o %t0 && %t0 | FileCheck %s
// RUN: %clang -O1 %s -lm -o %t1 && %t1 | FileCheck %s
// RUN: %clang -O2 %s -lm -o %t2 && %t2 | FileCheck %s
// RUN: %clang -O3 %s -lm -o %t3 && %t3 | FileCheck %s
// ASM-NOT: fstp
// CHECK-NOT: FAIL
// CHECK: ALL PASSED
#include "Inputs/check.h"
#include <math.h>

typedef struct {
  double a, b, c;
} D3;
D3 __enzyme_autodiff(void *, ...);

__attribute__((noinline)) static double g(double a, double b, double c) {
  return sin(a) * b * c;
}

static double f(double a, double b, double c) {
  double s = 0;
  for (int i = 0; i < 3; i++)
    s += g(a + i, b, c) * g(b, c, a);
  return s;
}

int main(void) {
  double a = 0.5, b = 1.5, c = 2.0;
  D3 d = __enzyme_autodiff((void *)f, a, b, c);
  // f = G(a) * sin(b) c a, with G(a) = sum_i sin(a + i) b c
  double G = 0, dG = 0;
  for (int i = 0; i < 3; i++) {
    G += sin(a + i) * b * c;
    dG += cos(a + i) * b * c;
  }
  double h = sin(b) * c * a;
  check_close("df/da", d.a, dG * h + G * sin(b) * c, 1e-12);
  check_close("df/db", d.b, (G / b) * h + G * cos(b) * c * a, 1e-12);
  check_close("df/dc", d.c, (G / c) * h + G * sin(b) * a, 1e-12);
  return check_report();
}
