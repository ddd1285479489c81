// Found by the all-features fuzz campaign on 4 Dec 2026 (seed 5682,
// features all,vectorize,realloc,sort,constptr,fnptr,byval,tape,batch; IR
// from clang -O3 -march=native -ffast-math, AVX-512): rejected with "the
// pointer 'an address computed' may point to differentiable memory but has
// no shadow; pass it as enzyme_dup with a shadow, not enzyme_const". A fmin
// reduction over `x * j > 0.375 ? a[2j+1] : c[j]`, with c enzyme_const and
// a enzyme_dup, is vectorised as a select between two vectors of element
// pointers (<8 x ptr>, one into a, one into c) and a gather through it. A
// scalar select of a constant and an active pointer was supported (the
// constant pointer is its own shadow, runtime activity); the vector one was
// not recognised as constant (isConstantPointer in
// Analysis/RuntimeActivity.cpp asked for a pointer type, and
// getUnderlyingObjects does not look through a vector GEP to its base).
// Fixed. (x86-64-v3 does not gather here: AVX-512, as the campaign
// machine's -march=native; the derivative runs only where AVX-512 does.)
// Expected values are analytic: a[i] = 2 - i/8 decreases and c[j] = 5, so
// for x = 0.25 the select takes a[2j+1] for j >= 2 and the minimum is the
// last, f = x a[79]: d/dx = a[79] = -7.875, d/da[79] = x = 0.25, 0 for
// every other element of a, and c is left unchanged.
// The derivative is compiled for the baseline x86-64 (%any_x86_cpu), so
// that it runs on machines without AVX-512 too.
// RUN: %plain_cc -O3 -march=x86-64-v4 -ffast-math -S -emit-llvm %s -o %t.ll
// RUN: %opt -passes=tapestry %t.ll -S -o - | %any_x86_cpu > %t.d.ll
// RUN: %plain_cc -O0 %t.d.ll -lm -o %t && %t | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: ALL PASSED
#include "../Integration/Inputs/check.h"

extern int enzyme_dup, enzyme_const, enzyme_out;
double __enzyme_autodiff(void *, ...);
double __enzyme_fwddiff(void *, ...);

double f(const double *c, double *a, int m, double x) {
  double r = 3.0;
  for (int j = 0; j < m; j++)
    r = fmin(r, (x * j > 0.375 ? a[2 * j + 1] : c[j]) * x);
  return r;
}

int main(void) {
  double c[40], a[81], da[81] = {0}, ta[81] = {0};
  for (int j = 0; j < 40; j++)
    c[j] = 5;
  for (int i = 0; i < 81; i++)
    a[i] = 2 - 0.125 * i;
  double dx = __enzyme_autodiff((void *)f, enzyme_const, c, enzyme_dup, a, da,
                                enzyme_const, 40, enzyme_out, 0.25);
  check_close("rev d/dx", dx, -7.875, 1e-15);
  check_close("rev d/da[79]", da[79], 0.25, 1e-15);
  double other = 0, moved = 0;
  for (int i = 0; i < 81; i++)
    if (i != 79)
      other = fmax(other, fabs(da[i]));
  for (int j = 0; j < 40; j++)
    moved = fmax(moved, fabs(c[j] - 5));
  check_close("rev max |d/da| of the other elements", other, 0.0, 0);
  check_close("constant c unchanged", moved, 0.0, 0);
  check_close("fwd d/dx",
              __enzyme_fwddiff((void *)f, enzyme_const, c, enzyme_dup, a, ta,
                               enzyme_const, 40, enzyme_dup, 0.25, 1.0),
              -7.875, 1e-15);
  ta[79] = 1;
  check_close("fwd d/da[79]",
              __enzyme_fwddiff((void *)f, enzyme_const, c, enzyme_dup, a, ta,
                               enzyme_const, 40, enzyme_const, 0.25),
              0.25, 1e-15);
  return check_report();
}
