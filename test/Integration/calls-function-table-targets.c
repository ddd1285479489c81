// A call through a table of functions can only reach the functions in that
// table: when the table is constant, or local to the file and only read, a
// call through it is dispatched over its entries, not over every function
// of its type whose address escapes. Here a second table of functions of
// the same type logs to a global (an active value stored where no shadow
// can receive its derivative): before, both requests were rejected with
// "cannot differentiate 'f': an active value is stored to the global
// 'total'", although the logging functions can never be called from them. Found
// by the fuzzer (feature fnptr: the check twins' table holds instrumented
// functions of the same type). Tables: constant, static and only read
// (constant only after optimisation), and a callback passed to a helper.
// Expected values are analytic, and checked against central finite
// differences; forward and reverse mode at -O0..-O3.
// RUN: %clang -O0 %s -lm -o %t0 && %t0 1 | FileCheck %s
// RUN: %clang -O1 %s -lm -o %t1 && %t1 1 | FileCheck %s
// RUN: %clang -O2 %s -lm -o %t2 && %t2 1 | FileCheck %s
// RUN: %clang -O3 %s -lm -o %t3 && %t3 1 | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: ALL PASSED
#include "Inputs/check.h"
#include <stdlib.h>

extern int enzyme_const, enzyme_out;
double __enzyme_autodiff(void *, ...);
double __enzyme_fwddiff(void *, ...);

typedef double (*unary)(double);
static double sq(double x) { return x * x; }
static double sn(double x) { return sin(x) * x; }
static double (*const fixed[2])(double) = {sq, sn};
static double (*readonly[2])(double) = {sn, sq}; /* never written */

static double total; /* the logging functions store active values here */
static double log_sq(double x) {
  total += x * x;
  return x;
}
static double log_id(double x) {
  total += x;
  return x;
}
static double (*const logging[2])(double) = {log_sq, log_id};

/* k is known only at run time */
double f(double x, int k) {
  return fixed[k % 2](x) + 3 * readonly[(k + 1) % 2](x * x);
}

__attribute__((noinline)) static double apply(unary cb, double x) {
  return cb(x) * x;
}
double g(double x, int k) { return apply(fixed[k % 2], x); }

static double dsq(double x) { return 2 * x; }
static double dsn(double x) { return cos(x) * x + sin(x); }

int main(int argc, char **argv) {
  int base = argc > 1 ? atoi(argv[1]) - 1 : 0; /* 0, opaque to the compiler */
  for (int i = 0; i < 2; i++)
    logging[(i + base) % 2](1.5);
  printf("logged %g\n", total);
  double x = 0.7;
  for (int k = base; k < base + 2; k++) {
    double u = x * x;
    /* f = fixed[k](x) + 3 readonly[k+1](x^2) */
    double df =
        (k % 2 ? dsn(x) : dsq(x)) + 3 * ((k + 1) % 2 ? dsq(u) : dsn(u)) * 2 * x;
    double h = 1e-6;
    check_close("f (finite difference)", (f(x + h, k) - f(x - h, k)) / (2 * h),
                df, 1e-7);
    check_close("f (reverse)",
                __enzyme_autodiff((void *)f, enzyme_out, x, enzyme_const, k),
                df, 1e-12);
    check_close("f (forward)",
                __enzyme_fwddiff((void *)f, x, 1.0, enzyme_const, k), df,
                1e-12);
    /* g = cb(x) x */
    double cb = k % 2 ? sn(x) : sq(x);
    double dg = (k % 2 ? dsn(x) : dsq(x)) * x + cb;
    check_close("g (finite difference)", (g(x + h, k) - g(x - h, k)) / (2 * h),
                dg, 1e-7);
    check_close("g (reverse)",
                __enzyme_autodiff((void *)g, enzyme_out, x, enzyme_const, k),
                dg, 1e-12);
    check_close("g (forward)",
                __enzyme_fwddiff((void *)g, x, 1.0, enzyme_const, k), dg,
                1e-12);
  }
  return check_report();
}
