// A pointer to differentiated memory passed as an integer (intptr_t) to a
// function differentiated as a call, which casts it back: the callee gets
// shadows for its pointer parameters only, so its reads through the
// integer carried no derivative, and the gradient was 0 without an error
// (review 37). Now an error at the call. An address difference (a size) is
// not a pointer, and a callee inlined first sees the pointer itself: at -O0,
// where a helper taking integers and returning a double is inlined (it may
// be a union's unbox), the derivative is right (second RUN line).
// RUN: not %clang -O1 -g -c %s -o /dev/null 2>&1 | FileCheck %s
// RUN: not %clang -O2 -g -c %s -o /dev/null 2>&1 | FileCheck %s
// RUN: %clang -O0 -DRUN_IT %s -o %t && %t | FileCheck %s --check-prefix=O0
// CHECK-NOT: PLEASE submit a bug report
// CHECK-NOT: Stack dump
#include <stdint.h>
extern int enzyme_dup;
void __enzyme_autodiff(void *, ...);
__attribute__((noinline)) double product(intptr_t a) {
  const double *p = (const double *)a;
  return p[0] * p[1];
}
__attribute__((noinline)) double scaled(const double *p, intptr_t bytes) {
  return p[0] * (double)(bytes / 8);
}
double f(double *x) {
  // CHECK: pointer-passed-as-integer.c:[[@LINE+1]]:10: error: tapestry: cannot differentiate 'f': a pointer to memory with derivatives, parameter 1 ('x'), is passed to 'product' as an integer, and Tapestry gives a called function the shadows of its pointer parameters only; pass it as a pointer (double *)
  return product((intptr_t)x) + scaled(x, (intptr_t)(x + 2) - (intptr_t)x);
}
void gradient(double *x, double *dx) {
  __enzyme_autodiff((void *)f, enzyme_dup, x, dx);
}
// CHECK: 1 error generated.
#ifdef RUN_IT
#include <stdio.h>
int main(void) {
  double x[3] = {1, 2, 3}, dx[3] = {0};
  gradient(x, dx);
  // d/dx (x0 x1 + 2 x0) = (x1 + 2, x0, 0)
  // O0: dx = 4 1 0
  printf("dx = %g %g %g\n", dx[0], dx[1], dx[2]);
  return 0;
}
#endif
