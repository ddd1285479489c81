// Several active arguments: reverse mode returns a struct of adjoints in
// argument order (2 doubles in registers; 3, 4 and 5 doubles through sret
// memory; 2, 3 and 4 floats packed in SSE registers; mixed double/float),
// mixed with enzyme_const, default activity (no markers), enzyme_primal_return
// in reverse mode ({primal, d1, ...}) and forward mode ({primal, tangent}).
// Expected values are analytic partial derivatives.
// RUN: %clang -O0 %s -lm -o %t0 && %t0 | FileCheck %s
// RUN: %clang -O1 %s -lm -o %t1 && %t1 | FileCheck %s
// RUN: %clang -O2 %s -lm -o %t2 && %t2 | FileCheck %s
// RUN: %clang -O3 %s -lm -o %t3 && %t3 | FileCheck %s
// RUN: %clang -O2 -fno-math-errno %s -lm -o %t5 && %t5 | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: ALL PASSED
#include "Inputs/check.h"

extern int enzyme_out, enzyme_dup, enzyme_const, enzyme_primal_return;

typedef struct {
  double d0, d1;
} D2;
typedef struct {
  double d0, d1, d2;
} D3;
typedef struct {
  double d0, d1, d2, d3;
} D4;
typedef struct {
  double d0, d1, d2, d3, d4;
} D5;
typedef struct {
  double d0, d1, d2, d3, d4, d5;
} D6;
typedef struct {
  float d0, d1;
} F2;
typedef struct {
  float d0, d1, d2;
} F3;
typedef struct {
  float d0, d1, d2, d3;
} F4;
typedef struct {
  double d0;
  float d1;
} DF;
typedef struct {
  float d0;
  double d1;
} FD;
typedef struct {
  float d0, d1;
  double d2;
} FFD;
typedef struct {
  double f, d0;
  float d1;
} PDF;

double __enzyme_autodiff(void *, ...);
D2 __enzyme_autodiff_D2(void *, ...);
D3 __enzyme_autodiff_D3(void *, ...);
D4 __enzyme_autodiff_D4(void *, ...);
D5 __enzyme_autodiff_D5(void *, ...);
D6 __enzyme_autodiff_D6(void *, ...);
F2 __enzyme_autodiff_F2(void *, int, float, int, float);
F2 __enzyme_autodiff_F2p(void *, int, int, float, int, float);
F3 __enzyme_autodiff_F3(void *, int, float, int, float, int, float);
F3 __enzyme_autodiff_F3p(void *, int, int, float, int, float);
F4 __enzyme_autodiff_F4(void *, int, float, int, float, int, float, int, float);
DF __enzyme_autodiff_DF(void *, int, double, int, float);
FD __enzyme_autodiff_FD(void *, int, float, int, double);
FFD __enzyme_autodiff_FFD(void *, int, float, int, float, int, double);
PDF __enzyme_autodiff_PDF(void *, int, int, double, int, float);
double __enzyme_fwddiff(void *, ...);
D2 __enzyme_fwddiff_D2(void *, ...);
F2 __enzyme_fwddiff_F2(void *, int, int, float, float, int, float, float);
float __enzyme_fwddiff_f(void *, int, float, float, int, float, float);

static double opaque(double x) {
  volatile double v = x;
  return v;
}

#define TOL 1e-12
#define FTOL 1e-5

/* f2 = x^2 y + cos y */
double f2(double x, double y) { return x * x * y + cos(y); }
/* f3 = x y z + x / z */
double f3(double x, double y, double z) { return x * y * z + x / z; }
/* f4 = x y - z w + sin(x w) */
double f4(double x, double y, double z, double w) {
  return x * y - z * w + sin(x * w);
}
/* f5 = a b + sin(c) d - e^2 / a + exp(b e) */
double f5(double a, double b, double c, double d, double e) {
  return a * b + sin(c) * d - e * e / a + exp(b * e);
}
/* An integer between active doubles: default activity makes it constant. */
double fint(double x, int n, double y) { return n * x * y + x; }
float g2f(float x, float y) { return x * y + sinf(x); }
float g4f3(float x, float y, float z) { return x * y * z; }
float g4f(float x, float y, float z, float w) { return x * y * z * w; }
double hdf(double x, float y) { return x * y + exp(x); }
double hfd(float x, double y) { return x * y * y; }
double hffd(float x, float y, double z) { return x * y * z + z; }

static void test_two(void) {
  double x = opaque(0.7), y = opaque(-1.3);
  double dx = 2 * x * y, dy = x * x - sin(y);
  D2 g = __enzyme_autodiff_D2((void *)f2, enzyme_out, x, enzyme_out, y);
  check_close("D2 d/dx", g.d0, dx, TOL);
  check_close("D2 d/dy", g.d1, dy, TOL);
  g = __enzyme_autodiff_D2((void *)f2, x, y);
  check_close("D2 default activity d/dx", g.d0, dx, TOL);
  check_close("D2 default activity d/dy", g.d1, dy, TOL);
  check_close("D2 const x",
              __enzyme_autodiff((void *)f2, enzyme_const, x, enzyme_out, y), dy,
              TOL);
  check_close("D2 const y, default x",
              __enzyme_autodiff((void *)f2, x, enzyme_const, y), dx, TOL);
  /* Reverse with primal return: {f, d/dx} and {f, d/dx, d/dy} (sret). */
  D2 p = __enzyme_autodiff_D2((void *)f2, enzyme_primal_return, enzyme_out, x,
                              enzyme_const, y);
  check_close("D2 primal return: f", p.d0, x * x * y + cos(y), TOL);
  check_close("D2 primal return: d/dx", p.d1, dx, TOL);
  D3 q = __enzyme_autodiff_D3((void *)f2, enzyme_primal_return, enzyme_out, x,
                              enzyme_out, y);
  check_close("D3 primal return: f", q.d0, x * x * y + cos(y), TOL);
  check_close("D3 primal return: d/dx", q.d1, dx, TOL);
  check_close("D3 primal return: d/dy", q.d2, dy, TOL);
  /* Forward. */
  check_close(
      "fwd f2 along (1, 0)",
      __enzyme_fwddiff((void *)f2, enzyme_dup, x, 1.0, enzyme_dup, y, 0.0), dx,
      TOL);
  check_close("fwd f2 along (0.3, 0.9), default activity",
              __enzyme_fwddiff((void *)f2, x, 0.3, y, 0.9), 0.3 * dx + 0.9 * dy,
              TOL);
  D2 t = __enzyme_fwddiff_D2((void *)f2, enzyme_primal_return, enzyme_dup, x,
                             2.0, enzyme_dup, y, -1.0);
  check_close("fwd primal return: f", t.d0, x * x * y + cos(y), TOL);
  check_close("fwd primal return: tangent", t.d1, 2 * dx - dy, TOL);
  t = __enzyme_fwddiff_D2((void *)f2, enzyme_primal_return, enzyme_const, x,
                          enzyme_dup, y, 1.0);
  check_close("fwd primal return, const x: f", t.d0, x * x * y + cos(y), TOL);
  check_close("fwd primal return, const x: tangent", t.d1, dy, TOL);
}

static void test_three(void) {
  double x = opaque(1.1), y = opaque(0.4), z = opaque(-2.5);
  double dx = y * z + 1 / z, dy = x * z, dz = x * y - x / (z * z);
  D3 g = __enzyme_autodiff_D3((void *)f3, enzyme_out, x, enzyme_out, y,
                              enzyme_out, z);
  check_close("D3 d/dx", g.d0, dx, TOL);
  check_close("D3 d/dy", g.d1, dy, TOL);
  check_close("D3 d/dz", g.d2, dz, TOL);
  g = __enzyme_autodiff_D3((void *)f3, x, y, z);
  check_close("D3 default activity d/dx", g.d0, dx, TOL);
  check_close("D3 default activity d/dy", g.d1, dy, TOL);
  check_close("D3 default activity d/dz", g.d2, dz, TOL);
  D2 h = __enzyme_autodiff_D2((void *)f3, enzyme_out, x, enzyme_const, y,
                              enzyme_out, z);
  check_close("D3 const middle: d/dx", h.d0, dx, TOL);
  check_close("D3 const middle: d/dz", h.d1, dz, TOL);
  D4 p = __enzyme_autodiff_D4((void *)f3, enzyme_primal_return, enzyme_out, x,
                              enzyme_out, y, enzyme_out, z);
  check_close("D4 primal return: f", p.d0, x * y * z + x / z, TOL);
  check_close("D4 primal return: d/dx", p.d1, dx, TOL);
  check_close("D4 primal return: d/dy", p.d2, dy, TOL);
  check_close("D4 primal return: d/dz", p.d3, dz, TOL);
  check_close("fwd f3 along (1, -1, 0.5)",
              __enzyme_fwddiff((void *)f3, enzyme_dup, x, 1.0, enzyme_dup, y,
                               -1.0, enzyme_dup, z, 0.5),
              dx - dy + 0.5 * dz, TOL);
  check_close("fwd f3, const x and z",
              __enzyme_fwddiff((void *)f3, enzyme_const, x, enzyme_dup, y, 1.0,
                               enzyme_const, z),
              dy, TOL);
}

static void test_four(void) {
  double x = opaque(0.9), y = opaque(2.0), z = opaque(-0.6), w = opaque(1.7);
  double dx = y + w * cos(x * w), dy = x, dz = -w, dw = -z + x * cos(x * w);
  D4 g = __enzyme_autodiff_D4((void *)f4, enzyme_out, x, enzyme_out, y,
                              enzyme_out, z, enzyme_out, w);
  check_close("D4 d/dx", g.d0, dx, TOL);
  check_close("D4 d/dy", g.d1, dy, TOL);
  check_close("D4 d/dz", g.d2, dz, TOL);
  check_close("D4 d/dw", g.d3, dw, TOL);
  D2 h = __enzyme_autodiff_D2((void *)f4, enzyme_const, x, enzyme_out, y,
                              enzyme_const, z, enzyme_out, w);
  check_close("D4 const x,z: d/dy", h.d0, dy, TOL);
  check_close("D4 const x,z: d/dw", h.d1, dw, TOL);
}

static void test_five(void) {
  double a = opaque(1.3), b = opaque(0.2), c = opaque(0.8), d = opaque(-1.1),
         e = opaque(0.6);
  double f = a * b + sin(c) * d - e * e / a + exp(b * e);
  double da = b + e * e / (a * a), db = a + e * exp(b * e), dc = cos(c) * d,
         dd = sin(c), de = -2 * e / a + b * exp(b * e);
  D5 g = __enzyme_autodiff_D5((void *)f5, enzyme_out, a, enzyme_out, b,
                              enzyme_out, c, enzyme_out, d, enzyme_out, e);
  check_close("D5 d/da", g.d0, da, TOL);
  check_close("D5 d/db", g.d1, db, TOL);
  check_close("D5 d/dc", g.d2, dc, TOL);
  check_close("D5 d/dd", g.d3, dd, TOL);
  check_close("D5 d/de", g.d4, de, TOL);
  g = __enzyme_autodiff_D5((void *)f5, a, b, c, d, e);
  check_close("D5 default activity d/da", g.d0, da, TOL);
  check_close("D5 default activity d/db", g.d1, db, TOL);
  check_close("D5 default activity d/dc", g.d2, dc, TOL);
  check_close("D5 default activity d/dd", g.d3, dd, TOL);
  check_close("D5 default activity d/de", g.d4, de, TOL);
  /* Outs at positions 0, 2, 4; consts between. */
  D3 h = __enzyme_autodiff_D3((void *)f5, enzyme_out, a, enzyme_const, b,
                              enzyme_out, c, enzyme_const, d, enzyme_out, e);
  check_close("D5 mixed: d/da", h.d0, da, TOL);
  check_close("D5 mixed: d/dc", h.d1, dc, TOL);
  check_close("D5 mixed: d/de", h.d2, de, TOL);
  /* Consts and defaults mixed: b and d const, others unmarked (active). */
  h = __enzyme_autodiff_D3((void *)f5, a, enzyme_const, b, c, enzyme_const, d,
                           e);
  check_close("D5 const+default: d/da", h.d0, da, TOL);
  check_close("D5 const+default: d/dc", h.d1, dc, TOL);
  check_close("D5 const+default: d/de", h.d2, de, TOL);
  check_close("D5 only d active",
              __enzyme_autodiff((void *)f5, enzyme_const, a, enzyme_const, b,
                                enzyme_const, c, enzyme_out, d, enzyme_const,
                                e),
              dd, TOL);
  D6 p = __enzyme_autodiff_D6((void *)f5, enzyme_primal_return, enzyme_out, a,
                              enzyme_out, b, enzyme_out, c, enzyme_out, d,
                              enzyme_out, e);
  check_close("D6 primal return: f", p.d0, f, TOL);
  check_close("D6 primal return: d/da", p.d1, da, TOL);
  check_close("D6 primal return: d/db", p.d2, db, TOL);
  check_close("D6 primal return: d/dc", p.d3, dc, TOL);
  check_close("D6 primal return: d/dd", p.d4, dd, TOL);
  check_close("D6 primal return: d/de", p.d5, de, TOL);
  check_close("fwd f5 along (1, 2, 3, 4, 5)",
              __enzyme_fwddiff((void *)f5, enzyme_dup, a, 1.0, enzyme_dup, b,
                               2.0, enzyme_dup, c, 3.0, enzyme_dup, d, 4.0,
                               enzyme_dup, e, 5.0),
              da + 2 * db + 3 * dc + 4 * dd + 5 * de, TOL);
  D2 t = __enzyme_fwddiff_D2((void *)f5, enzyme_primal_return, enzyme_const, a,
                             enzyme_dup, b, 1.0, enzyme_const, c, enzyme_dup, d,
                             -1.0, enzyme_const, e);
  check_close("fwd f5 primal return: f", t.d0, f, TOL);
  check_close("fwd f5 primal return: tangent", t.d1, db - dd, TOL);
}

static void test_int_between(void) {
  double x = opaque(0.5), y = opaque(3.0);
  int n = 4;
  double dx = n * y + 1, dy = n * x;
  D2 g = __enzyme_autodiff_D2((void *)fint, x, n, y);
  check_close("int default const: d/dx", g.d0, dx, TOL);
  check_close("int default const: d/dy", g.d1, dy, TOL);
  g = __enzyme_autodiff_D2((void *)fint, enzyme_out, x, enzyme_const, n,
                           enzyme_out, y);
  check_close("int marked const: d/dx", g.d0, dx, TOL);
  check_close("int marked const: d/dy", g.d1, dy, TOL);
  check_close("fwd int default const",
              __enzyme_fwddiff((void *)fint, x, 1.0, n, y, 2.0), dx + 2 * dy,
              TOL);
}

static void test_floats(void) {
  float x = (float)opaque(0.7), y = (float)opaque(-1.9);
  double xd = x, yd = y;
  double dx = yd + cos(xd), dy = xd;
  F2 g = __enzyme_autodiff_F2((void *)g2f, enzyme_out, x, enzyme_out, y);
  check_close("F2 d/dx", g.d0, dx, FTOL);
  check_close("F2 d/dy", g.d1, dy, FTOL);
  F2 p = __enzyme_autodiff_F2p((void *)g2f, enzyme_primal_return, enzyme_out, x,
                               enzyme_const, y);
  check_close("F2 primal return: f", p.d0, xd * yd + sin(xd), FTOL);
  check_close("F2 primal return: d/dx", p.d1, dx, FTOL);
  check_close(
      "fwd float, two dup",
      __enzyme_fwddiff_f((void *)g2f, enzyme_dup, x, 1.0f, enzyme_dup, y, 3.0f),
      dx + 3 * dy, FTOL);
  F2 t = __enzyme_fwddiff_F2((void *)g2f, enzyme_primal_return, enzyme_dup, x,
                             0.0f, enzyme_dup, y, 1.0f);
  check_close("fwd float primal return: f", t.d0, xd * yd + sin(xd), FTOL);
  check_close("fwd float primal return: tangent", t.d1, dy, FTOL);

  /* {primal, d/dx, d/dy} of floats: { <2 x float>, float } in the ABI. */
  F3 r = __enzyme_autodiff_F3p((void *)g2f, enzyme_primal_return, enzyme_out, x,
                               enzyme_out, y);
  check_close("F3 primal return: f", r.d0, xd * yd + sin(xd), FTOL);
  check_close("F3 primal return: d/dx", r.d1, dx, FTOL);
  check_close("F3 primal return: d/dy", r.d2, dy, FTOL);

  float z = (float)opaque(0.5), w = (float)opaque(-2.0);
  double zd = z, wd = w;
  F3 s3 = __enzyme_autodiff_F3((void *)g4f3, enzyme_out, x, enzyme_out, y,
                               enzyme_out, z);
  check_close("F3 d/dx", s3.d0, yd * zd, FTOL);
  check_close("F3 d/dy", s3.d1, xd * zd, FTOL);
  check_close("F3 d/dz", s3.d2, xd * yd, FTOL);
  F4 q = __enzyme_autodiff_F4((void *)g4f, enzyme_out, x, enzyme_out, y,
                              enzyme_out, z, enzyme_out, w);
  check_close("F4 d/dx", q.d0, yd * zd * wd, FTOL);
  check_close("F4 d/dy", q.d1, xd * zd * wd, FTOL);
  check_close("F4 d/dz", q.d2, xd * yd * wd, FTOL);
  check_close("F4 d/dw", q.d3, xd * yd * zd, FTOL);

  double u = opaque(0.3);
  DF m = __enzyme_autodiff_DF((void *)hdf, enzyme_out, u, enzyme_out, y);
  check_close("{double, float} d/dx", m.d0, yd + exp(u), FTOL);
  check_close("{double, float} d/dy", m.d1, u, FTOL);
  PDF pm = __enzyme_autodiff_PDF((void *)hdf, enzyme_primal_return, enzyme_out,
                                 u, enzyme_out, y);
  check_close("{primal, double, float}: f", pm.f, u * yd + exp(u), FTOL);
  check_close("{primal, double, float}: d/dx", pm.d0, yd + exp(u), FTOL);
  check_close("{primal, double, float}: d/dy", pm.d1, u, FTOL);
  FD n = __enzyme_autodiff_FD((void *)hfd, enzyme_out, x, enzyme_out, u);
  check_close("{float, double} d/dx", n.d0, u * u, FTOL);
  check_close("{float, double} d/dy", n.d1, 2 * xd * u, FTOL);
  FFD k = __enzyme_autodiff_FFD((void *)hffd, enzyme_out, x, enzyme_out, y,
                                enzyme_out, u);
  check_close("{float, float, double} d/dx", k.d0, yd * u, FTOL);
  check_close("{float, float, double} d/dy", k.d1, xd * u, FTOL);
  check_close("{float, float, double} d/dz", k.d2, xd * yd + 1, FTOL);
}

int main(void) {
  test_two();
  test_three();
  test_four();
  test_five();
  test_int_between();
  test_floats();
  return check_report();
}
