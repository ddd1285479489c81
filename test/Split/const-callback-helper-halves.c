// The halves of a split request meet only through the tape, so they must
// differentiate the same function even when one of them sees its
// enzyme_const callback as a named function and the other receives it as
// a parameter (a reverse kept in a helper, a forward in a time loop's
// step: probe45a r05). The forward was specialised for the callback and
// the reverse was not: a run-time stop whose reasons did not apply, and a
// wrong number without the tape checks. And __enzyme_augmentsize, which
// passes no callback, gave the unspecialised size (224 bytes) to a forward
// that needed the specialised one (240: probe45a r04). Expected values are
// analytic: d/dc_i sum c_j phi(c_j) = phi(c_i) + c_i phi'(c_i).
// RUN: %clang -O0 %s -lm -o %t0 && %t0 | FileCheck %s
// RUN: %clang -O1 %s -lm -o %t1 && %t1 | FileCheck %s
// RUN: %clang -O2 %s -lm -o %t2 && %t2 | FileCheck %s
// RUN: %clang -O3 %s -lm -o %t3 && %t3 | FileCheck %s
// RUN: %clang_fplugin -O2 -mllvm -tapestry-tape-checks=false %s -lm -o %t4 && %t4 | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: ALL PASSED
#include "../Integration/Inputs/check.h"
#include <stdlib.h>

extern int enzyme_dup, enzyme_const, enzyme_allocated, enzyme_tape;
typedef struct {
  void *tape;
  double primal;
} AugD;
AugD __enzyme_augmentfwd(void *, ...);
double __enzyme_augmentfwd_buf(void *, ...);
void __enzyme_reverse(void *, ...);
long __enzyme_augmentsize(void *, ...);
typedef double (*Phi)(double);

static double wave(double u) { return sin(u) * u; }
static double dwave(double u) { return cos(u) * u + sin(u); }

double loss(const double *c, int n, Phi phi) {
  double s = 0;
  for (int i = 0; i < n; i++)
    s += c[i] * phi(c[i]);
  return s;
}

__attribute__((noinline)) void reverse_in_helper(const double *c, double *dc,
                                                 int n, Phi phi, void *tape) {
  __enzyme_reverse((void *)loss, enzyme_dup, c, dc, enzyme_const, n,
                   enzyme_const, phi, 1.0, tape);
}

__attribute__((noinline)) void *forward_in_helper(const double *c, double *dc,
                                                  int n, Phi phi) {
  return __enzyme_augmentfwd((void *)loss, enzyme_dup, c, dc, enzyme_const, n,
                             enzyme_const, phi)
      .tape;
}

static void check_gradient(const char *what, const double *c,
                           const double *dc, int n) {
  for (int i = 0; i < n; i++)
    check_close(what, dc[i], wave(c[i]) + c[i] * dwave(c[i]), 1e-12);
}

int main(void) {
  double c[3] = {0.7, -0.4, 1.3};
  // The forward names the callback, the reverse receives it.
  double dc[3] = {0, 0, 0};
  AugD a = __enzyme_augmentfwd((void *)loss, enzyme_dup, c, dc, enzyme_const,
                               3, enzyme_const, wave);
  check_close("primal", a.primal, loss(c, 3, wave), 1e-15);
  reverse_in_helper(c, dc, 3, wave, a.tape);
  check_gradient("named forward, reverse in a helper", c, dc, 3);

  // The other way round.
  double dc2[3] = {0, 0, 0};
  void *tape = forward_in_helper(c, dc2, 3, wave);
  __enzyme_reverse((void *)loss, enzyme_dup, c, dc2, enzyme_const, 3,
                   enzyme_const, wave, 1.0, tape);
  check_gradient("forward in a helper, named reverse", c, dc2, 3);

  // A caller's buffer of __enzyme_augmentsize bytes, the callback named in
  // both halves.
  long bytes = __enzyme_augmentsize((void *)loss, enzyme_dup, enzyme_const,
                                    enzyme_const);
  void *buf = malloc(bytes);
  double dc3[3] = {0, 0, 0};
  __enzyme_augmentfwd_buf((void *)loss, enzyme_allocated, bytes, enzyme_tape,
                          buf, enzyme_dup, c, dc3, enzyme_const, 3,
                          enzyme_const, wave);
  __enzyme_reverse((void *)loss, enzyme_allocated, bytes, enzyme_tape, buf,
                   enzyme_dup, c, dc3, enzyme_const, 3, enzyme_const, wave,
                   1.0);
  check_gradient("caller buffer of __enzyme_augmentsize bytes", c, dc3, 3);
  free(buf);
  return check_report();
}
