// tools/tapestry-explain on a program with a one-shot reverse request, a
// forward request and split-mode requests whose tapes are and are not
// reusable: each request is described in source terms (types, names,
// markers and what they mean), split tapes with their size and the
// compiler's answer to "may the reverse run again", the reverse sweep's
// cache remarks, and the derivative's listing with source lines.
// Requests are explained in the order they are resolved (split reverse
// halves first), so each is checked on its own.
// RUN: env TAPESTRY_PLUGIN=%plugin %src_root/tools/tapestry-explain -I%src_root/include %s > %t.out 2>&1
// RUN: FileCheck %s --check-prefix=ENERGY < %t.out
// RUN: FileCheck %s --check-prefix=NORM < %t.out
// RUN: FileCheck %s --check-prefix=SMOOTH < %t.out
// RUN: FileCheck %s --check-prefix=SCRATCH < %t.out
// RUN: FileCheck %s --check-prefix=REMARK < %t.out
#include <math.h>
#include <stdlib.h>
#include <tapestry/enzyme.h>
/* the reverse half returning the adjoint of an enzyme_out argument */
double __enzyme_reverse_d(void *, ...);

double energy(const double *x, int n) {
  double e = 0;
  for (int i = 0; i + 1 < n; i++)
    e += (x[i + 1] - x[i]) * (x[i + 1] - x[i]);
  return e;
}

struct Vec2 {
  double a, b;
};
double norm2(struct Vec2 *v) { return v->a * v->a + v->b * v->b; }

void smooth(double *x, double s, double *y) { *y = sin(x[0]) * exp(s * x[1]); }

/* scratch on the heap, freed by the function: the tape owns it: reusable */
void scratch(double *x, int n, double *y) {
  double *t = malloc(sizeof(double) * (size_t)n);
  double r = 0;
  for (int i = 0; i < n; i++)
    t[i] = x[i] * x[i];
  for (int i = 0; i < n; i++)
    r += sin(t[i]);
  free(t);
  *y = r;
}

int main(void) {
  double x[3] = {1, 2, 3}, dx[3] = {0};
  __enzyme_autodiff((void *)energy, enzyme_dup, x, dx, enzyme_const, 3);
  // ENERGY: tapestry-explain: __enzyme_autodiff at {{.*}}explain-requests.c:[[@LINE-1]]
  // ENERGY-NEXT: function: double energy(const double *x, int n)
  // ENERGY-NEXT: mode: reverse
  // ENERGY-NEXT: arguments:
  // ENERGY-NEXT: x const double * enzyme_dup its shadow accumulates the derivative (+=)
  // ENERGY-NEXT: n int enzyme_const not differentiated
  // ENERGY-NEXT: result: double, active: the reverse sweep starts from its seed
  // ENERGY-NEXT: variables:
  // ENERGY-NEXT: e double line 22 active: carries a derivative
  // ENERGY-NEXT: i int line 23 not differentiated: an integer
  // ENERGY-NEXT: derivative '{{.*}}energy{{.*}}':
  // ENERGY: load double, ptr {{.*}}; line 24
  // ENERGY: ret

  struct Vec2 v = {3, 4}, dv = {1, 0};
  double t = __enzyme_fwddiff((void *)norm2, enzyme_dup, &v, &dv);
  // NORM: tapestry-explain: __enzyme_fwddiff at {{.*}}explain-requests.c:[[@LINE-1]]
  // NORM-NEXT: function: double norm2(struct Vec2 *v)
  // NORM-NEXT: mode: forward
  // NORM: v struct Vec2 * enzyme_dup its shadow holds the tangent, in and out
  // NORM: result: double, active: its tangent is returned

  double y, dy = 1;
  void *tape = __enzyme_augmentfwd((void *)smooth, enzyme_dup, x, dx,
                                   enzyme_out, 0.5, enzyme_dup, &y, &dy);
  // SMOOTH: tapestry-explain: __enzyme_augmentfwd at {{.*}}explain-requests.c:[[@LINE-2]]
  // SMOOTH-NEXT: function: void smooth(double *x, double s, double *y)
  // SMOOTH-NEXT: mode: reverse, split (augmented forward + reverse)
  // SMOOTH: s double enzyme_out its derivative is returned
  // SMOOTH-NEXT: y double * enzyme_dup its shadow accumulates the derivative (+=)
  // SMOOTH: tape: {{[0-9]+}} bytes, owning no heap memory
  // SMOOTH-NEXT: reusable: yes: the reverse may run again on the same tape
  // SMOOTH-NEXT: derivative '{{.*}}smooth{{.*}}':
  double ds = __enzyme_reverse_d((void *)smooth, enzyme_dup, x, dx,
                                 enzyme_out, 0.5, enzyme_dup, &y, &dy, tape);

  void *tape2 = __enzyme_augmentfwd((void *)scratch, enzyme_dup, x, dx,
                                    enzyme_const, 3, enzyme_dup, &y, &dy);
  // SCRATCH: tapestry-explain: __enzyme_augmentfwd at {{.*}}explain-requests.c:[[@LINE-2]]
  // SCRATCH: variables:
  // SCRATCH-NEXT: t double * line 37 active pointer: points to memory whose shadow carries the derivative
  // SCRATCH-NEXT: r double line 38 active: carries a derivative
  // SCRATCH-NEXT: i int line 39 not differentiated: an integer
  // SCRATCH-NEXT: i int line 41 not differentiated: an integer
  // SCRATCH-NEXT: tape: {{[0-9]+}} bytes
  // SCRATCH-NEXT: reusable: yes: the reverse may run again on the same tape
  __enzyme_reverse((void *)scratch, enzyme_dup, x, dx, enzyme_const, 3,
                   enzyme_dup, &y, &dy, tape2);
  // The remarks on what the reverse sweeps cache come with it.
  // REMARK: remark: reverse sweep of 'energy'
  return (int)(t + ds);
}
