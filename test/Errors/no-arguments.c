// A request with no arguments at all (possible with an unprototyped
// declaration) is an error asking for the function to differentiate.
// RUN: not %clang -O0 -g -c %s -o /dev/null 2>&1 | FileCheck %s
// RUN: not %clang -O2 -g -c %s -o /dev/null 2>&1 | FileCheck %s
// CHECK-NOT: PLEASE submit a bug report
// CHECK-NOT: Stack dump
double __enzyme_autodiff();
double g(void) {
  // CHECK: no-arguments.c:[[@LINE+1]]:10: error: tapestry: the call to __enzyme_autodiff needs the function to differentiate as its first argument
  return __enzyme_autodiff();
}
// CHECK: 1 error generated.
// CHECK-NOT: PLEASE submit a bug report
// CHECK-NOT: Stack dump
