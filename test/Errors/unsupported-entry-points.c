// The entry points of Enzyme's API that Tapestry does not implement yet are
// each an error at the call that names the feature, not an undefined symbol
// at link time (nor a user definition silently called).
// RUN: not %clang -O0 -g -c %s -o /dev/null -DENTRY=__enzyme_virtualreverse 2>&1 | FileCheck %s -DENTRY=__enzyme_virtualreverse -DFEATURE="a reverse-mode derivative as a function pointer"
// RUN: not %clang -O2 -g -c %s -o /dev/null -DENTRY=__enzyme_virtualreverse 2>&1 | FileCheck %s -DENTRY=__enzyme_virtualreverse -DFEATURE="a reverse-mode derivative as a function pointer"
// RUN: not %clang -O0 -g -c %s -o /dev/null -DENTRY=__enzyme_error_estimate 2>&1 | FileCheck %s -DENTRY=__enzyme_error_estimate -DFEATURE="forward-mode floating-point error estimation"
// RUN: not %clang -O2 -g -c %s -o /dev/null -DENTRY=__enzyme_error_estimate 2>&1 | FileCheck %s -DENTRY=__enzyme_error_estimate -DFEATURE="forward-mode floating-point error estimation"
// RUN: not %clang -O0 -g -c %s -o /dev/null -DENTRY=__enzyme_iter 2>&1 | FileCheck %s -DENTRY=__enzyme_iter -DFEATURE="the derivative-order counter"
// RUN: not %clang -O0 -g -c %s -o /dev/null -DENTRY=__enzyme_truncate_mem_func 2>&1 | FileCheck %s -DENTRY=__enzyme_truncate_mem_func -DFEATURE="floating-point truncation"
// RUN: not %clang -O2 -g -c %s -o /dev/null -DENTRY=__enzyme_truncate_op_func 2>&1 | FileCheck %s -DENTRY=__enzyme_truncate_op_func -DFEATURE="floating-point truncation"
// RUN: not %clang -O0 -g -c %s -o /dev/null -DENTRY=__enzyme_truncate_mem_value 2>&1 | FileCheck %s -DENTRY=__enzyme_truncate_mem_value -DFEATURE="floating-point truncation"
// RUN: not %clang -O0 -g -c %s -o /dev/null -DENTRY=__enzyme_expand_mem_value 2>&1 | FileCheck %s -DENTRY=__enzyme_expand_mem_value -DFEATURE="floating-point truncation"
// RUN: not %clang -O0 -g -c %s -o /dev/null -DENTRY=__enzyme_madeup 2>&1 | FileCheck %s --check-prefix=UNKNOWN
// CHECK-NOT: PLEASE submit a bug report
// CHECK-NOT: Stack dump
extern int enzyme_out;
void *ENTRY(void *, ...);
double f(double x) { return x * x; }
void *g(double x) {
  // CHECK: unsupported-entry-points.c:[[@LINE+2]]:10: error: tapestry: [[ENTRY]] is Enzyme's entry point for [[FEATURE]]{{.*}}; Tapestry does not support it yet
  // UNKNOWN: unsupported-entry-points.c:[[@LINE+1]]:10: error: tapestry: __enzyme_madeup is not an Enzyme entry point Tapestry knows
  return ENTRY((void *)f, enzyme_out, x);
}
// CHECK: 1 error generated.
// CHECK-NOT: PLEASE submit a bug report
// CHECK-NOT: Stack dump
