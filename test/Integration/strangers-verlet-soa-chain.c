// A physics user's program: a chain of NM masses joined by linear springs
// (the first mass tied to a wall), the state kept as a struct of arrays
// (separate position, velocity, force and mass arrays behind pointers),
// integrated with velocity Verlet for a fixed number of steps. The loss is
// the final total energy plus the final position of the last mass.
// Gradient with respect to the initial positions, the masses and the
// spring constants (enzyme_dup on the struct's arrays through a shadow
// struct). Expected: central finite differences of the same simulation.
// RUN: %clang -O0 %s -lm -o %t0 && %t0 | FileCheck %s
// RUN: %clang -O1 %s -lm -o %t1 && %t1 | FileCheck %s
// RUN: %clang -O2 %s -lm -o %t2 && %t2 | FileCheck %s
// RUN: %clang -O3 %s -lm -o %t3 && %t3 | FileCheck %s
// RUN: %clang -O3 -march=native -ffast-math %s -lm -o %tf && %tf | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: ALL PASSED
#include "Inputs/check.h"
#include <stdlib.h>
#include <string.h>

extern int enzyme_dup, enzyme_const;
extern void __enzyme_autodiff(void *, ...);

#define NM 5
#define STEPS 40

typedef struct {
  int n;
  double *x, *v, *f;
  const double *m, *k; /* masses; k[i] joins mass i-1 (or the wall) to i */
  double rest;
} chain;

static void forces(chain *c) {
  for (int i = 0; i < c->n; ++i)
    c->f[i] = 0.0;
  for (int i = 0; i < c->n; ++i) {
    double left = i == 0 ? 0.0 : c->x[i - 1];
    double stretch = c->x[i] - left - c->rest;
    double fs = c->k[i] * stretch;
    c->f[i] -= fs;
    if (i > 0)
      c->f[i - 1] += fs;
  }
}

static double energy(const chain *c) {
  double e = 0.0;
  for (int i = 0; i < c->n; ++i) {
    double left = i == 0 ? 0.0 : c->x[i - 1];
    double s = c->x[i] - left - c->rest;
    e += 0.5 * c->m[i] * c->v[i] * c->v[i] + 0.5 * c->k[i] * s * s;
  }
  return e;
}

static void verlet(chain *c, double dt, int steps) {
  forces(c);
  for (int s = 0; s < steps; ++s) {
    for (int i = 0; i < c->n; ++i) {
      c->v[i] += 0.5 * dt * c->f[i] / c->m[i];
      c->x[i] += dt * c->v[i];
    }
    forces(c);
    for (int i = 0; i < c->n; ++i)
      c->v[i] += 0.5 * dt * c->f[i] / c->m[i];
  }
}

double simulate(const double *x0, const double *m, const double *k,
                double dt) {
  chain c;
  c.n = NM;
  c.x = malloc(NM * sizeof(double));
  c.v = malloc(NM * sizeof(double));
  c.f = malloc(NM * sizeof(double));
  c.m = m;
  c.k = k;
  c.rest = 1.0;
  memcpy(c.x, x0, NM * sizeof(double));
  for (int i = 0; i < NM; ++i)
    c.v[i] = 0.0;
  verlet(&c, dt, STEPS);
  double out = energy(&c) + c.x[NM - 1];
  free(c.x);
  free(c.v);
  free(c.f);
  return out;
}

int main(void) {
  double x0[NM], m[NM], k[NM];
  double dx0[NM] = {0}, dm[NM] = {0}, dk[NM] = {0};
  for (int i = 0; i < NM; ++i) {
    x0[i] = (i + 1) * 1.0 + 0.12 * sin(2.0 * i + 0.5);
    m[i] = 1.0 + 0.3 * i;
    k[i] = 4.0 - 0.4 * i;
  }
  const double dt = 0.05;
  __enzyme_autodiff((void *)simulate, enzyme_dup, x0, dx0, enzyme_dup, m, dm,
                    enzyme_dup, k, dk, enzyme_const, dt);
  const double h = 1e-6, tol = 1e-7;
  double *arrs[3] = {x0, m, k}, *grads[3] = {dx0, dm, dk};
  const char *names[3] = {"dL/dx0", "dL/dm", "dL/dk"};
  for (int a = 0; a < 3; ++a)
    for (int i = 0; i < NM; ++i) {
      double save = arrs[a][i];
      arrs[a][i] = save + h;
      double lp = simulate(x0, m, k, dt);
      arrs[a][i] = save - h;
      double lm = simulate(x0, m, k, dt);
      arrs[a][i] = save;
      check_close(names[a], grads[a][i], (lp - lm) / (2 * h), tol);
    }
  return check_report();
}
