// Tapestry's __enzyme_fwdsplit runs the function again (Enzyme reads the
// values from the tape), so the memory the function reads must not change
// between __enzyme_augmentfwd and __enzyme_fwdsplit. A time stepper that
// overwrites its state in between got dy = 18 instead of 6 (and the primal
// output written a second time) with no error; it is now an error at the
// call. Setting the tangents in between stays fine
// (test/EntryPoints/fwdsplit.c).
// RUN: not %clang -O0 -g -c %s -o /dev/null 2>&1 | FileCheck %s
// RUN: not %clang -O2 -g -c %s -o /dev/null 2>&1 | FileCheck %s
// CHECK-NOT: PLEASE submit a bug report
extern int enzyme_dup;
void *__enzyme_augmentfwd(void *, ...);
void __enzyme_fwdsplit(void *, ...);

__attribute__((noinline)) void step(const double *x, double *y) {
  y[0] = x[0] * x[0];
}

void run(double *x, double *dx, double *y, double *dy) {
  void *t = __enzyme_augmentfwd((void *)step, enzyme_dup, x, dx, enzyme_dup,
                                y, dy);
  x[0] = y[0]; /* the next state */
  dx[0] = 1;
  // CHECK: fwdsplit-inputs-changed.c:[[@LINE+1]]:3: error: tapestry: Tapestry's __enzyme_fwdsplit computes the tangent by running 'step' again {{.*}} so it needs the values __enzyme_augmentfwd saw, but memory it may read may be written in between {{.*}} or use __enzyme_fwddiff
  __enzyme_fwdsplit((void *)step, enzyme_dup, x, dx, enzyme_dup, y, dy, t);
}
