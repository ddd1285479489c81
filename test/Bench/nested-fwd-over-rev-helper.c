// Found by the k-means benchmark (tools/bench/standard/kmeans.cpp, its
// Hessian diagonal by forward over reverse) at -O0: forward over reverse was
// rejected when the inner reverse request's function passes a constant
// pointer (enzyme_const) and an active one to a helper ("argument 1 of this
// call is a pointer read from memory that also holds pointers to constant
// data ..."). The inner reverse keeps its loop records in an array grown by
// realloc from null, whose first copy (from null, of nothing) was taken for
// a copy of pointers without shadows.
// Expected (analytic): dc = sum_i 2 (c - p_i) = 6 c - 14 = -11 at c = 0.5,
// and its derivative in c is 6.
// RUN: %clang -O0 %s -o %t0 && %t0 | FileCheck %s
// RUN: %clang -O1 %s -o %t1 && %t1 | FileCheck %s
// RUN: %clang -O2 %s -o %t2 && %t2 | FileCheck %s
// CHECK: -11 6 (want -11 6)
#include <stdio.h>
extern int enzyme_const, enzyme_dup;
void __enzyme_autodiff(void *, ...);
void __enzyme_fwddiff(void *, ...);
static double dist2(const double *p, const double *c) {
  return (p[0] - c[0]) * (p[0] - c[0]);
}
void cost(int n, const double *p, const double *c, double *err) {
  double s = 0;
  for (int i = 0; i < n; i++)
    s += dist2(&p[i], c);
  *err = s;
}
void grad(int n, const double *p, const double *c, double *dc) {
  double err = 0, derr = 1;
  __enzyme_autodiff((void *)cost, enzyme_const, n, enzyme_const, p, enzyme_dup,
                    c, dc, enzyme_dup, &err, &derr);
}
int main(void) {
  double p[3] = {1, 2, 4}, c[1] = {0.5}, dc[1] = {0}, one[1] = {1}, h[1] = {0};
  __enzyme_fwddiff((void *)grad, enzyme_const, 3, enzyme_const, p, enzyme_dup,
                   c, one, enzyme_dup, dc, h);
  /* dc = sum 2 (c - p_i) = 6 c - 14 = -11; its derivative in c: 6. */
  printf("%g %g (want -11 6)\n", dc[0], h[0]);
  return !(dc[0] == -11 && h[0] == 6);
}
