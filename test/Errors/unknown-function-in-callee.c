// A function with no body and no registered derivative, called with active
// arguments not by the differentiated function itself but by a non-inlined
// callee of it (a double argument), or given active memory (a pointer
// argument), is an error at that call which names the function and says how
// to supply its derivative, in reverse and forward mode.
// RUN: not %clang -O0 -g -c %s -o /dev/null 2>&1 | FileCheck %s
// RUN: not %clang -O2 -g -c %s -o /dev/null 2>&1 | FileCheck %s
// RUN: not %clang -O0 -g -c %s -o /dev/null -DFWD 2>&1 | FileCheck %s --check-prefix=FWD
// RUN: not %clang -O2 -g -c %s -o /dev/null -DFWD 2>&1 | FileCheck %s --check-prefix=FWD
// CHECK-NOT: PLEASE submit a bug report
// CHECK-NOT: Stack dump
// FWD-NOT: PLEASE submit a bug report
// FWD-NOT: Stack dump
extern int enzyme_out, enzyme_dup;
double __enzyme_autodiff(void *, ...);
double __enzyme_fwddiff(void *, ...);
double mystery2(double, double);
void mystery_vec(double *x, int n);

__attribute__((noinline)) double helper(double x) {
  // CHECK-DAG: unknown-function-in-callee.c:[[@LINE+2]]:10: error: tapestry: cannot differentiate '{{f|helper}}': no derivative is known for external function 'mystery2': give its body, register one with 'void *__enzyme_register_gradient_mystery2[3] = {(void*)mystery2, (void*)aug, (void*)rev};' or 'void *__enzyme_register_derivative_mystery2[2] = {(void*)mystery2, (void*)fwd};', or, only if nothing it returns or writes depends on differentiated values (it only prints or checks them), declare it inactive with 'void *__enzyme_inactivefn[] = {(void*)mystery2};'
  // FWD-DAG: unknown-function-in-callee.c:[[@LINE+1]]:10: error: tapestry: cannot differentiate '{{f|helper}}': no derivative is known for external function 'mystery2': give its body, register one with {{.*}}__enzyme_register_derivative_mystery2{{.*}}
  return mystery2(x, 2.0) + x;
}
double f(double x) { return helper(x * x); }

double h(double *x) {
  // CHECK-DAG: unknown-function-in-callee.c:[[@LINE+2]]:3: error: tapestry: cannot differentiate 'h': no derivative is known for external function 'mystery_vec': give its body, register one with 'void *__enzyme_register_gradient_mystery_vec[3] = {(void*)mystery_vec, (void*)aug, (void*)rev};' or 'void *__enzyme_register_derivative_mystery_vec[2] = {(void*)mystery_vec, (void*)fwd};', or, only if nothing it returns or writes depends on differentiated values (it only prints or checks them), declare it inactive with 'void *__enzyme_inactivefn[] = {(void*)mystery_vec};'
  // FWD-DAG: unknown-function-in-callee.c:[[@LINE+1]]:3: error: tapestry: cannot differentiate 'h': no derivative is known for external function 'mystery_vec'
  mystery_vec(x, 3);
  return x[0] * x[1];
}

#ifndef FWD
double g(double x) { return __enzyme_autodiff((void *)f, enzyme_out, x); }
void gh(double *x, double *dx) {
  __enzyme_autodiff((void *)h, enzyme_dup, x, dx);
}
#else
double g(double x) { return __enzyme_fwddiff((void *)f, enzyme_dup, x, 1.0); }
double gh(double *x, double *dx) {
  return __enzyme_fwddiff((void *)h, enzyme_dup, x, dx);
}
#endif
// CHECK: 2 errors generated.
// CHECK-NOT: PLEASE submit a bug report
// CHECK-NOT: Stack dump
// FWD: 2 errors generated.
// FWD-NOT: PLEASE submit a bug report
// FWD-NOT: Stack dump
