// The emulation of formats checked against the target's own types:
// -tapestry-emulate-native-formats emulates (5, 10) and (8, 7) as if the
// target had no half and no bfloat, and every result must equal the
// native half (_Float16) or bfloat (__bf16) computation, and the
// long-double reference (Inputs/emulated-reference.h). Conversions to
// bfloat call compiler-rt's __truncdfbf2 (see truncate-bfloat.c).
// RUN: %clang_fplugin -O0 --rtlib=compiler-rt %s -lm -o %t0 -mllvm -tapestry-emulate-native-formats -DEMULATED && %t0 | FileCheck %s
// RUN: %clang_fplugin -O1 --rtlib=compiler-rt %s -lm -o %t1 -mllvm -tapestry-emulate-native-formats -DEMULATED && %t1 | FileCheck %s
// RUN: %clang_fplugin -O2 --rtlib=compiler-rt %s -lm -o %t2 -mllvm -tapestry-emulate-native-formats -DEMULATED && %t2 | FileCheck %s
// RUN: %clang_fplugin -O3 --rtlib=compiler-rt %s -lm -o %t3 -mllvm -tapestry-emulate-native-formats -DEMULATED && %t3 | FileCheck %s
// Without the option the native types are used, and the results are the
// same (but for the mem representation, which natively is a half's bits).
// RUN: %clang_fplugin -O2 --rtlib=compiler-rt %s -lm -o %t && %t | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: PASS (5, 10) against half
// CHECK: PASS (8, 7) against bfloat
// CHECK: ALL PASSED
#include "../Integration/Inputs/check.h"
#include "Inputs/emulated-reference.h"

typedef double (*fn1)(double);
typedef double (*fn2)(double, double);
void *__enzyme_truncate_op_func(void *, ...);
double __enzyme_truncate_mem_value(double, ...);

double add(double a, double b) { return a + b; }
double mul(double a, double b) { return a * b; }
double dvd(double a, double b) { return a / b; }
double root(double a) { return sqrt(a); }

static void check_native(const char *fmt, const char *op, double got,
                         double native, long double want, double a,
                         double b) {
  ref_check(fmt, op, got, want, a, b);
  ref_check(fmt, op, native, want, a, b); /* the reference itself */
}

int main(void) {
  fn2 hadd = __enzyme_truncate_op_func((void *)add, 64, 5, 10);
  fn2 hmul = __enzyme_truncate_op_func((void *)mul, 64, 5, 10);
  fn2 hdiv = __enzyme_truncate_op_func((void *)dvd, 64, 5, 10);
  fn1 hsqrt = __enzyme_truncate_op_func((void *)root, 64, 5, 10);
  int before = ref_failures;
  for (int i = 0; i < 20000; i++) {
    double x = ref_random(5, 10), y = ref_random(5, 10);
    _Float16 hx = (_Float16)x, hy = (_Float16)y;
    long double a = hx, b = hy;
    const char *n = "(5, 10)";
    check_native(n, "add", hadd(x, y), (double)(_Float16)(hx + hy),
                 ref_add(a, b, 5, 10), x, y);
    check_native(n, "mul", hmul(x, y), (double)(_Float16)(hx * hy),
                 ref_round(a * b, 5, 10), x, y);
    check_native(n, "div", hdiv(x, y), (double)(_Float16)(hx / hy),
                 ref_round(a / b, 5, 10), x, y);
    check_native(n, "sqrt", hsqrt(x), (double)(_Float16)sqrtf((float)hx),
                 ref_round(sqrtl(a), 5, 10), x, 0);
#ifdef EMULATED // the mem representation is the value rounded
    check_native(n, "value", __enzyme_truncate_mem_value(x, 64, 5, 10),
                 (double)hx, ref_round(x, 5, 10), x, 0);
#endif
  }
  printf("%s (5, 10) against half\n", ref_failures == before ? "PASS" : "FAIL");

  fn2 badd = __enzyme_truncate_op_func((void *)add, 64, 8, 7);
  fn2 bmul = __enzyme_truncate_op_func((void *)mul, 64, 8, 7);
  fn2 bdiv = __enzyme_truncate_op_func((void *)dvd, 64, 8, 7);
  before = ref_failures;
  for (int i = 0; i < 20000; i++) {
    double x = ref_random(8, 7), y = ref_random(8, 7);
    __bf16 bx = (__bf16)x, by = (__bf16)y;
    long double a = (float)bx, b = (float)by;
    const char *n = "(8, 7)";
    check_native(n, "add", badd(x, y), (double)(__bf16)(bx + by),
                 ref_add(a, b, 8, 7), x, y);
    check_native(n, "mul", bmul(x, y), (double)(__bf16)(bx * by),
                 ref_round(a * b, 8, 7), x, y);
    check_native(n, "div", bdiv(x, y), (double)(__bf16)(bx / by),
                 ref_round(a / b, 8, 7), x, y);
  }
  printf("%s (8, 7) against bfloat\n",
         ref_failures == before ? "PASS" : "FAIL");
  check_failures += ref_failures;
  return check_report();
}
