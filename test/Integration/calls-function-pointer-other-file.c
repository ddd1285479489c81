// A call through a function pointer dispatches on the pointer over the
// functions of this file; a pointer to a function of another file (or a
// library), whose derivative is unknown, stops the derivative at run time
// with a message naming the call, never a wrong number. The primal itself
// still calls it.
// RUN: %clang -O0 -g %s %S/Inputs/fnptr-other-file.c -o %t0 -lm
// RUN: %t0 | FileCheck %s
// RUN: not --crash %t0 other 2>&1 | FileCheck %s --check-prefix=STOP
// RUN: %clang -O2 -g %s %S/Inputs/fnptr-other-file.c -o %t2 -lm
// RUN: %t2 | FileCheck %s
// RUN: not --crash %t2 other 2>&1 | FileCheck %s --check-prefix=STOP
// CHECK-NOT: FAIL
// CHECK: ALL PASSED
// STOP: primal 6.75
// STOP: Tapestry: {{.*}}calls-function-pointer-other-file.c:[[@LINE+10]]: the derivative of 'twice' calls, through a function pointer, a function that was not in the translation unit Tapestry differentiated (another file or a library), so its derivative is unknown; define that function in the same file, or register its derivative
// STOP-NOT: PASS
#include "Inputs/check.h"

extern int enzyme_const, enzyme_out;
double __enzyme_autodiff(void *, ...);
typedef double (*unary)(double);
unary other_file_function(void);
static double local_square(double x) { return x * x; }

double twice(unary f, double x) { return 2.0 * f(x); }

int main(int argc, char **argv) {
  (void)argv;
  unary f = argc > 1 ? other_file_function() : local_square;
  printf("primal %g\n", twice(f, 1.5));
  fflush(stdout);
  double d = __enzyme_autodiff((void *)twice, enzyme_const, f, enzyme_out, 1.5);
  check_close("2 f'(x), f = square", d, 2 * 2 * 1.5, 1e-12);
  return check_report();
}
