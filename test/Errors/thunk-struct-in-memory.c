// A thunk of a function that returns a struct through memory (sret) or
// takes one by value through memory (byval): its halves are called through
// C function pointers that cannot pass the struct the same way, so the
// reverse crashed and the forward returned a wrong primal silently
// (probe25a F1). Now an error at the request. A struct returned in
// registers (two doubles) works, its seed passed by value (SEED: checked
// against the analytic gradient of (r cos t, r sin t) seeded with (1, 0.5)).
// RUN: not %clang -O0 -c %s -o /dev/null -DSRET 2>&1 | FileCheck %s --check-prefix=SRET
// RUN: not %clang -O2 -c %s -o /dev/null -DBYVAL 2>&1 | FileCheck %s --check-prefix=BYVAL
// RUN: %clang -O0 %s -lm -o %t0 && %t0 | FileCheck %s
// RUN: %clang -O2 %s -lm -o %t2 && %t2 | FileCheck %s
// SRET: error: tapestry: the thunk of 'sph' is not supported: it returns a struct through memory (larger than two registers), which the thunk's halves, called through C function pointers, would not receive the same way; pass the struct through a pointer (and return it through one), or use __enzyme_augmentfwd and __enzyme_reverse
// BYVAL: error: tapestry: the thunk of 'weigh' is not supported: it takes a struct by value through memory (parameter 2, larger than two registers)
// CHECK-NOT: FAIL
// CHECK: ALL PASSED
#include "../Integration/Inputs/check.h"
#include <tapestry/enzyme.h>
#include <tapestry/thunk.h>

typedef struct {
  double x, y;
} V2;
typedef struct {
  double x, y, z;
} V3;

V2 polar(const double *rt) {
  V2 v = {rt[0] * cos(rt[1]), rt[0] * sin(rt[1])};
  return v;
}

#ifdef SRET
V3 sph(const double *rt) {
  V3 v = {rt[0] * cos(rt[1]), rt[0] * sin(rt[1]), rt[0] * rt[1]};
  return v;
}
const tapestry_thunk *make(void) {
  return __tapestry_thunk((void *)sph, enzyme_dup);
}
#endif
#ifdef BYVAL
double weigh(const double *x, V3 w) { return w.x * x[0] + w.y * x[1] + w.z; }
const tapestry_thunk *make(void) {
  return __tapestry_thunk((void *)weigh, enzyme_dup, enzyme_const);
}
#endif

typedef V2 (*Aug)(const double *, double *, void *);
typedef void (*Rev)(const double *, double *, V2, void *, void *);

int main(void) {
  const tapestry_thunk *t = __tapestry_thunk((void *)polar, enzyme_dup);
  double rt[2] = {2.0, 0.5}, drt[2] = {0, 0};
  void *tape = tapestry_tape_new(t);
  V2 p = ((Aug)t->augmented)(rt, drt, tape);
  check_close("primal x", p.x, 2 * cos(0.5), 1e-15);
  check_close("primal y", p.y, 2 * sin(0.5), 1e-15);
  V2 seed = {1.0, 0.5};
  ((Rev)t->reverse)(rt, drt, seed, tape, 0);
  check_close("d/dr", drt[0], cos(0.5) + 0.5 * sin(0.5), 1e-15);
  check_close("d/dt", drt[1], -2 * sin(0.5) + 0.5 * 2 * cos(0.5), 1e-15);
  tapestry_tape_delete(t, tape);
  return check_report();
}
