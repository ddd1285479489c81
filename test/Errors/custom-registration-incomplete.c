// A function with no body that has a registered derivative for one mode only
// is an error when the other mode is requested, naming the function and the
// registration to add; a gradient registration with two entries instead of
// {f, aug, rev} is an error that names the registration.
// RUN: not %clang -O0 -g -c %s -o /dev/null 2>&1 | FileCheck %s
// RUN: not %clang -O2 -g -c %s -o /dev/null 2>&1 | FileCheck %s
// CHECK-NOT: PLEASE submit a bug report
// CHECK-NOT: Stack dump
extern int enzyme_out, enzyme_dup;
double __enzyme_autodiff(void *, ...);
double __enzyme_fwddiff(void *, ...);

double only_fwd(double);
double only_fwd_d(double x, double dx) {
  (void)x;
  return dx;
}
void *__enzyme_register_derivative_only_fwd[2] = {(void *)only_fwd,
                                                  (void *)only_fwd_d};
double only_rev(double);
double only_rev_aug(double x) { return x; }
double only_rev_r(double x, double d) {
  (void)x;
  return d;
}
void *__enzyme_register_gradient_only_rev[3] = {
    (void *)only_rev, (void *)only_rev_aug, (void *)only_rev_r};

// CHECK-DAG: custom-registration-incomplete.c:[[@LINE+1]]:33: error: tapestry: cannot differentiate 'use_d': 'only_fwd' has a registered forward derivative but no gradient; register one with __enzyme_register_gradient_only_fwd
double use_d(double x) { return only_fwd(x) * x; }
// CHECK-DAG: custom-registration-incomplete.c:[[@LINE+1]]:33: error: tapestry: cannot differentiate 'use_e': 'only_rev' has a registered gradient but no forward derivative; register one with __enzyme_register_derivative_only_rev
double use_e(double x) { return only_rev(x) * x; }
double gd(double x) { return __enzyme_autodiff((void *)use_d, enzyme_out, x); }
double ge(double x) {
  return __enzyme_fwddiff((void *)use_e, enzyme_dup, x, 1.0);
}

__attribute__((noinline)) double k(double x) { return x * x; }
double k_aug(double x) { return k(x); }
// CHECK-DAG: custom-registration-incomplete.c:{{[0-9]+}}:{{[0-9]+}}: error: tapestry: in '__enzyme_register_gradient_k': a gradient registration must be {(void *)f, (void *)aug, (void *)rev}
void *__enzyme_register_gradient_k[2] = {(void *)k, (void *)k_aug};
double use_k(double x) { return k(x) + 1; }
double gk(double x) { return __enzyme_autodiff((void *)use_k, enzyme_out, x); }
// CHECK: 3 errors generated.
// CHECK-NOT: PLEASE submit a bug report
// CHECK-NOT: Stack dump
