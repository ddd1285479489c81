// Truncation to bfloat, given as exponent and mantissa bits (8, 7) as in
// Enzyme. LLVM converts to bfloat by calling __truncdfbf2 and __truncsfbf2,
// which compiler-rt's builtins have (libgcc only from GCC 13): the program
// links with --rtlib=compiler-rt.
// RUN: %clang -O0 --rtlib=compiler-rt %s -lm -o %t0 && %t0 | FileCheck %s
// RUN: %clang -O1 --rtlib=compiler-rt %s -lm -o %t1 && %t1 | FileCheck %s
// RUN: %clang -O2 --rtlib=compiler-rt %s -lm -o %t2 && %t2 | FileCheck %s
// RUN: %clang -O3 --rtlib=compiler-rt %s -lm -o %t3 && %t3 | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: ALL PASSED
#include "../Integration/Inputs/check.h"
#include <stdint.h>
#include <string.h>

typedef double (*fn2)(double, double);
fn2 __enzyme_truncate_op_func(void *, int, int, int);
fn2 __enzyme_truncate_mem_func(void *, int, int, int);
double __enzyme_truncate_mem_value(double, int, int, int);
double __enzyme_expand_mem_value(double, int, int, int);

double mul(double a, double b) { return a * b; }

/* bfloat rounding (to nearest, ties to even) of a float, by its bits. */
static float bfloat_round(float f) {
  uint32_t u;
  memcpy(&u, &f, 4);
  u += 0x7FFF + ((u >> 16) & 1);
  u &= 0xFFFF0000u;
  memcpy(&f, &u, 4);
  return f;
}

static void check_equal(const char *what, double got, double want) {
  int ok = got == want;
  check_failures += !ok;
  printf("%s %s: got %.17g want %.17g\n", ok ? "PASS" : "FAIL", what, got,
         want);
}

int main(void) {
  volatile double vh = 1.1, vk = 3.3;
  double h = vh, k = vk;
  /* The product of two 8-bit significands is exact in float, then rounded
   * once to bfloat. 1.1 and 3.3 are far from bfloat ties, so rounding them
   * through float is rounding them directly. */
  double want = (double)bfloat_round(bfloat_round((float)h) *
                                     bfloat_round((float)k));
  double op = __enzyme_truncate_op_func((void *)mul, 64, 8, 7)(h, k);
  check_equal("op mode", op, want);
  check_close("op mode is near the double product", op, h * k, 1e-2);
  int differs = op != h * k && op != (double)((float)h * (float)k);
  check_failures += !differs;
  printf("%s differs from double and float\n", differs ? "PASS" : "FAIL");

  /* Mem mode: the bfloat in the first 2 bytes of the double. */
  double ph = __enzyme_truncate_mem_value(h, 64, 8, 7);
  uint64_t bits;
  memcpy(&bits, &ph, 8);
  float bh = bfloat_round((float)h);
  uint32_t fbits;
  memcpy(&fbits, &bh, 4);
  int rep = bits == (fbits >> 16);
  check_failures += !rep;
  printf("%s representation\n", rep ? "PASS" : "FAIL");
  double mem = __enzyme_expand_mem_value(
      __enzyme_truncate_mem_func((void *)mul, 64, 8, 7)(
          ph, __enzyme_truncate_mem_value(k, 64, 8, 7)),
      64, 8, 7);
  check_equal("mem mode", mem, want);
  return check_report();
}
