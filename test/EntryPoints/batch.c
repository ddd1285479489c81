// __enzyme_batch(f, enzyme_width, N, args...): the primal run on N lanes.
// enzyme_vector (the default) passes one value per lane, enzyme_scalar one
// value shared by all lanes; the N results come back in whatever struct or
// array of N the caller declares (in registers or in memory).
// RUN: %clang -O0 %s -lm -o %t0 && %t0 | FileCheck %s
// RUN: %clang -O1 %s -lm -o %t1 && %t1 | FileCheck %s
// RUN: %clang -O2 %s -lm -o %t2 && %t2 | FileCheck %s
// RUN: %clang -O3 %s -lm -o %t3 && %t3 | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: ALL PASSED
#include "../Integration/Inputs/check.h"

extern int enzyme_width, enzyme_vector, enzyme_scalar;
typedef struct {
  double a, b, c, d;
} vec4; /* returned in memory */
typedef struct {
  double a, b;
} vec2; /* returned in registers */
typedef struct {
  float v[4];
} fvec4; /* returned as two <2 x float> */
vec4 __enzyme_batch(void *, ...);
vec2 __enzyme_batch_2(void *, ...);
fvec4 __enzyme_batch_f(void *, ...);
void __enzyme_batch_v(void *, ...);

double square_add(double x, double y) { return x * x + y; }
float cube(float x) { return x * x * x; }
void scale_into(const double *x, double *out, double s) { *out = s * exp(*x); }

/* Batching a function that itself makes a derivative request. */
double __enzyme_fwddiff(void *, ...);
double cubic(double g, double x) { return g * x * x * x; }
double dcubic(double g, double x) {
  return __enzyme_fwddiff((void *)cubic, g, 0.0, x, 1.0);
}

int main(void) {
  double xs[4] = {1.5, -2.0, 0.25, 3.0}, y = 0.75;
  vec4 r = __enzyme_batch((void *)square_add, enzyme_width, 4, enzyme_vector,
                          xs[0], xs[1], xs[2], xs[3], enzyme_scalar, y);
  check_close("lane 0", r.a, xs[0] * xs[0] + y, 1e-15);
  check_close("lane 1", r.b, xs[1] * xs[1] + y, 1e-15);
  check_close("lane 2", r.c, xs[2] * xs[2] + y, 1e-15);
  check_close("lane 3", r.d, xs[3] * xs[3] + y, 1e-15);

  /* Unmarked arguments are per lane. */
  vec2 p = __enzyme_batch_2((void *)square_add, enzyme_width, 2, 2.0, -1.0,
                            10.0, 20.0);
  check_close("pair 0", p.a, 2.0 * 2.0 + 10.0, 1e-15);
  check_close("pair 1", p.b, 1.0 + 20.0, 1e-15);

  fvec4 c = __enzyme_batch_f((void *)cube, enzyme_width, 4, 1.0f, 2.0f, -3.0f,
                             0.5f);
  check_close("cube 0", c.v[0], 1.0, 1e-6);
  check_close("cube 1", c.v[1], 8.0, 1e-6);
  check_close("cube 2", c.v[2], -27.0, 1e-6);
  check_close("cube 3", c.v[3], 0.125, 1e-6);

  /* Pointer lanes, a shared scalar and no result. */
  double in[3] = {0.0, 1.0, -1.0}, out[3];
  __enzyme_batch_v((void *)scale_into, enzyme_width, 3, enzyme_vector, &in[0],
                   &in[1], &in[2], enzyme_vector, &out[0], &out[1], &out[2],
                   enzyme_scalar, 2.0);
  for (int i = 0; i < 3; ++i)
    check_close("pointer lane", out[i], 2.0 * exp(in[i]), 1e-15);

  double g = 2.0;
  vec2 d = __enzyme_batch_2((void *)dcubic, enzyme_width, 2, enzyme_scalar, g,
                            enzyme_vector, 1.0, 3.0);
  check_close("batched derivative 0", d.a, 3 * g * 1.0, 1e-14);
  check_close("batched derivative 1", d.b, 3 * g * 9.0, 1e-14);
  return check_report();
}
