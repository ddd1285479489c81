/* Every C header Tapestry installs compiles under the short macros users
 * define before their includes (Inputs/user-macros.h: every letter, N, T,
 * dx, state, ...), and works, macros included: the Jacobian sweeps of
 * TAPESTRY_DEFINE_JACOBIAN_SWEEPS are expanded while the user's macros are
 * still defined. The C library's headers come first (they are not ours to
 * check). Expected values analytic: f(x) = x0^2 x1 + sin(x1), grad =
 * (2 x0 x1, x0^2 + cos(x1)); polar(r, t) = (r cos t, r sin t). */
// RUN: %clang -O0 %s %tapestry_rt -lm -o %t0 && %t0 | FileCheck %s
// RUN: %clang -O2 %s %tapestry_rt -lm -o %t2 && %t2 | FileCheck %s
// RUN: %clang -std=c99 -O1 %s %tapestry_rt -lm -o %t1 && %t1 | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: ALL PASSED
#include "Inputs/check.h"
#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "Inputs/user-macros.h"
#include <enzyme/checkpoint.h>
#include <enzyme/fixed_point.h>
#include <tapestry/batch.h>
#include <tapestry/enzyme.h>
#include <tapestry/gradcheck.h>
#include <tapestry/runtime.h>
#include <tapestry/tapestry.h>
#include <tapestry/thunk.h>

static void polar(const double *rt, double *xy) {
  xy[0] = rt[0] * cos(rt[1]);
  xy[1] = rt[0] * sin(rt[1]);
}
TAPESTRY_DEFINE_JACOBIAN_SWEEPS(polar2, polar, 2)

#include "Inputs/user-macros-undef.h"

static double f(const double *x) { return x[0] * x[0] * x[1] + sin(x[1]); }

static double f_ctx(const double *x, void *unused) {
  (void)unused;
  return f(x);
}

typedef double (*Augmented)(const double *, double *, void *);
typedef void (*Reverse)(const double *, double *, double, void *);

int main(void) {
  double x[2] = {0.6, 1.3}, g[2] = {0, 0};
  double want[2] = {2 * x[0] * x[1], x[0] * x[0] + cos(x[1])};
  __enzyme_autodiff((void *)f, enzyme_dup, x, g);
  check_close("reverse df/dx0", g[0], want[0], 1e-12);
  check_close("reverse df/dx1", g[1], want[1], 1e-12);

  struct tapestry_check_options quiet = {0};
  quiet.quiet = 1;
  check_close("tapestry_check_gradient: no mismatch",
              tapestry_check_gradient(f_ctx, NULL, 2, x, g, &quiet, NULL), 0,
              0);

  /* Split mode through a thunk: one forward, two reverse sweeps. */
  const tapestry_thunk *t = __tapestry_thunk((void *)f, enzyme_dup);
  void *tape = tapestry_tape_new(t);
  double d[2] = {0, 0};
  double y = ((Augmented)t->augmented)(x, d, tape);
  check_close("thunk primal", y, f(x), 1e-15);
  for (int k = 1; k <= 2 && t->reusable; k++) {
    d[0] = d[1] = 0;
    ((Reverse)t->reverse)(x, d, (double)k, tape);
    check_close("thunk reverse df/dx0 * seed", d[0], k * want[0], 1e-12);
    check_close("thunk reverse df/dx1 * seed", d[1], k * want[1], 1e-12);
  }
  check_close("thunk is reusable", t->reusable, 1, 0);
  tapestry_tape_delete(t, tape);

  /* The Jacobian of polar from the sweeps defined under the macros. */
  double rt[2] = {2.0, 0.5}, jac[4];
  double jwant[4] = {cos(0.5), -2 * sin(0.5), sin(0.5), 2 * cos(0.5)};
  tapestry_jacobian(2, 2, rt, 2, TAPESTRY_JACOBIAN_REVERSE, polar2_fwd,
                    polar2_rev, NULL, jac);
  for (int i = 0; i < 4; i++)
    check_close("polar Jacobian (reverse sweeps)", jac[i], jwant[i], 1e-12);
  tapestry_jacobian(2, 2, rt, 2, TAPESTRY_JACOBIAN_FORWARD, polar2_fwd, NULL,
                    NULL, jac);
  for (int i = 0; i < 4; i++)
    check_close("polar Jacobian (forward sweeps)", jac[i], jwant[i], 1e-12);
  return check_report();
}
