// Math functions with integer results: lround, lrint, llround, llrint and
// ilogb (and their float forms) are piecewise constant, so they carry no
// derivative; the minimum-image and grid-index idioms use them
// (x - L * lround(x / L)). They were "no derivative is known for external
// function 'lround'" with advice to register a gradient (probe24a R4).
// Reverse and forward mode, -O0 to -O3 and the opt flow with -ffast-math
// (where LLVM may use its llvm.lround intrinsics). Expected: analytic.
// RUN: %clang -O0 %s -lm -o %t0 && %t0 | FileCheck %s
// RUN: %clang -O2 %s -lm -o %t2 && %t2 | FileCheck %s
// RUN: %clang -O3 %s -lm -o %t3 && %t3 | FileCheck %s
// RUN: %plain_cc -O2 -ffast-math -S -emit-llvm %s -o %t.ll
// RUN: %opt -passes=tapestry %t.ll -o %t.bc
// RUN: %plain_cc -O2 %t.bc -lm -o %to && %to | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: ALL PASSED
#include "Inputs/check.h"

extern int enzyme_out, enzyme_dup;
double __enzyme_autodiff(void *, ...);
double __enzyme_fwddiff(void *, ...);

/* Minimum image in a box of side 0.25: d/dx = 1 away from the jumps. */
double wrapRound(double x) { return x - 0.25 * lround(x / 0.25); }
double wrapRint(double x) { return x - 0.25 * lrint(x / 0.25); }
double wrapLL(double x) { return x - 0.25 * (double)llround(x * 4); }
double wrapLLRint(double x) { return x - 0.25 * (double)llrint(x * 4); }
/* A float cell index times a weight: d/dx = 3 x^2. */
double cell(double x) {
  float xf = (float)x;
  return lroundf(xf * 10) * 0.0 + lrintf(xf) * 0.0 + x * x * x;
}
/* The exponent scales a mantissa: x / 2^ilogb(x) is in [1, 2), derivative
 * 1 / 2^ilogb(x). */
double mantissa(double x) { return x / ldexp(1.0, ilogb(x)); }

int main(void) {
  volatile double vx = 1.3;
  double x = vx;
  struct {
    const char *name;
    double rev, fwd, want;
  } cases[] = {
      {"lround", __enzyme_autodiff((void *)wrapRound, enzyme_out, x),
       __enzyme_fwddiff((void *)wrapRound, enzyme_dup, x, 1.0), 1},
      {"lrint", __enzyme_autodiff((void *)wrapRint, enzyme_out, x),
       __enzyme_fwddiff((void *)wrapRint, enzyme_dup, x, 1.0), 1},
      {"llround", __enzyme_autodiff((void *)wrapLL, enzyme_out, x),
       __enzyme_fwddiff((void *)wrapLL, enzyme_dup, x, 1.0), 1},
      {"llrint", __enzyme_autodiff((void *)wrapLLRint, enzyme_out, x),
       __enzyme_fwddiff((void *)wrapLLRint, enzyme_dup, x, 1.0), 1},
      {"lroundf, lrintf", __enzyme_autodiff((void *)cell, enzyme_out, x),
       __enzyme_fwddiff((void *)cell, enzyme_dup, x, 1.0), 3 * x * x},
      {"ilogb", __enzyme_autodiff((void *)mantissa, enzyme_out, x),
       __enzyme_fwddiff((void *)mantissa, enzyme_dup, x, 1.0), 1.0},
  };
  char what[48];
  for (unsigned i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    snprintf(what, sizeof what, "%s reverse", cases[i].name);
    check_close(what, cases[i].rev, cases[i].want, 1e-13);
    snprintf(what, sizeof what, "%s forward", cases[i].name);
    check_close(what, cases[i].fwd, cases[i].want, 1e-13);
  }
  return check_report();
}
