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
  // CHECK-DAG: fwdsplit-inputs-changed.c:[[@LINE+1]]:3: error: tapestry: Tapestry's __enzyme_fwdsplit computes the tangent by running 'step' again {{.*}} so it needs the values __enzyme_augmentfwd saw, but memory it may read may be written in between {{.*}} or use __enzyme_fwddiff
  __enzyme_fwdsplit((void *)step, enzyme_dup, x, dx, enzyme_dup, y, dy, t);
}

void sq(const double *x, double *y) { y[0] = x[0] * x[0]; }

// A second __enzyme_fwdsplit on a tape the first one released (it has no
// enzyme_nofree; test/Split/fwdsplit-twice-nofree.c has the valid form).
void twice(double *x, double *dx, double *y, double *dy) {
  void *t = __enzyme_augmentfwd((void *)sq, enzyme_dup, x, dx, enzyme_dup, y,
                                dy);
  __enzyme_fwdsplit((void *)sq, enzyme_dup, x, dx, enzyme_dup, y, dy, t);
  // CHECK-DAG: fwdsplit-inputs-changed.c:[[@LINE+1]]:3: error: tapestry: Tapestry's __enzyme_fwdsplit computes the tangent by running 'sq' again (Enzyme reads the values from the tape instead), so it needs the values __enzyme_augmentfwd saw, but the tape is released by the __enzyme_fwdsplit at {{.*}}fwdsplit-inputs-changed.c:[[@LINE-1]] before it; give that call enzyme_nofree; call it after __enzyme_augmentfwd in the same function with the same arguments and without changing the memory they point to in between (setting tangents is fine), or use __enzyme_fwddiff
  __enzyme_fwdsplit((void *)sq, enzyme_dup, x, dx, enzyme_dup, y, dy, t);
}
