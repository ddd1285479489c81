// A function that requests its own derivative is recursive through the
// request: an error at the request that says so (before the fix, the
// misleading advice to register a gradient for the external function
// '__enzyme_autodiff').
// RUN: not %clang -O0 -g -c %s -o /dev/null 2>&1 | FileCheck %s
// RUN: not %clang -O2 -g -c %s -o /dev/null 2>&1 | FileCheck %s
// CHECK-NOT: PLEASE submit a bug report
// CHECK-NOT: Stack dump
// CHECK: self-request.c:[[@LINE+7]]:36: error: tapestry: this request differentiates 'self', which itself contains the request; a function cannot depend on its own derivative
// CHECK-NOT: __enzyme_register_gradient___enzyme_autodiff
// CHECK: 1 error generated.
// CHECK-NOT: PLEASE submit a bug report
// CHECK-NOT: Stack dump
extern int enzyme_out;
double __enzyme_autodiff(void *, ...);
double self(double x) { return x * __enzyme_autodiff((void *)self, enzyme_out, x); }
