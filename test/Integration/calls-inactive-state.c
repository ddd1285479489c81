// Inactive calls with side effects inside differentiated code run exactly
// as often as in the primal: rand() choosing a branch in every iteration
// (the reverse sweep must replay the recorded choices, not call rand again,
// and leave the generator where the primal would), clock(), and a user
// function registered with __enzyme_inactivefn whose (constant) result
// multiplies an active value. Reverse and forward mode, against the
// derivative of the branches the primal took (from a replay of the same
// random sequence).
// RUN: %clang -O0 %s -lm -o %t0 && %t0 | FileCheck %s
// RUN: %clang -O1 %s -lm -o %t1 && %t1 | FileCheck %s
// RUN: %clang -O2 %s -lm -o %t2 && %t2 | FileCheck %s
// RUN: %clang -O3 %s -lm -o %t3 && %t3 | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: ALL PASSED
#include "Inputs/check.h"
#include <stdlib.h>
#include <time.h>

extern int enzyme_dup, enzyme_const, enzyme_out;
double __enzyme_autodiff(void *, ...);
double __enzyme_fwddiff(void *, ...);

static int knob_calls;
__attribute__((noinline)) double knob(void) {
  knob_calls++;
  return 3.0;
}
void *__enzyme_inactivefn[] = {(void *)knob};

#define N 40
double f(double x) {
  double s = 0;
  for (int i = 0; i < N; i++) {
    int r = rand() % 3;
    if (r == 0)
      s += sin(x);
    else if (r == 1)
      s += x * x;
    else
      s += knob() * x;
    if (clock() == (clock_t)-2) /* never true; clock() must stay inactive */
      s = 0;
  }
  return s;
}

int main(void) {
  int r[N], nknob = 0;
  srand(42);
  for (int i = 0; i < N; i++) {
    r[i] = rand() % 3;
    nknob += r[i] == 2;
  }
  int after = rand(); /* where the generator is after one primal */
  double x = 0.7, want = 0;
  for (int i = 0; i < N; i++)
    want += r[i] == 0 ? cos(x) : r[i] == 1 ? 2 * x : 3.0;

  srand(42);
  knob_calls = 0;
  check_close("reverse through rand-chosen branches",
              __enzyme_autodiff((void *)f, enzyme_out, x), want, 1e-13);
  check_close("reverse: rand called N times (generator state)", rand(), after,
              0);
  check_close("reverse: inactive knob called once per use", knob_calls,
              nknob, 0);

  srand(42);
  knob_calls = 0;
  check_close("forward through rand-chosen branches",
              __enzyme_fwddiff((void *)f, enzyme_dup, x, 1.0), want, 1e-13);
  check_close("forward: rand called N times (generator state)", rand(), after,
              0);
  check_close("forward: inactive knob called once per use", knob_calls, nknob,
              0);
  return check_report();
}
