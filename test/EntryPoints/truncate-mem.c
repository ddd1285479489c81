// __enzyme_truncate_mem_func(f, FROM, TO): f computing in float on double
// slots that hold a float in their first 4 bytes (the rest zero), the
// representation __enzyme_truncate_mem_value builds and
// __enzyme_expand_mem_value reads. Expected values are the same
// computations written by hand in float.
// RUN: %clang -O0 -ffp-contract=off %s -lm -o %t0 && %t0 | FileCheck %s
// RUN: %clang -O1 -ffp-contract=off %s -lm -o %t1 && %t1 | FileCheck %s
// RUN: %clang -O2 -ffp-contract=off %s -lm -o %t2 && %t2 | FileCheck %s
// RUN: %clang -O3 -ffp-contract=off %s -lm -o %t3 && %t3 | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: ALL PASSED
#include "../Integration/Inputs/check.h"
#include <stdint.h>
#include <string.h>

typedef double (*fn2)(double, double);
typedef double (*fni)(int, double);
typedef void (*fnarr)(const double *, double *, int);
fn2 __enzyme_truncate_mem_func(void *, int, int);
fni __enzyme_truncate_mem_func_i(void *, int, int);
fnarr __enzyme_truncate_mem_func_arr(void *, int, int);
double __enzyme_truncate_mem_value(double, int, int);
double __enzyme_expand_mem_value(double, int, int);

static void check_equal(const char *what, double got, double want) {
  int ok = got == want;
  check_failures += !ok;
  printf("%s %s: got %.17g want %.17g\n", ok ? "PASS" : "FAIL", what, got,
         want);
}

double arith(double a, double b) {
  double p = a * b;
  double q = a / b;
  return p + q - 0.1;
}

double cmp(double a, double b) {
  if (a > b)
    return a * 2;
  return b + a;
}

double constant(double a, double b) { return 2; }

double libm(double a, double b) { return sin(a) + sqrt(b); }

static double helper(double x) { return x * x + 0.25; }
double nested(double a, double b) { return helper(a) / b; }

/* A local array with an initializer: clang copies it from a constant. */
double table(int i, double x) {
  double c[3] = {0.1, 0.2, 0.3};
  return c[i] * x;
}

void scale(const double *in, double *out, int n) {
  for (int i = 0; i < n; i++)
    out[i] = in[i] * 1.1 + 0.5;
}

#define T(v) __enzyme_truncate_mem_value(v, 64, 32)
#define E(v) __enzyme_expand_mem_value(v, 64, 32)

int main(void) {
  volatile double va = 1.0 / 3.0, vb = 7.1;
  double a = va, b = vb;
  float fa = (float)a, fb = (float)b;

  /* The representation: the float's bytes first, then zeros. */
  double packed = T(a);
  unsigned char want[8] = {0}, got[8];
  memcpy(want, &fa, 4);
  memcpy(got, &packed, 8);
  int same = !memcmp(got, want, 8);
  check_failures += !same;
  printf("%s representation\n", same ? "PASS" : "FAIL");
  check_equal("round trip", E(T(a)), (double)fa);

  double t = E(__enzyme_truncate_mem_func((void *)arith, 64, 32)(T(a), T(b)));
  float fp = fa * fb, fq = fa / fb;
  check_equal("arith", t, (double)(fp + fq - 0.1f));

  volatile double vc = 1.0 + 1e-9, vd = 1.0;
  check_equal("cmp",
              E(__enzyme_truncate_mem_func((void *)cmp, 64, 32)(T(vc), T(vd))),
              2.0);
  check_equal("constant",
              E(__enzyme_truncate_mem_func((void *)constant, 64, 32)(T(a),
                                                                    T(b))),
              2.0);
  check_close(
      "libm",
      E(__enzyme_truncate_mem_func((void *)libm, 64, 32)(T(a), T(b))),
      (double)(sinf(fa) + sqrtf(fb)), 1e-7);
  check_equal("nested",
              E(__enzyme_truncate_mem_func((void *)nested, 64, 32)(T(a),
                                                                  T(b))),
              (double)((fa * fa + 0.25f) / fb));
  check_equal("constant table",
              E(__enzyme_truncate_mem_func_i((void *)table, 64, 32)(1, T(b))),
              (double)(0.2f * fb));

  double in[4], out[4];
  for (int i = 0; i < 4; i++)
    in[i] = T(a * (i + 1));
  __enzyme_truncate_mem_func_arr((void *)scale, 64, 32)(in, out, 4);
  for (int i = 0; i < 4; i++) {
    float x = (float)(a * (i + 1));
    float p = x * 1.1f;
    check_equal("array", E(out[i]), (double)(p + 0.5f));
  }
  return check_report();
}
