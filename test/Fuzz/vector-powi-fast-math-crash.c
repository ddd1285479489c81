// Found by the all-features fuzz campaign on 3 Dec 2026 (seed 4389,
// features all,vectorize,realloc,sort,constptr,fnptr,byval,tape,batch; IR
// from clang -O3 -march=native -ffast-math -fveclib=libmvec): opt
// -passes=tapestry crashed (segmentation fault) on a loop of
// pow(a[v], -2.5). Under -ffast-math clang rewrites it as
// sqrt(x) * powi(x, -3), and the loop vectoriser widens that to
// llvm.powi.v4f64.i32, whose partial n x^(n-1) converted the scalar
// exponent straight to a vector type (an invalid sitofp); it is now
// converted and splat over the lanes (Vector/powi-scalar-exponent.ll).
// Expected values are analytic: f = sum_v a[v]^-2.5, so
// df/da[v] = -2.5 a[v]^-3.5.
// RUN: %plain_cc -O2 -march=x86-64-v3 -ffast-math -S -emit-llvm %s -o %t.ll
// RUN: %opt -passes=tapestry %t.ll -o %t.d.bc
// RUN: %plain_cc -O0 -march=x86-64-v3 %t.d.bc -lm -o %t && %t | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: ALL PASSED
#include "../Integration/Inputs/check.h"

extern int enzyme_dup, enzyme_const;
double __enzyme_autodiff(void *, ...);
double __enzyme_fwddiff(void *, ...);

double f(double *a, int m) {
  double s = 0;
  for (int v = 0; v < m; v++)
    s += pow(a[v], -2.5);
  return s;
}

int main(void) {
  double a[13], da[13] = {0}, ta[13] = {0};
  for (int j = 0; j < 13; j++)
    a[j] = 1.0 + 0.125 * j;
  __enzyme_autodiff((void *)f, enzyme_dup, a, da, enzyme_const, 13);
  for (int j = 0; j < 13; j++)
    check_close("rev d/da", da[j], -2.5 * pow(a[j], -3.5), 1e-12);
  ta[5] = 1.0;
  check_close("fwd d/da[5]",
              __enzyme_fwddiff((void *)f, enzyme_dup, a, ta, enzyme_const, 13),
              -2.5 * pow(a[5], -3.5), 1e-12);
  return check_report();
}
