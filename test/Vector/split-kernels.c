// Split mode (__enzyme_augmentfwd, then __enzyme_reverse on its tape) on
// vectorised kernels: the tape holds vector values and the shadows of
// vectors of pointers (gathers, scatters) are rebuilt in the reverse half.
// Each split gradient must equal the one-shot gradient (itself checked
// against finite differences in kernels.c), and the augmented forward must
// return the primal result.
//
// RUN: %plain_cc -O3 -march=native -ffast-math -S -emit-llvm %s -o %t.fast.ll
// RUN: %opt -passes=tapestry %t.fast.ll -S -o %t.fast.d.ll
// RUN: %plain_cc -O1 %t.fast.d.ll -lm -o %t.fast && %t.fast | FileCheck %s
// RUN: %clang -O0 -march=native %s -lm -o %t0 && %t0 | FileCheck %s
// RUN: %clang -O1 -march=native %s -lm -o %t1 && %t1 | FileCheck %s
// RUN: %clang -O2 -march=native %s -lm -o %t2 && %t2 | FileCheck %s
// RUN: %clang -O3 -march=native -ffast-math %s -lm -o %t3 && %t3 | FileCheck %s
//
// CHECK-NOT: FAIL
// CHECK: ALL PASSED
#include "../Integration/Inputs/check.h"
#include <stdlib.h>
#include <string.h>

extern int enzyme_dup, enzyme_const;
typedef struct {
  void *tape;
  double primal;
} aug_d;
aug_d __enzyme_augmentfwd_d(void *, ...);
void __enzyme_reverse(void *, ...);
void __enzyme_autodiff(void *, ...);

#include "../Integration/Inputs/gradcheck.h"
#include "Inputs/objectives.h"

#define SAME 1e-12

#define DEFINE_SPLIT(f)                                                        \
  static void split_##f(double lo, double hi) {                                \
    double x[N], y[N], g[2][N] = {{0}}, s[2][N] = {{0}}, xs[N], ys[N];         \
    fill(x, N, lo, hi, 1);                                                     \
    fill(y, N, lo, hi, 2);                                                     \
    memcpy(xs, x, sizeof x), memcpy(ys, y, sizeof y);                          \
    __enzyme_autodiff((void *)f, enzyme_dup, xs, g[0], enzyme_dup, ys, g[1],   \
                      enzyme_const, N);                                        \
    memcpy(xs, x, sizeof x), memcpy(ys, y, sizeof y);                          \
    double want = f(xs, ys, N);                                                \
    memcpy(xs, x, sizeof x), memcpy(ys, y, sizeof y);                          \
    aug_d r = __enzyme_augmentfwd_d((void *)f, enzyme_dup, xs, s[0],           \
                                    enzyme_dup, ys, s[1], enzyme_const, N);    \
    check_close(#f " augmented forward's primal", r.primal, want, SAME);       \
    __enzyme_reverse((void *)f, enzyme_dup, xs, s[0], enzyme_dup, ys, s[1],    \
                     enzyme_const, N, 1.0, r.tape);                            \
    for (int k = 0; k < 2; k++)                                                \
      for (int i = 0; i < N; i++)                                              \
        check_close(LABEL("%s split vs one-shot, %c[%d]", #f, "xy"[k], i),     \
                    s[k][i], g[k][i], SAME);                                   \
  }

DEFINE_SPLIT(f_dot)
DEFINE_SPLIT(f_saxpy)
DEFINE_SPLIT(f_softmax)
DEFINE_SPLIT(f_stencil)
DEFINE_SPLIT(f_maxabs)
DEFINE_SPLIT(f_mathy)
DEFINE_SPLIT(f_prod)
DEFINE_SPLIT(f_gather)
DEFINE_SPLIT(f_masked)
DEFINE_SPLIT(f_scatter)
DEFINE_SPLIT(f_pairs)

int main(void) {
  setup_constants();
  split_f_dot(-1, 1);
  split_f_saxpy(-1, 1);
  split_f_softmax(-2, 2);
  split_f_stencil(-1, 1);
  split_f_maxabs(-1.5, 1.5);
  split_f_mathy(-2, 2);
  split_f_prod(0.7, 1.4);
  split_f_gather(-1, 1);
  split_f_masked(0, 1.2);
  split_f_scatter(-1, 1);
  split_f_pairs(-1, 1);
  return check_report();
}
