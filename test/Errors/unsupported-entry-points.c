// The entry points of Enzyme's API that Tapestry does not implement yet are
// each an error at the call that names the feature, not an undefined symbol
// at link time (nor a user definition silently called).
// RUN: not %clang -O0 -g -c %s -o /dev/null -DENTRY=__enzyme_checkpoint_for 2>&1 | FileCheck %s --check-prefixes=CHECK,OTHER -DENTRY=__enzyme_checkpoint_for -DFEATURE="user control of checkpointing"
// Truncation's older spellings (the current ones are in test/EntryPoints).
// RUN: not %clang -O0 -g -c %s -o /dev/null -DENTRY=__enzyme_truncate_func 2>&1 | FileCheck %s --check-prefixes=CHECK,OTHER -DENTRY=__enzyme_truncate_func -DFEATURE="floating-point truncation under an older name"
// RUN: not %clang -O0 -g -c %s -o /dev/null -DENTRY=__enzyme_expand_value 2>&1 | FileCheck %s --check-prefixes=CHECK,OTHER -DENTRY=__enzyme_expand_value -DFEATURE="floating-point truncation under an older name"
// RUN: not %clang -O0 -g -c %s -o /dev/null -DENTRY=__enzyme_madeup 2>&1 | FileCheck %s --check-prefix=UNKNOWN
// CHECK-NOT: PLEASE submit a bug report
// CHECK-NOT: Stack dump
extern int enzyme_out;
void *ENTRY(void *, ...);
double f(double x) { return x * x; }
void *g(double x) {
  // CHECK: unsupported-entry-points.c:[[@LINE+3]]:10: error: tapestry: [[ENTRY]] is Enzyme's entry point for [[FEATURE]]
  // OTHER-SAME: {{.*}}; Tapestry does not support it yet
  // UNKNOWN: unsupported-entry-points.c:[[@LINE+1]]:10: error: tapestry: __enzyme_madeup is not an Enzyme entry point Tapestry knows
  return ENTRY((void *)f, enzyme_out, x);
}
// CHECK: 1 error generated.
// CHECK-NOT: PLEASE submit a bug report
// CHECK-NOT: Stack dump
