// Reduced from the all-features fuzz campaign (seed 279, features
// all,vectorize,realloc,sort,constptr,fnptr,byval,tape,batch, -O3
// -march=native -ffast-math before opt): `c ? a1[v] : c0[v]` in a loop is
// vectorised as a select of two vectors of element pointers under a vector
// condition, then a gather. The shadow of that select in batch mode
// (enzyme_width 2) was one select between [2 x <N x ptr>] aggregates, which
// a vector condition cannot choose between: "internal error: the
// synthesised forward derivative of 'f' is invalid IR". The shadow now
// selects lane by lane. Forward and reverse, batched and not.
// Expected values are analytic: f = sum_j v_j^2 with v_j = a[j] where
// |k[(3j+1) % 16]| < 0.5, else b[j].
// AVX-512 code (x86-64-v4), as the campaign machine's -march=native.
// The derivative is compiled for the baseline x86-64 (%any_x86_cpu), so
// that it runs on machines without AVX-512 too.
// RUN: %plain_cc -O3 -march=x86-64-v4 -ffast-math -S -emit-llvm %s -o %t.ll
// RUN: %opt -passes=tapestry %t.ll -S -o - | %any_x86_cpu > %t.d.ll
// RUN: %plain_cc -O0 %t.d.ll -lm -o %t && %t | FileCheck %s
// RUN: %clang -O0 %s -lm -o %t0 && %t0 | FileCheck %s
// RUN: %clang -O2 %s -lm -o %t2 && %t2 | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: ALL PASSED
#include "../Integration/Inputs/check.h"

extern int enzyme_width, enzyme_dup, enzyme_const;
typedef struct {
  double t[2];
} Lanes;
Lanes __enzyme_fwddiff_batch(void *, ...);
void __enzyme_autodiff_batch(void *, ...);

double f(const double *k, double *a, double *b, int n) {
  double s = 0;
  for (int j = 0; j < n; j++) {
    double v = fabs(k[(j * 3 + 1) % 16]) < 0.5 ? a[j] : b[j];
    s += v * v;
  }
  return s;
}

int main(void) {
  double k[16], a[16], b[16], da0[16], da1[16], db0[16], db1[16];
  for (int j = 0; j < 16; j++) {
    k[j] = (j % 3) - 1;
    a[j] = 0.25 * j - 1;
    b[j] = 0.5 - 0.125 * j;
    da0[j] = 1;
    da1[j] = j;
    db0[j] = 0.5;
    db1[j] = -1;
  }
  Lanes r = __enzyme_fwddiff_batch((void *)f, enzyme_width, 2, enzyme_const, k,
                                   enzyme_dup, a, da0, da1, enzyme_dup, b, db0,
                                   db1, enzyme_const, 16);
  double w0 = 0, w1 = 0;
  for (int j = 0; j < 16; j++) {
    int ua = fabs(k[(j * 3 + 1) % 16]) < 0.5;
    double v = ua ? a[j] : b[j];
    w0 += 2 * v * (ua ? da0[j] : db0[j]);
    w1 += 2 * v * (ua ? da1[j] : db1[j]);
  }
  check_close("forward lane 0", r.t[0], w0, 1e-14);
  check_close("forward lane 1", r.t[1], w1, 1e-14);

  // reverse: the gradient in both lanes (the return's seed is 1 in each)
  double ga0[16] = {0}, ga1[16] = {0}, gb0[16] = {0}, gb1[16] = {0};
  __enzyme_autodiff_batch((void *)f, enzyme_width, 2, enzyme_const, k,
                          enzyme_dup, a, ga0, ga1, enzyme_dup, b, gb0, gb1,
                          enzyme_const, 16);
  for (int j = 0; j < 16; j++) {
    int ua = fabs(k[(j * 3 + 1) % 16]) < 0.5;
    check_close("reverse lane 0 d/da", ga0[j], ua ? 2 * a[j] : 0, 1e-14);
    check_close("reverse lane 1 d/da", ga1[j], ua ? 2 * a[j] : 0, 1e-14);
    check_close("reverse lane 0 d/db", gb0[j], ua ? 0 : 2 * b[j], 1e-14);
    check_close("reverse lane 1 d/db", gb1[j], ua ? 0 : 2 * b[j], 1e-14);
  }
  return check_report();
}
