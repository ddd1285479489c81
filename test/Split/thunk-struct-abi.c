// A thunk's reverse writes several adjoints through the pointer it takes
// last (include/tapestry/thunk.h), whatever the C ABI would do with a struct
// of them: {float, float} (one register in C), {float, float, float} (a
// register pair in C; the reverse once left the third on the x87 stack,
// leaking a register per call until long double arithmetic gave NaN) and
// {double, double, double} (returned through memory in C). Formerly
// tools/bugs/split-thunk-struct-abi.c. Expected adjoints are analytic.
// RUN: %clang -O0 %s -lm -o %t0 && %t0 | FileCheck %s
// RUN: %clang -O1 %s -lm -o %t1 && %t1 | FileCheck %s
// RUN: %clang -O2 %s -lm -o %t2 && %t2 | FileCheck %s
// RUN: %clang -O3 %s -lm -o %t3 && %t3 | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: ALL PASSED
#include "../Integration/Inputs/check.h"
#include <stdlib.h>
#include <tapestry/thunk.h>

extern int enzyme_out;
typedef struct { void *tape; double p; } aug;
aug __enzyme_augmentfwd(void *, ...);
typedef struct { float a, b; } FF;
typedef struct { double a, b, c; } DDD;
typedef struct { float a, b, c; } FFF;
FF __enzyme_reverse_ff(void *, ...);

double f2(float x, float y) { return (double)x * y * y; }
double f3(double x, double y, double z) { return x * y * z * z; }
double f5(float x, float y, float z) { return (double)x * y * z; }

int main(void) {
  // The entry points, for comparison.
  aug s = __enzyme_augmentfwd((void *)f2, enzyme_out, 1.5f, enzyme_out, 2.0f);
  FF e = __enzyme_reverse_ff((void *)f2, enzyme_out, 1.5f, enzyme_out, 2.0f,
                             1.0, s.tape);
  check_close("f2 reverse dx", e.a, 4, 1e-6);
  check_close("f2 reverse dy", e.b, 6, 1e-6);

  const tapestry_thunk *t =
      __tapestry_thunk((void *)f2, enzyme_out, enzyme_out);
  void *tape = calloc(1, t->tape_bytes ? t->tape_bytes : 1);
  ((double (*)(float, float, void *))t->augmented)(1.5f, 2.0f, tape);
  FF g;
  ((void (*)(float, float, double, void *, void *))t->reverse)(1.5f, 2.0f, 1.0,
                                                              tape, &g);
  check_close("f2 thunk dx", g.a, 4, 1e-6);
  check_close("f2 thunk dy", g.b, 6, 1e-6);
  ((void (*)(void *))t->release)(tape);
  free(tape);

  t = __tapestry_thunk((void *)f5, enzyme_out, enzyme_out, enzyme_out);
  volatile long double one = 1.0L;
  tape = calloc(1, t->tape_bytes ? t->tape_bytes : 1);
  ((double (*)(float, float, float, void *))t->augmented)(2.0f, 3.0f, 4.0f,
                                                         tape);
  for (int i = 0; i < 8; i++) { // t->reusable: replays are allowed
    FFF k;
    ((void (*)(float, float, float, double, void *, void *))t->reverse)(
        2.0f, 3.0f, 4.0f, 1.0, tape, &k);
    if (i == 0) {
      check_close("f5 thunk dx", k.a, 12, 1e-6);
      check_close("f5 thunk dy", k.b, 8, 1e-6);
      check_close("f5 thunk dz", k.c, 6, 1e-6);
    }
  }
  ((void (*)(void *))t->release)(tape);
  free(tape);
  check_close("1.0L + 1.0L after 8 sweeps", (double)(one + one), 2, 0);

  t = __tapestry_thunk((void *)f3, enzyme_out, enzyme_out, enzyme_out);
  tape = calloc(1, t->tape_bytes ? t->tape_bytes : 1);
  ((double (*)(double, double, double, void *))t->augmented)(1.5, 2.0, 3.0,
                                                             tape);
  DDD h;
  ((void (*)(double, double, double, double, void *, void *))t->reverse)(
      1.5, 2.0, 3.0, 1.0, tape, &h);
  check_close("f3 thunk dx", h.a, 18, 1e-12);
  check_close("f3 thunk dy", h.b, 13.5, 1e-12);
  check_close("f3 thunk dz", h.c, 18, 1e-12);
  ((void (*)(void *))t->release)(tape);
  free(tape);
  return check_report();
}
