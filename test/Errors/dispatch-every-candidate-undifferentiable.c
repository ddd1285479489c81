// A call through a function pointer whose every candidate cannot be
// differentiated stays a compile error with the candidates' own messages
// (a derivative that could only stop is no derivative), at -O0 and -O2:
// stopping where the pointer holds an undifferentiable candidate is only
// for calls that can also reach one that differentiates
// (test/Integration/calls-function-pointer-undifferentiable-entry.c).
// RUN: not %clang -O0 -g -c %s -o /dev/null 2>&1 | FileCheck %s
// RUN: not %clang -O2 -g -c %s -o /dev/null 2>&1 | FileCheck %s
// CHECK-NOT: PLEASE submit a bug report
// CHECK: error: tapestry: cannot differentiate {{.*}}a double is reinterpreted as a long here
// CHECK-NOT: Tapestry: {{.*}}through a function pointer, and cannot differentiate it
#include <string.h>

extern int enzyme_const, enzyme_out;
double __enzyme_autodiff(void *, ...);

typedef double (*integrand)(double);
static double jitter(double k) {
  unsigned long b;
  memcpy(&b, &k, sizeof b);
  b ^= b >> 29;
  return (double)(b >> 40) * 1e-12;
}
static double jitter2(double k) {
  unsigned long b;
  memcpy(&b, &k, sizeof b);
  b ^= b >> 17;
  return (double)(b >> 30) * 1e-12;
}
integrand table[2] = {jitter, jitter2};

double apply(integrand f, double k) { return f(k) * k; }

double grad(int i, double k) {
  return __enzyme_autodiff((void *)apply, enzyme_const, table[i], enzyme_out,
                           k);
}
