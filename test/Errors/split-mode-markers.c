// Split-mode markers outside split mode are an error at the call that says
// where they belong.
// RUN: not %clang -O0 -g -c %s -o /dev/null -DM=enzyme_tape 2>&1 | FileCheck %s -DM=enzyme_tape
// RUN: not %clang -O2 -g -c %s -o /dev/null -DM=enzyme_tape 2>&1 | FileCheck %s -DM=enzyme_tape
// RUN: not %clang -O0 -g -c %s -o /dev/null -DM=enzyme_allocated 2>&1 | FileCheck %s -DM=enzyme_allocated
// RUN: not %clang -O2 -g -c %s -o /dev/null -DM=enzyme_allocated 2>&1 | FileCheck %s -DM=enzyme_allocated
// RUN: not %clang -O0 -g -c %s -o /dev/null -DM=enzyme_nofree 2>&1 | FileCheck %s -DM=enzyme_nofree
// RUN: not %clang -O2 -g -c %s -o /dev/null -DM=enzyme_nofree 2>&1 | FileCheck %s -DM=enzyme_nofree
// CHECK-NOT: PLEASE submit a bug report
// CHECK-NOT: Stack dump
extern int enzyme_out, M;
double __enzyme_autodiff(void *, ...);
double f(double x) { return x * x; }
double g(double x) {
  // CHECK: split-mode-markers.c:[[@LINE+1]]:10: error: tapestry: [[M]] is a split-mode marker; it is valid with __enzyme_augmentfwd, __enzyme_reverse, __enzyme_fwdsplit and __enzyme_augmentsize, not with __enzyme_autodiff
  return __enzyme_autodiff((void *)f, M, enzyme_out, x);
}
// CHECK: 1 error generated.
// CHECK-NOT: PLEASE submit a bug report
// CHECK-NOT: Stack dump
