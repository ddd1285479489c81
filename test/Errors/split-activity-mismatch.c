// The reverse half must ask for the same derivative as the augmented forward
// that filled its tape: a different activity is a compile error that shows
// both requests, whether the tape is returned or in a caller buffer.
// RUN: not %clang -O0 -g -c %s -o /dev/null 2>&1 | FileCheck %s
// RUN: not %clang -O2 -g -c %s -o /dev/null 2>&1 | FileCheck %s
// CHECK-NOT: PLEASE submit a bug report
extern int enzyme_dup, enzyme_const, enzyme_allocated, enzyme_tape;
void *__enzyme_augmentfwd(void *, ...);
void __enzyme_reverse(void *, ...);
void mul(double *x, double *y) { y[0] = x[0] * y[0]; }
void returned(double *x, double *dx, double *y, double *dy) {
  void *tape = __enzyme_augmentfwd((void *)mul, enzyme_dup, x, dx, enzyme_dup,
                                   y, dy);
  // CHECK-DAG: split-activity-mismatch.c:[[@LINE+1]]:3: error: tapestry: this __enzyme_reverse asks for the split reverse derivative of 'mul' (enzyme_const, enzyme_dup), but its tape comes from the __enzyme_augmentfwd at line [[@LINE-2]] for the split reverse derivative of 'mul' (enzyme_dup, enzyme_dup); both halves must name the same function with the same activity markers
  __enzyme_reverse((void *)mul, enzyme_const, x, enzyme_dup, y, dy, tape);
}
void buffered(double *x, double *dx, double *y, double *dy) {
  char buf[256];
  __enzyme_augmentfwd((void *)mul, enzyme_allocated, sizeof buf, enzyme_tape,
                      buf, enzyme_dup, x, dx, enzyme_dup, y, dy);
  // CHECK-DAG: split-activity-mismatch.c:[[@LINE+1]]:3: error: tapestry: this __enzyme_reverse asks for the split reverse derivative of 'mul' (enzyme_dup, enzyme_const), but its tape comes from the __enzyme_augmentfwd at line [[@LINE-2]] for the split reverse derivative of 'mul' (enzyme_dup, enzyme_dup)
  __enzyme_reverse((void *)mul, enzyme_allocated, sizeof buf, enzyme_tape, buf,
                   enzyme_dup, x, dx, enzyme_const, y);
}
// CHECK: 2 errors generated.
