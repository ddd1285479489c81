// Batched reverse mode (enzyme_width 2) on IR vectorised before the plugin
// ran returned wrong adjoints (fuzz seed 7024, found by the all-features campaign
// of 4 Dec 2026): the vectorisers leave lanes undefined (poison) that the
// primal does not care about; the reverse multiplied those lanes' zero
// adjoints by them, poison * 0 is poison, and once the batched sweep was
// scalarised and simplified the poison swallowed real adjoints. Scalar
// mode computed the same poison and was right by luck. Preparation now
// gives undefined lanes a value (PrimalPreparation.cpp,
// defineUndefinedLanes). Expected values are analytic (see below); the
// derivative is compiled for the baseline x86-64 (%any_x86_cpu).
// RUN: %plain_cc -O3 -ffast-math -w -I%S/../Integration/Inputs -S -emit-llvm %s -o %t.ll
// RUN: %opt -passes=tapestry %t.ll -S -o - | %any_x86_cpu > %t.d.ll
// RUN: %plain_cc -O0 %t.d.ll -lm -o %t && %t | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: ALL PASSED
/* Fuzz seed 7024: batched reverse mode (enzyme_width 2) returns garbage
 * (denormals, NaN, 4e149) for all three enzyme_out scalars and wrong
 * adjoints for a0[9], a0[10] under -ffast-math in the staged pipeline;
 * scalar __enzyme_autodiff is right. Hand-reduced from the generated
 * program (whose BREV lines were nan for x0, x1, ...).
 *
 *   clang-19 -O3 -ffast-math -w -I/work/main/test/Integration/Inputs \
 *     -S -emit-llvm batch-rev-fastmath-slp-seed7024.c -o p.ll
 *   opt-19 -load-pass-plugin=$P -passes=tapestry p.ll -o p.bc
 *   clang-19 -O0 p.bc -lm -o p && ./p
 *
 * At -O3 -ffast-math the SLP vectoriser turns the tail of f into
 *   %69 = shufflevector <2 x double> %68, poison, <1, poison>
 *   %70 = fmul fast <2 x double> %68, %69 ; extractelement %70, 0
 * (the same idiom as batch-rev-dispatch-vector-callee.c).
 *
 * f = -0.5 x0 x1 - 1.0625 prod_v (1 + (x2 + a0[v]) / 8)
 *     - 1.4375 - x0 sum_j (a0[5] a0[(3j+10)%12] + a1[(2j+2)%12])
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "check.h"
extern int enzyme_dup, enzyme_const, enzyme_out, enzyme_width;
struct V2 { double a, b; };
struct V3 { double x, y, z; };
struct DI { double d; int n; };

static __attribute__((noinline)) struct V2 h4(double p5, struct DI w0, struct V3 w1) {
  double t9 = 0.5;
  return (struct V2){w0.d * w1.x * t9, w1.y * w0.d + w1.z};
}
static __attribute__((noinline)) struct DI h5(struct V3 w2, double p6, double p7) {
  struct DI sv0 = {p7, 1};
  return (struct DI){h4(p7, sv0, w2).a, 3};
}
double f(double *a0, double *a1, int sel, int n, double x0, double x1, double x2) {
  double *c1 = malloc(12 * sizeof(double));
  for (int j = 0; j < 12; j++)
    c1[j] = x2 + a0[j];
  struct V3 sv2 = {x0, x1, x2};
  struct DI sv3 = h5(sv2, 0, x1);
  double r6 = 1.0625;
  for (int v = 0; v < 12; v++)
    r6 *= 1.0 + 0.125 * c1[v];
  double *g1 = malloc(12 * sizeof(double));
  for (int j = 0; j < 12; j++)
    g1[j] = h4(0.5, (struct DI){a0[(j * 3 + 10) % 12], 0},
               (struct V3){-2.25, a0[5], a1[(j * 2 + 2) % 12]}).b;
  double r7 = 1.4375;
  for (int v = 0; v < 12; v++)
    r7 += g1[v] * x0;
  free(c1);
  free(g1);
  return -sv3.d - r6 - r7;
}

typedef struct { double g0, g1, g2; } G;
G __enzyme_autodiff(void *, ...);
typedef struct { double g0[2]; double g1[2]; double g2[2]; } BR;
BR __enzyme_autodiff_batch(void *, ...);
static const double A0[12] = {1.765625, 1.328125, 1.703125, -0.890625, 0.640625, -0.484375, -1.546875, 1.78125, 1.46875, 1.84375, -1.421875, 1.859375};
static const double A1[12] = {1.734375, -1.984375, -1.53125, -0.453125, -1.21875, -1.90625, -0.234375, 0.578125, 1.71875, -0.984375, -0.46875, 0.078125};
/* f with argument k moved by h (k < 3: x0..x2, then a0[0..11], a1[0..11]) */
static double F(const double *x, int k, double h) {
  double a0[12], a1[12], y[3] = {x[0], x[1], x[2]};
  memcpy(a0, A0, sizeof a0);
  memcpy(a1, A1, sizeof a1);
  if (k < 3) y[k] += h; else if (k < 15) a0[k - 3] += h; else a1[k - 15] += h;
  return f(a0, a1, 3, 1, y[0], y[1], y[2]);
}
int main(void) {
  volatile double vx[3] = {0.359375, 1.234375, -0.65625};
  double x[3] = {vx[0], vx[1], vx[2]};
  /* analytic expected values for the scalars */
  double r6 = 1.0625, s = 0, sg = 0;
  for (int v = 0; v < 12; v++) r6 *= 1 + 0.125 * (x[2] + A0[v]);
  for (int v = 0; v < 12; v++) s += 0.125 / (1 + 0.125 * (x[2] + A0[v]));
  for (int j = 0; j < 12; j++) sg += A0[5] * A0[(j * 3 + 10) % 12] + A1[(j * 2 + 2) % 12];
  double want[27];
  want[0] = -0.5 * x[1] - sg;
  want[1] = -0.5 * x[0];
  want[2] = -r6 * s;
  /* arrays: central differences */
  for (int k = 3; k < 27; k++) want[k] = (F(x, k, 1e-6) - F(x, k, -1e-6)) / 2e-6;
  for (int k = 0; k < 3; k++) {
    double fd = (F(x, k, 1e-6) - F(x, k, -1e-6)) / 2e-6;
    check_close("analytic vs finite difference", want[k], fd, 1e-7);
  }
  double a0[12], a1[12], da0[12] = {0}, da1[12] = {0}, ea0[12] = {0}, ea1[12] = {0};
  memcpy(a0, A0, sizeof a0);
  memcpy(a1, A1, sizeof a1);
  G g = __enzyme_autodiff((void *)&f, enzyme_dup, a0, da0, enzyme_dup, a1, da1, 3,
                          enzyme_const, 1, enzyme_out, x[0], x[1], enzyme_out, x[2]);
  check_close("scalar dx0", g.g0, want[0], 1e-12);
  check_close("scalar dx1", g.g1, want[1], 1e-12);
  check_close("scalar dx2", g.g2, want[2], 1e-12);
  for (int k = 0; k < 12; k++) {
    check_close("scalar da0", da0[k], want[3 + k], 1e-7);
    check_close("scalar da1", da1[k], want[15 + k], 1e-7);
  }
  memcpy(a0, A0, sizeof a0);
  memcpy(a1, A1, sizeof a1);
  memset(da0, 0, sizeof da0);
  memset(da1, 0, sizeof da1);
  BR r = __enzyme_autodiff_batch((void *)&f, enzyme_width, 2, enzyme_dup, a0, da0, ea0,
                                 enzyme_dup, a1, da1, ea1, 3, enzyme_const, 1,
                                 enzyme_out, x[0], x[1], enzyme_out, x[2]);
  char w[64];
  for (int l = 0; l < 2; l++) {
    sprintf(w, "batch dx0 lane %d", l); check_close(w, r.g0[l], want[0], 1e-12);
    sprintf(w, "batch dx1 lane %d", l); check_close(w, r.g1[l], want[1], 1e-12);
    sprintf(w, "batch dx2 lane %d", l); check_close(w, r.g2[l], want[2], 1e-12);
  }
  for (int k = 0; k < 12; k++) {
    sprintf(w, "batch da0[%d] lane 0", k); check_close(w, da0[k], want[3 + k], 1e-7);
    sprintf(w, "batch da0[%d] lane 1", k); check_close(w, ea0[k], want[3 + k], 1e-7);
    sprintf(w, "batch da1[%d] lane 0", k); check_close(w, da1[k], want[15 + k], 1e-7);
    sprintf(w, "batch da1[%d] lane 1", k); check_close(w, ea1[k], want[15 + k], 1e-7);
  }
  return check_report();
}
