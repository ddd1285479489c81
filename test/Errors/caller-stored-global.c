// The caller stores the address of an array it passes as differentiated
// (enzyme_dup) into a global, and the differentiated function reads the
// array through the global: nothing in the function stores into the
// global, so it gets no shadow and the reads were taken for constants, a
// silently wrong gradient (x + x instead of 2x each: review30 p37). The
// request is now refused at the call. Controls, which must still compile
// and give right numbers: the global is stored but not read by the
// function, or holds a constant table the caller does not pass as
// differentiated, or the function itself stores the pointer before it reads
// it (the global then gets a shadow).
// RUN: not %clang -O0 -g -c %s -o /dev/null 2>&1 | FileCheck %s --implicit-check-not=error:
// RUN: not %clang -O2 -g -c %s -o /dev/null 2>&1 | FileCheck %s --implicit-check-not=error:
// RUN: %clang -O0 -DCONTROLS %s -lm -o %t0 && %t0 | FileCheck %s --check-prefix=CONTROL
// RUN: %clang -O2 -DCONTROLS %s -lm -o %t2 && %t2 | FileCheck %s --check-prefix=CONTROL
// CHECK-NOT: PLEASE submit a bug report
// CONTROL-NOT: FAIL
// CONTROL: ALL PASSED
#include "../Integration/Inputs/check.h"

extern int enzyme_dup, enzyme_const;
double __enzyme_autodiff(void *, ...);

static double *handed;
double readsHanded(double *x, int n) {
  double s = 0;
  for (int i = 0; i < n; i++)
    s += x[i] * handed[i];
  return s;
}

static double *lastInput;
double ignoresGlobal(double *x, int n) {
  double s = 0;
  for (int i = 0; i < n; i++)
    s += x[i] * x[i];
  return s;
}

static const double *weights;
double readsWeights(double *x, int n) {
  double s = 0;
  for (int i = 0; i < n; i++)
    s += weights[i] * x[i] * x[i];
  return s;
}

static double *own;
double setsItself(double *x, int n) {
  own = x;
  double s = 0;
  for (int i = 0; i < n; i++)
    s += x[i] * own[i];
  return s;
}

int main(void) {
  double x[3] = {0.5, 1.5, -0.25}, dx[3] = {0};
#ifndef CONTROLS
  handed = x;
  // CHECK: caller-stored-global.c:[[@LINE+1]]:3: error: tapestry: this call differentiates 'readsHanded', which reads through the global 'handed' (line 27) memory the call passes as differentiated (the variable 'x', whose address is stored into the global (line [[@LINE-1]])); the global gets no shadow, so what is read through it would be taken for a constant and its derivative lost: pass the pointer to 'readsHanded' as an argument instead of through the global
  __enzyme_autodiff((void *)readsHanded, enzyme_dup, x, dx, enzyme_const, 3);
#endif
  lastInput = x;
  __enzyme_autodiff((void *)ignoresGlobal, enzyme_dup, x, dx, enzyme_const, 3);
  for (int i = 0; i < 3; i++)
    check_close("ignoresGlobal", dx[i], 2 * x[i], 1e-12);
  static const double w[3] = {2, 3, 4};
  weights = w;
  double dy[3] = {0};
  __enzyme_autodiff((void *)readsWeights, enzyme_dup, x, dy, enzyme_const, 3);
  for (int i = 0; i < 3; i++)
    check_close("readsWeights", dy[i], 2 * w[i] * x[i], 1e-12);
  double dz[3] = {0};
  own = x;
  __enzyme_autodiff((void *)setsItself, enzyme_dup, x, dz, enzyme_const, 3);
  for (int i = 0; i < 3; i++)
    check_close("setsItself", dz[i], 2 * x[i], 1e-12);
  return check_report();
}
