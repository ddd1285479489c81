// A registered derivative whose type does not fit Enzyme's convention for
// its function is an error that shows both signatures, in each mode.
// RUN: not %clang -O0 -g -c %s -o /dev/null 2>&1 | FileCheck %s
// RUN: not %clang -O2 -g -c %s -o /dev/null 2>&1 | FileCheck %s
// CHECK-NOT: PLEASE submit a bug report
// CHECK-NOT: Stack dump
extern int enzyme_out, enzyme_dup;
double __enzyme_autodiff(void *, ...);
double __enzyme_fwddiff(void *, ...);

__attribute__((noinline)) double k(double x) { return x * x; }
double k_aug(double x) { return k(x); }
double k_rev(double x) { return 2 * x; } /* missing the result's adjoint */
double k_fwd(double x) { return 2 * x; } /* missing the tangent */
void *__enzyme_register_gradient_k[3] = {(void *)k, (void *)k_aug,
                                         (void *)k_rev};
void *__enzyme_register_derivative_k[2] = {(void *)k, (void *)k_fwd};

// CHECK-DAG: custom-signature-mismatch.c:[[@LINE+1]]:35: error: tapestry: cannot differentiate 'use': the reverse 'k_rev' registered for 'k' (double (double)) has type double (double) but must have type double (double, double)
double use(double x) { return 1 + k(x); }

// CHECK-DAG: custom-signature-mismatch.c:[[@LINE+1]]:39: error: tapestry: cannot differentiate 'use_fwd': the forward derivative 'k_fwd' registered for 'k' (double (double)) has type double (double) but must have type double (double, double)
double use_fwd(double x) { return 1 + k(x); }

double both(double x) {
  return __enzyme_autodiff((void *)use, enzyme_out, x) +
         __enzyme_fwddiff((void *)use_fwd, enzyme_dup, x, 1.0);
}
// CHECK: 2 errors generated.
// CHECK-NOT: PLEASE submit a bug report
// CHECK-NOT: Stack dump
