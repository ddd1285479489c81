// __enzyme_truncate_op_func(f, FROM, TO): f (and the functions it calls)
// with every double operation rounded to float (or half; bfloat is in
// truncate-bfloat.c), while arguments, results and memory stay double. Each
// result must equal the same computation written by hand in the narrow
// type, and (where the rounding shows) differ from the double one.
// -ffp-contract=off: clang must not fuse a*b+c differently in the two.
// RUN: %clang -O0 -ffp-contract=off %s -lm -o %t0 && %t0 | FileCheck %s
// RUN: %clang -O1 -ffp-contract=off %s -lm -o %t1 && %t1 | FileCheck %s
// RUN: %clang -O2 -ffp-contract=off %s -lm -o %t2 && %t2 | FileCheck %s
// RUN: %clang -O3 -ffp-contract=off %s -lm -o %t3 && %t3 | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: ALL PASSED
#include "../Integration/Inputs/check.h"

typedef double (*fn2)(double, double);
typedef double (*fn1)(double);
typedef void (*fnarr)(const double *, const double *, double *, int);
fn2 __enzyme_truncate_op_func(void *, int, int);
fn1 __enzyme_truncate_op_func_1(void *, int, int);
fnarr __enzyme_truncate_op_func_arr(void *, int, int);
extern int enzyme_out;
double __enzyme_autodiff(void *, ...);

/* Exact checks: the truncated and the hand-written narrow computations
 * round the same operations the same way. */
static void check_equal(const char *what, double got, double want) {
  int ok = got == want;
  check_failures += !ok;
  printf("%s %s: got %.17g want %.17g\n", ok ? "PASS" : "FAIL", what, got,
         want);
}
static void check_differs(const char *what, double got, double wide) {
  int ok = got != wide;
  check_failures += !ok;
  printf("%s %s differs from double: %.17g vs %.17g\n", ok ? "PASS" : "FAIL",
         what, got, wide);
}

double arith(double a, double b) {
  double p = a * b;
  double q = a / b;
  return p + q - 1.0 / 3.0;
}

double cmp(double a, double b) {
  if (a > b)
    return a * 2;
  return b + a;
}

double libm(double x) {
  double s = sin(x);
  double r = sqrt(x);
  double e = exp(x);
  return s + r + e + pow(x, 1.5);
}

static double square_plus_third(double x) { return x * x + 1.0 / 3.0; }
double nested(double x) { return square_plus_third(x) * 3.0; }

void saxpy_sqrt(const double *A, const double *B, double *C, int n) {
  for (int i = 0; i < n; i++)
    C[i] = A[i] * 2.0 + B[i] * sqrt(A[i]);
}

double to_int_and_back(double x) { return (double)(int)(x * 1000.0) + x; }

double mul(double a, double b) { return a * b; }

static double square_truncated(double x) {
  return __enzyme_truncate_op_func_1((void *)square_plus_third, 64, 32)(x);
}

/* A derivative, truncated: the request inside is resolved first. */
static double cube(double x) { return x * x * x; }
double dcube(double x) {
  return __enzyme_autodiff((void *)cube, enzyme_out, x);
}

int main(void) {
  volatile double va = 1.0 / 3.0, vb = 7.1, vx = 0.7;
  double a = va, b = vb, x = vx;
  float fa = (float)a, fb = (float)b, fx = (float)x;

  double t = __enzyme_truncate_op_func((void *)arith, 64, 32)(a, b);
  float fp = fa * fb, fq = fa / fb;
  check_equal("arith", t, (double)(fp + fq - 1.0f / 3.0f));
  check_differs("arith", t, arith(a, b));

  /* 1 + 1e-9 is 1 in float: the comparison goes the other way. */
  volatile double vc = 1.0 + 1e-9, vd = 1.0;
  double c = vc, d = vd;
  check_equal("cmp", __enzyme_truncate_op_func((void *)cmp, 64, 32)(c, d),
              2.0);
  check_equal("cmp in double", cmp(c, d), c * 2);

  double l = __enzyme_truncate_op_func_1((void *)libm, 64, 32)(x);
  float fs = sinf(fx), fr = sqrtf(fx), fe = expf(fx);
  check_close("libm", l, (double)(fs + fr + fe + powf(fx, 1.5f)), 1e-7);
  check_differs("libm", l, libm(x));

  double n = __enzyme_truncate_op_func_1((void *)nested, 64, 32)(x);
  check_equal("nested", n, (double)((fx * fx + 1.0f / 3.0f) * 3.0f));
  check_differs("nested", n, nested(x));

  double A[5], B[5], C[5];
  volatile double seed = 0.1;
  for (int i = 0; i < 5; i++) {
    A[i] = 1 + i + seed;
    B[i] = 2 - i * seed;
  }
  __enzyme_truncate_op_func_arr((void *)saxpy_sqrt, 64, 32)(A, B, C, 5);
  for (int i = 0; i < 5; i++) {
    float fA = (float)A[i], fB = (float)B[i];
    float prod = fB * sqrtf(fA);
    check_equal("array", C[i], (double)(fA * 2.0f + prod));
  }
  /* The inputs in memory stay double. */
  check_equal("memory untouched", A[0], 1 + seed);

  /* Conversions to and from integers take and give floats. */
  float fm = fx * 1000.0f;
  check_equal("casts",
              __enzyme_truncate_op_func_1((void *)to_int_and_back, 64, 32)(x),
              (double)((float)(int)fm + fx));

  /* To half: products of 11-bit significands rounded to 11 bits. */
  volatile double vh = 1.1, vk = 3.3;
  double h = vh, k = vk;
  _Float16 hh = (_Float16)h, hk = (_Float16)k;
  _Float16 hp = hh * hk;
  double th = __enzyme_truncate_op_func((void *)mul, 64, 16)(h, k);
  check_equal("half", th, (double)hp);
  check_differs("half", th, h * k);

  /* Truncation inside a function differentiated: d/dx (x^2 + 1/3) = 2x,
   * here in float precision. */
  double g = __enzyme_autodiff((void *)square_truncated, enzyme_out, x);
  check_close("autodiff of truncated", g, 2 * x, 1e-6);
  /* d/dx x^3 = 3x^2, every operation of the derivative in float. */
  double dc = __enzyme_truncate_op_func_1((void *)dcube, 64, 32)(x);
  check_close("truncated derivative", dc, 3 * x * x, 1e-6);
  check_differs("truncated derivative", dc, dcube(x));
  return check_report();
}
