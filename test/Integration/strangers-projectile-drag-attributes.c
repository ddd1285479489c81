// A ballistics user's program: a projectile with quadratic air drag is
// integrated with explicit Euler in a while loop that runs until it falls
// below the ground (a data-dependent trip count), and the range is the
// linear interpolation of the ground crossing between the last two steps.
// Diagnostics go through a logger marked __attribute__((enzyme_inactive)),
// which records each step's height, a double, into a trajectory buffer and
// a step counter that are globals marked enzyme_inactive too. The gradient
// of the range with respect to the launch angle, speed and drag
// coefficient (reverse mode) and its directional derivative (forward mode)
// are checked against central finite differences (the program checks that
// the perturbed runs take the same number of steps), and the trajectory
// buffer against a plain run.
// Built as Enzyme's users build it: -fpass-plugin plus -Xclang -load, with
// and without -mllvm -enzyme-inline=1, and as Tapestry's docs do (-fplugin).
// RUN: %clang_enzyme -O0 %s -lm -o %t0 && %t0 | FileCheck %s
// RUN: %clang_enzyme -O1 %s -lm -o %t1 && %t1 | FileCheck %s
// RUN: %clang_enzyme -O2 %s -lm -o %t2 && %t2 | FileCheck %s
// RUN: %clang_enzyme -O3 %s -lm -o %t3 && %t3 | FileCheck %s
// RUN: %clang_enzyme -O0 -mllvm -enzyme-inline=1 %s -lm -o %t4 && %t4 | FileCheck %s
// RUN: %clang_fplugin -O2 -mllvm -enzyme-inline=1 %s -lm -o %t5 && %t5 | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: ALL PASSED
#include "Inputs/check.h"
#include <string.h>

extern int enzyme_out, enzyme_const;
typedef struct {
  double dangle, dspeed, dcd;
} RangeGrad;
RangeGrad __enzyme_autodiff(void *, ...);
double __enzyme_fwddiff(void *, ...);

#define MAXSTEPS 4000
__attribute__((enzyme_inactive)) double trajectory[MAXSTEPS];
__attribute__((enzyme_inactive)) int logged_steps;

__attribute__((enzyme_inactive, noinline)) void log_step(int k, double y) {
  if (k < MAXSTEPS)
    trajectory[k] = y;
  logged_steps = k + 1;
}

double range(double angle, double speed, double cd) {
  const double g = 9.81, dt = 1e-3;
  double x = 0, y = 0;
  double vx = speed * cos(angle), vy = speed * sin(angle);
  double px = 0, py = 0;
  int k = 0;
  while (y >= 0 || k == 0) {
    px = x;
    py = y;
    double v = sqrt(vx * vx + vy * vy);
    double ax = -cd * v * vx;
    double ay = -g - cd * v * vy;
    x += dt * vx;
    y += dt * vy;
    vx += dt * ax;
    vy += dt * ay;
    log_step(k, y);
    k++;
  }
  /* Ground crossing between (px, py) and (x, y). */
  return px + (x - px) * py / (py - y);
}

int main(void) {
  const double angle = 0.7, speed = 30, cd = 0.02;
  double R = range(angle, speed, cd);
  int steps = logged_steps;
  double saved[MAXSTEPS];
  memcpy(saved, trajectory, sizeof saved);
  printf("range %g after %d steps\n", R, steps);

  RangeGrad g = __enzyme_autodiff((void *)range, enzyme_out, angle,
                                  enzyme_out, speed, enzyme_out, cd);
  check_close("log steps same in the derivative", logged_steps, steps, 0);
  int same = memcmp(saved, trajectory, steps * sizeof(double)) == 0;
  check_close("trajectory logged as in the plain run", same, 1, 0);

  const double h = 1e-6;
  double fd[3];
  int stepcount[6];
  double p[3] = {angle, speed, cd};
  for (int i = 0; i < 3; i++) {
    double a[3] = {p[0], p[1], p[2]}, b[3] = {p[0], p[1], p[2]};
    a[i] += h * (1 + fabs(p[i]));
    b[i] -= h * (1 + fabs(p[i]));
    double ra = range(a[0], a[1], a[2]);
    stepcount[2 * i] = logged_steps;
    double rb = range(b[0], b[1], b[2]);
    stepcount[2 * i + 1] = logged_steps;
    fd[i] = (ra - rb) / (2 * h * (1 + fabs(p[i])));
  }
  for (int i = 0; i < 6; i++)
    check_close("perturbed run takes the same steps", stepcount[i], steps, 0);
  check_close("dR/dangle", g.dangle, fd[0], 1e-6);
  check_close("dR/dspeed", g.dspeed, fd[1], 1e-6);
  check_close("dR/dcd", g.dcd, fd[2], 1e-6);

  /* Directional derivative along (1, 2, -3). */
  double dir = __enzyme_fwddiff((void *)range, angle, 1.0, speed, 2.0, cd,
                                -3.0);
  check_close("forward directional", dir,
              g.dangle + 2 * g.dspeed - 3 * g.dcd, 1e-10);
  return check_report();
}
