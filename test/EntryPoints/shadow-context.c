// Enzyme's shadow contexts: __enzyme_context(W) makes a context holding W
// lanes of shadow for every global variable; __enzyme_shadow(ctx, &g, k)
// is the address of lane k of g's shadow there (also of a member or an
// element, at its offset; declared under a longer name too); __enzyme_zero_shadows(ctx) zeroes them all; a
// request passing `enzyme_context, ctx` has width W and reads tangents from,
// or adds adjoints to, those shadows. Expected values are analytic.
// RUN: %clang -O0 %s -lm -o %t0 && %t0 | FileCheck %s
// RUN: %clang -O1 %s -lm -o %t1 && %t1 | FileCheck %s
// RUN: %clang -O2 %s -lm -o %t2 && %t2 | FileCheck %s
// RUN: %clang -O3 %s -lm -o %t3 && %t3 | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: ALL PASSED
#include "../Integration/Inputs/check.h"

extern int enzyme_context, enzyme_dup, enzyme_const;
void *__enzyme_context(int);
void *__enzyme_shadow(void *, void *, int);
void __enzyme_zero_shadows(void *);
// A declaration whose name contains the entry point's, as for requests.
double *__enzyme_shadow_d(void *, double *, int);
double __enzyme_autodiff(void *, ...);
double __enzyme_fwddiff(void *, ...);
typedef struct {
  double t0, t1;
} Pair;
Pair __enzyme_fwddiff_2(void *, ...);

double scale = 1.5;
struct {
  double a, b;
} params = {0.5, 3.0};
double table[3] = {1.0, 2.0, 4.0};
double never_queried = 7.0;

// A descriptor of an array, as Fortran keeps one: its shadow points to the
// shadow of the data.
struct {
  double *data;
  long n;
} desc = {table, 3};

__attribute__((noinline)) double weighted(double x) {
  double s = 0;
  for (long i = 0; i < desc.n; i++)
    s += desc.data[i] * x;
  return s;
}

// f = scale x^2 + params.b sin(x) + never_queried x
double f(double x) {
  return scale * x * x + params.b * sin(x) + never_queried * x;
}

// h = weighted(x) * scale = x * scale * sum(table)
double h(double x) { return weighted(x) * scale; }

// A global f writes: its context shadow carries the derivative from the
// store to the load.
double last;
__attribute__((noinline)) void store_last(double x) { last = x * x * x; }
double k(double x) {
  store_last(x);
  return last * scale;
}

int main(void) {
  double x = 0.75;
  void *ctx = __enzyme_context(1);
  double *dscale = (double *)__enzyme_shadow(ctx, &scale, 0);
  double *db = (double *)__enzyme_shadow(ctx, &params.b, 0);
  double *dtable = (double *)__enzyme_shadow(ctx, table, 0);
  double *dtable2 = __enzyme_shadow_d(ctx, &table[2], 0);
  check_close("shadow of an element is at its offset", dtable2 - dtable, 2,
              0);

  // Reverse mode adds the adjoints of the globals to their shadows.
  *dscale = 0;
  *db = 0;
  double dx = __enzyme_autodiff((void *)f, enzyme_context, ctx, x);
  check_close("rev d/dx", dx, 2 * scale * x + params.b * cos(x) + 7.0, 1e-12);
  check_close("rev d/dscale", *dscale, x * x, 1e-12);
  check_close("rev d/dparams.b", *db, sin(x), 1e-12);

  // They accumulate, until __enzyme_zero_shadows.
  __enzyme_autodiff((void *)f, enzyme_context, ctx, x);
  check_close("rev accumulates", *dscale, 2 * x * x, 1e-12);
  for (int i = 1; i <= 3; i++) {
    __enzyme_zero_shadows(ctx);
    double xi = 0.5 * i;
    __enzyme_autodiff((void *)f, enzyme_context, ctx, xi);
    check_close("rev after zero_shadows", *dscale, xi * xi, 1e-12);
    check_close("rev after zero_shadows b", *db, sin(xi), 1e-12);
  }

  // Forward mode reads the tangents seeded in the shadows.
  __enzyme_zero_shadows(ctx);
  *dscale = 1.0;
  double t = __enzyme_fwddiff((void *)f, enzyme_context, ctx, x, 0.0);
  check_close("fwd seeded scale", t, x * x, 1e-12);
  *dscale = 0.0;
  *db = 2.0;
  t = __enzyme_fwddiff((void *)f, enzyme_context, ctx, x, 1.0);
  check_close("fwd seeded b and x", t,
              2 * sin(x) + 2 * scale * x + params.b * cos(x) + 7.0, 1e-12);

  // Through a pointer in a global: the descriptor's shadow points to the
  // shadow of the table, whose length the shadow keeps.
  double **ddata = (double **)__enzyme_shadow(ctx, &desc.data, 0);
  long *dn = (long *)__enzyme_shadow(ctx, &desc.n, 0);
  check_close("descriptor shadow points to the table's shadow",
              *ddata == dtable, 1, 0);
  check_close("descriptor shadow keeps the length", (double)*dn, 3, 0);
  __enzyme_zero_shadows(ctx);
  check_close("zero_shadows keeps the pointer", *ddata == dtable, 1, 0);
  dtable[0] = 1.0;
  dtable[2] = 0.5;
  t = __enzyme_fwddiff((void *)h, enzyme_context, ctx, x, 0.0);
  check_close("fwd through descriptor", t, x * (1.0 + 0.5) * scale, 1e-12);
  __enzyme_zero_shadows(ctx);
  dx = __enzyme_autodiff((void *)h, enzyme_context, ctx, x);
  check_close("rev through descriptor dx", dx, 7.0 * scale, 1e-12);
  for (int i = 0; i < 3; i++)
    check_close("rev through descriptor dtable", dtable[i], x * scale,
                1e-12);
  check_close("rev through descriptor dscale", *dscale, 7.0 * x, 1e-12);

  // A global written and read back inside the derivative.
  __enzyme_zero_shadows(ctx);
  dx = __enzyme_autodiff((void *)k, enzyme_context, ctx, x);
  check_close("rev through a written global", dx, 3 * x * x * scale, 1e-12);
  check_close("rev through a written global dscale", *dscale, x * x * x,
              1e-12);
  __enzyme_zero_shadows(ctx);
  t = __enzyme_fwddiff((void *)k, enzyme_context, ctx, x, 1.0);
  check_close("fwd through a written global", t, 3 * x * x * scale, 1e-12);

  // A context of width 2: one shadow per lane, and derivatives of width 2
  // (each tangent argument given twice).
  void *ctx2 = __enzyme_context(2);
  double *ds0 = (double *)__enzyme_shadow(ctx2, &scale, 0);
  double *ds1 = (double *)__enzyme_shadow(ctx2, &scale, 1);
  double *db1 = (double *)__enzyme_shadow(ctx2, &params.b, 1);
  check_close("lanes differ", ds0 != ds1, 1, 0);
  *ds0 = 1.0;
  *db1 = 1.0;
  Pair p = __enzyme_fwddiff_2((void *)f, enzyme_context, ctx2, x, 0.0, 1.0);
  check_close("width 2 lane 0", p.t0, x * x, 1e-12);
  check_close("width 2 lane 1", p.t1,
              sin(x) + 2 * scale * x + params.b * cos(x) + 7.0, 1e-12);
  // The first context's shadows are its own.
  check_close("contexts are separate", *dscale, 0.0, 0);

  // Without a context, derivatives do not see the context's shadows.
  dx = __enzyme_autodiff((void *)f, x);
  check_close("no context", dx, 2 * scale * x + params.b * cos(x) + 7.0,
              1e-12);
  return check_report();
}
