// -mllvm -enzyme-truncate-all=11-52toE-M with a format the target lacks:
// every double operation of the module is rounded once to the emulated
// format. The reference (Inputs/emulated-reference.h) computes in long
// double, which the option leaves alone.
// RUN: %clang_fplugin -O0 %s -lm -o %t0 -mllvm -enzyme-truncate-all=11-52to6-30 -DEXP=6 -DMAN=30 && %t0 | FileCheck %s
// RUN: %clang_fplugin -O2 %s -lm -o %t2 -mllvm -enzyme-truncate-all=11-52to6-30 -DEXP=6 -DMAN=30 && %t2 | FileCheck %s
// RUN: %clang_fplugin -O3 %s -lm -o %t3 -mllvm -enzyme-truncate-all=64to4-3 -DEXP=4 -DMAN=3 && %t3 | FileCheck %s
// RUN: %clang_fplugin -O1 %s -lm -o %t1 -mllvm -enzyme-truncate-all=64to8-10 -DEXP=8 -DMAN=10 && %t1 | FileCheck %s
// CHECK: rounded once to the format: yes
// CHECK: differs from double: yes
#include "Inputs/emulated-reference.h"

__attribute__((noinline)) double f(double a, double b) {
  double q = a / b;
  return q + sqrt(a + b);
}

int main(void) {
  /* Values of every format tested: the inputs need no rounding. */
  volatile long double la = 0.375L, lb = 7.25L;
  long double A = la, B = lb;
  double r = f((double)A, (double)B);
  long double q = ref_round(A / B, EXP, MAN);
  long double s = ref_round(sqrtl(ref_add(A, B, EXP, MAN)), EXP, MAN);
  long double want = ref_add(q, s, EXP, MAN);
  long double wide = A / B + sqrtl(A + B);
  printf("rounded once to the format: %s\n",
         (long double)r == want ? "yes" : "no");
  /* (Converting to double would round to the format too.) */
  printf("differs from double: %s\n",
         fabsl((long double)r - wide) > 1e-14L * wide ? "yes" : "no");
  return 0;
}
