// A variadic helper of the user's own (a printf-style logger built on
// vfprintf) called inside the differentiated function with inactive values
// only: it stays a call (LLVM cannot inline a function that calls
// va_start), runs once per sweep's primal, and the derivative is right.
// f(x, y) = x^2 y + sin(x); analytic derivatives, reverse and forward.
// RUN: %clang -O0 %s -lm -o %t0 && %t0 2>/dev/null | FileCheck %s
// RUN: %clang -O2 %s -lm -o %t2 && %t2 2>/dev/null | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: ALL PASSED
#include "Inputs/check.h"
#include <stdarg.h>

extern int enzyme_out;
double __enzyme_autodiff(void *, ...);
double __enzyme_fwddiff(void *, ...);
typedef struct {
  double dx, dy;
} grad2;
grad2 __enzyme_autodiff_g(void *, ...) __asm__("__enzyme_autodiff");

static int logged;
__attribute__((noinline)) static void log_msg(const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  logged += vfprintf(stderr, fmt, ap) > 0;
  va_end(ap);
}

double f(double x, double y) {
  log_msg("f at step %d, n=%ld\n", 3, 7L);
  return x * x * y + sin(x);
}

int main(void) {
  double x = 0.7, y = -1.3;
  grad2 g = __enzyme_autodiff_g((void *)f, x, y);
  check_close("reverse d/dx", g.dx, 2 * x * y + cos(x), 1e-14);
  check_close("reverse d/dy", g.dy, x * x, 1e-14);
  check_close("forward d/dx", __enzyme_fwddiff((void *)f, x, 1.0, y, 0.0),
              2 * x * y + cos(x), 1e-14);
  check_close("the logger ran", logged > 0, 1, 0);
  return check_report();
}
