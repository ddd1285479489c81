// Vectorised kernels (dot, saxpy, norm, matvec, softmax, Horner, stencil,
// fmax/fmin/fmul reductions, elementwise math, gather, masked store,
// scatter, interleaved pairs) compiled to optimised IR, differentiated by
// opt -passes=tapestry, linked and run: reverse mode against central finite
// differences and forward mode against reverse, for every input. The IR is
// what users hand to opt: clang -O3 -march=native with and without
// -ffast-math, with -fveclib=libmvec, and clang -O0 IR run through opt -O2.
// The vectorised IR must really hold the vector constructs (VEC checks).
// The same program also runs with the plugin in clang at -O0..-O3, where
// Tapestry differentiates before vectorisation.
//
// RUN: %plain_cc -O3 -march=native -ffast-math -S -emit-llvm %s -o %t.fast.ll
// RUN: FileCheck %s --check-prefix=VEC --input-file=%t.fast.ll
// RUN: %opt -passes=tapestry %t.fast.ll -S -o %t.fast.d.ll
// RUN: %plain_cc -O1 %t.fast.d.ll -lm -o %t.fast && %t.fast | FileCheck %s
//
// RUN: %plain_cc -O3 -march=native -S -emit-llvm %s -o %t.strict.ll
// RUN: %opt -passes=tapestry %t.strict.ll -S -o %t.strict.d.ll
// RUN: %plain_cc -O1 %t.strict.d.ll -lm -o %t.strict && %t.strict | FileCheck %s
//
// RUN: %plain_cc -O3 -march=native -ffast-math -fveclib=libmvec -S \
// RUN:   -emit-llvm %s -o %t.mvec.ll
// RUN: FileCheck %s --check-prefix=MVEC --input-file=%t.mvec.ll
// RUN: %opt -passes=tapestry %t.mvec.ll -S -o %t.mvec.d.ll
// RUN: %plain_cc -O1 %t.mvec.d.ll -lm -o %t.mvec && %t.mvec | FileCheck %s
//
// RUN: %plain_cc -O0 -Xclang -disable-O0-optnone -march=native -ffast-math \
// RUN:   -S -emit-llvm %s -o %t.o0.ll
// RUN: opt -O2 %t.o0.ll -S -o %t.o2.ll
// RUN: %opt -passes=tapestry %t.o2.ll -S -o %t.o2.d.ll
// RUN: %plain_cc -O1 %t.o2.d.ll -lm -o %t.o2 && %t.o2 | FileCheck %s
//
// RUN: %clang -O0 -march=native %s -lm -o %t0 && %t0 | FileCheck %s
// RUN: %clang -O1 -march=native %s -lm -o %t1 && %t1 | FileCheck %s
// RUN: %clang -O2 -march=native %s -lm -o %t2 && %t2 | FileCheck %s
// RUN: %clang -O3 -march=native -ffast-math %s -lm -o %t3 && %t3 | FileCheck %s
//
// CHECK-NOT: FAIL
// CHECK: ALL PASSED
//
// VEC-DAG: call {{.*}}@llvm.vector.reduce.fadd.v
// VEC-DAG: call {{.*}}@llvm.vector.reduce.fmul.v
// VEC-DAG: call {{.*}}@llvm.vector.reduce.fmax.v
// VEC-DAG: call {{.*}}@llvm.vector.reduce.fmin.v
// VEC-DAG: shufflevector <{{[0-9]+}} x double> %{{[0-9]+}}, <{{[0-9]+}} x double> poison, <{{[0-9]+}} x i32> <i32 1, i32 3,
// MVEC: call {{.*}}@_ZGV{{[a-z]}}N{{[0-9]+}}v_sin(
#include "../Integration/Inputs/check.h"
#include <stdlib.h>
#include <string.h>

extern int enzyme_dup, enzyme_const;
void __enzyme_autodiff(void *, ...);
double __enzyme_fwddiff(void *, ...);

#include "../Integration/Inputs/gradcheck.h"
#include "Inputs/objectives.h"

#define NP (2 * N)

/* eval, grad and tangent of f over p = [x, y] (gradcheck.h's compare). */
#define DEFINE_CHECKS(f)                                                       \
  static double eval_##f(const double *p) {                                    \
    double x[N], y[N];                                                         \
    memcpy(x, p, sizeof x);                                                    \
    memcpy(y, p + N, sizeof y);                                                \
    return f(x, y, N);                                                         \
  }                                                                            \
  static void grad_##f(const double *p, double *g) {                           \
    double x[N], y[N];                                                         \
    memcpy(x, p, sizeof x);                                                    \
    memcpy(y, p + N, sizeof y);                                                \
    __enzyme_autodiff((void *)f, enzyme_dup, x, g, enzyme_dup, y, g + N,       \
                      enzyme_const, N);                                        \
  }                                                                            \
  static double tangent_##f(const double *p, int j) {                          \
    double x[N], y[N];                                                         \
    memcpy(x, p, sizeof x);                                                    \
    memcpy(y, p + N, sizeof y);                                                \
    double *tx = unit_slice(j, 0, N), *ty = unit_slice(j, N, N);               \
    double t = __enzyme_fwddiff((void *)f, enzyme_dup, x, tx, enzyme_dup, y,   \
                                ty, enzyme_const, N);                          \
    free(tx), free(ty);                                                        \
    return t;                                                                  \
  }                                                                            \
  static void check_##f(double lo, double hi) {                                \
    double p[NP];                                                              \
    fill(p, NP, lo, hi, 5);                                                    \
    compare(#f, NP, p, eval_##f, grad_##f, tangent_##f);                       \
  }

DEFINE_CHECKS(f_dot)
DEFINE_CHECKS(f_saxpy)
DEFINE_CHECKS(f_norm)
DEFINE_CHECKS(f_matvec)
DEFINE_CHECKS(f_softmax)
DEFINE_CHECKS(f_poly)
DEFINE_CHECKS(f_stencil)
DEFINE_CHECKS(f_maxabs)
DEFINE_CHECKS(f_minsq)
DEFINE_CHECKS(f_mathy)
DEFINE_CHECKS(f_prod)
DEFINE_CHECKS(f_gather)
DEFINE_CHECKS(f_masked)
DEFINE_CHECKS(f_scatter)
DEFINE_CHECKS(f_pairs)

int main(void) {
  setup_constants();
  check_f_dot(-1, 1);
  check_f_saxpy(-1, 1);
  check_f_norm(-1, 1);
  check_f_matvec(-1, 1);
  check_f_softmax(-2, 2);
  check_f_poly(-1, 1);
  check_f_stencil(-1, 1);
  check_f_maxabs(-1.5, 1.5);
  check_f_minsq(-1, 1);
  check_f_mathy(-2, 2);
  check_f_prod(0.7, 1.4);
  check_f_gather(-1, 1);
  check_f_masked(0, 1.2);
  check_f_scatter(-1, 1);
  check_f_pairs(-1, 1);
  return check_report();
}
