// __enzyme_error_estimate calls the program's enzymeLogError, with Enzyme's
// current signature, once for each operation whose error it estimates: the
// operation's result, its error, its opcode, the callee of a call, the
// module, the function and the block. For f(x) = cos(x) / (x * x) with an
// exact input, those are cos, fmul and fdiv; the error of x * x, whose
// operands carry none, is one unit in the last place of x * x, and the last
// error logged is the estimate returned.
// RUN: %clang -O0 %s -lm -o %t0 && %t0 | FileCheck %s
// RUN: %clang -O1 %s -lm -o %t1 && %t1 | FileCheck %s
// RUN: %clang -O2 %s -lm -o %t2 && %t2 | FileCheck %s
// RUN: %clang -O3 %s -lm -o %t3 && %t3 | FileCheck %s
// CHECK-DAG: op call callee cos function f
// CHECK-DAG: op fmul callee  function f
// CHECK-DAG: op fdiv callee  function f
// CHECK-NOT: FAIL
// CHECK: ALL PASSED
#include "../Integration/Inputs/check.h"
#include <string.h>

double __enzyme_error_estimate(void *, ...);

static int logged;
static double last_err, mul_res, mul_err;

void enzymeLogError(double res, double err, const char *opcode,
                    const char *callee, const char *module,
                    const char *function, const char *block) {
  (void)module;
  (void)block;
  ++logged;
  last_err = err;
  if (!strcmp(opcode, "fmul")) {
    mul_res = res;
    mul_err = err;
  }
  printf("op %s callee %s function %s\n", opcode, callee, function);
}

__attribute__((noinline)) double f(double x) { return cos(x) / (x * x); }

int main(void) {
  double x = 0.3;
  double est = __enzyme_error_estimate((void *)f, x, 0.0);
  check_close("operations logged", logged, 3, 0);
  check_close("fmul result", mul_res, x * x, 0);
  check_close("fmul error: one ulp", mul_err,
              nextafter(x * x, 2.0) - x * x, 0);
  check_close("estimate is the last error logged", est, last_err, 0);
  return check_report();
}
