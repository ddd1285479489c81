// A call that stays a call (a recursive function) and returns a pointer
// that leads to differentiable data. Its derivative gave no shadow for the
// pointer, so what the caller read through it counted as constant: a
// silent wrong gradient (0 instead of 18), then an error at the call. The
// callee's derivative now returns the shadow (its split's augmented
// forward, or the tangent in forward mode): a block made at the bottom of
// a recursion, self- and mutually recursive pointer choosers, checked
// against analytic gradients. A pointer member of a struct returned by
// value ({double *, int}) still gets no shadow: that stays an error. A
// recursive function returning a pointer to integers, used only as an
// index, stays differentiable (the control).
// RUN: not %clang -O0 -g -DMEMBER %s -lm -o %t 2>&1 | FileCheck %s --check-prefix=MEMBER
// RUN: not %clang -O2 -g -DMEMBER %s -lm -o %t 2>&1 | FileCheck %s --check-prefix=MEMBER
// RUN: %clang -O0 %s -lm -o %t0 && %t0 | FileCheck %s
// RUN: %clang -O1 %s -lm -o %t1 && %t1 | FileCheck %s
// RUN: %clang -O2 %s -lm -o %t2 && %t2 | FileCheck %s
// The pointer as a member of a struct returned by value: silently constant
// too until Dec 2026.
// MEMBER: error: tapestry: cannot differentiate 'm': the call to 'pick_n' stays a call (it is recursive) and returns a pointer that may lead to differentiable data, but Tapestry's derivative of such a call does not return the pointer's shadow yet, so what is read through it would count as constant; return the data through an argument (or an index) instead
// CHECK-NOT: FAIL
// CHECK: ALL PASSED
#include "../Integration/Inputs/check.h"
#include <stdlib.h>

extern int enzyme_dup, enzyme_const;
double __enzyme_autodiff(void *, ...);

/* A block holding x0^2, made at the bottom of a recursion. */
__attribute__((noinline)) double *make(const double *x, int n) {
  if (n > 0) {
    double *t = make(x, n - 1);
    free(t);
  }
  double *b = (double *)malloc(sizeof(double));
  b[0] = x[0] * x[0];
  return b;
}

/* p or q, alternating with the depth. */
__attribute__((noinline)) double *pick(double *p, double *q, int n) {
  return n <= 0 ? p : pick(q, p, n - 1);
}

double *pick_b(double *p, double *q, int n);
__attribute__((noinline)) double *pick_a(double *p, double *q, int n) {
  return n <= 0 ? p : pick_b(q, p, n - 1);
}
__attribute__((noinline)) double *pick_b(double *p, double *q, int n) {
  return n <= 0 ? q : pick_a(q, p, n - 1);
}

struct PN {
  double *p;
  int n;
};
__attribute__((noinline)) struct PN pick_n(double *a, int n) {
  if (n <= 1 || a[0] > a[1])
    return (struct PN){a, n};
  return pick_n(a + 1, n - 1);
}

/* The position of the largest of k[0..n-1], found recursively: a pointer
   to integers, only used as an index. */
__attribute__((noinline)) const int *largest(const int *k, int n) {
  if (n == 1)
    return k;
  const int *rest = largest(k + 1, n - 1);
  return *rest > *k ? rest : k;
}

double f(const double *x, int n) {
  double *b = make(x, n);
  double r = b[0] * 3;
  free(b);
  return r;
}

double g(double *x, double *y, int n) {
  double *r = pick(x, y, n);
  return r[0] * r[0] + x[0] * y[0];
}

double h(double *x, double *y, int n) {
  double *r = pick_a(x, y, n);
  return r[0] * r[0] + x[0] * y[0];
}

#ifdef MEMBER
double m(double *a) {
  struct PN r = pick_n(a, 4);
  return sin(r.p[0]);
}
#endif

static const int keys[4] = {3, 9, 2, 5};

/* x[argmax keys] * sin(x[0]). */
double indexed(const double *x) {
  const int *m = largest(keys, 4);
  return x[m - keys] * sin(x[0]);
}

int main(void) {
  double a[2] = {0.6, -1.1}, da[2] = {0};
  __enzyme_autodiff((void *)f, enzyme_dup, a, da, enzyme_const, 2);
  check_close("make: d/da0", da[0], 6 * a[0], 1e-14);
  check_close("make: d/da1", da[1], 0, 0);
  /* pick(x, y, 3) is y: g = y0^2 + x0 y0. */
  double p[1] = {1.25}, dp[1] = {0}, q[1] = {-0.5}, dq[1] = {0};
  __enzyme_autodiff((void *)g, enzyme_dup, p, dp, enzyme_dup, q, dq,
                    enzyme_const, 3);
  check_close("pick: d/dx0", dp[0], q[0], 1e-14);
  check_close("pick: d/dy0", dq[0], 2 * q[0] + p[0], 1e-14);
  /* pick_a(x, y, 3) is x: h = x0^2 + x0 y0. */
  dp[0] = dq[0] = 0;
  __enzyme_autodiff((void *)h, enzyme_dup, p, dp, enzyme_dup, q, dq,
                    enzyme_const, 3);
  check_close("pick_a: d/dx0", dp[0], 2 * p[0] + q[0], 1e-14);
  check_close("pick_a: d/dy0", dq[0], p[0], 1e-14);
#ifdef MEMBER
  (void)__enzyme_autodiff((void *)m, enzyme_dup, (double *)0, (double *)0);
#endif
  double x[4] = {0.7, 1.3, -0.4, 2.2}, dx[4] = {0};
  __enzyme_autodiff((void *)indexed, enzyme_dup, x, dx);
  check_close("d/dx0", dx[0], x[1] * cos(x[0]), 1e-14);
  check_close("d/dx1", dx[1], sin(x[0]), 1e-14);
  check_close("d/dx2", dx[2], 0, 0);
  check_close("d/dx3", dx[3], 0, 0);
  return check_report();
}
