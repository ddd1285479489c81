// Loops that walk memory with a pointer (for (p = x; p != x + n; ++p), the
// shape of a C++ range-for over a vector or std::array, and of iterator
// loops): the reverse sweep rebuilds the pointer and its shadow from the
// loop counter instead of taping both per iteration, so such a tape is
// reusable (split21 F8: refused, "the tape keeps addresses into the shadow
// of parameter 1 ('x')", where the index loop was accepted). Forward,
// backward and strided walks, two pointers in step, a walk over structs,
// a walk nested in an index loop, and a walk in a function whose thunk
// demands a reusable tape, replayed into two shadow buffers with
// different seeds. Expected derivatives are analytic.
// RUN: %clang -O0 %s -lm -o %t0 && %t0 | FileCheck %s
// RUN: %clang -O1 %s -lm -o %t1 && %t1 | FileCheck %s
// RUN: %clang -O2 %s -lm -o %t2 && %t2 | FileCheck %s
// RUN: %clang -O3 %s -lm -o %t3 && %t3 | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: ALL PASSED
#include "Inputs/check.h"
#include <math.h>
#include <tapestry/enzyme.h>
#include <tapestry/thunk.h>

enum { N = 6 };

// sum of x_i^3, walked forward.
double cubes(const double *x, int n) {
  double s = 0;
  for (const double *p = x; p != x + n; ++p)
    s += *p * *p * *p;
  return s;
}

// sum of w_i sin(x_i), walked backward with two pointers in step.
double weighted(const double *x, const double *w, int n) {
  double s = 0;
  const double *q = w + n;
  for (const double *p = x + n; p != x;) {
    --p;
    --q;
    s += *q * sin(*p);
  }
  return s;
}

// Every other element, squared: a stride of two.
double strided(const double *x, int n) {
  double s = 0;
  for (const double *p = x; p < x + n; p += 2)
    s += *p * *p;
  return s;
}

typedef struct {
  double m, v;
} Particle;

// Kinetic energy of particles walked as structs.
double kinetic(const Particle *ps, int n) {
  double e = 0;
  for (const Particle *p = ps; p != ps + n; ++p)
    e += 0.5 * p->m * p->v * p->v;
  return e;
}

// A walk nested in an index loop: rows of a matrix.
double rowProducts(const double *a, int rows, int cols) {
  double s = 0;
  for (int r = 0; r < rows; r++) {
    double prod = 1;
    for (const double *p = a + r * cols; p != a + (r + 1) * cols; ++p)
      prod *= *p;
    s += prod;
  }
  return s;
}

// The split21 reproducer: sqrt of the sum of squares.
double norm(const double *x, int n) {
  double s = 0;
  for (const double *p = x; p != x + n; ++p)
    s += *p * *p;
  return sqrt(s);
}

typedef double (*Aug)(const double *, double *, int, void *);
typedef void (*Rev)(const double *, double *, int, double, void *, void *);

int main(void) {
  double x[N], w[N];
  for (int i = 0; i < N; i++) {
    x[i] = 0.3 + 0.4 * i - 0.1 * (i % 3);
    w[i] = 1.5 - 0.2 * i;
  }
  char what[64];

  double dx[N] = {0};
  __enzyme_autodiff((void *)cubes, enzyme_dup, x, dx, enzyme_const, N);
  for (int i = 0; i < N; i++) {
    snprintf(what, sizeof what, "cubes d/dx[%d]", i);
    check_close(what, dx[i], 3 * x[i] * x[i], 1e-12);
  }

  double dx2[N] = {0}, dw[N] = {0};
  __enzyme_autodiff((void *)weighted, enzyme_dup, x, dx2, enzyme_dup, w, dw,
                    enzyme_const, N);
  for (int i = 0; i < N; i++) {
    snprintf(what, sizeof what, "weighted d/dx[%d]", i);
    check_close(what, dx2[i], w[i] * cos(x[i]), 1e-12);
    snprintf(what, sizeof what, "weighted d/dw[%d]", i);
    check_close(what, dw[i], sin(x[i]), 1e-12);
  }

  double dx3[N] = {0};
  __enzyme_autodiff((void *)strided, enzyme_dup, x, dx3, enzyme_const, N);
  for (int i = 0; i < N; i++) {
    snprintf(what, sizeof what, "strided d/dx[%d]", i);
    check_close(what, dx3[i], i % 2 ? 0.0 : 2 * x[i], 1e-12);
  }

  Particle ps[N], dps[N] = {{0, 0}};
  for (int i = 0; i < N; i++)
    ps[i] = (Particle){1.0 + i, 0.5 - 0.3 * i};
  __enzyme_autodiff((void *)kinetic, enzyme_dup, ps, dps, enzyme_const, N);
  for (int i = 0; i < N; i++) {
    snprintf(what, sizeof what, "kinetic d/dm[%d]", i);
    check_close(what, dps[i].m, 0.5 * ps[i].v * ps[i].v, 1e-12);
    snprintf(what, sizeof what, "kinetic d/dv[%d]", i);
    check_close(what, dps[i].v, ps[i].m * ps[i].v, 1e-12);
  }

  // Forward mode over the same walks.
  double t[N], tx = 0;
  for (int i = 0; i < N; i++)
    t[i] = 0.1 * (i + 1);
  double want = 0;
  for (int i = 0; i < N; i++)
    want += 3 * x[i] * x[i] * t[i];
  tx = __enzyme_fwddiff((void *)cubes, enzyme_dup, x, t, enzyme_const, N);
  check_close("cubes forward", tx, want, 1e-12);

  enum { R = 2, C = 3 };
  double da[R * C] = {0};
  __enzyme_autodiff((void *)rowProducts, enzyme_dup, x, da, enzyme_const, R,
                    enzyme_const, C);
  for (int r = 0; r < R; r++)
    for (int c = 0; c < C; c++) {
      double others = 1;
      for (int k = 0; k < C; k++)
        if (k != c)
          others *= x[r * C + k];
      snprintf(what, sizeof what, "rowProducts d/da[%d][%d]", r, c);
      check_close(what, da[r * C + c], others, 1e-12);
    }

  // A reusable tape: one forward, two reverses into different shadows.
  const tapestry_thunk *th = __tapestry_thunk(
      (void *)norm, tapestry_reusable_tape, enzyme_dup, enzyme_const);
  check_close("norm thunk is reusable", th->reusable, 1, 0);
  double d1[N] = {0}, d2[N] = {0};
  void *tape = tapestry_tape_new(th);
  double r = ((Aug)th->augmented)(x, d1, N, tape);
  ((Rev)th->reverse)(x, d1, N, 1.0, tape, NULL);
  ((Rev)th->reverse)(x, d2, N, -2.5, tape, NULL);
  tapestry_tape_delete(th, tape);
  for (int i = 0; i < N; i++) {
    snprintf(what, sizeof what, "norm replay 1 d/dx[%d]", i);
    check_close(what, d1[i], x[i] / r, 1e-12);
    snprintf(what, sizeof what, "norm replay 2 d/dx[%d]", i);
    check_close(what, d2[i], -2.5 * x[i] / r, 1e-12);
  }
  return check_report();
}
