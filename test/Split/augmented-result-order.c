// The augmented forward's results are the tape and the primal value; Enzyme's
// users declare the struct that receives them either way round
// ({void *tape; double primal;} or {double primal; void *tape;}). Where each
// member's type tells which result it is, both work; a declared struct that
// matches neither way is an error (test/Errors/return-member-type.c).
// RUN: %clang -O0 %s -lm -o %t0 && %t0 | FileCheck %s
// RUN: %clang -O2 %s -lm -o %t2 && %t2 | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: ALL PASSED
#include "../Integration/Inputs/check.h"

typedef struct {
  void *tape;
  double primal;
} TapeFirst;
typedef struct {
  double primal;
  void *tape;
} PrimalFirst;
TapeFirst __enzyme_augmentfwd(void *, double);
PrimalFirst __enzyme_augmentfwd_pf(void *, double);
double __enzyme_reverse(void *, double, double, void *);

double cube(double x) { return x * x * sin(x); }

int main(void) {
  double x = 0.7, want = 2 * x * sin(x) + x * x * cos(x);
  TapeFirst a = __enzyme_augmentfwd((void *)cube, x);
  check_close("primal (tape first)", a.primal, cube(x), 1e-15);
  check_close("derivative (tape first)",
              __enzyme_reverse((void *)cube, x, 1.0, a.tape), want, 1e-14);
  PrimalFirst b = __enzyme_augmentfwd_pf((void *)cube, x);
  check_close("primal (primal first)", b.primal, cube(x), 1e-15);
  check_close("derivative (primal first)",
              __enzyme_reverse((void *)cube, x, 2.0, b.tape), 2 * want, 1e-14);
  return check_report();
}
