// Markers in the wrong place are errors at the call naming them.
// RUN: not %clang -O0 -g -c %s -o /dev/null 2>&1 | FileCheck %s
// RUN: not %clang -O2 -g -c %s -o /dev/null 2>&1 | FileCheck %s
// CHECK-NOT: PLEASE submit a bug report
extern int enzyme_dup, enzyme_out, enzyme_vector, enzyme_scalar, enzyme_width,
    enzyme_interleave, enzyme_foo;
double __enzyme_autodiff(void *, ...);
double __enzyme_fwddiff(void *, ...);
typedef struct {
  double a, b;
} two;
two __enzyme_batch(void *, ...);
double f(double x, double y) { return x * y; }

double vector_in_autodiff(double x, double y) {
  // CHECK-DAG: marker-misuse.c:[[@LINE+1]]:10: error: tapestry: enzyme_vector marks an argument of __enzyme_batch (one value per lane, or one shared by all lanes); it is not valid in __enzyme_autodiff
  return __enzyme_autodiff((void *)f, enzyme_vector, x, enzyme_out, y);
}

double unknown(double x, double y) {
  // CHECK-DAG: marker-misuse.c:[[@LINE+1]]:10: error: tapestry: unknown marker 'enzyme_foo' in the call to __enzyme_fwddiff; Tapestry knows enzyme_const, enzyme_dup, enzyme_dupnoneed, enzyme_out, {{.*}} and tapestry_reusable_tape
  return __enzyme_fwddiff((void *)f, enzyme_foo, x, 1.0, y, 0.0);
}

double two_interleaves(double x, double y) {
  // CHECK-DAG: marker-misuse.c:[[@LINE+1]]:10: error: tapestry: enzyme_interleave appears twice in the call to __enzyme_fwddiff
  return __enzyme_fwddiff((void *)f, x, enzyme_interleave, y, enzyme_interleave, 1.0, 0.0);
}

double batch_no_width(double x, double y) {
  // CHECK-DAG: marker-misuse.c:[[@LINE+1]]:10: error: tapestry: __enzyme_batch takes enzyme_width, N right after the function
  return __enzyme_batch((void *)f, x, y).a;
}

double batch_too_few(double x, double y) {
  // CHECK-DAG: marker-misuse.c:[[@LINE+1]]:10: error: tapestry: too few arguments: the call to __enzyme_batch ends before the value of lane 1 of parameter 2 of 'f' (double)
  return __enzyme_batch((void *)f, enzyme_width, 2, x, y, enzyme_vector, y).b;
}
// CHECK-NOT: PLEASE submit a bug report
