// A split pair names its enzyme_const callback ('wave') only in the
// requests, while another split pair of the same function, in a helper,
// receives its callback as a parameter (review45 F1, F2). No split request
// of 'loss' is then specialised (its halves meet only through the tape),
// so the calls through the callback are dispatched at run time; 'wave',
// whose address appears nowhere but in the requests, was left out of the
// dispatch: a run-time stop ("a function that was not in the translation
// unit"), or a compile error when the helper is never called (-DUNCALLED).
// Expected values analytic: d/dc_i sum c_j phi(c_j) = phi(c_i) + c_i
// phi'(c_i): wave(u) = u sin u, cube(u) = u^3.
// RUN: %clang -O0 %s -lm -o %t0 && %t0 | FileCheck %s
// RUN: %clang -O2 %s -lm -o %t2 && %t2 | FileCheck %s
// RUN: %clang -O3 %s -lm -o %t3 && %t3 | FileCheck %s
// RUN: %clang -O0 -DUNCALLED %s -lm -o %t4 && %t4 | FileCheck %s
// RUN: %clang -O2 -DUNCALLED %s -lm -o %t5 && %t5 | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: ALL PASSED
#include "../Integration/Inputs/check.h"

extern int enzyme_dup, enzyme_const;
typedef struct {
  void *tape;
  double primal;
} AugD;
AugD __enzyme_augmentfwd(void *, ...);
void __enzyme_reverse(void *, ...);
typedef double (*Phi)(double);

static double wave(double u) { return sin(u) * u; }
static double cube(double u) { return u * u * u; }

double loss(const double *c, int n, Phi phi) {
  double s = 0;
  for (int i = 0; i < n; i++)
    s += c[i] * phi(c[i]);
  return s;
}

__attribute__((noinline)) void gradient_of(const double *c, double *dc, int n,
                                           Phi phi) {
  AugD a = __enzyme_augmentfwd((void *)loss, enzyme_dup, c, dc, enzyme_const,
                               n, enzyme_const, phi);
  __enzyme_reverse((void *)loss, enzyme_dup, c, dc, enzyme_const, n,
                   enzyme_const, phi, 1.0, a.tape);
}

int main(void) {
  double c[3] = {0.7, -0.4, 1.3}, dc[3] = {0, 0, 0}, dc2[3] = {0, 0, 0};
  AugD a = __enzyme_augmentfwd((void *)loss, enzyme_dup, c, dc, enzyme_const,
                               3, enzyme_const, wave);
  __enzyme_reverse((void *)loss, enzyme_dup, c, dc, enzyme_const, 3,
                   enzyme_const, wave, 1.0, a.tape);
#ifndef UNCALLED
  gradient_of(c, dc2, 3, cube);
#endif
  for (int i = 0; i < 3; i++) {
    double u = c[i];
    check_close("named callback", dc[i], sin(u) * u + u * (cos(u) * u + sin(u)),
                1e-12);
#ifndef UNCALLED
    check_close("callback through a helper", dc2[i], 4 * u * u * u, 1e-12);
#endif
  }
  return check_report();
}
