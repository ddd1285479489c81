// A tape in the caller's buffer (enzyme_allocated, enzyme_tape in both
// halves) is the caller's to replay: once the augmented forward has filled
// it, __enzyme_reverse may run on it any number of times, with different
// seeds, after the inputs were overwritten, as Enzyme's users do to build a
// Jacobian row by row (issue 17). Two functions whose tape owns no heap
// memory: three inputs and two outputs through sin/exp/cos, and local
// scratch arrays moved with memcpy. Rows are checked against analytic
// derivatives and central finite differences. A function whose tape does
// own heap memory (the records of a loop) is released by its reverse on a
// caller's buffer: running the reverse again stops with a message saying
// so and what to do (LOOP).
// RUN: %clang -O0 %s -lm -o %t0 && %t0 | FileCheck %s
// RUN: %clang -O1 %s -lm -o %t1 && %t1 | FileCheck %s
// RUN: %clang -O2 %s -lm -o %t2 && %t2 | FileCheck %s
// RUN: %clang -O3 %s -lm -o %t3 && %t3 | FileCheck %s
// RUN: %clang -O0 -DLOOP %s -lm -o %tl0 && not %tl0 2>&1 | FileCheck %s --check-prefix=LOOP
// RUN: %clang -O2 -DLOOP %s -lm -o %tl2 && not %tl2 2>&1 | FileCheck %s --check-prefix=LOOP
// CHECK-NOT: FAIL
// CHECK: ALL PASSED
// LOOP: first reverse ok
// LOOP: tapestry: the tape passed to the reverse of 'loopy' was already released: its tape owns heap memory {{.*}} frees unless given enzyme_nofree (pass it to every reverse but the last). Run the augmented forward again (__enzyme_augmentfwd) for a fresh tape
#include "../Integration/Inputs/check.h"
#include <string.h>

extern int enzyme_dup, enzyme_const, enzyme_allocated, enzyme_tape;
void __enzyme_augmentfwd(void *, ...);
void __enzyme_reverse(void *, ...);
int __enzyme_augmentsize(void *, ...);

/* y0 = sin(x0) exp(x1), y1 = x2 cos(x0) + x1^2 */
void f(const double *x, double *y) {
  y[0] = sin(x[0]) * exp(x[1]);
  y[1] = x[2] * cos(x[0]) + x[1] * x[1];
}

/* local scratch arrays, copied with memcpy, no loop */
void g(const double *x, double *y) {
  double t[4], u[4];
  t[0] = sin(x[0]) * x[1];
  t[1] = sin(x[1]) * x[2];
  t[2] = sin(x[2]) * x[3];
  t[3] = sin(x[3]) * x[0];
  memcpy(u, t, sizeof t);
  u[2] *= u[1];
  y[0] = u[0] * u[2] + exp(u[3]);
  y[1] = u[1] * u[3];
}

#ifdef LOOP
__attribute__((noinline)) void loopy(const double *x, double *y, int n) {
  double s = 0;
  for (int i = 0; i < n; i++)
    s = sin(s + x[i]);
  y[0] = s;
}
#endif

typedef void (*fn)(const double *, double *);

/* Row `row` of the Jacobian of h at x0 by central differences. */
static double fd(fn h, const double *x0, int n, int row, int j) {
  double a[4], b[4], ya[2], yb[2];
  memcpy(a, x0, n * sizeof *a);
  memcpy(b, x0, n * sizeof *b);
  a[j] += 1e-6;
  b[j] -= 1e-6;
  h(a, ya);
  h(b, yb);
  return (ya[row] - yb[row]) / 2e-6;
}

static void replay_f(void) {
  double x[3] = {0.3, -0.5, 1.2}, dx[3] = {0}, y[2], dy[2] = {0};
  double x0 = x[0], x1 = x[1], x2 = x[2];
  double want[2][3] = {{cos(x0) * exp(x1), sin(x0) * exp(x1), 0},
                       {-x2 * sin(x0), 2 * x1, cos(x0)}};
  int size = __enzyme_augmentsize((void *)f, enzyme_dup, enzyme_dup);
  char buf[256] __attribute__((aligned(16)));
  check_close("f: tape fits the buffer", size <= (int)sizeof buf, 1, 0);
  __enzyme_augmentfwd((void *)f, enzyme_allocated, size, enzyme_tape, buf,
                      enzyme_dup, x, dx, enzyme_dup, y, dy);
  x[0] = x[1] = x[2] = 100; /* overwritten after the forward */
  char what[64];
  for (int r = 0; r < 5; r++) {
    int row = r % 2;
    double seed = 1 + r; /* different seeds each time */
    memset(dx, 0, sizeof dx);
    dy[0] = row == 0 ? seed : 0;
    dy[1] = row == 1 ? seed : 0;
    __enzyme_reverse((void *)f, enzyme_allocated, size, enzyme_tape, buf,
                     enzyme_dup, x, dx, enzyme_dup, y, dy);
    for (int j = 0; j < 3; j++) {
      snprintf(what, sizeof what, "f: replay %d, row %d, d/dx%d", r, row, j);
      check_close(what, dx[j], seed * want[row][j], 1e-13);
    }
  }
}

static void replay_g(void) {
  double x[4] = {0.3, -0.5, 1.2, 0.7}, dx[4], y[2], dy[2] = {0}, x0[4];
  memcpy(x0, x, sizeof x);
  int size = __enzyme_augmentsize((void *)g, enzyme_dup, enzyme_dup);
  char buf[512] __attribute__((aligned(16)));
  check_close("g: tape fits the buffer", size <= (int)sizeof buf, 1, 0);
  __enzyme_augmentfwd((void *)g, enzyme_allocated, size, enzyme_tape, buf,
                      enzyme_dup, x, dx, enzyme_dup, y, dy);
  for (int k = 0; k < 4; k++)
    x[k] = -7;
  char what[64];
  for (int r = 0; r < 4; r++) {
    int row = (r / 2) % 2;
    memset(dx, 0, sizeof dx);
    dy[0] = row == 0;
    dy[1] = row == 1;
    __enzyme_reverse((void *)g, enzyme_allocated, size, enzyme_tape, buf,
                     enzyme_dup, x, dx, enzyme_dup, y, dy);
    for (int j = 0; j < 4; j++) {
      snprintf(what, sizeof what, "g: replay %d, row %d, d/dx%d", r, row, j);
      check_close(what, dx[j], fd(g, x0, 4, row, j), 1e-6);
    }
  }
}

int main(void) {
#ifdef LOOP
  double x[3] = {0.1, 0.2, 0.3}, dx[3] = {0}, y[1], dy[1] = {1};
  int size = __enzyme_augmentsize((void *)loopy, enzyme_dup, enzyme_dup,
                                  enzyme_const);
  char buf[256] __attribute__((aligned(16)));
  __enzyme_augmentfwd((void *)loopy, enzyme_allocated, size, enzyme_tape, buf,
                      enzyme_dup, x, dx, enzyme_dup, y, dy, enzyme_const, 3);
  __enzyme_reverse((void *)loopy, enzyme_allocated, size, enzyme_tape, buf,
                   enzyme_dup, x, dx, enzyme_dup, y, dy, enzyme_const, 3);
  printf("first reverse ok\n");
  fflush(stdout);
  dy[0] = 1;
  __enzyme_reverse((void *)loopy, enzyme_allocated, size, enzyme_tape, buf,
                   enzyme_dup, x, dx, enzyme_dup, y, dy, enzyme_const, 3);
  return 0;
#else
  replay_f();
  replay_g();
  return check_report();
#endif
}
