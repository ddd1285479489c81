// -mllvm -enzyme-truncate-all=64to32 (Enzyme's option): every function of
// the module computes its double operations in float (op mode). The
// result's bits show it: a float widened to double has 29 zero low bits,
// and equals the same computation written in float (compared as bits, since
// the comparison itself would be truncated).
// RUN: %clang_fplugin -O0 %s -lm -o %t0 -mllvm -enzyme-truncate-all=64to32 && %t0 | FileCheck %s --check-prefix=NARROW
// RUN: %clang_fplugin -O2 %s -lm -o %t2 -mllvm -enzyme-truncate-all=64to32 && %t2 | FileCheck %s --check-prefix=NARROW
// RUN: %clang_fplugin -O3 %s -lm -o %t3 -mllvm -enzyme-truncate-all=11-52to8-23 && %t3 | FileCheck %s --check-prefix=NARROW
// RUN: %clang_fplugin -O2 %s -lm -o %t && %t | FileCheck %s --check-prefix=WIDE
// NARROW: representable in float: yes
// NARROW: equals the float computation: yes
// WIDE: representable in float: no
// WIDE: equals the float computation: no
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

__attribute__((noinline)) double f(double a, double b) {
  double q = a / b;
  return q + sqrt(a + b);
}

static uint64_t bits(double d) {
  uint64_t u;
  memcpy(&u, &d, 8);
  return u;
}

int main(void) {
  volatile double va = 1, vb = 3;
  double r = f(va, vb);
  float q = 1.0f / 3.0f;
  float s = sqrtf(4.0f);
  double hand = (double)(q + s);
  printf("representable in float: %s\n",
         (bits(r) & ((UINT64_C(1) << 29) - 1)) == 0 ? "yes" : "no");
  printf("equals the float computation: %s\n",
         bits(r) == bits(hand) ? "yes" : "no");
  return 0;
}
