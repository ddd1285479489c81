// A stack array of variable size that both halves of split mode need cannot
// live in a fixed-size tape: an error that says what to do, naming the
// array as the source does (it named 'a local variable (line 15)' of the
// derivative, which has no debug records: probe45a r06).
// RUN: not %clang -O0 -g -c %s -o /dev/null 2>&1 | FileCheck %s
// RUN: not %clang -O2 -g -c %s -o /dev/null 2>&1 | FileCheck %s
// CHECK-NOT: PLEASE submit a bug report
extern int enzyme_dup, enzyme_const;
void *__enzyme_augmentfwd(void *, ...);
__attribute__((noinline)) void vla(double *x, double *y, int n) {
  double t[n];
  for (int i = 0; i < n; i++)
    t[i] = x[i] * x[i];
  for (int i = 0; i < n; i++)
    y[i] = t[i] * t[n - 1 - i];
}
void *fwd(double *x, double *dx, double *y, double *dy, int n) {
  // CHECK: error: tapestry: cannot split the derivative of 'vla' into __enzyme_augmentfwd and __enzyme_reverse: it uses a stack array of variable size ('the variable 't' (line 11)'), whose contents the reverse half needs; allocate it with malloc, or use __enzyme_autodiff
  return __enzyme_augmentfwd((void *)vla, enzyme_dup, x, dx, enzyme_dup, y, dy,
                             enzyme_const, n);
}
