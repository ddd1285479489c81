// The first argument is a value only known at run time: an integer cast to a
// pointer, a function pointer read from a non-const global, or a function
// pointer parameter. Each is an error whose message describes the value in C
// terms (naming the global 'fp'), with no IR vocabulary.
// RUN: not %clang -O0 -g -c %s -o /dev/null -DCASE=1 2>&1 | FileCheck %s
// RUN: not %clang -O2 -g -c %s -o /dev/null -DCASE=1 2>&1 | FileCheck %s
// RUN: not %clang -O0 -g -c %s -o /dev/null -DCASE=2 2>&1 | FileCheck %s --check-prefixes=CHECK,GLOBAL
// RUN: not %clang -O2 -g -c %s -o /dev/null -DCASE=2 2>&1 | FileCheck %s --check-prefixes=CHECK,GLOBAL
// RUN: not %clang -O0 -g -c %s -o /dev/null -DCASE=3 2>&1 | FileCheck %s
// RUN: not %clang -O2 -g -c %s -o /dev/null -DCASE=3 2>&1 | FileCheck %s
// CHECK-NOT: PLEASE submit a bug report
// CHECK-NOT: Stack dump
// CHECK: first-arg-runtime-pointer-message.c:{{[0-9]+}}:10: error: tapestry: the first argument of __enzyme_autodiff must be a function, e.g. (void *)f; got
// GLOBAL-SAME: 'fp'
// CHECK-NOT: !dbg
// CHECK-NOT: {{%[0-9]+}}
// CHECK-NOT: {{ptr|i64}}
// CHECK: 1 error generated.
// CHECK-NOT: PLEASE submit a bug report
// CHECK-NOT: Stack dump
extern int enzyme_out;
double __enzyme_autodiff(void *, ...);
double sq(double x) { return x * x; }
#if CASE == 1
double g(double x, long addr) {
  return __enzyme_autodiff((void *)addr, enzyme_out, x);
}
#elif CASE == 2
double (*fp)(double) = sq;
double g(double x) {
  return __enzyme_autodiff((void *)fp, enzyme_out, x);
}
#else
double g(double (*h)(double), double x) {
  return __enzyme_autodiff((void *)h, enzyme_out, x);
}
#endif
