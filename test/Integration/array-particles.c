// A struct-of-arrays particle update (struct { double *x, *v; int n; } passed
// by pointer, with a shadow struct whose pointers point to shadow arrays)
// over several time steps that overwrite the arrays in place, and the same
// system as an array of structs { x, v, m }, in reverse and forward mode
// against central finite differences; the time step is an active scalar.
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

typedef struct {
  double *x, *v;
  int n;
} Particles;

/* Symplectic Euler for a chain of anharmonic oscillators with neighbour
   springs; returns the final energy plus a position-dependent term. */
double simulate(Particles *p, double dt, int steps) {
  int n = p->n;
  for (int t = 0; t < steps; t++) {
    for (int i = 0; i < n; i++) {
      double xi = p->x[i];
      double f = -xi - 0.1 * xi * xi * xi;
      if (i > 0)
        f += 0.5 * (p->x[i - 1] - xi);
      if (i + 1 < n)
        f += 0.5 * (p->x[i + 1] - xi);
      p->v[i] += dt * f;
    }
    for (int i = 0; i < n; i++)
      p->x[i] += dt * p->v[i];
  }
  double e = 0;
  for (int i = 0; i < n; i++)
    e += 0.5 * p->v[i] * p->v[i] + 0.5 * p->x[i] * p->x[i] + sin(p->x[i]);
  return e;
}

typedef struct {
  double x, v, m;
} Particle;

/* Array of structs with masses and a drag force. */
double simulate_aos(Particle *ps, int n, double dt, int steps) {
  for (int t = 0; t < steps; t++) {
    for (int i = 0; i < n; i++) {
      Particle *q = &ps[i];
      double f = -q->x - 0.2 * q->v * fabs(q->v);
      q->v += dt * f / q->m;
    }
    for (int i = 0; i < n; i++)
      ps[i].x += dt * ps[i].v;
  }
  double e = 0;
  for (int i = 0; i < n; i++)
    e += 0.5 * ps[i].m * ps[i].v * ps[i].v + cos(ps[i].x);
  return e;
}

#define NP 6
#define STEPS 20

/* p = [x (NP), v (NP), dt] */
static double sim_eval(const double *p) {
  Particles s = {copy_of(p, NP), copy_of(p + NP, NP), NP};
  double r = simulate(&s, p[2 * NP], STEPS);
  free(s.x), free(s.v);
  return r;
}
static void sim_grad(const double *p, double *g) {
  Particles s = {copy_of(p, NP), copy_of(p + NP, NP), NP};
  Particles ds = {g, g + NP, NP};
  g[2 * NP] = __enzyme_autodiff_d((void *)simulate, enzyme_dup, &s, &ds,
                                  enzyme_out, p[2 * NP], enzyme_const, STEPS);
  /* The reverse call leaves the primal's final state. */
  Particles r = {copy_of(p, NP), copy_of(p + NP, NP), NP};
  simulate(&r, p[2 * NP], STEPS);
  for (int i = 0; i < NP; i++) {
    check_close(LABEL("simulate: reverse mode leaves the primal x[%d]", i),
                s.x[i], r.x[i], 1e-15);
    check_close(LABEL("simulate: reverse mode leaves the primal v[%d]", i),
                s.v[i], r.v[i], 1e-15);
  }
  free(s.x), free(s.v), free(r.x), free(r.v);
}
static double sim_tangent(const double *p, int j) {
  Particles s = {copy_of(p, NP), copy_of(p + NP, NP), NP};
  Particles ts = {unit_slice(j, 0, NP), unit_slice(j, NP, NP), NP};
  double t =
      __enzyme_fwddiff((void *)simulate, enzyme_dup, &s, &ts, enzyme_dup,
                       p[2 * NP], (double)(j == 2 * NP), enzyme_const, STEPS);
  free(s.x), free(s.v), free(ts.x), free(ts.v);
  return t;
}

/* p = [x_0, v_0, m_0, x_1, ..., dt] */
static Particle *aos_of(const double *p) {
  Particle *ps = malloc(NP * sizeof *ps);
  for (int i = 0; i < NP; i++)
    ps[i] = (Particle){p[3 * i], p[3 * i + 1], p[3 * i + 2]};
  return ps;
}
static double aos_eval(const double *p) {
  Particle *ps = aos_of(p);
  double r = simulate_aos(ps, NP, p[3 * NP], STEPS);
  free(ps);
  return r;
}
static void aos_grad(const double *p, double *g) {
  Particle *ps = aos_of(p), *dps = calloc(NP, sizeof *dps);
  g[3 * NP] = __enzyme_autodiff_d((void *)simulate_aos, enzyme_dup, ps, dps,
                                  enzyme_const, NP, enzyme_out, p[3 * NP],
                                  enzyme_const, STEPS);
  for (int i = 0; i < NP; i++) {
    g[3 * i] = dps[i].x;
    g[3 * i + 1] = dps[i].v;
    g[3 * i + 2] = dps[i].m;
  }
  free(ps), free(dps);
}
static double aos_tangent(const double *p, int j) {
  double *e = unit_slice(j, 0, 3 * NP);
  Particle *ps = aos_of(p), *tps = aos_of(e);
  double t = __enzyme_fwddiff((void *)simulate_aos, enzyme_dup, ps, tps,
                              enzyme_const, NP, enzyme_dup, p[3 * NP],
                              (double)(j == 3 * NP), enzyme_const, STEPS);
  free(e), free(ps), free(tps);
  return t;
}

int main(void) {
  double p[3 * NP + 1];
  fill(p, 2 * NP, -1.0, 1.0, 13);
  p[2 * NP] = 0.05;
  compare("simulate (struct of arrays)", 2 * NP + 1, p, sim_eval, sim_grad,
          sim_tangent);
  fill(p, 3 * NP, -1.0, 1.0, 14);
  for (int i = 0; i < NP; i++)
    p[3 * i + 2] = 1.5 + 0.5 * p[3 * i + 2]; /* masses in [1, 2] */
  p[3 * NP] = 0.05;
  compare("simulate_aos (array of structs)", 3 * NP + 1, p, aos_eval, aos_grad,
          aos_tangent);
  return check_report();
}
