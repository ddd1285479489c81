// A controls user's program in Enzyme's split reverse mode with the tape in
// a buffer the caller owns: a damped pendulum advanced in place by the
// explicit midpoint rule, its state (theta, omega) overwritten every step.
// __enzyme_augmentsize gives the tape's size; __enzyme_augmentfwd and
// __enzyme_reverse get `enzyme_allocated, size, enzyme_tape, buf` after the
// arguments, as Enzyme's own tests write them (and once before them). The
// caller seeds the shadow of the final state with the gradient of a cost it
// computes itself between the two halves, and the reverse gives the
// gradient with respect to the initial state and the damping/length
// parameters. Expected: central finite differences of the whole
// simulate-then-cost pipeline, and the one-step Jacobian analytically.
// RUN: %clang -O0 %s -lm -o %t0 && %t0 | FileCheck %s
// RUN: %clang -O1 %s -lm -o %t1 && %t1 | FileCheck %s
// RUN: %clang -O2 %s -lm -o %t2 && %t2 | FileCheck %s
// RUN: %clang -O3 %s -lm -o %t3 && %t3 | FileCheck %s
// RUN: %clang_enzyme -O0 %s -S -emit-llvm -o - -mllvm -enzyme-inline=1 | lli - | FileCheck %s
// RUN: %clang_enzyme -O2 %s -S -emit-llvm -o - -mllvm -enzyme-inline=1 | lli - | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: ALL PASSED
#include "Inputs/check.h"
#include <stdlib.h>
#include <string.h>

extern int enzyme_dup, enzyme_const, enzyme_allocated, enzyme_tape;
void *__enzyme_augmentfwd(void *, ...);
void __enzyme_reverse(void *, ...);
unsigned long __enzyme_augmentsize(void *, ...);

#define STEPS 40

/* p[0] = g/L, p[1] = damping */
static void rhs(const double *s, const double *p, double *ds) {
  ds[0] = s[1];
  ds[1] = -p[0] * sin(s[0]) - p[1] * s[1];
}

void simulate(double *s, const double *p, double dt) {
  for (int n = 0; n < STEPS; n++) {
    double k[2], mid[2];
    rhs(s, p, k);
    mid[0] = s[0] + 0.5 * dt * k[0];
    mid[1] = s[1] + 0.5 * dt * k[1];
    rhs(mid, p, k);
    s[0] += dt * k[0];
    s[1] += dt * k[1];
  }
}

/* One explicit Euler step, whose Jacobian is checked analytically. */
void one_step(double *s, const double *p, double dt) {
  double k[2];
  rhs(s, p, k);
  s[0] += dt * k[0];
  s[1] += dt * k[1];
}

/* Cost of the final state: distance to upright-ish target, and energy. */
static double cost(const double *s, const double *p) {
  return (s[0] - 0.2) * (s[0] - 0.2) + 0.5 * s[1] * s[1] +
         p[0] * (1 - cos(s[0]));
}

static void dcost(const double *s, const double *p, double *ds,
                  double *dp) {
  ds[0] = 2 * (s[0] - 0.2) + p[0] * sin(s[0]);
  ds[1] = s[1];
  dp[0] = 1 - cos(s[0]);
  dp[1] = 0;
}

static double pipeline(const double *s0, const double *p, double dt) {
  double s[2] = {s0[0], s0[1]};
  simulate(s, p, dt);
  return cost(s, p);
}

int main(void) {
  const double s0[2] = {1.1, -0.3}, p0[2] = {9.81 / 1.5, 0.4};
  const double dt = 0.05;
  unsigned long size = __enzyme_augmentsize((void *)simulate, enzyme_dup,
                                            enzyme_dup, enzyme_const);
  printf("tape size %lu\n", size);
  char *buf = malloc(size);

  double s[2] = {s0[0], s0[1]}, p[2] = {p0[0], p0[1]};
  double ds[2] = {0, 0}, dp[2] = {0, 0};
  __enzyme_augmentfwd((void *)simulate, enzyme_dup, s, ds, enzyme_dup, p, dp,
                      enzyme_const, dt, enzyme_allocated, size, enzyme_tape,
                      buf);
  /* The caller computes the seed from the final state. */
  double dcp[2];
  dcost(s, p, ds, dcp);
  /* The caller scribbles over its state before the reverse. */
  s[0] = s[1] = 1e300;
  __enzyme_reverse((void *)simulate, enzyme_dup, s, ds, enzyme_dup, p, dp,
                   enzyme_const, dt, enzyme_allocated, size, enzyme_tape,
                   buf);
  dp[0] += dcp[0];
  dp[1] += dcp[1];

  const double h = 1e-6;
  for (int i = 0; i < 2; i++) {
    double a[2] = {s0[0], s0[1]}, b[2] = {s0[0], s0[1]};
    a[i] += h;
    b[i] -= h;
    double fd = (pipeline(a, p0, dt) - pipeline(b, p0, dt)) / (2 * h);
    char name[32];
    snprintf(name, sizeof name, "dcost/ds0[%d]", i);
    check_close(name, ds[i], fd, 1e-6);
  }
  for (int i = 0; i < 2; i++) {
    double a[2] = {p0[0], p0[1]}, b[2] = {p0[0], p0[1]};
    a[i] += h;
    b[i] -= h;
    double fd = (pipeline(s0, a, dt) - pipeline(s0, b, dt)) / (2 * h);
    char name[32];
    snprintf(name, sizeof name, "dcost/dp[%d]", i);
    check_close(name, dp[i], fd, 1e-6);
  }
  free(buf);

  /* One explicit Euler step, markers before the arguments; reversed with the
     unit seeds, the shadows are rows of the analytic Jacobian. */
  unsigned long size1 = __enzyme_augmentsize((void *)one_step, enzyme_dup,
                                             enzyme_dup, enzyme_const);
  for (int row = 0; row < 2; row++) {
    char *b1 = malloc(size1);
    double t[2] = {s0[0], s0[1]}, dt_[2] = {0, 0}, q[2] = {p0[0], p0[1]};
    double dq[2] = {0, 0};
    __enzyme_augmentfwd((void *)one_step, enzyme_allocated, size1,
                        enzyme_tape, b1, enzyme_dup, t, dt_, enzyme_dup, q,
                        dq, enzyme_const, dt);
    dt_[row] = 1;
    __enzyme_reverse((void *)one_step, enzyme_allocated, size1, enzyme_tape,
                     b1, enzyme_dup, t, dt_, enzyme_dup, q, dq, enzyme_const,
                     dt);
    double J[2][2] = {{1, dt},
                      {-dt * p0[0] * cos(s0[0]), 1 - dt * p0[1]}};
    double Jp[2][2] = {{0, 0}, {-dt * sin(s0[0]), -dt * s0[1]}};
    for (int col = 0; col < 2; col++) {
      char name[40];
      snprintf(name, sizeof name, "one step ds[%d]/ds0[%d]", row, col);
      check_close(name, dt_[col], J[row][col], 1e-14);
      snprintf(name, sizeof name, "one step ds[%d]/dp[%d]", row, col);
      check_close(name, dq[col], Jp[row][col], 1e-14);
    }
    free(b1);
  }
  return check_report();
}
