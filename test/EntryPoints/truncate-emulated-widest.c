// The widest emulated formats: 2 mantissa bits short of FROM's, where one
// rounding at FROM's precision followed by another would be wrong in ties
// (Tapestry's rounding to odd keeps them right). (11, 50) from double and
// (8, 21) from float, compared with exact references: the long double
// result (64 bits) with its exact error's sign (Dekker's product, fmal
// remainders), rounded by Inputs/emulated-reference.h.
// RUN: %clang -O0 %s -lm -o %t0 && %t0 | FileCheck %s
// RUN: %clang -O1 %s -lm -o %t1 && %t1 | FileCheck %s
// RUN: %clang -O2 %s -lm -o %t2 && %t2 | FileCheck %s
// RUN: %clang -O3 %s -lm -o %t3 && %t3 | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: PASS (11, 50) from double
// CHECK: PASS (8, 21) from float
// CHECK: ALL PASSED
#include "../Integration/Inputs/check.h"
#include "Inputs/emulated-reference.h"

typedef double (*fn1)(double);
typedef double (*fn2)(double, double);
void *__enzyme_truncate_op_func(void *, ...);

double add(double a, double b) { return a + b; }
double sub(double a, double b) { return a - b; }
double mul(double a, double b) { return a * b; }
double dvd(double a, double b) { return a / b; }
double root(double a) { return sqrt(a); }

/* Dekker's exact product in long double (64-bit significands). */
static long double split(long double x, long double *lo) {
  long double c = 4294967297.0L * x; /* 2^32 + 1 */
  long double hi = c - (c - x);
  *lo = x - hi;
  return hi;
}
static long double product_error(long double a, long double b,
                                 long double p) {
  long double al, bl, ah = split(a, &al), bh = split(b, &bl);
  return ((ah * bh - p) + ah * bl + al * bh) + al * bl;
}

/* Inputs with many ties: few low bits set. */
static double input(int E, int M) {
  double x = ref_random(E, M);
  if (ref_next() % 2)
    x = (double)ref_round(x, E, M + 1); /* a midpoint of the format, often */
  return x;
}

int main(void) {
  const int E = 11, M = 50;
  fn2 tadd = __enzyme_truncate_op_func((void *)add, 64, 11, 50);
  fn2 tsub = __enzyme_truncate_op_func((void *)sub, 64, 11, 50);
  fn2 tmul = __enzyme_truncate_op_func((void *)mul, 64, 11, 50);
  fn2 tdiv = __enzyme_truncate_op_func((void *)dvd, 64, 11, 50);
  fn1 tsqrt = __enzyme_truncate_op_func((void *)root, 64, 11, 50);
  const char *n = "(11, 50) from double";
  int before = ref_failures;
  for (int i = 0; i < 20000; i++) {
    double x = input(E, M), y = input(E, M);
    long double a = ref_round(x, E, M), b = ref_round(y, E, M);
    ref_check(n, "add", tadd(x, y), ref_add(a, b, E, M), x, y);
    ref_check(n, "sub", tsub(x, y), ref_add(a, -b, E, M), x, y);
    long double p = a * b;
    ref_check(n, "mul", tmul(x, y),
              ref_round2(p, isfinite(p) ? product_error(a, b, p) : 0, E, M),
              x, y);
    if (isfinite(a) && isfinite(b) && b != 0 && a != 0) {
      long double q = a / b, r = fmal(-q, b, a); /* exact remainder */
      ref_check(n, "div", tdiv(x, y), ref_round2(q, r * b, E, M), x, y);
    }
    if (isfinite(a) && a > 0) {
      long double s = sqrtl(a), r = fmal(-s, s, a);
      ref_check(n, "sqrt", tsqrt(x), ref_round2(s, r, E, M), x, 0);
    }
  }
  /* 1 + 2^-51 is a tie (to 1); 1 + 2^-51 + 2^-60 is not (up). */
  ref_check(n, "tie", tadd(1.0, 0x1p-51), 1.0L, 1.0, 0x1p-51);
  ref_check(n, "above tie", tmul(1.0 + 0x1p-50, 1.0 + 0x1p-50),
            1.0L + 0x1p-49L, 1.0 + 0x1p-50, 1.0 + 0x1p-50);
  printf("%s %s\n", ref_failures == before ? "PASS" : "FAIL", n);

  /* From float: products and quotients of 22-bit significands. */
  typedef float (*ff2)(float, float);
  extern float mulf(float, float), divf(float, float), addf(float, float);
  ff2 fmul = __enzyme_truncate_op_func((void *)mulf, 32, 8, 21);
  ff2 fdiv = __enzyme_truncate_op_func((void *)divf, 32, 8, 21);
  ff2 fadd = __enzyme_truncate_op_func((void *)addf, 32, 8, 21);
  n = "(8, 21) from float";
  before = ref_failures;
  for (int i = 0; i < 20000; i++) {
    float x = (float)input(8, 21), y = (float)input(8, 21);
    long double a = ref_round(x, 8, 21), b = ref_round(y, 8, 21);
    ref_check(n, "mul", fmul(x, y), ref_round(a * b, 8, 21), x, y);
    ref_check(n, "div", fdiv(x, y), ref_round(a / b, 8, 21), x, y);
    ref_check(n, "add", fadd(x, y), ref_add(a, b, 8, 21), x, y);
  }
  printf("%s %s\n", ref_failures == before ? "PASS" : "FAIL", n);
  check_failures += ref_failures;
  return check_report();
}

float mulf(float a, float b) { return a * b; }
float divf(float a, float b) { return a / b; }
float addf(float a, float b) { return a + b; }
