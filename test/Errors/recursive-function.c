// Reverse mode differentiates recursion by running the recursive callee's
// gradient again in the reverse sweep, which is only right when the callee
// writes no memory. A recursive function that writes memory is an error at
// the recursive call, not a wrong gradient.
// RUN: not %clang -O0 -g -c %s -o /dev/null 2>&1 | FileCheck %s
// RUN: not %clang -O2 -g -c %s -o /dev/null 2>&1 | FileCheck %s
// CHECK-NOT: PLEASE submit a bug report
// CHECK-NOT: Stack dump
extern int enzyme_dup, enzyme_const;
void __enzyme_autodiff(void *, ...);

// Prefix sums in place, recursively: writes through x.
void prefix(double *x, int n) {
  if (n <= 1)
    return;
  prefix(x, n - 1);
  x[n - 1] += x[n - 2];
}

// CHECK: recursive-function.c:[[@LINE+1]]:28: error: tapestry: cannot differentiate 'g': the recursive function 'prefix' writes memory, or reads memory that is written after the call; reverse mode supports recursion only through functions that read unchanged memory
void g(double *x, int n) { prefix(x, n); }

void dg(double *x, double *dx, int n) {
  __enzyme_autodiff((void *)g, enzyme_dup, x, dx, enzyme_const, n);
}
// CHECK: 1 error generated.
// CHECK-NOT: PLEASE submit a bug report
// CHECK-NOT: Stack dump
