// Batched reverse mode (enzyme_width 2) on IR vectorised before the plugin
// ran returned wrong adjoints (fuzz seed 7075 (7256 and 7319 alike), found by the all-features campaign
// of 4 Dec 2026): the vectorisers leave lanes undefined (poison) that the
// primal does not care about; the reverse multiplied those lanes' zero
// adjoints by them, poison * 0 is poison, and once the batched sweep was
// scalarised and simplified the poison swallowed real adjoints. Scalar
// mode computed the same poison and was right by luck. Preparation now
// gives undefined lanes a value (PrimalPreparation.cpp,
// defineUndefinedLanes). Expected values are analytic (see below); the
// derivative is compiled for the baseline x86-64 (%any_x86_cpu).
// RUN: %plain_cc -O3 -w -I%S/../Integration/Inputs -S -emit-llvm %s -o %t.ll
// RUN: %opt -passes=tapestry %t.ll -S -o - | %any_x86_cpu > %t.d.ll
// RUN: %plain_cc -O0 %t.d.ll -lm -o %t && %t | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: ALL PASSED
/* Fuzz seeds 7075 (and probably 7024): batched reverse mode (enzyme_width 2)
 * loses the adjoint of x1 when f's loop calls through a constant table of
 * helpers and one helper (h2) contains SLP-vectorised <2 x double> code.
 * Scalar __enzyme_autodiff is right; only the staged pipeline shows it
 * (clang -O3 -S -emit-llvm, then opt -passes=tapestry, then link):
 *
 *   clang-19 -O3 -march=native -w -I/work/main/test/Integration/Inputs \
 *     -S -emit-llvm batch-rev-dispatch-vector-callee.c -o p.ll
 *   opt-19 -load-pass-plugin=$P -passes=tapestry p.ll -o p.bc
 *   clang-19 -O0 p.bc -lm -o p && ./p
 *
 * (-march=native is not needed.) Direct -fpass-plugin at -O1..-O3 passes.
 * With plugin ff1feca: batch dx1 = -1 in both lanes (want 0.685171710546543):
 * the width-2 reverse f.tapestry.rev_aad_ra_w2 returns
 * { poison, {-seed0, -seed1} }: field 0 (x1's adjoint) is never inserted.
 *
 * Why: h2 (inlined into the dispatch) has the SLP idiom
 *   %7 = shufflevector <2 x double> %6, poison, <1, poison>
 *   %8 = fmul <2 x double> %6, %7 ; extractelement %8, 0
 * The reverse of %8 multiplies lane 1's zero adjoint by %7's poison lane 1
 * (poison * 0 = poison; ReverseModeSynthesizer::reverseRule's
 * zeroUndefinedLanes only fixes constant partials). Before the Scalarizer
 * (simplifySynthesized, ScalarizeLoopLanes for Width > 1 with loops) the
 * w2 function still inserts field 0; after it and InstCombine the poison
 * has swallowed x1's whole adjoint. The same stage-1 IR with the shuffle's
 * poison mask lane set to 0 passes.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "check.h"
extern int enzyme_out, enzyme_dup, enzyme_width;
typedef struct { double g0[2]; double g1[2]; } BR;
BR __enzyme_autodiff_batch(void *, ...);
typedef struct { double g0, g1; } G;
G __enzyme_autodiff(void *, ...);

/* -O3: the first two factors become <2 x double> minnum/fmuladd (SLP). */
static __attribute__((noinline)) double h2(double *q, double p) {
  double r = 1.0;
  for (int v = 0; v < 8; v++)
    r *= 1.0 + 0.125 * fmin(p, v + 0.03125);
  return r + q[14];
}
static __attribute__((noinline)) double h3(double *q, double p) {
  return p * q[15];
}
static __attribute__((noinline)) double h4(double *q, double p) {
  return q[13] - p;
}
static double (*const tab[3])(double *, double) = {h2, h3, h4};

__attribute__((noinline)) double f(double x1, double x2, double *a) {
  double c[17];
  for (int j = 0; j < 17; j++)
    c[j] = atan(tab[(j + 2) % 3](a, x1) + a[j]);
  return x1 - x2 + c[5]; /* c[5] = atan(x1 * a[15] + a[5]) (h3) */
}

static double A[17] = {-0.140625, -0.484375, -0.296875, 0.578125, 0.640625,
                       -0.40625,  1.59375,   -0.921875, -1.984375, -0.90625,
                       -1.578125, 1.796875,  1.53125,   -0.859375, -0.984375,
                       -0.46875,  1.921875};
static double F(double x1, double x2) {
  double a[17];
  memcpy(a, A, sizeof a);
  return f(x1, x2, a);
}

int main(void) {
  volatile double v1 = 0.625, v2 = -0.375;
  double x1 = v1, x2 = v2;
  double u = x1 * A[15] + A[5];
  double want1 = 1 + A[15] / (1 + u * u);
  double fd = (F(x1 + 1e-6, x2) - F(x1 - 1e-6, x2)) / 2e-6;
  check_close("analytic vs finite difference", want1, fd, 1e-7);
  double a[17], da[17] = {0}, ea[17] = {0};
  memcpy(a, A, sizeof a);
  G s = __enzyme_autodiff((void *)&f, enzyme_out, x1, enzyme_out, x2,
                          enzyme_dup, a, da);
  check_close("scalar dx1", s.g0, want1, 1e-12);
  check_close("scalar dx2", s.g1, -1, 1e-12);
  check_close("scalar da[15]", da[15], x1 / (1 + u * u), 1e-12);
  memcpy(a, A, sizeof a);
  memset(da, 0, sizeof da);
  BR r = __enzyme_autodiff_batch((void *)&f, enzyme_width, 2, enzyme_out, x1,
                                 enzyme_out, x2, enzyme_dup, a, da, ea);
  check_close("batch dx1 lane 0", r.g0[0], want1, 1e-12);
  check_close("batch dx1 lane 1", r.g0[1], want1, 1e-12);
  check_close("batch dx2 lane 0", r.g1[0], -1, 1e-12);
  check_close("batch dx2 lane 1", r.g1[1], -1, 1e-12);
  check_close("batch da[15] lane 0", da[15], x1 / (1 + u * u), 1e-12);
  check_close("batch da[15] lane 1", ea[15], x1 / (1 + u * u), 1e-12);
  return check_report();
}
