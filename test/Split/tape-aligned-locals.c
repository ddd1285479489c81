// Locals declared with more than 8-byte alignment (16 as Eigen's
// fixed-size matrices and SSE code ask, 32 for AVX buffers) whose memory
// the reverse needs are kept on the tape: each keeps its alignment there,
// whatever the alignment of the tape memory. Split mode with the tape in a
// caller's buffer (enzyme_allocated) placed at an address that is 8 but not
// 16 or 32-byte aligned (one forward, then the reverse replayed with
// different seeds), and in memory the augmented forward allocates. The callees check the
// alignment they are given and are kept out of line, so the locals stay in
// memory at every -O level. Derivatives are analytic.
// RUN: %clang -O0 %s -lm -o %t0 && %t0 | FileCheck %s
// RUN: %clang -O1 %s -lm -o %t1 && %t1 | FileCheck %s
// RUN: %clang -O2 %s -lm -o %t2 && %t2 | FileCheck %s
// RUN: %clang -O3 %s -lm -o %t3 && %t3 | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: ALL PASSED
#include "../Integration/Inputs/check.h"
#include <stdint.h>
#include <string.h>

extern int enzyme_dup, enzyme_const, enzyme_allocated, enzyme_tape,
    enzyme_nofree;
void *__enzyme_augmentfwd(void *, ...);
void __enzyme_reverse(void *, ...);
void __enzyme_autodiff(void *, ...);
int __enzyme_augmentsize(void *, ...);

static int misaligned = 0;

typedef struct { _Alignas(16) double v[2]; } pair16;
typedef struct { _Alignas(32) double v[4]; } quad32;

__attribute__((noinline)) static void fill(pair16 *p, quad32 *q,
                                           const double *x) {
  if ((uintptr_t)p & 15)
    misaligned++;
  if ((uintptr_t)q & 31)
    misaligned++;
  p->v[0] = x[0] * x[1];
  p->v[1] = sin(x[1]);
  for (int i = 0; i < 4; i++)
    q->v[i] = x[0] + i * x[1];
}

__attribute__((noinline)) static double combine(const pair16 *p,
                                                const quad32 *q) {
  if ((uintptr_t)p & 15)
    misaligned++;
  if ((uintptr_t)q & 31)
    misaligned++;
  double s = 0;
  for (int i = 0; i < 4; i++)
    s += q->v[i] * q->v[i];
  return p->v[0] * p->v[1] + s * p->v[1];
}

/* y0 = x0 x1 sin(x1) + sin(x1) sum_i (x0 + i x1)^2, y1 = y0 x0 */
void f(const double *x, double *y) {
  pair16 p;
  quad32 q;
  fill(&p, &q, x);
  double r = combine(&p, &q);
  y[0] = r;
  y[1] = r * x[0];
}

/* The gradient of y0 and of y1 at x, analytic. */
static void want(const double *x, double g[2][2]) {
  double a = x[0], b = x[1], s = sin(b), c = cos(b);
  double S = 0, dSa = 0, dSb = 0;
  for (int i = 0; i < 4; i++) {
    S += (a + i * b) * (a + i * b);
    dSa += 2 * (a + i * b);
    dSb += 2 * i * (a + i * b);
  }
  double r = a * b * s + s * S;
  double ra = b * s + s * dSa;
  double rb = a * s + a * b * c + c * S + s * dSb;
  g[0][0] = ra;
  g[0][1] = rb;
  g[1][0] = ra * a + r;
  g[1][1] = rb * a;
}

static void replay(char *tape, int size, const char *where) {
  double x[2] = {0.6, -0.9}, dx[2], y[2], dy[2], g[2][2];
  want(x, g);
  __enzyme_augmentfwd((void *)f, enzyme_allocated, size, enzyme_tape, tape,
                      enzyme_dup, x, dx, enzyme_dup, y, dy);
  x[0] = x[1] = 7; /* the reverse reads its tape, not the inputs */
  char what[96];
  for (int r = 0; r < 4; r++) {
    int row = r % 2;
    double seed = 0.5 + r;
    memset(dx, 0, sizeof dx);
    dy[0] = row == 0 ? seed : 0;
    dy[1] = row == 1 ? seed : 0;
    if (r < 3)
      __enzyme_reverse((void *)f, enzyme_nofree, enzyme_allocated, size,
                       enzyme_tape, tape, enzyme_dup, x, dx, enzyme_dup, y,
                       dy);
    else
      __enzyme_reverse((void *)f, enzyme_allocated, size, enzyme_tape, tape,
                       enzyme_dup, x, dx, enzyme_dup, y, dy);
    for (int j = 0; j < 2; j++) {
      snprintf(what, sizeof what, "%s: replay %d d y%d / d x%d", where, r,
               row, j);
      check_close(what, dx[j], seed * g[row][j], 1e-12);
    }
  }
}

int main(void) {
  int size = __enzyme_augmentsize((void *)f, enzyme_dup, enzyme_dup);
  _Alignas(64) char buf[1024 + 64];
  check_close("tape fits the buffer", size + 40 <= (int)sizeof buf, 1, 0);
  /* 8 past a 64-byte boundary: 8-aligned, not 16 or 32. */
  replay(buf + 8, size, "buffer at 8 mod 64");
  replay(buf + 24, size, "buffer at 24 mod 64");
  replay(buf + 16, size, "buffer at 16 mod 64");

  /* The tape allocated by the augmented forward itself, and the combined
     gradient. */
  double x[2] = {0.6, -0.9}, dx[2] = {0, 0}, y[2], dy[2] = {0, 1}, g[2][2];
  want(x, g);
  void *tape = __enzyme_augmentfwd((void *)f, enzyme_dup, x, dx, enzyme_dup,
                                   y, dy);
  __enzyme_reverse((void *)f, enzyme_dup, x, dx, enzyme_dup, y, dy, tape);
  check_close("own tape: d y1 / d x0", dx[0], g[1][0], 1e-12);
  check_close("own tape: d y1 / d x1", dx[1], g[1][1], 1e-12);
  dx[0] = dx[1] = 0;
  dy[0] = 1;
  dy[1] = 0;
  __enzyme_autodiff((void *)f, enzyme_dup, x, dx, enzyme_dup, y, dy);
  check_close("autodiff: d y0 / d x0", dx[0], g[0][0], 1e-12);
  check_close("autodiff: d y0 / d x1", dx[1], g[0][1], 1e-12);
  check_close("locals aligned", misaligned, 0, 0);
  return check_report();
}
