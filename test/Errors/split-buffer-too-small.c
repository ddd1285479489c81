// A caller tape buffer (enzyme_allocated N) smaller than the tape is a
// compile error that says how big it must be.
// RUN: not %clang -O0 -g -c %s -o /dev/null 2>&1 | FileCheck %s
// RUN: not %clang -O2 -g -c %s -o /dev/null 2>&1 | FileCheck %s
// CHECK-NOT: PLEASE submit a bug report
extern int enzyme_dup, enzyme_const, enzyme_allocated, enzyme_tape;
void __enzyme_augmentfwd(void *, ...);
void scale(double *x, double *y, int n) {
  for (int i = 0; i < n; i++)
    y[i] = x[i] * x[i] * y[i];
}
void fwd(double *x, double *dx, double *y, double *dy, int n) {
  char buf[8];
  // CHECK: split-buffer-too-small.c:[[@LINE+1]]:3: error: tapestry: the tape buffer given with enzyme_allocated has 8 bytes, but the tape of 'scale' for this request needs {{[0-9]+}}; pass a buffer of __enzyme_augmentsize(f, markers...) bytes
  __enzyme_augmentfwd((void *)scale, enzyme_allocated, sizeof buf, enzyme_tape,
                      buf, enzyme_dup, x, dx, enzyme_dup, y, dy, enzyme_const,
                      n);
}
// CHECK: 1 error generated.
