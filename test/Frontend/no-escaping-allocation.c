// __attribute__((enzyme_no_escaping_allocation)) promises the memory a
// function allocates does not escape it. Tapestry needs no such promise (it
// is a hint to Enzyme's caching), so the derivative is the same; the
// function carries Enzyme's attribute, on a definition and a declaration
// alike. (-fplugin tracks source locations, so the definition may carry
// a !dbg attachment without -g.)
// RUN: %clang_fplugin -O1 -DIR_ONLY -S -emit-llvm %s -o - | FileCheck %s --check-prefix=IR
// RUN: %clang_enzyme -O1 -DIR_ONLY -S -emit-llvm %s -o - | FileCheck %s --check-prefix=IR
// RUN: %clang_fplugin -O0 %s -lm -o %t0 && %t0 | FileCheck %s
// RUN: %clang_fplugin -O2 %s -lm -o %t2 && %t2 | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: ALL PASSED
#include "../Integration/Inputs/check.h"
#include <stdlib.h>

extern int enzyme_dup, enzyme_const;
void __enzyme_autodiff(void *, ...);

__attribute__((enzyme_no_escaping_allocation)) void external_check(double *);

// sum_i x_i^3 through a scratch copy that is allocated and freed here.
__attribute__((enzyme_no_escaping_allocation, noinline)) double
cubes(const double *x, int n) {
  double *t = malloc(n * sizeof(double));
  for (int i = 0; i < n; ++i)
    t[i] = x[i] * x[i] * x[i];
  double s = 0;
  for (int i = 0; i < n; ++i)
    s += t[i];
  free(t);
  return s;
}

#ifdef IR_ONLY
void unmarked(double *);

void use(double *x) {
  external_check(x);
  unmarked(x);
}
#endif

int main(void) {
  double x[3] = {0.5, -1.5, 2.0}, dx[3] = {0};
  __enzyme_autodiff((void *)cubes, enzyme_dup, x, dx, enzyme_const, 3);
  for (int i = 0; i < 3; ++i)
    check_close("d/dx_i sum x^3", dx[i], 3 * x[i] * x[i], 1e-12);
  return check_report();
}

// IR-DAG: declare void @external_check({{.*}}) {{.*}}[[EXT:#[0-9]+]]
// IR-DAG: define {{.*}}double @cubes({{.*}}) {{.*}}[[DEF:#[0-9]+]]{{( !dbg ![0-9]+)?}} {
// IR-DAG: declare void @unmarked({{.*}}) {{.*}}[[UNMARKED:#[0-9]+]]
// IR-DAG: attributes [[EXT]] = { {{.*}}"enzyme_no_escaping_allocation"
// IR-DAG: attributes [[DEF]] = { {{.*}}"enzyme_no_escaping_allocation"
// IR-DAG: attributes [[UNMARKED]] = { {{[^"]*}}"no-trapping-math"
