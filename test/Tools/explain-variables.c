// The checks are at the end of the file, so that the line numbers they
// name are easy to read off the program above them.
#include <math.h>
#include <tapestry/enzyme.h>

double model(double *x, double k, int n) {
  double gain = k * 3.0;
  double unused = x[0] * 2.0;
  double buf[4];
  double table[4];
  int steps = 0;
  for (int i = 0; i < 4; i++) {
    buf[i] = sin(x[i % n]);
    table[i] = (double)i * gain;
    steps++;
  }
  double total = 0;
  for (int i = 0; i < 4; i++)
    total += buf[i] * table[i];
  if (unused > 100.0)
    steps += 1;
  return total / steps;
}

int main(void) {
  double x[2] = {0.5, 1.5}, dx[2] = {0};
  __enzyme_autodiff((void *)model, enzyme_dup, x, dx, enzyme_const, 2.0,
                    enzyme_const, 2);
  return 0;
}

// tapestry-explain lists each local variable of the differentiated
// function with its activity, in source terms: active values, memory whose
// shadow carries derivatives, values that depend on the inputs but do not
// reach the result, constants, integers. Parameters are listed with the
// request instead. The same verdicts come out of unoptimised code
// (variables in memory, dbg.declare) and optimised code (values and
// assignment tracking).
// RUN: env TAPESTRY_PLUGIN=%plugin %src_root/tools/tapestry-explain -O0 -I%src_root/include %s 2>&1 | FileCheck %s
// RUN: env TAPESTRY_PLUGIN=%plugin %src_root/tools/tapestry-explain -O2 -I%src_root/include %s 2>&1 | FileCheck %s
// CHECK:      result: double, active: the reverse sweep starts from its seed
// CHECK-NEXT: variables:
// CHECK-NEXT: gain double line 7 constant: does not depend on a differentiated input
// CHECK-NEXT: unused double line 8 not differentiated: depends on the inputs but does not affect a differentiated result
// CHECK-NEXT: buf double[4] line 9 active memory: its shadow carries the derivative
// CHECK-NEXT: table double[4] line 10 active memory: its shadow carries the derivative
// CHECK-NEXT: steps int line 11 not differentiated: an integer
// CHECK-NEXT: i int line 12 not differentiated: an integer
// CHECK-NEXT: total double line 17 active: carries a derivative
// CHECK-NEXT: i int line 18 not differentiated: an integer
// CHECK-NEXT: derivative 'model.tapestry.rev_dcc_ra':
