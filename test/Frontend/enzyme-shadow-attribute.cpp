// Enzyme's __attribute__((enzyme_shadow(s))) names the global s as the
// shadow of a global: reverse mode adds the global's adjoint to s (no
// request zeroes it: a second gradient adds again), forward mode reads the
// global's tangent from s where the program seeded it. On a file-scope
// global and on a class's static member, in C++. Was ignored with clang's
// "unknown attribute" warning even with -fplugin, and the adjoint lost (0
// instead of 9, no error; found by running Enzyme's own tests, probe35b).
// f(x) = scale x^2 + offset x: df/dx = 2 scale x + offset, df/dscale =
// x^2, df/doffset = x.
// RUN: %clangxx_fplugin -std=c++17 -O0 %s -o %t0 && %t0 | FileCheck %s
// RUN: %clangxx_fplugin -std=c++17 -O1 %s -o %t1 && %t1 | FileCheck %s
// RUN: %clangxx_fplugin -std=c++17 -O2 %s -o %t2 && %t2 | FileCheck %s
// RUN: %clangxx_fplugin -std=c++17 -O3 %s -o %t3 && %t3 | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: ALL PASSED
#include "../Integration/Inputs/check.h"

extern "C" double __enzyme_autodiff(void *, ...);
extern "C" double __enzyme_fwddiff(void *, ...);

double scale_shadow = 0;
__attribute__((enzyme_shadow(scale_shadow))) double scale = 2.0;

struct Params {
  static double offset_shadow;
  __attribute__((enzyme_shadow(offset_shadow))) static double offset;
};
double Params::offset_shadow = 0;
double Params::offset = 1.0;

__attribute__((noinline)) double f(double x) {
  return scale * x * x + Params::offset * x;
}

int main() {
  double x = 3.0;
  double dx = __enzyme_autodiff((void *)f, x);
  check_close("df/dx", dx, 2 * 2.0 * x + 1.0, 1e-12);
  check_close("df/dscale in its shadow", scale_shadow, x * x, 1e-12);
  check_close("df/doffset in its shadow", Params::offset_shadow, x, 1e-12);
  check_close("scale unchanged", scale, 2.0, 0);
  // A second gradient adds to the shadows, as to an enzyme_dup argument's.
  __enzyme_autodiff((void *)f, 1.5);
  check_close("df/dscale accumulated", scale_shadow, x * x + 1.5 * 1.5,
              1e-12);
  check_close("df/doffset accumulated", Params::offset_shadow, x + 1.5,
              1e-12);
  // Forward mode: the tangent of scale is read from its shadow.
  scale_shadow = 1.0;
  Params::offset_shadow = 0.0;
  check_close("tangent along scale", __enzyme_fwddiff((void *)f, x, 0.0),
              x * x, 1e-12);
  scale_shadow = 0.0;
  Params::offset_shadow = 2.0;
  check_close("tangent along offset and x",
              __enzyme_fwddiff((void *)f, x, 1.0), 2 * 2.0 * x + 1.0 + 2 * x,
              1e-12);
  return check_report();
}
