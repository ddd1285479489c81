// A request whose first argument is an integer turned into a pointer is an
// error at the request's line. (The text after "got" currently dumps LLVM IR;
// first-arg-runtime-pointer-message.c holds that to a better standard.)
// RUN: not %clang -O0 -g -c %s -o /dev/null 2>&1 | FileCheck %s
// RUN: not %clang -O2 -g -c %s -o /dev/null 2>&1 | FileCheck %s
// CHECK-NOT: PLEASE submit a bug report
// CHECK-NOT: Stack dump
extern int enzyme_out;
double __enzyme_autodiff(void *, ...);
double g(double x, long addr) {
  // CHECK: first-arg-integer.c:[[@LINE+1]]:10: error: tapestry: the first argument of __enzyme_autodiff must be a function, e.g. (void *)f; got {{.*}}an integer cast to a pointer
  return __enzyme_autodiff((void *)addr, enzyme_out, x);
}
// CHECK: 1 error generated.
// CHECK-NOT: PLEASE submit a bug report
// CHECK-NOT: Stack dump
