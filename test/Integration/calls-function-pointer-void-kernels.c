// Kernels of type void(void) called through a table of function pointers,
// communicating through global variables (a solver's stages, a callback
// list): the calls pass and return nothing differentiable, so they were
// taken for inactive and the gradient was 0 silently. They are now
// dispatched over this file's functions of the type, and the kernels'
// work on the globals (which get shadows) is differentiated.
// f(x) = x^2 + sin(x) (+ x^3 in the second table): f'(x) = 2x + cos(x)
// (+ 3x^2), in reverse and forward mode.
// RUN: %clang -O0 %s -lm -o %t0 && %t0 | FileCheck %s
// RUN: %clang -O2 %s -lm -o %t2 && %t2 | FileCheck %s
// RUN: %clang -O3 -march=native %s -lm -o %t3 && %t3 | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: ALL PASSED
#include "Inputs/check.h"
#include <math.h>

double __enzyme_autodiff(void *, ...);
double __enzyme_fwddiff(void *, ...);

static double in, acc;
static void square(void) { acc = in * in; }
static void addSine(void) { acc += sin(in); }
static void addCube(void) { acc += in * in * in; }
static void (*volatile steps[2])(void) = {square, addSine};
static void (*volatile more[3])(void) = {square, addSine, addCube};

double run(double x) {
  in = x;
  for (int k = 0; k < 2; k++)
    steps[k]();
  return acc;
}

double runMore(double x, int n) {
  in = x;
  for (int k = 0; k < n; k++)
    more[k]();
  return acc;
}

int main(void) {
  double x = 0.7;
  check_close("reverse", __enzyme_autodiff((void *)run, x), 2 * x + cos(x),
              1e-12);
  check_close("forward", __enzyme_fwddiff((void *)run, x, 1.0),
              2 * x + cos(x), 1e-12);
  check_close("reverse, three stages",
              __enzyme_autodiff((void *)runMore, x, 3),
              2 * x + cos(x) + 3 * x * x, 1e-12);
  return check_report();
}
