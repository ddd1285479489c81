// A double's sign changed through its bits, as C code and libraries written
// in it (musl's fabs and copysign) do: copied into a uint64_t (memcpy, a
// union), the sign bit cleared, flipped, set or copied from another double,
// and copied back. These are fabs, -x, -fabs and copysign, with their
// derivatives; as integer operations they gave a gradient of 0 with no
// error. Reverse and forward against analytic derivatives, with the inputs
// read from memory (the integer loads of the doubles) and from arguments,
// float too.
//   f = fabs(x0) x1 + neg(x2) + nabs(x3) x4 + copysign(x5, x6) + fabsf(y) x0
// RUN: %clang -O0 %s -lm -o %t0 && %t0 | FileCheck %s
// RUN: %clang -O1 %s -lm -o %t1 && %t1 | FileCheck %s
// RUN: %clang -O2 %s -lm -o %t2 && %t2 | FileCheck %s
// RUN: %clang -O3 -march=native %s -lm -o %t3 && %t3 | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: ALL PASSED
#include "Inputs/check.h"
#include <stdint.h>
#include <string.h>

extern int enzyme_dup, enzyme_out, enzyme_const;
double __enzyme_autodiff(void *, ...);
double __enzyme_fwddiff(void *, ...);

static double bits_fabs(const double *p) {
  uint64_t b;
  memcpy(&b, p, sizeof b);
  b &= -1ULL / 2; // musl's fabs
  double r;
  memcpy(&r, &b, sizeof r);
  return r;
}

static double bits_neg(double x) {
  union {
    double d;
    uint64_t i;
  } u = {x};
  u.i ^= 1ULL << 63;
  return u.d;
}

static double bits_nabs(const double *p) {
  union {
    double d;
    uint64_t i;
  } u;
  memcpy(&u.i, p, sizeof u.i);
  u.i |= 1ULL << 63;
  return u.d;
}

static double bits_copysign(double x, double y) { // musl's copysign
  union {
    double f;
    uint64_t i;
  } ux = {x}, uy = {y};
  ux.i &= -1ULL / 2;
  ux.i |= uy.i & 1ULL << 63;
  return ux.f;
}

static float bits_fabsf(float y) {
  uint32_t b;
  memcpy(&b, &y, sizeof b);
  b &= 0x7fffffffu;
  memcpy(&y, &b, sizeof y);
  return y;
}

double f(const double *x, float y) {
  return bits_fabs(&x[0]) * x[1] + bits_neg(x[2]) + bits_nabs(&x[3]) * x[4] +
         bits_copysign(x[5], x[6]) + bits_fabsf(y) * x[0];
}

// copysign(r^2, -r): InstCombine makes musl's magnitude mask a fabs and
// keeps the sign's (probe42 F3: refused at -O1 and above). d/dr = -2|r|.
double g(double r) { return bits_copysign(r * r, bits_neg(r)); }

int main(void) {
  check_close("reverse copysign of a negated sign, r < 0",
              __enzyme_autodiff((void *)g, enzyme_out, -1.5), -3.0, 1e-15);
  check_close("reverse copysign of a negated sign, r > 0",
              __enzyme_autodiff((void *)g, enzyme_out, 0.75), -1.5, 1e-15);
  check_close("forward copysign of a negated sign",
              __enzyme_fwddiff((void *)g, -1.5, 1.0), -3.0, 1e-15);
  double x[7] = {-1.5, 2.0, 0.75, 1.25, -3.0, 2.5, -4.0};
  float y = -0.5f;
  // d/dx0 = sign(x0) x1 + |y|, d/dx1 = |x0|, d/dx2 = -1,
  // d/dx3 = -sign(x3) x4, d/dx4 = -|x3|, d/dx5 = sign(x6) sign(x5),
  // d/dx6 = 0; d/dy = sign(y) x0.
  double want[7] = {-2.0 + 0.5, 1.5, -1.0, 3.0, -1.25, -1.0, 0.0};
  double dx[7] = {0};
  __enzyme_autodiff((void *)f, enzyme_dup, x, dx, enzyme_const, y);
  char what[64];
  for (int i = 0; i < 7; i++) {
    snprintf(what, sizeof what, "reverse d/dx%d", i);
    check_close(what, dx[i], want[i], 1e-15);
    double t[7] = {0};
    t[i] = 1;
    snprintf(what, sizeof what, "forward d/dx%d", i);
    check_close(what, __enzyme_fwddiff((void *)f, enzyme_dup, x, t,
                                       enzyme_const, y),
                want[i], 1e-15);
  }
  double t0[7] = {0};
  check_close("forward d/dy", __enzyme_fwddiff((void *)f, enzyme_dup, x, t0,
                                               enzyme_dup, y, 1.0f),
              -x[0], 1e-7);
  return check_report();
}
