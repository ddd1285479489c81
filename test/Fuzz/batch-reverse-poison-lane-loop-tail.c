// Batched reverse mode (enzyme_width 2) on IR vectorised before the plugin
// ran returned wrong adjoints (fuzz seed 7399, found by the all-features campaign
// of 4 Dec 2026): the vectorisers leave lanes undefined (poison) that the
// primal does not care about; the reverse multiplied those lanes' zero
// adjoints by them, poison * 0 is poison, and once the batched sweep was
// scalarised and simplified the poison swallowed real adjoints. Scalar
// mode computed the same poison and was right by luck. Preparation now
// gives undefined lanes a value (PrimalPreparation.cpp,
// defineUndefinedLanes). Expected values are analytic (see below); the
// derivative is compiled for the baseline x86-64 (%any_x86_cpu).
// RUN: %plain_cc -O3 -march=x86-64-v3 -ffast-math -w -I%S/../Integration/Inputs -S -emit-llvm %s -o %t.ll
// RUN: %opt -passes=tapestry %t.ll -S -o - | %any_x86_cpu > %t.d.ll
// RUN: %plain_cc -O0 %t.d.ll -lm -o %t && %t | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: ALL PASSED
/* Fuzz seed 7399: batched reverse mode (enzyme_width 2) gets the adjoints
 * of a0[] wrong (0 for most elements) for a loop the loop vectoriser turns
 * into masked loads (-O3 -march=x86-64-v3 or native, -ffast-math, staged pipeline);
 * scalar __enzyme_autodiff is right. Hand-reduced from the generated
 * program (BREV a0[1]: batched 0, scalar 0.000254...).
 *
 *   clang-19 -O3 -march=x86-64-v3 -ffast-math -w \
 *     -I/work/main/test/Integration/Inputs -S -emit-llvm \
 *     batch-rev-masked-load-seed7399.c -o p.ll
 *   opt-19 -load-pass-plugin=$P -passes=tapestry p.ll -o p.bc
 *   clang-19 -O0 p.bc -lm -o p && ./p
 *
 * The r1 loop becomes <4 x double> code (masked loads for the select's
 * sides) whose last element (v = 12) is done in lane 0 of a vector with
 * the other lanes poison:
 *   %151 = fmul fast <4 x double> %146, <double 0x3F5C.., poison, poison, poison>
 *   %153 = fadd fast <4 x double> %152, <double 1.0, poison, poison, poison>
 *   %154 = fmul fast <4 x double> %153, %125   ; %125: running products
 *   %155 = shufflevector %154, %125, <0, 5, 6, 7>
 * The reverse of %154 multiplies the zero adjoint of lanes 1-3 by %153's
 * poison lanes; in the batched reverse (Scalarizer + InstCombine) that
 * poison wipes lanes 1-3 of the running product's adjoint: only a0[0],
 * a0[4], a0[8] (lane 0 of each vector) and a0[12] stay right.
 * -fno-vectorize passes; so does the same IR with those two constants'
 * poison lanes set to 0.0 (a refinement of the primal).
 *
 * r1 = 0.75 prod_v phi(u_v), phi(u) = 1 + 0.109375 u / sqrt(1 + u^2),
 * u_v = (cond_v ? c1[v] : x1 - c1[12-v] - cos x1) / 64, c1 = 2 a0,
 * cond_v = |g0[12-v]| >= a0[12-v] + x1 with g0[] = 1.875.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "check.h"
extern int enzyme_const, enzyme_out, enzyme_width;

double f(int m, double x0, int sel, double x1, double *a0, int n) {
  double s0 = cos(x1);
  double *g0 = malloc(13 * sizeof(double));
  for (int j0 = 0; j0 < m; j0++)
    g0[j0] = 1.875;
  double *c1 = malloc(13 * sizeof(double));
  for (int j1 = 0; j1 < 13; j1++)
    c1[j1] = 2.0 * a0[j1];
  double r1 = 0.75;
  for (int v0 = 0; v0 < 13; v0++) {
    double u = ((fabs(g0[12 - v0]) >= a0[12 - v0] + x1) ? c1[v0]
                                                        : (x1 - (c1[12 - v0] + s0))) *
               0.015625;
    r1 *= 1.0 + 0.125 * (0.875 * (u / sqrt(1.0 + u * u)));
  }
  free(g0);
  free(c1);
  return r1;
}

typedef struct { double g0, g1; } G;
G __enzyme_autodiff(void *, ...);
typedef struct { double g0[2]; double g1[2]; } BR;
BR __enzyme_autodiff_batch(void *, ...);
static const double A0[13] = {1.765625, -0.96875, -1.71875, 0.046875, 0.03125, -0.984375, 0.078125, -0.296875, -0.484375, 0.234375, -1.59375, 0.453125, 0.71875};

int main(void) {
  volatile double vx[2] = {-0.953125, 1.078125};
  double x0 = vx[0], x1 = vx[1];
  /* analytic gradient: d r1 = r1 sum_v phi'(u_v) / phi(u_v) du_v */
  double u[13], r1 = 0.75, want_x1 = 0, want_a0[13] = {0};
  int cond[13];
  for (int v = 0; v < 13; v++) {
    cond[v] = 1.875 >= A0[12 - v] + x1;
    u[v] = (cond[v] ? 2 * A0[v] : x1 - 2 * A0[12 - v] - cos(x1)) / 64;
    r1 *= 1 + 0.109375 * u[v] / sqrt(1 + u[v] * u[v]);
  }
  for (int v = 0; v < 13; v++) {
    double phi = 1 + 0.109375 * u[v] / sqrt(1 + u[v] * u[v]);
    double w = r1 * 0.109375 / pow(1 + u[v] * u[v], 1.5) / phi;
    if (cond[v])
      want_a0[v] += w * 2 / 64;
    else {
      want_a0[12 - v] -= w * 2 / 64;
      want_x1 += w * (1 + sin(x1)) / 64;
    }
  }
  double a0[13], da0[13] = {0}, ea0[13] = {0};
  memcpy(a0, A0, sizeof a0);
  check_close("primal", f(13, x0, 2, x1, a0, 3), r1, 1e-14);
  /* the analytic gradient against a central difference */
  for (int k = 0; k < 13; k++) {
    double ap[13], am[13];
    memcpy(ap, A0, sizeof ap);
    memcpy(am, A0, sizeof am);
    ap[k] += 1e-6;
    am[k] -= 1e-6;
    check_close("analytic da0 vs finite difference", want_a0[k],
                (f(13, x0, 2, x1, ap, 3) - f(13, x0, 2, x1, am, 3)) / 2e-6, 1e-8);
  }
  G s = __enzyme_autodiff((void *)&f, enzyme_const, 13, x0, enzyme_const, 2,
                          enzyme_out, x1, a0, da0, enzyme_const, 3);
  check_close("scalar dx0", s.g0, 0, 1e-12);
  check_close("scalar dx1", s.g1, want_x1, 1e-12);
  char w[64];
  for (int k = 0; k < 13; k++) {
    sprintf(w, "scalar da0[%d]", k);
    check_close(w, da0[k], want_a0[k], 1e-12);
  }
  memcpy(a0, A0, sizeof a0);
  memset(da0, 0, sizeof da0);
  BR r = __enzyme_autodiff_batch((void *)&f, enzyme_width, 2, enzyme_const, 13, x0,
                                 enzyme_const, 2, enzyme_out, x1, a0, da0, ea0,
                                 enzyme_const, 3);
  for (int l = 0; l < 2; l++) {
    sprintf(w, "batch dx0 lane %d", l); check_close(w, r.g0[l], 0, 1e-12);
    sprintf(w, "batch dx1 lane %d", l); check_close(w, r.g1[l], want_x1, 1e-12);
  }
  for (int k = 0; k < 13; k++) {
    sprintf(w, "batch da0[%d] lane 0", k); check_close(w, da0[k], want_a0[k], 1e-12);
    sprintf(w, "batch da0[%d] lane 1", k); check_close(w, ea0[k], want_a0[k], 1e-12);
  }
  return check_report();
}
