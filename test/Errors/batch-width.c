// Batch (vector) mode is not supported yet: enzyme_width, enzyme_dupv and
// enzyme_dupnoneedv are each an error at the call.
// RUN: not %clang -O0 -g -c %s -o /dev/null 2>&1 | FileCheck %s
// RUN: not %clang -O2 -g -c %s -o /dev/null 2>&1 | FileCheck %s
// RUN: not %clang -O0 -g -c %s -o /dev/null -DDUPV=enzyme_dupv 2>&1 | FileCheck %s --check-prefix=DUPV -DM=enzyme_dupv
// RUN: not %clang -O2 -g -c %s -o /dev/null -DDUPV=enzyme_dupv 2>&1 | FileCheck %s --check-prefix=DUPV -DM=enzyme_dupv
// RUN: not %clang -O0 -g -c %s -o /dev/null -DDUPV=enzyme_dupnoneedv 2>&1 | FileCheck %s --check-prefix=DUPV -DM=enzyme_dupnoneedv
// RUN: not %clang -O2 -g -c %s -o /dev/null -DDUPV=enzyme_dupnoneedv 2>&1 | FileCheck %s --check-prefix=DUPV -DM=enzyme_dupnoneedv
// CHECK-NOT: PLEASE submit a bug report
// CHECK-NOT: Stack dump
// DUPV-NOT: PLEASE submit a bug report
// DUPV-NOT: Stack dump
extern int enzyme_width, enzyme_dup, enzyme_dupv, enzyme_dupnoneedv;
typedef struct { double d[2]; } D2;
D2 __enzyme_fwddiff(void *, ...);
double f(double x) { return x * x; }
double h(double *p) { return *p * *p; }
#ifndef DUPV
D2 g(double x) {
  // CHECK: batch-width.c:[[@LINE+1]]:10: error: tapestry: batch mode (enzyme_width) is not supported yet
  return __enzyme_fwddiff((void *)f, enzyme_width, 2, enzyme_dup, x, 1.0, 2.0);
}
#else
D2 g(double *p, double *dp) {
  // DUPV: batch-width.c:[[@LINE+1]]:10: error: tapestry: batch mode ([[M]]) is not supported yet
  return __enzyme_fwddiff((void *)h, DUPV, sizeof(double), p, dp);
}
#endif
// CHECK: 1 error generated.
// CHECK-NOT: PLEASE submit a bug report
// CHECK-NOT: Stack dump
// DUPV: 1 error generated.
// DUPV-NOT: PLEASE submit a bug report
// DUPV-NOT: Stack dump
