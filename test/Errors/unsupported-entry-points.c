// The other entry points of Enzyme's API that Tapestry does not implement
// yet are each an error at the call, not an undefined symbol at link time.
// RUN: not %clang -O0 -g -c %s -o /dev/null -DENTRY=__enzyme_fwdsplit 2>&1 | FileCheck %s -DENTRY=__enzyme_fwdsplit
// RUN: not %clang -O2 -g -c %s -o /dev/null -DENTRY=__enzyme_fwdsplit 2>&1 | FileCheck %s -DENTRY=__enzyme_fwdsplit
// RUN: not %clang -O0 -g -c %s -o /dev/null -DENTRY=__enzyme_virtualreverse 2>&1 | FileCheck %s -DENTRY=__enzyme_virtualreverse
// RUN: not %clang -O2 -g -c %s -o /dev/null -DENTRY=__enzyme_virtualreverse 2>&1 | FileCheck %s -DENTRY=__enzyme_virtualreverse
// RUN: not %clang -O0 -g -c %s -o /dev/null -DENTRY=__enzyme_batch 2>&1 | FileCheck %s -DENTRY=__enzyme_batch
// RUN: not %clang -O2 -g -c %s -o /dev/null -DENTRY=__enzyme_batch 2>&1 | FileCheck %s -DENTRY=__enzyme_batch
// RUN: not %clang -O0 -g -c %s -o /dev/null -DENTRY=__enzyme_todense 2>&1 | FileCheck %s -DENTRY=__enzyme_todense
// RUN: not %clang -O2 -g -c %s -o /dev/null -DENTRY=__enzyme_todense 2>&1 | FileCheck %s -DENTRY=__enzyme_todense
// RUN: not %clang -O0 -g -c %s -o /dev/null -DENTRY=__enzyme_truncate 2>&1 | FileCheck %s -DENTRY=__enzyme_truncate
// RUN: not %clang -O2 -g -c %s -o /dev/null -DENTRY=__enzyme_truncate 2>&1 | FileCheck %s -DENTRY=__enzyme_truncate
// CHECK-NOT: PLEASE submit a bug report
// CHECK-NOT: Stack dump
extern int enzyme_out;
void *ENTRY(void *, ...);
double f(double x) { return x * x; }
void *g(double x) {
  // CHECK: unsupported-entry-points.c:[[@LINE+1]]:10: error: tapestry: [[ENTRY]] is not supported yet; use __enzyme_autodiff, __enzyme_fwddiff or split mode (__enzyme_augmentfwd and __enzyme_reverse)
  return ENTRY((void *)f, enzyme_out, x);
}
// CHECK: 1 error generated.
// CHECK-NOT: PLEASE submit a bug report
// CHECK-NOT: Stack dump
