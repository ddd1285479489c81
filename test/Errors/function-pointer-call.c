// A call through a function pointer that is not known at compile time, with
// an active argument, inside the differentiated function, where no function
// of its type has its address taken in the file (nothing to dispatch over),
// is an error at that call.
// RUN: not %clang -O0 -g -c %s -o /dev/null 2>&1 | FileCheck %s
// RUN: not %clang -O2 -g -c %s -o /dev/null 2>&1 | FileCheck %s
// CHECK-NOT: PLEASE submit a bug report
// CHECK-NOT: Stack dump
extern int enzyme_out, enzyme_const;
double __enzyme_autodiff(void *, ...);
double f(double x, double (*op)(double)) {
  // CHECK: function-pointer-call.c:[[@LINE+1]]:10: error: tapestry: cannot differentiate 'f': a call through a function pointer takes active arguments, and no function of its type has its address taken in this file (Tapestry differentiates such a call by dispatching on the pointer over the functions it may hold); define the functions it may call in this file
  return op(x) * x;
}
double g(double x, double (*op)(double)) {
  return __enzyme_autodiff((void *)f, enzyme_out, x, enzyme_const, op);
}
// CHECK: 1 error generated.
// CHECK-NOT: PLEASE submit a bug report
// CHECK-NOT: Stack dump
