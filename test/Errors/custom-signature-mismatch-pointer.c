// More registrations whose types do not fit Enzyme's convention for their
// function, each an error that shows both signatures: an augmented forward
// of a function with a pointer argument that lacks the shadow, a reverse
// that returns nothing though the function has an active double argument, a
// forward rule of a pointer function without the shadow, and a forward rule
// in float for a double function.
// RUN: not %clang -O0 -g -c %s -o /dev/null 2>&1 | FileCheck %s
// RUN: not %clang -O2 -g -c %s -o /dev/null 2>&1 | FileCheck %s
// CHECK-NOT: PLEASE submit a bug report
// CHECK-NOT: Stack dump
extern int enzyme_out, enzyme_dup;
double __enzyme_autodiff(void *, ...);
double __enzyme_fwddiff(void *, ...);

/* aug lacks the shadow of x */
__attribute__((noinline)) void scale(double *x, double s) { x[0] *= s; }
void *scale_aug(double *x, double s) {
  (void)x;
  (void)s;
  return 0;
}
double scale_rev(double *x, double *dx, double s, void *tape) {
  (void)x;
  (void)dx;
  (void)tape;
  return s;
}
void *__enzyme_register_gradient_scale[3] = {
    (void *)scale, (void *)scale_aug, (void *)scale_rev};
// CHECK-DAG: custom-signature-mismatch-pointer.c:[[@LINE+1]]:37: error: tapestry: cannot differentiate 'use_a': the augmented forward 'scale_aug' registered for 'scale' (void (pointer, double)) has type pointer (pointer, double) but must have type pointer (pointer, pointer, double)
double use_a(double *x, double s) { scale(x, s); return x[0]; }

/* rev returns nothing: the adjoint of x is lost */
__attribute__((noinline)) double sq(double x) { return x * x; }
double sq_aug(double x) { return x * x; }
void sq_rev(double x, double d, void *tape) {
  (void)x;
  (void)d;
  (void)tape;
}
void *__enzyme_register_gradient_sq[3] = {(void *)sq, (void *)sq_aug,
                                          (void *)sq_rev};
// CHECK-DAG: custom-signature-mismatch-pointer.c:[[@LINE+1]]:33: error: tapestry: cannot differentiate 'use_b': the reverse 'sq_rev' registered for 'sq' (double (double)) has type void (double, double, pointer) but must have type double (double, double)
double use_b(double x) { return sq(x) + 1; }

/* forward rule of a pointer function without the shadow */
__attribute__((noinline)) double sum2(const double *x) { return x[0] + x[1]; }
double sum2_fwd(const double *x) { return x[0]; }
void *__enzyme_register_derivative_sum2[2] = {(void *)sum2, (void *)sum2_fwd};
// CHECK-DAG: custom-signature-mismatch-pointer.c:[[@LINE+1]]:40: error: tapestry: cannot differentiate 'use_c': the forward derivative 'sum2_fwd' registered for 'sum2' (double (pointer)) has type double (pointer) but must have type double (pointer, pointer)
double use_c(const double *x) { return sum2(x) * 2; }

/* forward rule in float for a double function */
__attribute__((noinline)) double m(double x) { return x * x; }
float m_fwd(float x, float dx) { return 2 * x * dx; }
void *__enzyme_register_derivative_m[2] = {(void *)m, (void *)m_fwd};
// CHECK-DAG: custom-signature-mismatch-pointer.c:[[@LINE+1]]:33: error: tapestry: cannot differentiate 'use_m': the forward derivative 'm_fwd' registered for 'm' (double (double)) has type float (float, float) but must have type double (double, double)
double use_m(double x) { return m(x) + 1; }

void ga(double *x, double *dx, double s) {
  __enzyme_autodiff((void *)use_a, enzyme_dup, x, dx, enzyme_out, s);
}
double gb(double x) { return __enzyme_autodiff((void *)use_b, enzyme_out, x); }
double gc(double *x, double *tx) {
  return __enzyme_fwddiff((void *)use_c, enzyme_dup, x, tx);
}
double gm(double x) {
  return __enzyme_fwddiff((void *)use_m, enzyme_dup, x, 1.0);
}
// CHECK: 4 errors generated.
// CHECK-NOT: PLEASE submit a bug report
// CHECK-NOT: Stack dump
