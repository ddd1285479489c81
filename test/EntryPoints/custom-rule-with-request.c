// Registered rules that compute their derivative with a request of their
// own, as users write them when a function's body is fine to differentiate
// but they want it differentiated on its own: k's custom reverse takes its
// adjoint from __enzyme_autodiff of helper, its custom forward derivative
// from __enzyme_fwddiff of helper. Derivatives that call those rules are
// then differentiated again (forward over reverse, reverse over reverse,
// forward over forward), so each rule's own request must be resolved
// first, although nothing calls a rule (only a registration global names
// it) and the requests that differentiate them are written before them.
// Before the fix, the outer requests were resolved first and stopped at "no
// derivative is known for external function '__enzyme_fwddiff'". helper
// works in a heap scratch array whose length is known only at run time, so
// every derivative records and frees blocks of its own.
// Expected (analytic): k(x) = x sin x, use(x) = x k(x), so
// use' = x k' + k, use'' = x k'' + 2 k', use''' = x k''' + 3 k'', with
// k' = sin x + x cos x, k'' = 2 cos x - x sin x, k''' = -3 sin x - x cos x.
// RUN: %clang -O0 %s -lm -o %t0 && %t0 | FileCheck %s
// RUN: %clang -O1 %s -lm -o %t1 && %t1 | FileCheck %s
// RUN: %clang -O2 %s -lm -o %t2 && %t2 | FileCheck %s
// RUN: %clang -O3 %s -lm -o %t3 && %t3 | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: ALL PASSED
#include "../Integration/Inputs/check.h"
#include <stdlib.h>

extern int enzyme_out, enzyme_dup;
double __enzyme_autodiff(void *, ...);
double __enzyme_fwddiff(void *, ...);

static volatile int parts = 37;

/* x sin x, as a sum of equal parts kept in a heap array. */
double helper(double x) {
  int n = parts;
  double *p = malloc(n * sizeof(double));
  for (int j = 0; j < n; j++)
    p[j] = x * sin(x) / n;
  double s = 0;
  for (int j = 0; j < n; j++)
    s += p[j];
  free(p);
  return s;
}

double k(double x) { return helper(x); }
double k_aug(double x);
double k_rev(double x, double d);
double k_fwd(double x, double dx) {
  return dx * __enzyme_fwddiff((void *)helper, enzyme_dup, x, 1.0);
}
void *__enzyme_register_gradient_k[3] = {(void *)k, (void *)k_aug,
                                         (void *)k_rev};
void *__enzyme_register_derivative_k[2] = {(void *)k, (void *)k_fwd};

double use(double x) { return x * k(x); }
double grad_use(double x) {
  return __enzyme_autodiff((void *)use, enzyme_out, x);
}
double tangent_use(double x) {
  return __enzyme_fwddiff((void *)use, enzyme_dup, x, 1.0);
}
double grad_grad_use(double x) {
  return __enzyme_autodiff((void *)grad_use, enzyme_out, x);
}
double third_use(double x) {
  return __enzyme_fwddiff((void *)grad_grad_use, enzyme_dup, x, 1.0);
}

static volatile double in = 0.7;

int main(void) {
  double x = in, s = sin(x), c = cos(x);
  double k0 = x * s, k1 = s + x * c, k2 = 2 * c - x * s, k3 = -3 * s - x * c;
  double u1 = x * k1 + k0, u2 = x * k2 + 2 * k1, u3 = x * k3 + 3 * k2;
  check_close("use' (reverse, k_rev's own request)", grad_use(x), u1, 1e-12);
  check_close("use' (forward, k_fwd's own request)", tangent_use(x), u1,
              1e-12);
  check_close("use'' (forward over reverse)",
              __enzyme_fwddiff((void *)grad_use, enzyme_dup, x, 1.0), u2,
              1e-12);
  check_close("use'' (reverse over reverse)", grad_grad_use(x), u2, 1e-12);
  check_close("use'' (forward over forward)",
              __enzyme_fwddiff((void *)tangent_use, enzyme_dup, x, 1.0), u2,
              1e-12);
  check_close("use''' (forward over reverse over reverse)", third_use(x), u3,
              1e-11);
  return check_report();
}

/* The reverse rules, after the requests that differentiate them. k_aug runs helper itself (not k,
 * whose forward derivative in turn would be k_fwd). */
double k_aug(double x) { return helper(x); }
double k_rev(double x, double d) {
  return d * __enzyme_autodiff((void *)helper, enzyme_out, x);
}
