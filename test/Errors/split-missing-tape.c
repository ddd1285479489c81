// __enzyme_reverse takes the return seed of a function returning double and
// then the tape; leaving them out is an error that says what is missing.
// RUN: not %clang -O0 -g -c %s -o /dev/null 2>&1 | FileCheck %s
// RUN: not %clang -O2 -g -c %s -o /dev/null 2>&1 | FileCheck %s
// CHECK-NOT: PLEASE submit a bug report
extern int enzyme_out;
double __enzyme_reverse(void *, ...);
double sq(double x) { return x * x; }
double no_seed(double x) {
  // CHECK-DAG: split-missing-tape.c:[[@LINE+1]]:10: error: tapestry: too few arguments: the call to __enzyme_reverse ends before the seed of the return value of 'sq' (the reverse takes it after the arguments)
  return __enzyme_reverse((void *)sq, enzyme_out, x);
}
double no_tape(double x) {
  // CHECK-DAG: split-missing-tape.c:[[@LINE+1]]:10: error: tapestry: too few arguments: the call to __enzyme_reverse ends before the tape returned by __enzyme_augmentfwd (the reverse takes it last)
  return __enzyme_reverse((void *)sq, enzyme_out, x, 1.0);
}
double not_a_tape(double x) {
  // CHECK-DAG: split-missing-tape.c:[[@LINE+1]]:10: error: tapestry: the last argument of __enzyme_reverse must be the tape (a pointer) returned by __enzyme_augmentfwd; got double
  return __enzyme_reverse((void *)sq, enzyme_out, x, 1.0, 2.0);
}
// CHECK: 3 errors generated.
