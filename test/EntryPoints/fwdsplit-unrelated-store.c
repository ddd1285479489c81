// __enzyme_fwdsplit reruns the function, so memory it reads must not change
// after __enzyme_augmentfwd (Errors/fwdsplit-inputs-changed.c). A function
// that reads nothing but its own arguments' values (f = a b^2, sin) reruns
// the same whatever is written in between: a test counter incremented
// between the two calls was refused (split21 probe F3). Expected tangents
// are analytic: d f = b^2 da + 2 a b db, d g = cos(a) da.
// RUN: %clang -O0 %s -lm -o %t0 && %t0 | FileCheck %s
// RUN: %clang -O1 %s -lm -o %t1 && %t1 | FileCheck %s
// RUN: %clang -O2 %s -lm -o %t2 && %t2 | FileCheck %s
// RUN: %clang -O3 %s -lm -o %t3 && %t3 | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: ALL PASSED
#include "../Integration/Inputs/check.h"
#include <math.h>

extern int enzyme_out, enzyme_dup;
typedef struct {
  void *tape;
  double primal;
} aug_t;
aug_t __enzyme_augmentfwd(void *, ...);
double __enzyme_fwdsplit(void *, ...);

int counter;
double f(double a, double b) { return a * b * b; }
double g(double a) { return sin(a); }

int main(void) {
  double a = 2.0, b = 1.3;
  aug_t r = __enzyme_augmentfwd((void *)f, enzyme_out, a, enzyme_out, b);
  counter++;
  double t = __enzyme_fwdsplit((void *)f, enzyme_dup, a, 1.0, enzyme_dup, b,
                               0.5, r.tape);
  check_close("f tangent", t, b * b + 0.5 * 2 * a * b, 1e-14);
  aug_t s = __enzyme_augmentfwd((void *)g, enzyme_out, a);
  counter += 2;
  check_close("g tangent",
              __enzyme_fwdsplit((void *)g, enzyme_dup, a, 1.0, s.tape),
              cos(a), 1e-14);
  check_close("counter", counter, 3, 0);
  return check_report();
}
