// A cloth/mesh simulation user's program in C: the Hessian of the energy of
// a closed ring of 2-D springs, E = sum_i (|p_{i+1} - p_i| - L)^2, computed
// column by column as forward over reverse, with Enzyme's sparse idiom:
// __enzyme_todense turns the seed into a load function (the column of the
// identity, never stored to) and the gradient's tangent into a store
// function that drops zeros and appends (row, col, value) triplets to a
// list; the gradient's primal is enzyme_dupnoneed with a scratch array
// (Enzyme's sparse tests pass (double *)0x1 there, which works too:
// strangers-dupnoneed-0x1-gradient-primal.c).
// Expected: the Hessian assembled from the analytic 2x2 blocks of each
// spring, 2 [u u^T + (l - L)/l (I - u u^T)] with u the unit direction
// (the triplets are contributions, summed per entry: the load function
// reads 0, so each store of the gradient's tangent is one increment).
// RUN: %clang -O0 %s -lm -o %t0 && %t0 | FileCheck %s
// RUN: %clang -O1 %s -lm -o %t1 && %t1 | FileCheck %s
// RUN: %clang -O2 %s -lm -o %t2 && %t2 | FileCheck %s
// RUN: %clang -O3 %s -lm -o %t3 && %t3 | FileCheck %s
// RUN: %clang_enzyme -O2 %s -S -emit-llvm -o - | lli - | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: ALL PASSED
#include "Inputs/check.h"
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

extern int enzyme_dup, enzyme_const, enzyme_dupnoneed;
void __enzyme_autodiff(void *, ...);
void __enzyme_fwddiff(void *, ...);
double *__enzyme_todense(void *, ...);

#define NODES 6
#define DOF (2 * NODES)

typedef struct {
  int row[DOF * DOF], col[DOF * DOF];
  double val[DOF * DOF];
  int count;
} Triplets;

double ring_energy(const double *p, double rest, int n) {
  double e = 0;
  for (int i = 0; i < n; i++) {
    int j = (i + 1) % n;
    double dx = p[2 * j] - p[2 * i], dy = p[2 * j + 1] - p[2 * i + 1];
    double l = sqrt(dx * dx + dy * dy) - rest;
    e += l * l;
  }
  return e;
}

void ring_gradient(const double *p, double *g, double rest, int n) {
  __enzyme_autodiff((void *)ring_energy, enzyme_dup, p, g, enzyme_const, rest,
                    enzyme_const, n);
}

/* Seed: column `col` of the identity, read by byte offset. */
double seed_load(int64_t offset, int col) {
  return offset / (int64_t)sizeof(double) == col ? 1.0 : 0.0;
}
void seed_store(double v, int64_t offset, int col) { abort(); }

double tangent_load(int64_t offset, int col, Triplets *t) { return 0.0; }
void tangent_store(double v, int64_t offset, int col, Triplets *t) {
  if (v == 0.0)
    return;
  t->row[t->count] = (int)(offset / (int64_t)sizeof(double));
  t->col[t->count] = col;
  t->val[t->count] = v;
  t->count++;
}

static void hessian(const double *p, double rest, Triplets *t) {
  double scratch[DOF];
  t->count = 0;
  for (int col = 0; col < DOF; col++) {
    memset(scratch, 0, sizeof scratch);
    double *dp = __enzyme_todense((void *)seed_load, (void *)seed_store, col);
    double *dg = __enzyme_todense((void *)tangent_load, (void *)tangent_store,
                                  col, t);
    __enzyme_fwddiff((void *)ring_gradient, enzyme_dup, p, dp,
                     enzyme_dupnoneed, scratch, dg, enzyme_const, rest,
                     enzyme_const, NODES);
  }
}

int main(void) {
  double p[DOF];
  for (int i = 0; i < NODES; i++) {
    double a = 2 * M_PI * i / NODES;
    p[2 * i] = (1 + 0.15 * sin(3 * a)) * cos(a);
    p[2 * i + 1] = (1 + 0.1 * cos(2 * a)) * sin(a);
  }
  const double rest = 0.8;
  static Triplets t;
  hessian(p, rest, &t);

  double H[DOF][DOF] = {{0}};
  for (int i = 0; i < NODES; i++) {
    int j = (i + 1) % NODES;
    double d[2] = {p[2 * j] - p[2 * i], p[2 * j + 1] - p[2 * i + 1]};
    double l = hypot(d[0], d[1]), u[2] = {d[0] / l, d[1] / l};
    double B[2][2];
    for (int a = 0; a < 2; a++)
      for (int b = 0; b < 2; b++)
        B[a][b] = 2 * (u[a] * u[b] + (l - rest) / l * ((a == b) - u[a] * u[b]));
    for (int a = 0; a < 2; a++)
      for (int b = 0; b < 2; b++) {
        H[2 * i + a][2 * i + b] += B[a][b];
        H[2 * j + a][2 * j + b] += B[a][b];
        H[2 * i + a][2 * j + b] -= B[a][b];
        H[2 * j + a][2 * i + b] -= B[a][b];
      }
  }
  int nonzero = 0;
  for (int r = 0; r < DOF; r++)
    for (int c = 0; c < DOF; c++)
      nonzero += H[r][c] != 0;

  double got[DOF][DOF] = {{0}};
  for (int k = 0; k < t.count; k++)
    got[t.row[k]][t.col[k]] += t.val[k];
  check_close("at least one triplet per nonzero", t.count >= nonzero, 1, 0);
  for (int r = 0; r < DOF; r++)
    for (int c = 0; c < DOF; c++) {
      char name[32];
      snprintf(name, sizeof name, "H[%d][%d]", r, c);
      check_close(name, got[r][c], H[r][c], 1e-12);
    }
  return check_report();
}
