// Enzyme's entry points kept in local variables the way C users write
// them: a typed function pointer set once and copied into a second
// variable (a helper's "configured" gradient), tested against NULL before
// it is called, and one variable per mode. Every call through them is a
// request; before, a copied variable or a NULL test left the call to
// __enzyme_autodiff for the linker ("undefined reference").
// Expected values are analytic: f = x^2 y + sin(x), df/dx = 2 x y + cos x,
// df/dy = x^2; the tangent along (1, 0) is df/dx.
// RUN: %clang -O0 %s -lm -o %t0 && %t0 | FileCheck %s
// RUN: %clang -O1 %s -lm -o %t1 && %t1 | FileCheck %s
// RUN: %clang -O2 %s -lm -o %t2 && %t2 | FileCheck %s
// RUN: %clang -O3 %s -lm -o %t3 && %t3 | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: ALL PASSED
#include "Inputs/check.h"

typedef struct {
  double dx, dy;
} grad2;
typedef grad2 (*grad2_fn)(void *, ...);
typedef double (*tangent_fn)(void *, ...);
extern int enzyme_out, enzyme_dup;
extern double __enzyme_autodiff(void *, ...);
extern double __enzyme_fwddiff(void *, ...);

double f(double x, double y) { return x * x * y + sin(x); }

int main(void) {
  double x = 0.7, y = -1.3;
  grad2_fn configured = (grad2_fn)__enzyme_autodiff;
  grad2_fn grad = configured;
  if (grad == NULL) {
    puts("FAIL: the entry point's address is null");
    return 1;
  }
  grad2 g = grad((void *)f, enzyme_out, x, enzyme_out, y);
  check_close("df/dx", g.dx, 2 * x * y + cos(x), 1e-14);
  check_close("df/dy", g.dy, x * x, 1e-14);
  tangent_fn tangent = (tangent_fn)__enzyme_fwddiff;
  if (tangent) {
    double t = tangent((void *)f, enzyme_dup, x, 1.0, enzyme_dup, y, 0.0);
    check_close("tangent along x", t, 2 * x * y + cos(x), 1e-14);
  } else {
    puts("FAIL: the tangent entry point's address is null");
  }
  return check_report();
}
