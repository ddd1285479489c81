// Globals holding pointers to constant data, which the differentiated code
// stores pointers into: a parameter block a static pointer holds, given a
// log stream (`stderr`, a pointer read from another global) or a pointer
// into its own buffer. Nothing here holds derivatives, so reads through
// the block are constants and the derivative is right; a first version of
// the check for pointers stored behind a global refused both (review31b
// p1, p2). f(x) = alpha x^2 with alpha = 3: f'(x) = 6x.
// RUN: %clang -O0 %s -lm -o %t0 && %t0 | FileCheck %s
// RUN: %clang -O2 %s -lm -o %t2 && %t2 | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: ALL PASSED
#include "Inputs/check.h"
#include <stdio.h>
#include <stdlib.h>

extern int enzyme_out;
double __enzyme_autodiff(void *, ...);

typedef struct {
  double alpha;
  FILE *log;
  int *cur;
  int buf[4];
} Params;
static Params *params;

double withLog(double x) {
  params->log = stderr;
  return params->alpha * x * x;
}

double withCursor(double x) {
  params->cur = params->buf;
  *params->cur = 1;
  return params->alpha * x * x;
}

int main(void) {
  params = calloc(1, sizeof *params);
  params->alpha = 3.0;
  double x = 1.5;
  check_close("withLog", __enzyme_autodiff((void *)withLog, enzyme_out, x),
              6 * x, 1e-12);
  check_close("withCursor",
              __enzyme_autodiff((void *)withCursor, enzyme_out, x), 6 * x,
              1e-12);
  free(params);
  return check_report();
}
