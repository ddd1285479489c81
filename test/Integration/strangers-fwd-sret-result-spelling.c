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
// works (strangers-fwd-struct-result-spherical.c). A function whose first
// parameter is a pointer or a struct in memory, given its marker, was read
// with the explicit spelling and refused ("too few arguments: 'fp' takes 2
// parameters", probe22a R3): the values are now counted as the source's
// parameters.
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

// p = (a b, b, a^2) from a pointer, and from a struct in memory
Vec3 fromPointer(const double *p) {
  Vec3 r = {p[0] * p[1], p[1], p[0] * p[0]};
  return r;
}
Vec3 fromStruct(Vec3 v) {
  Vec3 r = {v.x * v.y, v.y, v.x * v.x};
  return r;
}

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
  double ab[2] = {2, 3}, da[2] = {1, 0};
  Vec3 f = __enzyme_fwddiff((void *)fromPointer, enzyme_dup, ab, da);
  check_close("pointer d/da x", f.x, 3, 1e-14);
  check_close("pointer d/da y", f.y, 0, 1e-14);
  check_close("pointer d/da z", f.z, 4, 1e-14);
  Vec3 v = {2, 3, 0}, dv = {0, 1, 0};
  Vec3 g = __enzyme_fwddiff((void *)fromStruct, enzyme_dup, v, dv);
  check_close("struct d/db x", g.x, 2, 1e-14);
  check_close("struct d/db y", g.y, 1, 1e-14);
  check_close("struct d/db z", g.z, 0, 1e-14);
  return check_report();
}
