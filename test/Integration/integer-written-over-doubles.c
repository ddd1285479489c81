// A double's bits written over an element as an integer (memcpy of a
// uint64_t into a double array), then the element read out, as a double or
// copied as an integer: the element then holds a value that does not
// depend on the inputs, so the derivative of what is read there is 0 in
// reverse and forward mode; other elements keep theirs. Was the
// overwritten element's old derivative (1 instead of 0, no error: the
// integer store left the shadow as it was; found in review35). Expected
// values are analytic: out = buf[i] after buf[w] = 1.0's bits, so
// d out/d buf[i] = (i != w).
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

__attribute__((noinline)) void overwrite_then_read(double *buf, double *out,
                                                   int w, int i,
                                                   uint64_t bits) {
  memcpy(buf + w, &bits, sizeof bits);
  *out = buf[i] * 1.0;
}

__attribute__((noinline)) void overwrite_then_copy(double *buf, double *out,
                                                   int w, int i,
                                                   uint64_t bits) {
  memcpy(buf + w, &bits, sizeof bits);
  uint64_t t;
  memcpy(&t, buf + i, sizeof t);
  memcpy(out, &t, sizeof t);
}

static void check_kernel(const char *name, int copy, int w, int i) {
  uint64_t one;
  double d1 = 1.0;
  memcpy(&one, &d1, sizeof one);
  double want = i != w ? 1 : 0;
  double buf[2] = {0.5, 4.0}, db[2] = {0, 0}, out = 0, dout = 1;
  if (copy)
    __enzyme_autodiff((void *)overwrite_then_copy, enzyme_dup, buf, db,
                      enzyme_dup, &out, &dout, enzyme_const, w, enzyme_const,
                      i, enzyme_const, one);
  else
    __enzyme_autodiff((void *)overwrite_then_read, enzyme_dup, buf, db,
                      enzyme_dup, &out, &dout, enzyme_const, w, enzyme_const,
                      i, enzyme_const, one);
  check_close(name, out, i == w ? 1.0 : (i ? 4.0 : 0.5), 0);
  check_close(name, db[i], want, 0);
  check_close(name, db[1 - i], 0, 0);
  double b2[2] = {0.5, 4.0}, tb[2] = {1, 1}, o = 0, to = 0;
  if (copy)
    __enzyme_fwddiff((void *)overwrite_then_copy, enzyme_dup, b2, tb,
                     enzyme_dup, &o, &to, enzyme_const, w, enzyme_const, i,
                     enzyme_const, one);
  else
    __enzyme_fwddiff((void *)overwrite_then_read, enzyme_dup, b2, tb,
                     enzyme_dup, &o, &to, enzyme_const, w, enzyme_const, i,
                     enzyme_const, one);
  check_close(name, to, want, 0);
}

int main(void) {
  for (int w = 0; w < 2; w++)
    for (int i = 0; i < 2; i++) {
      check_kernel("read", 0, w, i);
      check_kernel("copy", 1, w, i);
    }
  return check_report();
}
