// A table of functions indexed at run time, one of which cannot be
// differentiated (it hashes the bits of its argument) and one of which calls
// a function of another file. The derivative through the table is built
// anyway: in reverse, forward and split mode it is right for the entries
// that can be differentiated, and stops with a message naming the entry and
// why where the pointer holds another (never a wrong number). Expected
// values are analytic. Before, every -O level was a compile error ("a double
// is reinterpreted as a long here").
// RUN: %clang -O0 -c %S/Inputs/other-file-value.c -o %t.other.o
// RUN: %clang -O0 %s %t.other.o -o %t0 -lm && %t0 | FileCheck %s
// RUN: not --crash %t0 2 2>&1 | FileCheck %s --check-prefix=BITS
// RUN: not --crash %t0 3 2>&1 | FileCheck %s --check-prefix=OTHER
// RUN: %clang -O1 %s %t.other.o -o %t1 -lm && %t1 | FileCheck %s
// RUN: not --crash %t1 2 2>&1 | FileCheck %s --check-prefix=BITS
// RUN: %clang -O2 -g %s %t.other.o -o %t2 -lm && %t2 | FileCheck %s
// RUN: not --crash %t2 2 2>&1 | FileCheck %s --check-prefix=BITS
// RUN: not --crash %t2 3 2>&1 | FileCheck %s --check-prefix=OTHER
// RUN: %clang -O3 %s %t.other.o -o %t3 -lm && %t3 | FileCheck %s
// RUN: not --crash %t3 3 2>&1 | FileCheck %s --check-prefix=OTHER
// CHECK-NOT: FAIL
// CHECK: ALL PASSED
// BITS: primal
// BITS: Tapestry: {{.*}}the derivative of 'integrate' calls 'jitter' through a function pointer, and cannot differentiate it: cannot differentiate 'integrate': a double is reinterpreted as a long here;
// BITS-NOT: PASS
// OTHER: primal
// OTHER: Tapestry: {{.*}}the derivative of 'integrate' calls 'other_file' through a function pointer, and cannot differentiate it: {{.*}}other_file_function_value
// OTHER-NOT: PASS
#include "Inputs/check.h"
#include <stdlib.h>
#include <string.h>

extern int enzyme_dup, enzyme_const, enzyme_out;
typedef struct {
  void *tape;
  double primal;
} Aug;
double __enzyme_autodiff(void *, ...);
double __enzyme_fwddiff(void *, ...);
Aug __enzyme_augmentfwd(void *, ...);
double __enzyme_reverse(void *, ...);
double other_file_function_value(double);

typedef double (*integrand)(double, double);
static double wave(double k, double t) { return sin(k * t); }
static double decay(double k, double t) { return exp(-k * t); }
// A hash of the bits of k: piecewise constant, but bit manipulation.
static double jitter(double k, double t) {
  unsigned long b;
  memcpy(&b, &k, sizeof b);
  b ^= b >> 29;
  return (double)(b >> 40) * 1e-12 * t;
}
static double other_file(double k, double t) {
  return other_file_function_value(k) * t;
}
static const integrand table[4] = {wave, decay, jitter, other_file};

// Midpoint rule of f(k, t) over [0, 1] with n points.
double integrate(integrand f, double k, int n) {
  double h = 1.0 / n, s = 0;
  for (int i = 0; i < n; ++i)
    s += f(k, (i + 0.5) * h) * h;
  return s;
}

// d/dk of the midpoint sums, term by term.
static double want(int which, double k, int n) {
  double h = 1.0 / n, s = 0;
  for (int i = 0; i < n; ++i) {
    double t = (i + 0.5) * h;
    s += (which == 0 ? t * cos(k * t) : -t * exp(-k * t)) * h;
  }
  return s;
}

int main(int argc, char **argv) {
  int n = 50;
  double k = 1.3;
  if (argc > 1) {
    // A pointer to an entry that cannot be differentiated: the derivative
    // stops (the primal still runs it).
    integrand f = table[atoi(argv[1])];
    printf("primal %g\n", integrate(f, k, n));
    double d = __enzyme_autodiff((void *)integrate, enzyme_const, f,
                                 enzyme_out, k, enzyme_const, n);
    printf("PASS unreachable %g\n", d);
    return 0;
  }
  for (int which = 0; which < 2; ++which) {
    integrand f = table[which];
    double w = want(which, k, n);
    check_close("reverse", __enzyme_autodiff((void *)integrate, enzyme_const,
                                             f, enzyme_out, k, enzyme_const, n),
                w, 1e-12);
    check_close("forward", __enzyme_fwddiff((void *)integrate, enzyme_const, f,
                                            enzyme_dup, k, 1.0, enzyme_const,
                                            n),
                w, 1e-12);
    Aug a = __enzyme_augmentfwd((void *)integrate, enzyme_const, f, enzyme_out,
                                k, enzyme_const, n);
    double dk = __enzyme_reverse((void *)integrate, enzyme_const, f,
                                 enzyme_out, k, enzyme_const, n, 1.0, a.tape);
    check_close("split", dk, w, 1e-12);
    check_close("split primal", a.primal, integrate(f, k, n), 1e-12);
  }
  return check_report();
}
