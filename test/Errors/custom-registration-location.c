// The error for a malformed registration global (two entries where a
// gradient registration needs {f, aug, rev}) must point at the registration
// (with -g its DIGlobalVariable has the line), not at whichever function
// happens to be defined first in the file.
// RUN: not %clang -O0 -g -c %s -o /dev/null 2>&1 | FileCheck %s
// RUN: not %clang -O2 -g -c %s -o /dev/null 2>&1 | FileCheck %s
// Without -g: at the registered function's definition.
// RUN: not %clang -O0 -c %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=NOG
// NOG: custom-registration-location.c:[[@LINE+7]]:{{[0-9]+}}: error: tapestry: in '__enzyme_register_gradient_k'
// CHECK-NOT: PLEASE submit a bug report
// CHECK-NOT: Stack dump
// CHECK-NOT: custom-registration-location.c:[[@LINE+3]]:{{[0-9]+}}: error
extern int enzyme_out;
double __enzyme_autodiff(void *, ...);
double unrelated(double x) { return x + 1; }
__attribute__((noinline)) double k(double x) { return x * x; }
double k_aug(double x) { return k(x); }
// CHECK: custom-registration-location.c:[[@LINE+1]]:{{[0-9]+}}: error: tapestry: in '__enzyme_register_gradient_k': a gradient registration must be {(void *)f, (void *)aug, (void *)rev}
void *__enzyme_register_gradient_k[2] = {(void *)k, (void *)k_aug};
double use_k(double x) { return k(x) + 1; }
double gk(double x) { return __enzyme_autodiff((void *)use_k, enzyme_out, x); }
// CHECK: 1 error generated.
// CHECK-NOT: PLEASE submit a bug report
// CHECK-NOT: Stack dump
