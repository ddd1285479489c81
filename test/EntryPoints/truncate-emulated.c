// Truncation to formats the target has no type for, given as (f, FROM,
// EXPONENT, MANTISSA): Tapestry emulates them, every operation rounded
// once, correctly, to the format. Each result is compared with an
// independent reference (Inputs/emulated-reference.h: exact rounding with
// frexpl/ldexpl/nearbyintl over long double) on random inputs spanning the
// format's subnormals, normals and overflow, and on chosen ties.
// -ffloat16-excess-precision=none: clang computes _Float16 arithmetic in
// half, not in float rounded back (which would round twice).
// RUN: %clang -O0 -Xclang -ffloat16-excess-precision=none %s -lm -o %t0 && %t0 | FileCheck %s
// RUN: %clang -O1 -Xclang -ffloat16-excess-precision=none %s -lm -o %t1 && %t1 | FileCheck %s
// RUN: %clang -O2 -Xclang -ffloat16-excess-precision=none %s -lm -o %t2 && %t2 | FileCheck %s
// RUN: %clang -O3 -Xclang -ffloat16-excess-precision=none %s -lm -o %t3 && %t3 | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: (4, 3) from double: op mode
// CHECK: (11, 20) from double: op mode
// CHECK: (6, 30) from double: op mode
// CHECK: (8, 12) from float: op mode
// CHECK: (4, 5) from half: op mode
// CHECK: ALL PASSED
#include "../Integration/Inputs/check.h"
#include "Inputs/emulated-reference.h"

typedef double (*fn1)(double);
typedef double (*fn2)(double, double);
typedef double (*fn3)(double, double, double);
typedef double (*fnl)(long long);
typedef double (*fnu)(unsigned long long);
void *__enzyme_truncate_op_func(void *, ...);
void *__enzyme_truncate_mem_func(void *, ...);
double __enzyme_truncate_mem_value(double, ...);
double __enzyme_expand_mem_value(double, ...);

double add(double a, double b) { return a + b; }
double sub(double a, double b) { return a - b; }
double mul(double a, double b) { return a * b; }
double dvd(double a, double b) { return a / b; }
double root(double a) { return sqrt(a); }
double fused(double a, double b, double c) { return fma(a, b, c); }
double muladd(double a, double b, double c) {
#pragma clang fp contract(on)
  return a * b + c; // llvm.fmuladd: rounded after * and after +
}
double less(double a, double b) { return a < b ? 1.0 : 0.0; }
double from_i64(long long i) { return (double)i; }
double from_u64(unsigned long long i) { return (double)i; }

struct ops {
  const char *name;
  int E, M;
  fn2 add, sub, mul, div, less;
  fn1 root;
  fn3 fused, muladd;
  fnl from_i64;
  fnu from_u64;
};

#define TR(f, E, M) __enzyme_truncate_op_func((void *)f, 64, E, M)
#define OPS(E, M)                                                              \
  {"(" #E ", " #M ") from double", E, M, TR(add, E, M), TR(sub, E, M),         \
   TR(mul, E, M), TR(dvd, E, M), TR(less, E, M), TR(root, E, M),               \
   TR(fused, E, M), TR(muladd, E, M), TR(from_i64, E, M),                      \
   TR(from_u64, E, M)}

static void test_format(const struct ops *o, int n) {
  int E = o->E, M = o->M;
  int before = ref_failures;
  for (int i = 0; i < n; i++) {
    double x = ref_random(E, M), y = ref_random(E, M), z = ref_random(E, M);
    /* Op mode rounds the inputs first. */
    long double a = ref_round(x, E, M), b = ref_round(y, E, M),
                c = ref_round(z, E, M);
    ref_check(o->name, "add", o->add(x, y), ref_add(a, b, E, M), x, y);
    ref_check(o->name, "sub", o->sub(x, y), ref_add(a, -b, E, M), x, y);
    ref_check(o->name, "mul", o->mul(x, y), ref_round(a * b, E, M), x, y);
    ref_check(o->name, "div", o->div(x, y), ref_round(a / b, E, M), x, y);
    ref_check(o->name, "sqrt", o->root(x), ref_round(sqrtl(a), E, M), x, 0);
    ref_check(o->name, "fma", o->fused(x, y, z), ref_add(a * b, c, E, M), x,
              y);
    ref_check(o->name, "muladd", o->muladd(x, y, z),
              ref_add(ref_round(a * b, E, M), c, E, M), x, y);
    ref_check(o->name, "less", o->less(x, y), a < b ? 1.0L : 0.0L, x, y);
    long long k = (long long)(ref_next() >> (ref_next() % 64));
    ref_check(o->name, "from_i64", o->from_i64(-k),
              ref_round((long double)-k, E, M), (double)k, 0);
    ref_check(o->name, "from_u64", o->from_u64((unsigned long long)k * 3),
              ref_round((long double)((unsigned long long)k * 3), E, M),
              (double)k, 0);
  }
  /* Ties: 1 + half a unit of the last place rounds to 1, 1 + 3 halves to
   * 1 + 2 units; the same in the subnormals; the largest value plus half a
   * unit overflows, just below it does not. */
  double u = ldexp(1.0, -M), emin = ldexp(1.0, 2 - (1 << (E - 1)));
  double sub_u = emin * u;
  ref_check(o->name, "tie even", o->add(1.0, u / 2), 1.0L, 1.0, u / 2);
  ref_check(o->name, "tie odd", o->add(1.0, 3 * u / 2), 1.0L + 2 * u, 1.0,
            3 * u / 2);
  ref_check(o->name, "subnormal tie", o->mul(sub_u * 3, 0.5), 2 * sub_u,
            sub_u * 3, 0.5);
  ref_check(o->name, "underflow", o->mul(sub_u, 0.5), 0.0L, sub_u, 0.5);
  ref_check(o->name, "negative underflow", o->mul(-sub_u, 0.5), -0.0L,
            -sub_u, 0.5);
  long double max = ref_max(E, M);
  double half_unit = ldexp(1.0, (1 << (E - 1)) - 1 - M - 1);
  ref_check(o->name, "overflow", o->add(max, half_unit), INFINITY, max,
            half_unit);
  ref_check(o->name, "no overflow", o->add(max, half_unit / 2), max, max,
            half_unit / 2);
  printf("%s %s: op mode, %d random cases\n",
         ref_failures == before ? "PASS" : "FAIL", o->name, n);
}

/* Mem mode and the value functions: values are kept rounded. */
static void test_mem(void) {
  fn3 f = (fn3)__enzyme_truncate_mem_func((void *)muladd, 64, 11, 20);
  for (int i = 0; i < 500; i++) {
    double x = ref_random(11, 20), y = ref_random(11, 20),
           z = ref_random(11, 20);
    double a = __enzyme_truncate_mem_value(x, 64, 11, 20);
    double b = __enzyme_truncate_mem_value(y, 64, 11, 20);
    double c = __enzyme_truncate_mem_value(z, 64, 11, 20);
    ref_check("(11, 20) mem", "value", a, ref_round(x, 11, 20), x, 0);
    double r = __enzyme_expand_mem_value(f(a, b, c), 64, 11, 20);
    long double want =
        ref_add(ref_round((long double)a * b, 11, 20), c, 11, 20);
    ref_check("(11, 20) mem", "muladd", r, want, x, y);
  }
}

/* From float: the same checks through float functions. */
float addf(float a, float b) { return a + b; }
float mulf(float a, float b) { return a * b; }
float divf(float a, float b) { return a / b; }
float fmaf_(float a, float b, float c) { return fmaf(a, b, c); }
typedef float (*ff2)(float, float);
typedef float (*ff3)(float, float, float);

static void test_float(void) {
  ff2 a2 = __enzyme_truncate_op_func((void *)addf, 32, 8, 12);
  ff2 m2 = __enzyme_truncate_op_func((void *)mulf, 32, 8, 12);
  ff2 d2 = __enzyme_truncate_op_func((void *)divf, 32, 8, 12);
  ff3 f3 = __enzyme_truncate_op_func((void *)fmaf_, 32, 8, 12);
  int before = ref_failures;
  for (int i = 0; i < 4000; i++) {
    float x = (float)ref_random(8, 12), y = (float)ref_random(8, 12),
          z = (float)ref_random(8, 12);
    long double a = ref_round(x, 8, 12), b = ref_round(y, 8, 12),
                c = ref_round(z, 8, 12);
    const char *n = "(8, 12) from float";
    ref_check(n, "add", a2(x, y), ref_add(a, b, 8, 12), x, y);
    ref_check(n, "mul", m2(x, y), ref_round(a * b, 8, 12), x, y);
    ref_check(n, "div", d2(x, y), ref_round(a / b, 8, 12), x, y);
    ref_check(n, "fma", f3(x, y, z), ref_add(a * b, c, 8, 12), x, y);
  }
  printf("%s (8, 12) from float: op mode\n",
         ref_failures == before ? "PASS" : "FAIL");
}

/* From half. */
_Float16 addh(_Float16 a, _Float16 b) { return a + b; }
_Float16 mulh(_Float16 a, _Float16 b) { return a * b; }
_Float16 divh(_Float16 a, _Float16 b) { return a / b; }
typedef _Float16 (*fh2)(_Float16, _Float16);

static void test_half(void) {
  fh2 a2 = __enzyme_truncate_op_func((void *)addh, 16, 4, 5);
  fh2 m2 = __enzyme_truncate_op_func((void *)mulh, 16, 4, 5);
  fh2 d2 = __enzyme_truncate_op_func((void *)divh, 16, 4, 5);
  int before = ref_failures;
  for (int i = 0; i < 4000; i++) {
    _Float16 x = (_Float16)ref_random(4, 5), y = (_Float16)ref_random(4, 5);
    long double a = ref_round(x, 4, 5), b = ref_round(y, 4, 5);
    const char *n = "(4, 5) from half";
    ref_check(n, "add", a2(x, y), ref_add(a, b, 4, 5), x, y);
    ref_check(n, "mul", m2(x, y), ref_round(a * b, 4, 5), x, y);
    ref_check(n, "div", d2(x, y), ref_round(a / b, 4, 5), x, y);
  }
  printf("%s (4, 5) from half: op mode\n",
         ref_failures == before ? "PASS" : "FAIL");
}

int main(void) {
  struct ops formats[] = {OPS(4, 3), OPS(11, 20), OPS(6, 30)};
  for (int i = 0; i < 3; i++)
    test_format(&formats[i], 4000);
  test_mem();
  test_float();
  test_half();
  check_failures += ref_failures;
  return check_report();
}
