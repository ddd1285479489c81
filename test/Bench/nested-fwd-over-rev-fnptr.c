// Found by the saddle benchmark (tools/bench/standard/saddle.cpp with its
// inner gradient passed as a function pointer): forward over reverse was
// rejected when the inner __enzyme_autodiff sat in a function reached only
// through a function pointer ("cannot differentiate 'f': no derivative is
// known for external function '__enzyme_autodiff'"), at every optimisation
// level. Requests are ordered by the functions their code may reach, and a
// call through a pointer may reach every function whose address the code
// names: passed as an argument (f) or held in a table (h).
// Expected: f(p) = p * dg/dq at q = 3 for g = p q^2, i.e. 6 p^2, so
// df/dp = 12 p = 24 at p = 2 (analytic); h is the same through a table.
// RUN: %clang -O0 %s -o %t0 && %t0 | FileCheck %s
// RUN: %clang -O1 %s -o %t1 && %t1 | FileCheck %s
// RUN: %clang -O2 %s -o %t2 && %t2 | FileCheck %s
// RUN: %clang -O3 %s -o %t3 && %t3 | FileCheck %s
// CHECK: fwd-over-rev 24
// CHECK: table fwd-over-rev 24
#include <stdio.h>
extern int enzyme_const, enzyme_dup;
void __enzyme_autodiff(void *, ...);
double __enzyme_fwddiff(void *, ...);

static double g(const double *p, const double *q) { return p[0] * q[0] * q[0]; }
static void innerGrad(const double *p, const double *q, double *dq) {
  dq[0] = 0;
  __enzyme_autodiff((void *)g, enzyme_const, p, enzyme_dup, q, dq);
}
typedef void (*Grad)(const double *, const double *, double *);
static double outer(const double *p, Grad grad) {
  double q[1] = {3}, dq[1];
  grad(p, q, dq); /* dq = 2 p q = 6 p */
  return dq[0] * p[0];
}
double f(const double *p) { return outer(p, innerGrad); }
static const Grad Table[2] = {0, innerGrad};
double h(const double *p, int k) { return outer(p, Table[k]); }
int main(void) {
  double p[1] = {2}, one[1] = {1};
  printf("fwd-over-rev %g\n", __enzyme_fwddiff((void *)f, enzyme_dup, p, one));
  volatile int k = 1;
  printf("table fwd-over-rev %g\n",
         __enzyme_fwddiff((void *)h, enzyme_dup, p, one, enzyme_const, k));
  return 0;
}
