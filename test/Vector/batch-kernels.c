// Batch mode (enzyme_width 2 and 4) on vectorised kernels: the IR handed to
// opt holds vector reductions, gathers, scatters, masked stores and
// shuffles, whose tangents and adjoints then carry several lanes. Forward
// mode at width 4 takes four different directions: each lane must equal a
// scalar forward sweep along that direction and the scalar gradient's dot
// product with it. Reverse mode at widths 2 and 4 accumulates into shadows
// that start from different values per lane: each lane must add the
// scalar gradient (itself checked against finite differences in
// kernels.c).
//
// RUN: %plain_cc -O3 -march=native -ffast-math -S -emit-llvm %s -o %t.fast.ll
// RUN: %opt -passes=tapestry %t.fast.ll -S -o %t.fast.d.ll
// RUN: FileCheck %s --check-prefix=IR --input-file=%t.fast.d.ll
// RUN: %plain_cc -O1 %t.fast.d.ll -lm -o %t.fast && %t.fast | FileCheck %s
// RUN: %plain_cc -O3 -march=native -S -emit-llvm %s -o %t.strict.ll
// RUN: %opt -passes=tapestry %t.strict.ll -S -o %t.strict.d.ll
// RUN: %plain_cc -O1 %t.strict.d.ll -lm -o %t.strict && %t.strict | FileCheck %s
// RUN: %clang -O0 -march=native %s -lm -o %t0 && %t0 | FileCheck %s
// RUN: %clang -O1 -march=native %s -lm -o %t1 && %t1 | FileCheck %s
// RUN: %clang -O2 -march=native %s -lm -o %t2 && %t2 | FileCheck %s
// RUN: %clang -O3 -march=native -ffast-math %s -lm -o %t3 && %t3 | FileCheck %s
//
// CHECK-NOT: FAIL
// CHECK: ALL PASSED
//
// The batched derivatives of the vectorised bodies (4 lanes of <N x double>
// tangents, 2 lanes of adjoints):
// IR-DAG: define internal [4 x double] @f_dot.tapestry.fwd_{{.*}}_w4(
// IR-DAG: define internal void @f_scatter.tapestry.rev_{{.*}}_w2(
// IR-DAG: define internal void @f_prod.tapestry.rev_{{.*}}_w4(
#include "../Integration/Inputs/check.h"
#include <stdlib.h>
#include <string.h>

extern int enzyme_dup, enzyme_const, enzyme_width;
typedef struct {
  double d[4];
} D4;
void __enzyme_autodiff(void *, ...);
double __enzyme_fwddiff(void *, ...);
D4 __enzyme_fwddiff_4(void *, ...);

#include "../Integration/Inputs/gradcheck.h"
#include "Inputs/objectives.h"

#define SAME 1e-12

#define DEFINE_BATCH(f)                                                        \
  static void batch_##f(double lo, double hi) {                                \
    double x[N], y[N], g[2][N] = {{0}};                                        \
    fill(x, N, lo, hi, 1);                                                     \
    fill(y, N, lo, hi, 2);                                                     \
    /* The scalar gradient, on copies (f may overwrite y). */                  \
    double xs[N], ys[N];                                                       \
    memcpy(xs, x, sizeof x), memcpy(ys, y, sizeof y);                          \
    __enzyme_autodiff((void *)f, enzyme_dup, xs, g[0], enzyme_dup, ys, g[1],   \
                      enzyme_const, N);                                        \
    /* Forward, width 4: lane k along direction (tx[k], ty[k]). */             \
    double tx[4][N], ty[4][N];                                                 \
    for (int k = 0; k < 4; k++)                                                \
      fill(tx[k], N, -1, 1, 10 + k), fill(ty[k], N, -1, 1, 20 + k);            \
    memcpy(xs, x, sizeof x), memcpy(ys, y, sizeof y);                          \
    D4 t = __enzyme_fwddiff_4((void *)f, enzyme_width, 4, enzyme_dup, xs,      \
                              tx[0], tx[1], tx[2], tx[3], enzyme_dup, ys,      \
                              ty[0], ty[1], ty[2], ty[3], enzyme_const, N);    \
    for (int k = 0; k < 4; k++) {                                              \
      double want = 0;                                                         \
      for (int i = 0; i < N; i++)                                              \
        want += g[0][i] * tx[k][i] + g[1][i] * ty[k][i];                       \
      memcpy(xs, x, sizeof x), memcpy(ys, y, sizeof y);                        \
      double sx[N], sy[N];                                                     \
      memcpy(sx, tx[k], sizeof sx), memcpy(sy, ty[k], sizeof sy);              \
      double scalar = __enzyme_fwddiff((void *)f, enzyme_dup, xs, sx,          \
                                       enzyme_dup, ys, sy, enzyme_const, N);   \
      check_close(LABEL("%s forward lane %d vs scalar forward", #f, k),        \
                  t.d[k], scalar, SAME);                                       \
      check_close(LABEL("%s forward lane %d vs gradient . direction", #f, k),  \
                  t.d[k], want, FR_TOL);                                       \
    }                                                                          \
    /* Reverse, widths 2 and 4: shadows accumulate from per-lane values. */    \
    double init[4][N], dx[4][N], dy[4][N];                                     \
    for (int k = 0; k < 4; k++)                                                \
      fill(init[k], N, -2, 2, 30 + k);                                         \
    memcpy(dx, init, sizeof dx);                                               \
    memset(dy, 0, sizeof dy);                                                  \
    memcpy(xs, x, sizeof x), memcpy(ys, y, sizeof y);                          \
    __enzyme_autodiff((void *)f, enzyme_width, 2, enzyme_dup, xs, dx[0],       \
                      dx[1], enzyme_dup, ys, dy[0], dy[1], enzyme_const, N);   \
    for (int k = 0; k < 2; k++)                                                \
      for (int i = 0; i < N; i++) {                                            \
        check_close(LABEL("%s reverse w2 lane %d dx[%d]", #f, k, i),           \
                    dx[k][i] - init[k][i], g[0][i], SAME);                     \
        check_close(LABEL("%s reverse w2 lane %d dy[%d]", #f, k, i), dy[k][i], \
                    g[1][i], SAME);                                            \
      }                                                                        \
    memcpy(dx, init, sizeof dx);                                               \
    memset(dy, 0, sizeof dy);                                                  \
    memcpy(xs, x, sizeof x), memcpy(ys, y, sizeof y);                          \
    __enzyme_autodiff((void *)f, enzyme_width, 4, enzyme_dup, xs, dx[0],       \
                      dx[1], dx[2], dx[3], enzyme_dup, ys, dy[0], dy[1],       \
                      dy[2], dy[3], enzyme_const, N);                          \
    for (int k = 0; k < 4; k++)                                                \
      for (int i = 0; i < N; i++) {                                            \
        check_close(LABEL("%s reverse w4 lane %d dx[%d]", #f, k, i),           \
                    dx[k][i] - init[k][i], g[0][i], SAME);                     \
        check_close(LABEL("%s reverse w4 lane %d dy[%d]", #f, k, i), dy[k][i], \
                    g[1][i], SAME);                                            \
      }                                                                        \
  }

DEFINE_BATCH(f_dot)
DEFINE_BATCH(f_softmax)
DEFINE_BATCH(f_maxabs)
DEFINE_BATCH(f_minsq)
DEFINE_BATCH(f_mathy)
DEFINE_BATCH(f_prod)
DEFINE_BATCH(f_gather)
DEFINE_BATCH(f_masked)
DEFINE_BATCH(f_scatter)
DEFINE_BATCH(f_pairs)

int main(void) {
  setup_constants();
  batch_f_dot(-1, 1);
  batch_f_softmax(-2, 2);
  batch_f_maxabs(-1.5, 1.5);
  batch_f_minsq(-1, 1);
  batch_f_mathy(-2, 2);
  batch_f_prod(0.7, 1.4);
  batch_f_gather(-1, 1);
  batch_f_masked(0, 1.2);
  batch_f_scatter(-1, 1);
  batch_f_pairs(-1, 1);
  return check_report();
}
