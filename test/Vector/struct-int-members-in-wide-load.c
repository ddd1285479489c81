// A walk over structs mixing int and double members, vectorised for AVX2
// with -ffast-math (the opt flow): the loop loads the doubles of four
// structs at once as one <16 x double> and GVN then reads the int members
// those bytes cover out of it through integers (bitcast to i1024, lshr,
// trunc to i32), which was refused as "a vector of 16 double is
// reinterpreted as a 1024-bit integer" (review23b F7). Such an integer is
// loaded again from its own bytes. Expected: analytic.
// f = sum_i k_i v_i w_i^2 + j_i sin v_i;
// df/dv_i = k_i w_i^2 + j_i cos v_i, df/dw_i = 2 k_i v_i w_i.
// RUN: %plain_cc -O3 -march=x86-64-v3 -ffast-math -S -emit-llvm %s -o - | %any_x86_cpu > %t.ll
// RUN: %opt -passes=tapestry %t.ll -o %t.bc
// RUN: %plain_cc -O2 %t.bc -lm -o %t && %t | FileCheck %s
// RUN: %opt -passes=tapestry -tapestry-print-prepared %t.ll -o /dev/null 2>&1 | FileCheck %s --check-prefix=PREPARED
// PREPARED-NOT: lshr i1024
// PREPARED: .reloaded{{[0-9]*}} = load i32
// CHECK-NOT: FAIL
// CHECK: ALL PASSED
#include "../Integration/Inputs/check.h"

extern int enzyme_dup, enzyme_const;
void __enzyme_autodiff(void *, ...);

enum { N = 13 };
typedef struct {
  int k;
  double v;
  int j;
  double w;
} Mix;

double mixed(Mix *a, int n) {
  double s = 0;
  for (Mix *p = a; p != a + n; ++p)
    s += p->k * p->v * p->w * p->w + p->j * sin(p->v);
  return s;
}

int main(void) {
  Mix m[N], d[N] = {{0}};
  for (int i = 0; i < N; i++)
    m[i] = (Mix){i + 1, 0.4 + 0.1 * i, 2 - i, 1.2 - 0.15 * i};
  __enzyme_autodiff((void *)mixed, enzyme_dup, m, d, enzyme_const, N);
  char what[32];
  for (int i = 0; i < N; i++) {
    snprintf(what, sizeof what, "d/dv[%d]", i);
    check_close(what, d[i].v,
                m[i].k * m[i].w * m[i].w + m[i].j * cos(m[i].v), 1e-10);
    snprintf(what, sizeof what, "d/dw[%d]", i);
    check_close(what, d[i].w, 2 * m[i].k * m[i].v * m[i].w, 1e-10);
    snprintf(what, sizeof what, "d/dk[%d] untouched", i);
    check_close(what, d[i].k, 0, 0);
  }
  return check_report();
}
