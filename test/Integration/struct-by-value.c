// Structs passed by value (issue 14 item 7). On x86-64 the C ABI passes
// {double, double} as two doubles, {double x3} and {double x4} in memory
// (byval), {float, float} as one <2 x float>, {double, int} as a double and
// an i32, and nested structs by their flattened members. Requests spell the
// struct as the source does (enzyme_dup, v, dv with both structs; enzyme_out,
// v returning the adjoint as the struct) or piece by piece as Enzyme reads
// them (enzyme_dup, v.a, dv.a, ...; enzyme_dup, &w, &dw for a byval
// parameter); both must give the derivative. Expected values are central
// finite differences or analytic formulas (for float members), and forward
// and reverse are compared with each other.
// RUN: %clang -O0 %s -lm -o %t0 && %t0 | FileCheck %s
// RUN: %clang -O1 -g %s -lm -o %t1 && %t1 | FileCheck %s
// RUN: %clang -O2 %s -lm -o %t2 && %t2 | FileCheck %s
// RUN: %clang -O3 -g %s -lm -o %t3 && %t3 | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: ALL PASSED
#include "Inputs/check.h"

extern int enzyme_dup, enzyme_const, enzyme_out, enzyme_width;

typedef struct { double a, b; } V2;
typedef struct { double a, b, c; } V3;
typedef struct { double a, b, c, d; } V4;
typedef struct { float a, b; } FF;
typedef struct { double d; int n; } DI;
typedef struct { FF f; double z; } NF;
typedef struct { struct { double x; } in; double y; } ND;

double __enzyme_fwddiff(void *, ...);
double __enzyme_autodiff(void *, ...);
V2 __enzyme_autodiff_v2(void *, ...);
V3 __enzyme_autodiff_v3(void *, ...);
FF __enzyme_autodiff_ff(void *, ...);
NF __enzyme_autodiff_nf(void *, ...);
ND __enzyme_autodiff_nd(void *, ...);
typedef struct { V2 v; double x; } V2X;
V2X __enzyme_autodiff_v2x(void *, ...);
typedef struct { V4 v; double s; } V4S;
V4S __enzyme_autodiff_v4s(void *, ...);
typedef struct { V3 w; double x; } V3X;
V3X __enzyme_autodiff_v3x(void *, ...);
V2 __enzyme_fwddiff_v2(void *, ...);
typedef struct { double t0, t1; } T2;
T2 __enzyme_fwddiff_t2(void *, ...);
typedef struct { void *tape; double primal; } Aug;
Aug __enzyme_augmentfwd(void *, ...);
V2 __enzyme_reverse_v2(void *, ...);

double f2(V2 v, double x) { return sin(v.a) * v.b * x + v.b * v.b; }
double f3(V3 v) { return v.a * exp(v.b) + v.c * v.c * v.a; }
// Changes its own copy, which the caller must not see.
double f3m(V3 v) {
  v.a *= 2;
  v.c = v.a + v.b;
  return v.a * v.b * v.c;
}
double f3x(V3 v, double x) { return x * v.a + v.b * v.c * x * x; }
double f4(V4 v, double s) { return s * (v.a * v.b + v.c * v.d * v.d); }
double fff(FF v) { return (double)v.a * v.a * v.b; }
double fdi(DI q, double x) { return q.d * q.d * q.n + x; }
double fnf(NF v) { return (double)v.f.a * v.f.b * v.z; }
double fnd(ND v) { return cos(v.in.x) * v.y; }
// Takes the two doubles a V2 is passed as.
double ftwo(double a, double b) { return a * exp(b); }
V2 rv(double x, double y) {
  V2 r = {x * y, sin(x) + 3 * y};
  return r;
}

#define H 1e-6
#define TOL 1e-6

int main(void) {
  V2 v = {0.7, 1.3}, dv = {0.4, -1.1}, dv2 = {1.0, 0.0};
  double x = 1.9;

  // {double, double}: two doubles.
  double fd2 = CENTRAL_DIFF(
      f2((V2){v.a + t_ * dv.a, v.b + t_ * dv.b}, x), 0.0, H);
  check_close("f2 fwd dup v dv",
              __enzyme_fwddiff((void *)f2, enzyme_dup, v, dv, enzyme_const, x),
              fd2, TOL);
  check_close("f2 fwd v dv (default)",
              __enzyme_fwddiff((void *)f2, v, dv, enzyme_const, x), fd2, TOL);
  check_close("f2 fwd piecewise",
              __enzyme_fwddiff((void *)f2, enzyme_dup, v.a, dv.a, enzyme_dup,
                               v.b, dv.b, enzyme_const, x),
              fd2, TOL);
  check_close("f2 fwd const v, dup x",
              __enzyme_fwddiff((void *)f2, enzyme_const, v, enzyme_dup, x, 1.0),
              CENTRAL_DIFF(f2(v, t_), x, H), TOL);
  T2 lanes = __enzyme_fwddiff_t2((void *)f2, enzyme_width, 2, enzyme_dup, v,
                                 dv, dv2, enzyme_const, x);
  check_close("f2 fwd batch lane 0", lanes.t0, fd2, TOL);
  check_close("f2 fwd batch lane 1", lanes.t1,
              CENTRAL_DIFF(f2((V2){t_, v.b}, x), v.a, H), TOL);

  double ga = CENTRAL_DIFF(f2((V2){t_, v.b}, x), v.a, H);
  double gb = CENTRAL_DIFF(f2((V2){v.a, t_}, x), v.b, H);
  double gx = CENTRAL_DIFF(f2(v, t_), x, H);
  V2 g = __enzyme_autodiff_v2((void *)f2, enzyme_out, v, enzyme_const, x);
  check_close("f2 rev out v: a", g.a, ga, TOL);
  check_close("f2 rev out v: b", g.b, gb, TOL);
  V2X gvx = __enzyme_autodiff_v2x((void *)f2, enzyme_out, v, enzyme_out, x);
  check_close("f2 rev out v, x: a", gvx.v.a, ga, TOL);
  check_close("f2 rev out v, x: b", gvx.v.b, gb, TOL);
  check_close("f2 rev out v, x: x", gvx.x, gx, TOL);
  check_close("f2 rev const v",
              __enzyme_autodiff((void *)f2, enzyme_const, v, enzyme_out, x),
              gx, TOL);
  check_close("f2 fwd vs rev", dv.a * g.a + dv.b * g.b, fd2, TOL);
  Aug s = __enzyme_augmentfwd((void *)f2, enzyme_out, v, enzyme_const, x);
  check_close("f2 split primal", s.primal, f2(v, x), TOL);
  V2 gs = __enzyme_reverse_v2((void *)f2, enzyme_out, v, enzyme_const, x, 1.0,
                              s.tape);
  check_close("f2 split out v: a", gs.a, ga, TOL);
  check_close("f2 split out v: b", gs.b, gb, TOL);

  // A struct passed whole to a function taking its pieces (Enzyme's
  // convention: one value per piece).
  V2 gt = __enzyme_autodiff_v2((void *)ftwo, v);
  check_close("ftwo rev pieces: a", gt.a, exp(v.b), TOL);
  check_close("ftwo rev pieces: b", gt.b, v.a * exp(v.b), TOL);

  // {double x3}: in memory (byval).
  V3 w = {0.6, 0.2, -1.4}, dw = {0.3, 0.5, -0.7};
  double fd3 = CENTRAL_DIFF(
      f3((V3){w.a + t_ * dw.a, w.b + t_ * dw.b, w.c + t_ * dw.c}), 0.0, H);
  check_close("f3 fwd dup w dw", __enzyme_fwddiff((void *)f3, enzyme_dup, w, dw),
              fd3, TOL);
  check_close("f3 fwd dup &w &dw",
              __enzyme_fwddiff((void *)f3, enzyme_dup, &w, &dw), fd3, TOL);
  double g3a = CENTRAL_DIFF(f3((V3){t_, w.b, w.c}), w.a, H);
  double g3b = CENTRAL_DIFF(f3((V3){w.a, t_, w.c}), w.b, H);
  double g3c = CENTRAL_DIFF(f3((V3){w.a, w.b, t_}), w.c, H);
  V3 g3 = __enzyme_autodiff_v3((void *)f3, enzyme_out, w);
  check_close("f3 rev out w: a", g3.a, g3a, TOL);
  check_close("f3 rev out w: b", g3.b, g3b, TOL);
  check_close("f3 rev out w: c", g3.c, g3c, TOL);
  V3 g3d = {0, 0, 0};
  __enzyme_autodiff((void *)f3, enzyme_dup, &w, &g3d);
  check_close("f3 rev dup &w &dw: a", g3d.a, g3a, TOL);
  check_close("f3 rev dup &w &dw: b", g3d.b, g3b, TOL);
  check_close("f3 rev dup &w &dw: c", g3d.c, g3c, TOL);
  V3X g3x = __enzyme_autodiff_v3x((void *)f3x, enzyme_out, w, enzyme_out, x);
  check_close("f3x rev out w, x: a", g3x.w.a,
              CENTRAL_DIFF(f3x((V3){t_, w.b, w.c}, x), w.a, H), TOL);
  check_close("f3x rev out w, x: c", g3x.w.c,
              CENTRAL_DIFF(f3x((V3){w.a, w.b, t_}, x), w.c, H), TOL);
  check_close("f3x rev out w, x: x", g3x.x, CENTRAL_DIFF(f3x(w, t_), x, H),
              TOL);

  // The byval copy stays the callee's.
  double fd3m = CENTRAL_DIFF(
      f3m((V3){w.a + t_ * dw.a, w.b + t_ * dw.b, w.c + t_ * dw.c}), 0.0, H);
  check_close("f3m fwd", __enzyme_fwddiff((void *)f3m, enzyme_dup, w, dw), fd3m,
              TOL);
  V3 g3m = __enzyme_autodiff_v3((void *)f3m, enzyme_out, w);
  check_close("f3m rev: a", g3m.a,
              CENTRAL_DIFF(f3m((V3){t_, w.b, w.c}), w.a, H), TOL);
  check_close("f3m rev: b", g3m.b,
              CENTRAL_DIFF(f3m((V3){w.a, t_, w.c}), w.b, H), TOL);
  check_close("f3m rev: c", g3m.c, 0.0, TOL);
  check_close("f3m leaves w.a", w.a, 0.6, 0);
  check_close("f3m leaves w.c", w.c, -1.4, 0);
  check_close("f3m leaves dw.a", dw.a, 0.3, 0);

  // {double x4}: in memory, with another parameter.
  V4 u = {1.1, -0.4, 0.8, 1.7}, du = {0.2, 0.1, -0.3, 0.5};
  double sc = 0.9;
  double fd4 = CENTRAL_DIFF(f4((V4){u.a + t_ * du.a, u.b + t_ * du.b,
                                    u.c + t_ * du.c, u.d + t_ * du.d},
                               sc + t_ * 0.25),
                            0.0, H);
  check_close("f4 fwd",
              __enzyme_fwddiff((void *)f4, enzyme_dup, u, du, enzyme_dup, sc,
                               0.25),
              fd4, TOL);
  V4S g4 = __enzyme_autodiff_v4s((void *)f4, enzyme_out, u, enzyme_out, sc);
  check_close("f4 rev: a", g4.v.a,
              CENTRAL_DIFF(f4((V4){t_, u.b, u.c, u.d}, sc), u.a, H), TOL);
  check_close("f4 rev: d", g4.v.d,
              CENTRAL_DIFF(f4((V4){u.a, u.b, u.c, t_}, sc), u.d, H), TOL);
  check_close("f4 rev: s", g4.s, CENTRAL_DIFF(f4(u, t_), sc, H), TOL);
  check_close("f4 fwd vs rev",
              du.a * g4.v.a + du.b * g4.v.b + du.c * g4.v.c + du.d * g4.v.d +
                  0.25 * g4.s,
              fd4, TOL);

  // {float, float}: one <2 x float>; analytic derivatives.
  FF p = {1.5f, -2.0f}, dp = {1.0f, 0.5f};
  check_close("fff fwd", __enzyme_fwddiff((void *)fff, enzyme_dup, p, dp),
              2 * 1.5 * -2.0 * 1.0 + 1.5 * 1.5 * 0.5, 1e-6);
  FF gp = __enzyme_autodiff_ff((void *)fff, enzyme_out, p);
  check_close("fff rev: a", gp.a, 2 * 1.5 * -2.0, 1e-6);
  check_close("fff rev: b", gp.b, 1.5 * 1.5, 1e-6);

  // {double, int}: a double and an i32; the int is not differentiated.
  DI q = {1.25, 3}, dq = {2.0, 99};
  check_close("fdi fwd",
              __enzyme_fwddiff((void *)fdi, enzyme_dup, q, dq, enzyme_const, x),
              2 * CENTRAL_DIFF(fdi((DI){t_, 3}, x), q.d, H), TOL);
  check_close("fdi rev",
              __enzyme_autodiff((void *)fdi, enzyme_out, q, enzyme_const, x),
              CENTRAL_DIFF(fdi((DI){t_, 3}, x), q.d, H), TOL);

  // Nested: {{float, float}, double} is <2 x float>, double.
  NF n = {{0.5f, 2.0f}, -1.5}, dn = {{1.0f, -1.0f}, 0.25};
  check_close("fnf fwd", __enzyme_fwddiff((void *)fnf, enzyme_dup, n, dn),
              1.0 * 2.0 * -1.5 - 0.5 * 1.0 * -1.5 + 0.5 * 2.0 * 0.25, 1e-6);
  NF gn = __enzyme_autodiff_nf((void *)fnf, enzyme_out, n);
  check_close("fnf rev: f.a", gn.f.a, 2.0 * -1.5, 1e-6);
  check_close("fnf rev: f.b", gn.f.b, 0.5 * -1.5, 1e-6);
  check_close("fnf rev: z", gn.z, 0.5 * 2.0, 1e-6);
  // Nested: {{double}, double} is two doubles.
  ND m = {{0.3}, 2.5}, dm = {{1.0}, -2.0};
  check_close("fnd fwd", __enzyme_fwddiff((void *)fnd, enzyme_dup, m, dm),
              CENTRAL_DIFF(fnd((ND){{0.3 + t_}, 2.5 - 2 * t_}), 0.0, H), TOL);
  ND gm = __enzyme_autodiff_nd((void *)fnd, enzyme_out, m);
  check_close("fnd rev: in.x", gm.in.x,
              CENTRAL_DIFF(fnd((ND){{t_}, 2.5}), 0.3, H), TOL);
  check_close("fnd rev: y", gm.y, CENTRAL_DIFF(fnd((ND){{0.3}, t_}), 2.5, H),
              TOL);

  // A struct returned in registers: forward mode returns its tangent.
  V2 tr = __enzyme_fwddiff_v2((void *)rv, 0.8, 1.0, -0.6, 0.5);
  check_close("rv fwd: a", tr.a,
              CENTRAL_DIFF(rv(0.8 + t_, -0.6 + 0.5 * t_).a, 0.0, H), TOL);
  check_close("rv fwd: b", tr.b,
              CENTRAL_DIFF(rv(0.8 + t_, -0.6 + 0.5 * t_).b, 0.0, H), TOL);
  return check_report();
}
