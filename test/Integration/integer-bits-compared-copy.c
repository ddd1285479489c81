// The larger of two non-negative doubles picked by comparing their bits as
// uint64_t (the order of the bits is the order of the values), copied out
// as an integer: out = max(a0, a1), so d out/d a_k is 1 for the larger one
// and 0 for the other, in reverse and forward mode. The function reads the
// bytes only as integers, which it compares; its callers hold doubles
// there (an initialised array, values computed and stored), so the store
// stores the choice among the doubles. Was d/da = 0 with no error at every
// -O level (the compared integer loads typed the memory as integers).
// RUN: %clang -O0 %s -o %t0 && %t0 | FileCheck %s
// RUN: %clang -O1 %s -o %t1 && %t1 | FileCheck %s
// RUN: %clang -O2 %s -o %t2 && %t2 | FileCheck %s
// RUN: %clang -O3 %s -o %t3 && %t3 | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: ALL PASSED
#include "Inputs/check.h"
#include <stdint.h>
#include <string.h>

extern int enzyme_dup, enzyme_const;
void __enzyme_autodiff(void *, ...);
void __enzyme_fwddiff(void *, ...);

void larger(const double *a, double *out) {
  uint64_t t0, t1;
  memcpy(&t0, a, sizeof t0);
  memcpy(&t1, a + 1, sizeof t1);
  uint64_t t = t0 > t1 ? t0 : t1;
  memcpy(out, &t, sizeof t);
}

// The same on paths: an if/else instead of a conditional expression.
void larger_on_paths(const double *a, double *out) {
  uint64_t t0, t1, t;
  memcpy(&t0, a, sizeof t0);
  memcpy(&t1, a + 1, sizeof t1);
  if (t0 > t1)
    t = t0;
  else
    t = t1;
  memcpy(out, &t, sizeof t);
}

// The caller's doubles computed and stored (no constant initialiser).
#define CHECK_PAIR(f, x, y)                                                   \
  do {                                                                        \
    double a[2], da[2] = {0, 0}, out = 0, dout = 1;                           \
    a[0] = (x) * 1.0;                                                         \
    a[1] = (y) * 1.0;                                                         \
    __enzyme_autodiff((void *)f, enzyme_dup, a, da, enzyme_dup, &out,         \
                      &dout);                                                 \
    double big = (x) > (y) ? (x) : (y);                                       \
    check_close(#f " out", out, big, 0);                                      \
    check_close(#f " rev d out/d a0", da[0], (x) > (y) ? 1 : 0, 0);           \
    check_close(#f " rev d out/d a1", da[1], (x) > (y) ? 0 : 1, 0);           \
    double ta[2] = {0.5, -2}, o = 0, to = 0;                                  \
    __enzyme_fwddiff((void *)f, enzyme_dup, a, ta, enzyme_dup, &o, &to);      \
    check_close(#f " fwd out", o, big, 0);                                    \
    check_close(#f " fwd d out", to, (x) > (y) ? 0.5 : -2, 0);                \
  } while (0)

int main(void) {
  double a[2] = {2.5, 1.5}, da[2] = {0, 0}, out = 0, dout = 1;
  __enzyme_autodiff((void *)larger, enzyme_dup, a, da, enzyme_dup, &out,
                    &dout);
  check_close("out", out, 2.5, 0);
  check_close("d out/d a0", da[0], 1, 0);
  check_close("d out/d a1", da[1], 0, 0);
  CHECK_PAIR(larger, 2.5, 1.5);
  CHECK_PAIR(larger, 0.25, 3.75);
  CHECK_PAIR(larger_on_paths, 2.5, 1.5);
  CHECK_PAIR(larger_on_paths, 0.25, 3.75);
  return check_report();
}
