// A struct holding an active and an enzyme_const pointer, built by the
// function being differentiated, given to functions it calls that are
// differentiated on their own (noinline; a reference to a struct of
// references, as expression-template libraries write it). Those callees
// read both pointers from the struct and must test at run time which one
// is constant: the constant input t is never written, and the gradient is
// 2 (p_i - t_i).
// RUN: %clangxx -O0 %s -o %t0 && %t0 | FileCheck %s
// RUN: %clangxx -O1 %s -o %t1 && %t1 | FileCheck %s
// RUN: %clangxx -O2 %s -o %t2 && %t2 | FileCheck %s
// RUN: %clangxx -O3 %s -o %t3 && %t3 | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: ALL PASSED
#include "Inputs/check.h"

extern double __enzyme_autodiff(void *, ...);
extern int enzyme_dup, enzyme_const;

struct Vec {
  double *data;
  long n;
};
struct Diff {
  const Vec *a;
  const Vec *b;
};
struct Kernel {
  const Diff *src;
  double *dst;
};

__attribute__((noinline)) static double coeff(const Diff &d, long i) {
  return d.a->data[i] - d.b->data[i];
}

__attribute__((noinline)) static void run(const Kernel &k) {
  for (long i = 0; i < k.src->a->n; i++)
    k.dst[i] = coeff(*k.src, i);
}

double resid(const Vec *p, const Vec *t) {
  double r[3];
  if (p->n != t->n || p->n > 3)
    return 0;
  Diff d{p, t};
  Kernel k{&d, r};
  run(k);
  return r[0] * r[0] + r[1] * r[1] + r[2] * r[2];
}

int main() {
  double pd[3] = {0.5, -1, 2}, dpd[3] = {0, 0, 0}, td[3] = {0, 0.1, 0.2};
  const double t0[3] = {0, 0.1, 0.2};
  Vec p{pd, 3}, dp{dpd, 3}, t{td, 3};
  __enzyme_autodiff((void *)resid, enzyme_dup, &p, &dp, enzyme_const, &t);
  for (int i = 0; i < 3; i++) {
    check_close("t unchanged", td[i], t0[i], 0);
    check_close("df/dp", dpd[i], 2 * (pd[i] - t0[i]), 1e-14);
  }
  return check_report();
}
