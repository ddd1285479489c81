// A thunk's reverse writes its adjoints through its last argument, so any C
// declaration of them works: two floats (one register in the C ABI), three
// doubles (returned through memory in the C ABI), one, or none.
// RUN: %clang -O0 %s -lm -o %t0 && %t0 | FileCheck %s
// RUN: %clang -O2 %s -lm -o %t2 && %t2 | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: ALL PASSED
#include "../Integration/Inputs/check.h"
#include <tapestry/thunk.h>
extern int enzyme_out, enzyme_dup;

float ff(float a, float b) { return a * a * b; }
double f3(double a, double b, double c) { return a * b * sin(c); }
void scale(double *x, double k) { x[0] *= k; }

typedef struct {
  float a, b;
} rff;
typedef struct {
  double a, b, c;
} r3;

int main(void) {
  const tapestry_thunk *t =
      __tapestry_thunk((void *)ff, enzyme_out, enzyme_out);
  void *tape = tapestry_tape_new(t);
  float y = ((float (*)(float, float, void *))t->augmented)(2, 3, tape);
  rff q;
  ((void (*)(float, float, float, void *, rff *))t->reverse)(2, 3, 1.0f, tape,
                                                             &q);
  tapestry_tape_delete(t, tape);
  check_close("ff primal", y, 12, 0);
  check_close("ff da = 2ab", q.a, 12, 0);
  check_close("ff db = a^2", q.b, 4, 0);

  const tapestry_thunk *t3 =
      __tapestry_thunk((void *)f3, enzyme_out, enzyme_out, enzyme_out);
  tape = tapestry_tape_new(t3);
  double z = ((double (*)(double, double, double, void *))t3->augmented)(
      2, 3, 0.5, tape);
  r3 r;
  ((void (*)(double, double, double, double, void *, r3 *))t3->reverse)(
      2, 3, 0.5, 2.0, tape, &r);
  tapestry_tape_delete(t3, tape);
  check_close("f3 primal", z, 6 * sin(0.5), 1e-15);
  check_close("f3 da (seed 2)", r.a, 2 * 3 * sin(0.5), 1e-15);
  check_close("f3 db (seed 2)", r.b, 2 * 2 * sin(0.5), 1e-15);
  check_close("f3 dc (seed 2)", r.c, 2 * 6 * cos(0.5), 1e-15);

  const tapestry_thunk *ts =
      __tapestry_thunk((void *)scale, enzyme_dup, enzyme_out);
  double x = 1.5, dx = 0;
  tape = tapestry_tape_new(ts);
  ((void (*)(double *, double *, double, void *))ts->augmented)(&x, &dx, 4,
                                                                 tape);
  dx = 1; /* seed of x after the call */
  double dk;
  ((void (*)(double *, double *, double, void *, double *))ts->reverse)(
      &x, &dx, 4, tape, &dk);
  tapestry_tape_delete(ts, tape);
  check_close("scale primal", x, 6, 0);
  check_close("scale dx = k", dx, 4, 0);
  check_close("scale dk = x0", dk, 1.5, 0);
  return check_report();
}
