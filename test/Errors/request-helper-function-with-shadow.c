// A request that differentiates a generic gradient helper and gives the
// function it passes a shadow (enzyme_dup, f1, df1): the helper is not
// specialised for f1 (a function with a shadow is differentiated through
// that shadow, not a constant to put in place), so the helper's own
// request on its parameter stays one on a pointer known only at run time.
// With enzyme_const it is specialised:
// test/Integration/request-wrapper-helper-differentiated.c.
// RUN: not %clang -O0 -c %s -o /dev/null 2>&1 | FileCheck %s
// RUN: not %clang -O2 -c %s -o /dev/null 2>&1 | FileCheck %s
// CHECK-NOT: PLEASE submit a bug report
// CHECK: error: tapestry: the first argument of __enzyme_autodiff must be a function, e.g. (void *)f; got parameter 1{{.*}}known only at run time
#include <math.h>
extern int enzyme_dup, enzyme_const;
void __enzyme_autodiff(void *, ...);
void __enzyme_fwddiff(void *, ...);

typedef double (*Objective)(const double *);

static double f1(const double *x) { return x[0] * x[0] * x[1] + sin(x[1]); }
static double df1(const double *x) { return 0; }

static void grad(Objective f, const double *x, double *g) {
  g[0] = g[1] = 0;
  __enzyme_autodiff((void *)f, enzyme_dup, x, g);
}

void hessianTimes(const double *x, const double *v, double *g, double *Hv) {
  __enzyme_fwddiff((void *)grad, enzyme_dup, f1, df1, enzyme_dup, x, v,
                   enzyme_dup, g, Hv);
}
