// An explicit heat-equation stencil that overwrites its array in place for
// 1000 time steps (n = 32) and then returns a loss, in reverse and forward
// mode against central finite differences: Dirichlet boundaries with an
// active diffusion number r (enzyme_out), a nonlinear reaction term, and a
// void version whose final state is the output (its shadow holds the seed on
// entry). The reverse call must also leave the primal's final state in u.
// RUN: %clang -O0 %s -lm -o %t0 && %t0 | FileCheck %s
// RUN: %clang -O1 %s -lm -o %t1 && %t1 | FileCheck %s
// RUN: %clang -O2 %s -lm -o %t2 && %t2 | FileCheck %s
// RUN: %clang -O3 %s -lm -o %t3 && %t3 | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: ALL PASSED
#include "Inputs/check.h"
#include <stdlib.h>
#include <string.h>

extern int enzyme_dup, enzyme_dupnoneed, enzyme_const, enzyme_out;
void __enzyme_autodiff(void *, ...);
double __enzyme_autodiff_d(void *, ...);
double __enzyme_fwddiff(void *, ...);
void __enzyme_fwddiff_v(void *, ...);

#include "Inputs/gradcheck.h"

#define NH 32
#define STEPS 1000

/* Evolve u in place: u_i <- u_i + r (u_{i-1} - 2 u_i + u_{i+1}), with the
   old left neighbour kept in a scalar; u_0 and u_{n-1} are fixed. */
double heat(double *u, int n, int steps, double r) {
  for (int t = 0; t < steps; t++) {
    double left = u[0];
    for (int i = 1; i < n - 1; i++) {
      double c = u[i];
      u[i] = c + r * (left - 2 * c + u[i + 1]);
      left = c;
    }
  }
  double loss = 0;
  for (int i = 0; i < n; i++)
    loss += (i + 1) * u[i] * u[i] / n;
  return loss;
}

/* Reaction-diffusion: u_i <- u_i + r Lap(u)_i + dt sin(u_i) */
double heat_reaction(double *u, int n, int steps, double r, double dt) {
  for (int t = 0; t < steps; t++) {
    double left = u[0];
    for (int i = 1; i < n - 1; i++) {
      double c = u[i];
      u[i] = c + r * (left - 2 * c + u[i + 1]) + dt * sin(c);
      left = c;
    }
  }
  double loss = 0;
  for (int i = 0; i < n; i++)
    loss += cos(u[i]) * (1 + 0.1 * i);
  return loss;
}

/* Periodic boundaries, evolving in place through a saved first value; the
   final state is the result. */
void heat_periodic(double *u, int n, int steps, double r) {
  for (int t = 0; t < steps; t++) {
    double first = u[0], left = u[n - 1];
    for (int i = 0; i < n; i++) {
      double c = u[i];
      double right = i + 1 < n ? u[i + 1] : first;
      u[i] = c + r * (left - 2 * c + right);
      left = c;
    }
  }
}

/* p = [u (NH), r] */
static double heat_eval(const double *p) {
  double *u = copy_of(p, NH);
  double res = heat(u, NH, STEPS, p[NH]);
  free(u);
  return res;
}
static void heat_grad(const double *p, double *g) {
  double *u = copy_of(p, NH), *up = copy_of(p, NH);
  g[NH] = __enzyme_autodiff_d((void *)heat, enzyme_dup, u, g, enzyme_const, NH,
                              enzyme_const, STEPS, enzyme_out, p[NH]);
  heat(up, NH, STEPS, p[NH]);
  for (int i = 0; i < NH; i++)
    check_close(LABEL("heat: reverse mode leaves the primal u[%d]", i), u[i],
                up[i], 1e-15);
  free(u), free(up);
}
static double heat_tangent(const double *p, int j) {
  double *u = copy_of(p, NH), *tu = unit_slice(j, 0, NH);
  double t = __enzyme_fwddiff((void *)heat, enzyme_dup, u, tu, enzyme_const, NH,
                              enzyme_const, STEPS, enzyme_dup, p[NH],
                              (double)(j == NH));
  free(u), free(tu);
  return t;
}

/* p = [u (NH), r, dt] */
static double hr_eval(const double *p) {
  double *u = copy_of(p, NH);
  double res = heat_reaction(u, NH, STEPS, p[NH], p[NH + 1]);
  free(u);
  return res;
}
typedef struct {
  double dr, ddt;
} D2;
D2 __enzyme_autodiff_2(void *, ...);
static void hr_grad(const double *p, double *g) {
  double *u = copy_of(p, NH);
  D2 d = __enzyme_autodiff_2((void *)heat_reaction, enzyme_dup, u, g,
                             enzyme_const, NH, enzyme_const, STEPS, enzyme_out,
                             p[NH], enzyme_out, p[NH + 1]);
  g[NH] = d.dr;
  g[NH + 1] = d.ddt;
  free(u);
}
static double hr_tangent(const double *p, int j) {
  double *u = copy_of(p, NH), *tu = unit_slice(j, 0, NH);
  double t = __enzyme_fwddiff((void *)heat_reaction, enzyme_dup, u, tu,
                              enzyme_const, NH, enzyme_const, STEPS, enzyme_dup,
                              p[NH], (double)(j == NH), enzyme_dup, p[NH + 1],
                              (double)(j == NH + 1));
  free(u), free(tu);
  return t;
}

static double seed[NH];
static double seed_dot(const double *u) {
  double s = 0;
  for (int i = 0; i < NH; i++)
    s += seed[i] * u[i];
  return s;
}
/* p = [u (NH), r]; the scalar is seed . u_final */
static double hp_eval(const double *p) {
  double *u = copy_of(p, NH);
  heat_periodic(u, NH, STEPS, p[NH]);
  double res = seed_dot(u);
  free(u);
  return res;
}
static void hp_grad(const double *p, double *g) {
  double *u = copy_of(p, NH);
  memcpy(g, seed, sizeof seed); /* du holds the seed of u's final state */
  g[NH] =
      __enzyme_autodiff_d((void *)heat_periodic, enzyme_dup, u, g, enzyme_const,
                          NH, enzyme_const, STEPS, enzyme_out, p[NH]);
  free(u);
}
static double hp_tangent(const double *p, int j) {
  double *u = copy_of(p, NH), *tu = unit_slice(j, 0, NH);
  __enzyme_fwddiff_v((void *)heat_periodic, enzyme_dup, u, tu, enzyme_const, NH,
                     enzyme_const, STEPS, enzyme_dup, p[NH], (double)(j == NH));
  double t = seed_dot(tu);
  free(u), free(tu);
  return t;
}

int main(void) {
  double p[NH + 2];
  fill(p, NH, -1.0, 1.0, 7);
  p[NH] = 0.25;
  compare("heat", NH + 1, p, heat_eval, heat_grad, heat_tangent);
  p[NH] = 0.2;
  p[NH + 1] = 0.001;
  compare("heat_reaction", NH + 2, p, hr_eval, hr_grad, hr_tangent);
  fill(seed, NH, -1.0, 2.0, 8);
  p[NH] = 0.3;
  compare("heat_periodic (seeded final state)", NH + 1, p, hp_eval, hp_grad,
          hp_tangent);
  return check_report();
}
