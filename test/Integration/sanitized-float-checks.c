// UBSan's checks on floating-point values (-fsanitize=float-cast-overflow,
// float-divide-by-zero, both in -fsanitize=undefined) pass the operand's
// bits as an integer to __ubsan_handle_*: they carry no derivative, and
// were refused as "a double is reinterpreted as a long" (probe45b F5).
// -fsanitize=object-size measures locals (llvm.objectsize) and passes
// their addresses to its checks, which made __enzyme_fwdsplit refuse a
// rerun ("memory it may read may be written in between"). Expected values
// analytic: f(x) = (x - k)^2 + k x with k = (int)x, f'(x) = 2 (x - k) + k;
// g(x) = 1 / x + x, g' = 1 - 1 / x^2; h(x) = sum exp(x_i) x_{i+1 mod 3}.
// RUN: %clang -O0 -fsanitize=undefined %s -lm -o %t0 && %t0 2>&1 | FileCheck %s
// RUN: %clang -O1 -fsanitize=undefined %s -lm -o %t1 && %t1 2>&1 | FileCheck %s
// RUN: %clang -O2 -fsanitize=float-cast-overflow,float-divide-by-zero %s -lm -o %t2 && %t2 2>&1 | FileCheck %s
// RUN: %clang -O1 -fsanitize=object-size -DFWDSPLIT %s -lm -o %t3 && %t3 2>&1 | FileCheck %s
// RUN: %clang -O2 -fsanitize=object-size -DFWDSPLIT %s -lm -o %t4 && %t4 2>&1 | FileCheck %s
// RUN: %clang -O1 -fsanitize=undefined -DFWDSPLIT %s -lm -o %t5 && %t5 2>&1 | FileCheck %s
// RUN: %clang -O2 -fsanitize=undefined -DFWDSPLIT %s -lm -o %t6 && %t6 2>&1 | FileCheck %s
// CHECK-NOT: {{FAIL|runtime error}}
// CHECK: ALL PASSED
#include "Inputs/check.h"

extern int enzyme_out, enzyme_dup, enzyme_const;
double __enzyme_autodiff(void *, ...);
double __enzyme_fwddiff(void *, ...);

double f(double x) {
  int k = (int)x;
  return (x - k) * (x - k) + k * x;
}
float g(float x) { return 1.0f / x + x; }

double h(const double *x, int n) {
  double s = 0;
  for (int i = 0; i < n; i++)
    s += exp(x[i]) * x[(i + 1) % n];
  return s;
}

#ifdef FWDSPLIT
typedef struct {
  void *tape;
  double primal;
} AugD;
AugD __enzyme_augmentfwd(void *, ...);
double __enzyme_fwdsplit(void *, ...);
#endif

int main(void) {
  for (double x = 0.5; x < 4; x += 0.9) {
    int k = (int)x;
    check_close("reverse f'", __enzyme_autodiff((void *)f, enzyme_out, x),
                2 * (x - k) + k, 1e-12);
    check_close("forward f'", __enzyme_fwddiff((void *)f, x, 1.0),
                2 * (x - k) + k, 1e-12);
    float y = (float)x;
    check_close("reverse g' (float)",
                __enzyme_autodiff((void *)g, enzyme_out, y),
                1.0f - 1.0f / (y * y), 1e-5);
  }
  double x[3] = {0.1, 0.4, -0.3}, t[3] = {1, 0.5, -1};
  double want = 0;
  for (int i = 0; i < 3; i++)
    want += t[i] * exp(x[i]) * x[(i + 1) % 3] + t[(i + 1) % 3] * exp(x[i]);
#ifdef FWDSPLIT
  AugD a = __enzyme_augmentfwd((void *)h, enzyme_dup, x, t, enzyme_const, 3);
  double dh = __enzyme_fwdsplit((void *)h, enzyme_dup, x, t, enzyme_const, 3,
                                a.tape);
  check_close("split primal", a.primal, h(x, 3), 1e-15);
  check_close("fwdsplit tangent", dh, want, 1e-12);
#endif
  check_close("fwddiff tangent",
              __enzyme_fwddiff((void *)h, enzyme_dup, x, t, enzyme_const, 3),
              want, 1e-12);
  return check_report();
}
