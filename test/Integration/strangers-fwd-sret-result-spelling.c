// A function returning a struct the C ABI returns in memory (Vec3, 24
// bytes) differentiated in forward mode with the source-level spelling,
// the entry point declared to return the struct's tangent:
//   Vec3 __enzyme_fwddiff(void *, ...);
//   Vec3 d = __enzyme_fwddiff((void *)spherical, r, 1.0, th, 0.0, ph, 0.0);
// IR parameter 1 is the sret pointer, and the request lined r up with it:
// rejected, with a message naming 'r' (found by a stranger program). The
// tangent now goes to the request's own result memory and the primal
// result to a local (RequestDecoder.cpp, decodeImplicitStructResult), as
// <enzyme/enzyme>'s Forward with DuplicatedNoNeed<Vec3> does. The explicit
// spelling, the result object first (enzyme_dupnoneed, &out, &dout), still
// works (strangers-fwd-struct-result-spherical.c).
// Expected: analytic partial derivatives of spherical-to-Cartesian.
// RUN: %clang -O0 -g %s -lm -o %t0 && %t0 | FileCheck %s
// RUN: %clang -O1 %s -lm -o %t1 && %t1 | FileCheck %s
// RUN: %clang -O2 %s -lm -o %t2 && %t2 | FileCheck %s
// RUN: %clang -O3 %s -lm -o %t3 && %t3 | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: ALL PASSED
#include "Inputs/check.h"

typedef struct {
  double x, y, z;
} Vec3;
Vec3 __enzyme_fwddiff(void *, ...);

Vec3 spherical(double r, double th, double ph) {
  Vec3 p = {r * sin(th) * cos(ph), r * sin(th) * sin(ph), r * cos(th)};
  return p;
}

int main(void) {
  const double r = 1.7, th = 0.9, ph = -2.2;
  Vec3 d = __enzyme_fwddiff((void *)spherical, r, 0.0, th, 1.0, ph, 0.0);
  check_close("dx/dtheta", d.x, r * cos(th) * cos(ph), 1e-14);
  check_close("dy/dtheta", d.y, r * cos(th) * sin(ph), 1e-14);
  check_close("dz/dtheta", d.z, -r * sin(th), 1e-14);
  // With Enzyme's markers on every argument.
  extern int enzyme_dup, enzyme_const;
  Vec3 e = __enzyme_fwddiff((void *)spherical, enzyme_dup, r, 1.0, enzyme_dup,
                            th, 0.0, enzyme_const, ph);
  check_close("dx/dr", e.x, sin(th) * cos(ph), 1e-14);
  check_close("dy/dr", e.y, sin(th) * sin(ph), 1e-14);
  check_close("dz/dr", e.z, cos(th), 1e-14);
  return check_report();
}
