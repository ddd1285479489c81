// A struct with an int member, the padding after it and a pointer member
// the function reads through, copied by assignment: SROA splits the copy
// into its members and copies the 4 bytes of padding as an i32 load and
// store, which were refused as "cannot tell what the memory this
// instruction copies holds ... copy it field by field" (probe24a R1; the
// code already assigns whole structs). Padding after a 4-byte member that
// aligns an 8-byte one carries no derivative. Reverse and forward mode.
// Expected: s.x * coef[0] -> d/dx = coef[0], d/dcoef[0] = x.
// RUN: %clang -O0 %s -o %t0 && %t0 | FileCheck %s
// RUN: %clang -O2 %s -o %t2 && %t2 | FileCheck %s
// RUN: %plain_cc -O2 -S -emit-llvm %s -o %t.ll
// RUN: %opt -passes=tapestry %t.ll -o %t.bc
// RUN: %plain_cc -O2 %t.bc -o %to && %to | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: ALL PASSED
#include "Inputs/check.h"
#include <string.h>

extern int enzyme_dup;
void __enzyme_autodiff(void *, ...);
void __enzyme_fwddiff(void *, ...);

typedef struct {
  double x;
  int step; /* 4 bytes of padding follow */
  const double *coef;
} S;

void step(const S *in, S *out) {
  S s = *in;
  s.x *= s.coef[0];
  s.step++;
  *out = s;
}

int main(void) {
  double c[1] = {3.0}, dc[1] = {0};
  S in = {0.5, 0, c}, din = {0, 0, dc}, out, dout = {1.0, 0, dc};
  __enzyme_autodiff((void *)step, enzyme_dup, &in, &din, enzyme_dup, &out,
                    &dout);
  check_close("reverse d/dx", din.x, 3.0, 1e-15);
  check_close("reverse d/dcoef", dc[0], 0.5, 1e-15);
  check_close("step counted", out.step, 1, 0);

  double tc[1] = {0.25};
  S tin = {2.0, 0, tc}, tout;
  memset(&tout, 0, sizeof tout);
  __enzyme_fwddiff((void *)step, enzyme_dup, &in, &tin, enzyme_dup, &out,
                   &tout);
  /* d(x c) = c dx + x dc = 3 * 2 + 0.5 * 0.25 */
  check_close("forward tangent", tout.x, 6.125, 1e-15);
  return check_report();
}
