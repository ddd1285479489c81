// memcpy and memmove behind the user's own void * helpers (issue 14, item
// 8): noinline wrappers copy(void *, const void *, size_t) and
// move(void *, const void *, size_t), called directly, from another helper,
// on doubles and on structs holding doubles, in reverse and forward mode
// against central finite differences, and in batch mode against one-shot
// reverse mode.
// RUN: %clang -O0 %s -lm -o %t0 && %t0 | FileCheck %s
// RUN: %clang -O1 %s -lm -o %t1 && %t1 | FileCheck %s
// RUN: %clang -O2 %s -lm -o %t2 && %t2 | FileCheck %s
// RUN: %clang -O3 %s -lm -o %t3 && %t3 | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: ALL PASSED
#include "Inputs/check.h"
#include <stdlib.h>
#include <string.h>

extern int enzyme_dup, enzyme_const, enzyme_width;
void __enzyme_autodiff(void *, ...);
double __enzyme_fwddiff(void *, ...);

#include "Inputs/gradcheck.h"

__attribute__((noinline)) void copy(void *dst, const void *src, size_t n) {
  memcpy(dst, src, n);
}
__attribute__((noinline)) void move(void *dst, const void *src, size_t n) {
  memmove(dst, src, n);
}
/* Shifts x right by one element through the void * helper. */
__attribute__((noinline)) void shift(double *x, int n) {
  move(x + 1, x, (n - 1) * sizeof *x);
}

double copies(const double *in, int n) {
  double *x = malloc(n * sizeof *x);
  copy(x, in, n * sizeof *x);
  for (int i = 0; i < n; i++)
    x[i] = sin(x[i]) * x[i];
  shift(x, n);
  x[0] = in[n - 1];
  double s = 0;
  for (int i = 0; i < n; i++)
    s += x[i] * (i + 1) * x[(i + 2) % n];
  free(x);
  return s;
}

typedef struct {
  double pos, vel;
} Particle;
__attribute__((noinline)) void copy_particles(Particle *dst,
                                              const Particle *src, int n) {
  copy(dst, src, n * sizeof *dst);
}

double particles(const double *in, int n) {
  Particle *a = malloc(n * sizeof *a), *b = malloc(n * sizeof *b);
  for (int i = 0; i < n; i++) {
    a[i].pos = in[i];
    a[i].vel = cos(in[i]);
  }
  for (int step = 0; step < 3; step++) {
    copy_particles(b, a, n);
    for (int i = 0; i < n; i++) {
      a[i].pos = b[i].pos + 0.1 * b[i].vel;
      a[i].vel = b[i].vel - 0.1 * b[(i + 1) % n].pos * b[i].pos;
    }
  }
  double s = 0;
  for (int i = 0; i < n; i++)
    s += a[i].pos * a[i].vel;
  free(a), free(b);
  return s;
}

#define NK 6
#define KERNEL(name)                                                           \
  static double e_##name(const double *p) {                                    \
    double *x = copy_of(p, NK);                                                \
    double r = name(x, NK);                                                    \
    free(x);                                                                   \
    return r;                                                                  \
  }                                                                            \
  static void g_##name(const double *p, double *g) {                           \
    double *x = copy_of(p, NK);                                                \
    __enzyme_autodiff((void *)name, enzyme_dup, x, g, enzyme_const, NK);       \
    free(x);                                                                   \
  }                                                                            \
  static double t_##name(const double *p, int j) {                             \
    double *x = copy_of(p, NK), *tx = unit_slice(j, 0, NK);                    \
    double t =                                                                 \
        __enzyme_fwddiff((void *)name, enzyme_dup, x, tx, enzyme_const, NK);   \
    free(x), free(tx);                                                         \
    return t;                                                                  \
  }
KERNEL(copies)
KERNEL(particles)

int main(void) {
  double p[NK];
  fill(p, NK, -1.0, 1.5, 12);
  compare("copies", NK, p, e_copies, g_copies, t_copies);
  compare("particles", NK, p, e_particles, g_particles, t_particles);
  double once[NK] = {0}, x[NK], d0[NK] = {0}, d1[NK] = {0};
  g_particles(p, once);
  memcpy(x, p, sizeof x);
  __enzyme_autodiff((void *)particles, enzyme_width, 2, enzyme_dup, x, d0, d1,
                    enzyme_const, NK);
  for (int j = 0; j < NK; j++) {
    check_close(LABEL("particles batch lane 0, d/dp[%d]", j), d0[j], once[j],
                1e-12);
    check_close(LABEL("particles batch lane 1, d/dp[%d]", j), d1[j], once[j],
                1e-12);
  }
  return check_report();
}
