// Differentiating a function that is only declared here (no body) is an
// error that says how to supply it.
// RUN: not %clang -O0 -g -c %s -o /dev/null 2>&1 | FileCheck %s
// RUN: not %clang -O2 -g -c %s -o /dev/null 2>&1 | FileCheck %s
// CHECK-NOT: PLEASE submit a bug report
// CHECK-NOT: Stack dump
extern int enzyme_out;
double __enzyme_autodiff(void *, ...);
double ext(double);
double g(double x) {
  // CHECK: no-body.c:[[@LINE+1]]:10: error: tapestry: 'ext' has no body in this translation unit, so its derivative cannot be synthesised; define it here, register a derivative for it, or compile every file with -flto and link with -flto -fuse-ld=lld -Wl,--load-pass-plugin=<the Tapestry plugin>
  return __enzyme_autodiff((void *)ext, enzyme_out, x);
}
// CHECK: 1 error generated.
// CHECK-NOT: PLEASE submit a bug report
// CHECK-NOT: Stack dump
