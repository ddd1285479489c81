// What __enzyme_error_estimate and __enzyme_iter cannot do is an error at
// the user's line that names the operation and says what to do: batch mode,
// a function with a registered forward derivative (tangents are not
// errors), a BLAS routine, a counter declared with other than integers,
// enzyme_out, and Enzyme's per-operation logger with another signature
// than Enzyme's current one, which Tapestry calls
// (test/EntryPoints/error-estimate-logger.c).
// RUN: not %clang -O0 -g -c %s -o /dev/null -DCASE=1 2>&1 | FileCheck %s --check-prefix=WIDTH
// RUN: not %clang -O2 -g -c %s -o /dev/null -DCASE=1 2>&1 | FileCheck %s --check-prefix=WIDTH
// RUN: not %clang -O0 -g -c %s -o /dev/null -DCASE=2 2>&1 | FileCheck %s --check-prefix=CUSTOM
// RUN: not %clang -O2 -g -c %s -o /dev/null -DCASE=2 2>&1 | FileCheck %s --check-prefix=CUSTOM
// RUN: not %clang -O0 -g -c %s -o /dev/null -DCASE=3 2>&1 | FileCheck %s --check-prefix=BLAS
// RUN: not %clang -O2 -g -c %s -o /dev/null -DCASE=3 2>&1 | FileCheck %s --check-prefix=BLAS
// RUN: not %clang -O0 -g -c %s -o /dev/null -DCASE=4 2>&1 | FileCheck %s --check-prefix=ITER
// RUN: not %clang -O2 -g -c %s -o /dev/null -DCASE=4 2>&1 | FileCheck %s --check-prefix=ITER
// RUN: not %clang -O0 -g -c %s -o /dev/null -DCASE=5 2>&1 | FileCheck %s --check-prefix=OUT
// RUN: not %clang -O0 -g -c %s -o /dev/null -DCASE=6 2>&1 | FileCheck %s --check-prefix=LOGGER
// CHECK-NOT: PLEASE submit a bug report
// CHECK-NOT: Stack dump
extern int enzyme_width, enzyme_dup, enzyme_const, enzyme_out;
double __enzyme_error_estimate(void *, ...);
double cblas_ddot(int, const double *, int, const double *, int);

#if CASE == 1
double f(double x) { return x * x; }
double g(double x) {
  // WIDTH: error-estimate-unsupported.c:[[@LINE+1]]:{{[0-9]+}}: error: tapestry: batch mode (enzyme_width) is not supported with __enzyme_error_estimate, which propagates one error per value
  return __enzyme_error_estimate((void *)f, enzyme_width, 2, x, 0.0, 0.0);
}
#elif CASE == 2
__attribute__((noinline)) double k(double x) { return x * x; }
double k_fwd(double x, double dx) { return 2 * x * dx; }
void *__enzyme_register_derivative_k[2] = {(void *)k, (void *)k_fwd};
// CUSTOM: error-estimate-unsupported.c:[[@LINE+1]]:{{[0-9]+}}: error: tapestry: {{.*}}'k' has a registered forward derivative, which computes tangents, not round-off errors
double f(double x) { return 1 + k(x); }
double g(double x) { return __enzyme_error_estimate((void *)f, x, 0.0); }
#elif CASE == 3
double f(const double *x, const double *y) {
  // BLAS: error-estimate-unsupported.c:[[@LINE+1]]:{{[0-9]+}}: error: tapestry: {{.*}}no model of the round-off error of the BLAS routine 'cblas_ddot'
  return cblas_ddot(3, x, 1, y, 1);
}
double g(double *x, double *ex, double *y, double *ey) {
  return __enzyme_error_estimate((void *)f, enzyme_dup, x, ex, enzyme_dup, y,
                                 ey);
}
#elif CASE == 4
double __enzyme_iter(double, double);
double f(double x) {
  // ITER: error-estimate-unsupported.c:[[@LINE+1]]:{{[0-9]+}}: error: tapestry: __enzyme_iter(N, K) takes two integers and returns one of the same type
  return x * __enzyme_iter(3.0, 1.0);
}
#elif CASE == 6
int count;
void enzymeLogError(const char *id, double err) { ++count; }
double f(double x) { return x * x; }
double g(double x) {
  // LOGGER: error-estimate-unsupported.c:[[@LINE+1]]:{{[0-9]+}}: error: tapestry: this program defines enzymeLogError, a per-operation logger Enzyme calls during __enzyme_error_estimate; Tapestry calls only enzymeLogError(double res, double err, const char *opcode, const char *callee, const char *module, const char *function, const char *block), Enzyme's current logger
  return __enzyme_error_estimate((void *)f, x, 0.0);
}
#else
double f(double x) { return x * x; }
double g(double x) {
  // OUT: error-estimate-unsupported.c:[[@LINE+1]]:{{[0-9]+}}: error: tapestry: enzyme_out is not valid in forward mode (__enzyme_error_estimate)
  return __enzyme_error_estimate((void *)f, enzyme_out, x);
}
#endif
