// A double's bits changed as an integer other than in its sign (the
// mantissa kept and the exponent replaced: the double scaled into [1, 2),
// by bit manipulation) have no derivative Tapestry can give; the value
// was taken for a constant and the gradient was silently 0 when the double
// was read from memory as a uint64_t. Now an error at the line that makes
// the double. (The sign bit's operations are fabs, -x and copysign:
// test/Integration/sign-bits-as-math.c.) A sign mask of another lane
// width (a 64-bit xor over two floats flips one of them) is no fabs or
// -x, and an error too. Controls, compiled and run with the plugin below:
// a 2^k built from an integer k as the exponent field is integer
// arithmetic, and the exponent alone kept by a mask is a piecewise
// constant (its derivative 0 is exact): neither is refused.
// RUN: not %clang -O0 -g -c %s -o /dev/null 2>&1 | FileCheck %s --implicit-check-not=error:
// RUN: not %clang -O2 -g -c %s -o /dev/null 2>&1 | FileCheck %s --implicit-check-not=error:
// RUN: %clang -O0 -DCONTROL %s -lm -o %t0 && %t0 | FileCheck %s --check-prefix=EXEC
// RUN: %clang -O2 -DCONTROL %s -lm -o %t2 && %t2 | FileCheck %s --check-prefix=EXEC
// EXEC-NOT: FAIL
// EXEC: ALL PASSED
#include <stdint.h>
#include <string.h>
#include "../Integration/Inputs/check.h"

extern int enzyme_dup;
void __enzyme_autodiff(void *, ...);

#ifndef CONTROL
double scaled(const double *x) {
  uint64_t b;
  memcpy(&b, x, sizeof b);
  b = (b & 0x800FFFFFFFFFFFFFull) | 0x3FF0000000000000ull;
  double m;
  // CHECK-DAG: float-bits-masked.c:[[@LINE+1]]:{{[0-9]+}}: error: tapestry: cannot differentiate 'scaled': a floating-point value is made here from the bits of floating-point data read as an integer ('long') and changed by integer operations; derivatives cannot flow through bit manipulation (keep the value as a floating-point number: fabs, copysign, signbit)
  memcpy(&m, &b, sizeof m);
  return m * x[1];
}

void grad(const double *x, double *dx) {
  __enzyme_autodiff((void *)scaled, enzyme_dup, x, dx);
}

typedef float v2sf __attribute__((vector_size(8)));

float lanes(const float *x) {
  v2sf v = {x[0], x[1]};
  // CHECK-DAG: float-bits-masked.c:[[@LINE+1]]:{{[0-9]+}}: error: tapestry: cannot differentiate 'lanes': a vector of 2 float is reinterpreted as a long here
  long long u = (long long)v;
  u ^= (long long)0x8000000000000000ULL;
  v2sf w = (v2sf)u;
  return w[0] * 3.0f + w[1] * 5.0f;
}

void grad_lanes(const float *x, float *dx) {
  __enzyme_autodiff((void *)lanes, enzyme_dup, x, dx);
}
#else
// x0 * 2^k, k = (int)x1 (piecewise constant): d/dx0 = 2^k, d/dx1 = 0.
double power(const double *x) {
  int k = (int)x[1];
  uint64_t b = (uint64_t)(k + 1023) << 52;
  double p;
  memcpy(&p, &b, sizeof p);
  return x[0] * p;
}

// x0 / 2^e with 2^e the exponent of x0 alone (x0 = 5: 4): d/dx0 = 1/4.
double mantissa(const double *x) {
  uint64_t b;
  memcpy(&b, x, sizeof b);
  b &= 0x7FF0000000000000ull;
  double p;
  memcpy(&p, &b, sizeof p);
  return x[0] / p;
}

int main(void) {
  double x[2] = {1.5, 3.7}, dx[2] = {0};
  __enzyme_autodiff((void *)power, enzyme_dup, x, dx);
  check_close("d/dx0", dx[0], 8.0, 1e-15);
  check_close("d/dx1", dx[1], 0.0, 1e-15);
  double y[2] = {5.0, 0}, dy[2] = {0};
  __enzyme_autodiff((void *)mantissa, enzyme_dup, y, dy);
  check_close("mantissa d/dx0", dy[0], 0.25, 1e-15);
  return check_report();
}
#endif
