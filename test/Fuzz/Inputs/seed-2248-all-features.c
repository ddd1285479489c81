/* Tapestry fuzz program: seed 2248, features api,arrays,batch,branches,byval,calls,constptr,fnptr,loops,malloc,realloc,recursion,scalar,sort,split,structs,tape,vectorize */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

extern int enzyme_dup, enzyme_const, enzyme_out, enzyme_dupnoneed, enzyme_primal_return;
extern int enzyme_width;
struct TapPair { double u; double v; };
struct TapPair_ld { long double u; long double v; };
#define TAP_IDENT 1

/* ---- instrumentation used only by the _chk and _ld twins ---- */
static double tap_margin = 1e300, tap_margin_sort = 1e300, tap_absmax = 0;
static unsigned long long tap_path = 14695981039346656037ULL;
static void tap_reset(void) {
  tap_margin = tap_margin_sort = 1e300; tap_absmax = 0;
  tap_path = 14695981039346656037ULL;
}
/* TAP_IDENT: an exact tie goes on the path as a tie of its own instead of
   a zero margin. A tie that is an identity (fmin(p, t) with t = p, say)
   stays a tie at every finite-difference point, so the path agrees and the
   program is judged; the two sides' gradients are equal there. A tie that
   is a coincidence (x0 + x1 == -3.75) is not one at the neighbouring
   points: another path, nonsmooth. */
static void tap_note(int r, long double a, long double b) {
  long double m = fabsl(a - b) / (1.0L + fabsl(a) + fabsl(b));
  if (TAP_IDENT && a == b)
    r = 2;
  else if (m < tap_margin)
    tap_margin = (double)m;
  tap_path = (tap_path ^ (unsigned long long)(r + 1)) * 1099511628211ULL;
}
static int tap_gt(long double a, long double b) { int r = a > b; tap_note(r, a, b); return r; }
static int tap_lt(long double a, long double b) { int r = a < b; tap_note(r, a, b); return r; }
static int tap_ge(long double a, long double b) { int r = a >= b; tap_note(r, a, b); return r; }
static int tap_le(long double a, long double b) { int r = a <= b; tap_note(r, a, b); return r; }
#define TAP_DEFS(T, S)                                                        \
  static T tap_trk##S(T v) {                                                  \
    if (fabsl((long double)v) > tap_absmax) tap_absmax = fabsl((long double)v); \
    return v; }                                                               \
  static T tap_fabs##S(T a) { tap_note(a > 0, a, 0); return fabs##S(a); }     \
  static T tap_fmin##S(T a, T b) { tap_note(a < b, a, b); return fmin##S(a, b); } \
  static T tap_fmax##S(T a, T b) { tap_note(a > b, a, b); return fmax##S(a, b); } \
  static T tap_copysign##S(T a, T b) {                                        \
    tap_note(a > 0, a, 0); tap_note(b > 0, b, 0); return copysign##S(a, b); }
TAP_DEFS(double, )
TAP_DEFS(float, f)
TAP_DEFS(long double, l)

static int tap_cmp0(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}
static int tap_cmp1(const void *a, const void *b) {
  if (*(const double *)a < *(const double *)b) return -1;
  return *(const double *)a > *(const double *)b;
}
static int tap_cmp2(const void *a, const void *b) {   /* descending */
  double x = *(const double *)a, y = *(const double *)b;
  return x < y ? 1 : x > y ? -1 : 0;
}
static int tap_cmp0_ld(const void *a, const void *b) {
  long double x = *(const long double *)a, y = *(const long double *)b;
  return (x > y) - (x < y);
}
static int tap_cmp1_ld(const void *a, const void *b) { return tap_cmp0_ld(a, b); }
static int tap_cmp2_ld(const void *a, const void *b) { return tap_cmp0_ld(b, a); }
#define TAP_SORT_DEFS(T, S)                                                   \
  static void tap_ranks##S(const T *c, int n) {                               \
    for (int i = 0; i < n; i++) {                                             \
      int r = 0;                                                              \
      for (int j = 0; j < n; j++) r += c[j] < c[i];                           \
      tap_path = (tap_path ^ (unsigned long long)(r + 1)) * 1099511628211ULL; \
    } }                                                                       \
  static void tap_sorted##S(const T *c, int n) {                              \
    for (int i = 0; i + 1 < n; i++) {                                         \
      long double a = c[i], b = c[i + 1];                                     \
      long double m = fabsl(a - b) / (1.0L + fabsl(a) + fabsl(b));            \
      if (m < tap_margin_sort) tap_margin_sort = (double)m;                   \
    } }
TAP_SORT_DEFS(double, )
TAP_SORT_DEFS(long double, l)
struct V2 { double a; double b; };
struct V2_ld { long double a; long double b; };
struct V3 { double x; double y; double z; };
struct V3_ld { long double x; long double y; long double z; };
struct DI { double d; int n; };
struct DI_ld { long double d; int n; };

/* ---- plain ---- */
double h0(double *q0, double p0) {
  for (int v0 = 0; v0 < 24; v0++) {
    q0[v0] = p0;
  }
  struct TapPair s0 = { p0, (log1p((1.5 + cos(p0))) + (q0[1] * q0[15])) };
  s0.v *= 0.375;
  return ((cbrt((-2.0)) + s0.v) + q0[16]);
}
double h1(double p1, double p2) {
  double t0 = (log1p((1.25 + cos((p2 * (-2.4375))))) / (1.25 + ((((fmin((-1.0625), (-0.1875)) > exp((-2.875))) && (fma(2.125, p2, (-2.8125)) > (-0.6875))) ? (p1 + p1) : hypot(p1, (1.25 + (p1 * p1)))) * (((fmin((-1.0625), (-0.1875)) > exp((-2.875))) && (fma(2.125, p2, (-2.8125)) > (-0.6875))) ? (p1 + p1) : hypot(p1, (1.25 + (p1 * p1)))))));
  return (hypot(t0, (0.5 + exp(p1))) + p1);
}
static __attribute__((noinline)) double h2(double p3) {
  if (((p3 + p3) >= (-4.0))) {
    p3 -= p3;
  }
  int k0 = 0;
  while (k0 < 1 && (fabs(0.0625) >= 0.3125)) {
    p3 = (4.4375 * atan(((p3 - (p3 * p3)) * 0.015625)));
    k0++;
  }
  p3 -= (p3 - (((pow((0.5 + ((-0.25) * (-0.25))), 1.3125) >= (-0.5)) ? p3 : (-1.9375)) * (p3 - (p3 + 0.5))));
  return (tan((1.0625 * erf((h1((3.5625 * erf((p3 * 0.0078125))), (-2.125)) * 0.03125)))) + p3);
}
__attribute__((noinline)) double h3(double p4) {
  if ((erfc(((-1.3125) - p4)) <= 0.5)) {
    if (((p4 / (2.5 + cos(p4))) <= ((-2.9375) + p4))) {
      double t1 = (-p4);
      return (cosh(p4) + p4);
    } else {
      double t2 = ((-p4) / (-(1.75 + (log2((2.25 + cos((-1.8125)))) * log2((2.25 + cos((-1.8125))))))));
    }
  } else {
    if ((exp2((5.375 * erf(((p4 - (p4 + 0.5)) * 0.125)))) <= (erf(p4) + p4))) {
      p4 -= (p4 - (p4 + 0.5));
      double t3 = h1(0.9375, (3.5625 * tanh((p4 * 0.125))));
      struct TapPair s1 = { (-h1((3.5625 * tanh((p4 * 0.125))), (3.5625 * tanh((p4 * 0.125))))), (copysign(t3, (-0.375)) + fmin(p4, (-2.5625))) };
    }
  }
  return (((sinh((5.375 * tanh((p4 * 0.125)))) >= (-44.625)) ? p4 : log((0.5 + exp((2.1875 * atan((p4 * 0.125))))))) + p4);
}
static double h4(double p5) {
  double t4 = ((-2.875) / (-(2.0 + cos(p5))));
  p5 -= 2.4375;
  return ((copysign(p5, ((h1((-1.9375), (3.5625 * tanh((p5 * 0.25)))) <= 11.75) ? 2.0625 : copysign((-1.8125), 0.375))) + p5) + t4);
}
static double (*const tab0[3])(double) = { h2, h3, h4 };
static __attribute__((noinline)) double h5(double (*cb0)(double), double p6, double p7) {
  p7 += (p6 + p6);
  int k1 = 0;
  while (k1 < 5) {
    p7 = (10.75 * tanh(((p7 - cosh((5.375 * tanh(((p6 - (p6 + 0.5)) * 0.125))))) * 0.03125)));
    double t5 = (asinh((-3.0)) * fma(1.6875, 1.25, p6));
    k1++;
  }
  if ((p6 < 2.0)) {
    double t6 = (2.125 / (1.75 + (p6 * p6)));
    return (h1(((-1.6875) / (2.75 + cos(fma((-1.25), 0.125, p6)))), (3.5625 * tanh(((p6 * 2.625) * 0.125)))) + p7);
  }
  double t7 = cb0((3.5625 * erf((p7 * 0.125))));
  return ((sqrt((2.5 + cos(p7))) + p7) + t7);
}
struct V2 h6(double p8, struct V3 w0, double p9) {
  w0.y += (-0.625);
  double t8 = exp((3.3125 * atan(((p8 - p9) * 0.25))));
  return ((struct V2){ (2.1875 * atan((((((((p8 / (-(-2.625))) - hypot(fmin(w0.y, w0.z), (1.5 + (erf(p9) * erf(p9))))) + p8) + w0.x) - w0.y) + w0.z) * 0.0625))), (2.1875 * atan(((((((p9 + p8) * w0.x) + w0.y) + p9) + t8) * 0.015625))) });
}
static __attribute__((noinline)) struct DI h7(struct V2 w1, double p10, struct DI w2) {
  int k2 = 0;
  while (k2 < 5) {
    double t9 = ((p10 + (-2.625)) / (1.0 + exp((3.5625 * sin(((w2.d + p10) * 0.25))))));
    k2++;
  }
  int k3 = 0;
  while (k3 < 3 && (fmin(w2.d, (-2.5)) >= (-3.8125))) {
    if (((1.75 * erf((pow((1.25 + ((w1.b * w2.d) * (w1.b * w2.d))), 2.125) * 7.62939453125e-06))) <= 0.375)) {
      double t10 = log10((1.75 + cos((-1.5625))));
      double t11 = erf(((-2.375) * 2.625));
    }
    double t12 = log1p((0.5 + exp((-1.0625))));
    if ((hypot(w1.b, (0.5 + exp(p10))) < 13.8125)) {
      double t13 = log2((0.5 + (w1.b * w1.b)));
      double t14 = (((-2.75) - t12) * (-0.125));
    }
    k3++;
  }
  int k4 = 0;
  while (k4 < 1 && ((2.4375 / (-2.875)) <= fabs((-2.375)))) {
    if ((((h4(((double)(k4) + 0.03125)) <= fmin((-0.3125), 1.375)) ? (w2.d + w1.a) : h6(w1.a, ((struct V3){ w1.b, p10, (3.5625 * tanh((((double)(w2.n) + 0.03125) * 0.25))) }), ((double)(k4) + 0.03125)).a) > (-4.0))) {
      struct V3 sv0 = ((struct V3){ h6(p10, ((struct V3){ 2.3125, 1.375, 2.0 }), w2.d).a, atan((-1.6875)), (-w1.a) });
      struct V2 sv1 = h6((hypot((-1.9375), (-1.0625)) / (-(-2.375))), ((struct V3){ ((-2.3125) + 1.9375), exp2(((double)(k4) + 0.03125)), (2.1875 * atan((((cosh(((double)(w2.n) + 0.03125)) <= sv0.x) ? (-0.25) : ((double)(w2.n) + 0.03125)) * 0.25))) }), (-(w1.a * ((double)(k4) + 0.03125))));
      double t15 = atanh((0.75 * erf((w2.d * 0.5))));
    }
    w1.b = ((w2.d / (-(1.75 + exp(w1.b)))) + (-0.875));
    k4++;
  }
  return ((struct DI){ (3.5625 * sin((((((erfc((w2.d - w1.a)) - ((p10 * (-1.5)) * (((double)(w2.n) + 0.03125) - (((double)(w2.n) + 0.03125) + 0.5)))) + w1.a) - w1.b) * w2.d) * 0.0078125))), w2.n % 3 + 1 });
}
static __attribute__((noinline)) struct DI h8(double p11) {
  struct TapPair s2 = { h7(((struct V2){ p11, p11 }), p11, ((struct DI){ p11, 4 })).d, fmin(h1(p11, (-1.3125)), ((-1.0) + p11)) };
  if (((((-(-1.6875)) / (2.0 + cos((1.0 * s2.u)))) < expm1(copysign(s2.u, s2.v))) && (sqrt((1.5 + exp((2.1875 * atan((hypot(s2.u, (1.0 + exp(s2.u))) * 0.03125)))))) > (-0.9375)))) {
    double t16 = h5(h2, p11, s2.u);
    double t17 = (log2(1.5625) - (2.8125 + s2.v));
    s2.u *= 0.375;
  } else {
    if ((s2.u < 1.0)) {
      s2.u -= s2.u;
    } else {
      struct V2 sv2 = ((struct V2){ (3.5625 * erf((s2.v * 0.25))), p11 });
    }
  }
  if ((((s2.u - ((cos(s2.v) > (-0.25)) ? s2.u : s2.v)) <= 8.0) && (tanh((s2.u - (-0.5625))) >= 0.0))) {
    struct DI sv3 = ((struct DI){ (3.5625 * tanh((s2.v * 0.25))), 3 });
    struct DI sv4 = h7(((struct V2){ ((s2.v > 2.0) ? p11 : p11), (2.1875 * atan((s2.v * 0.25))) }), (-((-1.75) / 2.8125)), sv3);
    double t18 = expm1(fabs((-1.0625)));
    sv4.d = (cos(cosh((5.375 * sin((s2.u * 0.25))))) - (1.75 / (t18 + t18)));
  } else {
    struct TapPair s3 = { h2((3.5625 * erf(((s2.u - s2.v) * 0.125)))), s2.u };
    struct V2 sv5 = ((struct V2){ (3.5625 * erf(((p11 * s3.v) * 0.0625))), (2.1875 * atan(((s2.u * 0.625) * 0.25))) });
    struct DI sv6 = h7(((struct V2){ (2.1875 * atan((s2.u * 0.25))), (3.5625 * erf((s3.v * 0.25))) }), (3.5625 * sin(((((p11 / (2.25 + cos(s2.v))) > 1.3125) ? sv5.a : s2.v) * 0.25))), ((struct DI){ p11, 4 }));
  }
  return ((struct DI){ (3.5625 * sin((((log1p((1.25 + cos((-(p11 * s2.v))))) + s2.u) + s2.v) * 0.125))), 2 });
}
double f(int n, double x0, int sel, int m, double x1, double x2, double *a0) {
  double t19 = cos(x0);
  double c0[24];
  memcpy(c0, a0, 24 * sizeof *c0);
  double *g0 = NULL;
  for (int j0 = 0; j0 < m; j0++) {
    if (j0 % 2 == 0)
      g0 = (double *)realloc(g0, (j0 + 2) * sizeof(double));
    g0[j0] = (erf(((double)(j0) + 0.03125)) + (0.5 * ((j0 > 0) ? g0[j0 - 1] : 0.0)));
  }
  double *c1 = (double *)malloc(24 * sizeof(double));
  for (int j1 = 0; j1 < 24; j1++) {
    c1[j1] = (2.1875 * atan((((a0[(j1 * 1 + 21) % 24] * x1) + (((-1.25) * c0[j1]) + (0.0625 * sin((double)(j1))))) * 0.125)));
  }
  qsort(c1, m, sizeof *c1, tap_cmp2);
  double r0 = (-4.5);
  for (int v1 = 0; v1 < m; v1++) {
    r0 = fmax(r0, ((*(c0 + (v1))) + (0.25 * (double)(v1))));
  }
  double r1 = 2.5;
  for (int i0 = 0; i0 < n; i0++) {
    r1 += (4.4375 * atan((tab0[(i0 * sel + 0) % 3]((3.5625 * sin((expm1((5.375 * tanh((r0 * 0.125)))) * 0.015625)))) * 0.0078125)));
  }
  struct DI sv7 = h8((3.5625 * sin((hypot(c1[9], (1.0 + exp(g0[15]))) * 0.03125))));
  for (int i1 = 0; i1 < n; i1++) {
    struct DI sv8 = h8((pow((1.5 + cos(((double)(i1) + 0.03125))), x1) / (2.8125 + ((double)(i1) + 0.03125))));
    c0[10] *= (-0.0625);
    int k5 = 0;
    while (k5 < n && (fabs(sv7.d) <= 0.5)) {
      double t20 = tab0[(sel + 2) % 3]((3.5625 * sin((exp2((5.375 * tanh((fma(t19, x1, 0.875) * 0.125)))) * 0.0625))));
      k5++;
    }
  }
  g0[9] = (3.5625 * tanh((tab0[(sel + 0) % 3]((3.5625 * sin(((t19 + t19) * 0.25)))) * 0.0078125)));
  for (int i2 = 0; i2 < 2; i2++) {
    c0[(i2 * 3 + 23) % 24] *= (-0.9375);
    x1 += (c1[(i2 * 1 + 8) % 24] - ((double)(i2) + 0.03125));
  }
  c1[6] = x0;
  {
    double tap_r = (((((((((((-pow((2.25 + cos(r1)), (2.25 * tanh(((-2.875) * 0.5))))) / pow((2.5 + cos(((sin(c1[3]) < t19) ? r1 : (-0.3125)))), ((-2.8125) / (-(2.0 + exp(x2)))))) - x0) + x2) + t19) * r1) + sv7.d) + a0[12]) + c0[20]) + g0[15]) + c1[6]);
    free(g0);
    free(c1);
    return tap_r;
  }
}

/* ---- chk ---- */
static double h0_chk(double *q0, double p0) {
  for (int v0 = 0; v0 < 24; v0++) {
    q0[v0] = tap_trk(p0);
  }
  struct TapPair s0 = { tap_trk(p0), tap_trk((log1p((1.5 + cos(p0))) + (q0[1] * q0[15]))) };
  s0.v *= 0.375;
  return tap_trk(((cbrt((-2.0)) + s0.v) + q0[16]));
}
static double h1_chk(double p1, double p2) {
  double t0 = tap_trk((log1p((1.25 + cos((p2 * (-2.4375))))) / (1.25 + (((tap_gt(tap_fmin((-1.0625), (-0.1875)), exp((-2.875))) && tap_gt(fma(2.125, p2, (-2.8125)), (-0.6875))) ? (p1 + p1) : hypot(p1, (1.25 + (p1 * p1)))) * ((tap_gt(tap_fmin((-1.0625), (-0.1875)), exp((-2.875))) && tap_gt(fma(2.125, p2, (-2.8125)), (-0.6875))) ? (p1 + p1) : hypot(p1, (1.25 + (p1 * p1))))))));
  return tap_trk((hypot(t0, (0.5 + exp(p1))) + p1));
}
static __attribute__((noinline)) double h2_chk(double p3) {
  if (tap_ge((p3 + p3), (-4.0))) {
    p3 -= p3;
  }
  int k0 = 0;
  while (k0 < 1 && tap_ge(tap_fabs(0.0625), 0.3125)) {
    p3 = tap_trk((4.4375 * atan(((p3 - (p3 * p3)) * 0.015625))));
    k0++;
  }
  p3 -= (p3 - ((tap_ge(pow((0.5 + ((-0.25) * (-0.25))), 1.3125), (-0.5)) ? p3 : (-1.9375)) * (p3 - (p3 + 0.5))));
  return tap_trk((tan((1.0625 * erf((h1_chk((3.5625 * erf((p3 * 0.0078125))), (-2.125)) * 0.03125)))) + p3));
}
static __attribute__((noinline)) double h3_chk(double p4) {
  if (tap_le(erfc(((-1.3125) - p4)), 0.5)) {
    if (tap_le((p4 / (2.5 + cos(p4))), ((-2.9375) + p4))) {
      double t1 = tap_trk((-p4));
      return tap_trk((cosh(p4) + p4));
    } else {
      double t2 = tap_trk(((-p4) / (-(1.75 + (log2((2.25 + cos((-1.8125)))) * log2((2.25 + cos((-1.8125)))))))));
    }
  } else {
    if (tap_le(exp2((5.375 * erf(((p4 - (p4 + 0.5)) * 0.125)))), (erf(p4) + p4))) {
      p4 -= (p4 - (p4 + 0.5));
      double t3 = tap_trk(h1_chk(0.9375, (3.5625 * tanh((p4 * 0.125)))));
      struct TapPair s1 = { tap_trk((-h1_chk((3.5625 * tanh((p4 * 0.125))), (3.5625 * tanh((p4 * 0.125)))))), tap_trk((tap_copysign(t3, (-0.375)) + tap_fmin(p4, (-2.5625)))) };
    }
  }
  return tap_trk(((tap_ge(sinh((5.375 * tanh((p4 * 0.125)))), (-44.625)) ? p4 : log((0.5 + exp((2.1875 * atan((p4 * 0.125))))))) + p4));
}
static double h4_chk(double p5) {
  double t4 = tap_trk(((-2.875) / (-(2.0 + cos(p5)))));
  p5 -= 2.4375;
  return tap_trk(((tap_copysign(p5, (tap_le(h1_chk((-1.9375), (3.5625 * tanh((p5 * 0.25)))), 11.75) ? 2.0625 : tap_copysign((-1.8125), 0.375))) + p5) + t4));
}
static double (*const tab0_chk[3])(double) = { h2_chk, h3_chk, h4_chk };
static __attribute__((noinline)) double h5_chk(double (*cb0)(double), double p6, double p7) {
  p7 += (p6 + p6);
  int k1 = 0;
  while (k1 < 5) {
    p7 = tap_trk((10.75 * tanh(((p7 - cosh((5.375 * tanh(((p6 - (p6 + 0.5)) * 0.125))))) * 0.03125))));
    double t5 = tap_trk((asinh((-3.0)) * fma(1.6875, 1.25, p6)));
    k1++;
  }
  if (tap_lt(p6, 2.0)) {
    double t6 = tap_trk((2.125 / (1.75 + (p6 * p6))));
    return tap_trk((h1_chk(((-1.6875) / (2.75 + cos(fma((-1.25), 0.125, p6)))), (3.5625 * tanh(((p6 * 2.625) * 0.125)))) + p7));
  }
  double t7 = tap_trk(cb0((3.5625 * erf((p7 * 0.125)))));
  return tap_trk(((sqrt((2.5 + cos(p7))) + p7) + t7));
}
static struct V2 h6_chk(double p8, struct V3 w0, double p9) {
  w0.y += (-0.625);
  double t8 = tap_trk(exp((3.3125 * atan(((p8 - p9) * 0.25)))));
  return ((struct V2){ tap_trk((2.1875 * atan((((((((p8 / (-(-2.625))) - hypot(tap_fmin(w0.y, w0.z), (1.5 + (erf(p9) * erf(p9))))) + p8) + w0.x) - w0.y) + w0.z) * 0.0625)))), tap_trk((2.1875 * atan(((((((p9 + p8) * w0.x) + w0.y) + p9) + t8) * 0.015625)))) });
}
static __attribute__((noinline)) struct DI h7_chk(struct V2 w1, double p10, struct DI w2) {
  int k2 = 0;
  while (k2 < 5) {
    double t9 = tap_trk(((p10 + (-2.625)) / (1.0 + exp((3.5625 * sin(((w2.d + p10) * 0.25)))))));
    k2++;
  }
  int k3 = 0;
  while (k3 < 3 && tap_ge(tap_fmin(w2.d, (-2.5)), (-3.8125))) {
    if (tap_le((1.75 * erf((pow((1.25 + ((w1.b * w2.d) * (w1.b * w2.d))), 2.125) * 7.62939453125e-06))), 0.375)) {
      double t10 = tap_trk(log10((1.75 + cos((-1.5625)))));
      double t11 = tap_trk(erf(((-2.375) * 2.625)));
    }
    double t12 = tap_trk(log1p((0.5 + exp((-1.0625)))));
    if (tap_lt(hypot(w1.b, (0.5 + exp(p10))), 13.8125)) {
      double t13 = tap_trk(log2((0.5 + (w1.b * w1.b))));
      double t14 = tap_trk((((-2.75) - t12) * (-0.125)));
    }
    k3++;
  }
  int k4 = 0;
  while (k4 < 1 && tap_le((2.4375 / (-2.875)), tap_fabs((-2.375)))) {
    if (tap_gt((tap_le(h4_chk(((double)(k4) + 0.03125)), tap_fmin((-0.3125), 1.375)) ? (w2.d + w1.a) : h6_chk(w1.a, ((struct V3){ tap_trk(w1.b), tap_trk(p10), tap_trk((3.5625 * tanh((((double)(w2.n) + 0.03125) * 0.25)))) }), ((double)(k4) + 0.03125)).a), (-4.0))) {
      struct V3 sv0 = ((struct V3){ tap_trk(h6_chk(p10, ((struct V3){ tap_trk(2.3125), tap_trk(1.375), tap_trk(2.0) }), w2.d).a), tap_trk(atan((-1.6875))), tap_trk((-w1.a)) });
      struct V2 sv1 = h6_chk((hypot((-1.9375), (-1.0625)) / (-(-2.375))), ((struct V3){ tap_trk(((-2.3125) + 1.9375)), tap_trk(exp2(((double)(k4) + 0.03125))), tap_trk((2.1875 * atan(((tap_le(cosh(((double)(w2.n) + 0.03125)), sv0.x) ? (-0.25) : ((double)(w2.n) + 0.03125)) * 0.25)))) }), (-(w1.a * ((double)(k4) + 0.03125))));
      double t15 = tap_trk(atanh((0.75 * erf((w2.d * 0.5)))));
    }
    w1.b = tap_trk(((w2.d / (-(1.75 + exp(w1.b)))) + (-0.875)));
    k4++;
  }
  return ((struct DI){ tap_trk((3.5625 * sin((((((erfc((w2.d - w1.a)) - ((p10 * (-1.5)) * (((double)(w2.n) + 0.03125) - (((double)(w2.n) + 0.03125) + 0.5)))) + w1.a) - w1.b) * w2.d) * 0.0078125)))), w2.n % 3 + 1 });
}
static __attribute__((noinline)) struct DI h8_chk(double p11) {
  struct TapPair s2 = { tap_trk(h7_chk(((struct V2){ tap_trk(p11), tap_trk(p11) }), p11, ((struct DI){ tap_trk(p11), 4 })).d), tap_trk(tap_fmin(h1_chk(p11, (-1.3125)), ((-1.0) + p11))) };
  if ((tap_lt(((-(-1.6875)) / (2.0 + cos((1.0 * s2.u)))), expm1(tap_copysign(s2.u, s2.v))) && tap_gt(sqrt((1.5 + exp((2.1875 * atan((hypot(s2.u, (1.0 + exp(s2.u))) * 0.03125)))))), (-0.9375)))) {
    double t16 = tap_trk(h5_chk(h2_chk, p11, s2.u));
    double t17 = tap_trk((log2(1.5625) - (2.8125 + s2.v)));
    s2.u *= 0.375;
  } else {
    if (tap_lt(s2.u, 1.0)) {
      s2.u -= s2.u;
    } else {
      struct V2 sv2 = ((struct V2){ tap_trk((3.5625 * erf((s2.v * 0.25)))), tap_trk(p11) });
    }
  }
  if ((tap_le((s2.u - (tap_gt(cos(s2.v), (-0.25)) ? s2.u : s2.v)), 8.0) && tap_ge(tanh((s2.u - (-0.5625))), 0.0))) {
    struct DI sv3 = ((struct DI){ tap_trk((3.5625 * tanh((s2.v * 0.25)))), 3 });
    struct DI sv4 = h7_chk(((struct V2){ tap_trk((tap_gt(s2.v, 2.0) ? p11 : p11)), tap_trk((2.1875 * atan((s2.v * 0.25)))) }), (-((-1.75) / 2.8125)), sv3);
    double t18 = tap_trk(expm1(tap_fabs((-1.0625))));
    sv4.d = tap_trk((cos(cosh((5.375 * sin((s2.u * 0.25))))) - (1.75 / (t18 + t18))));
  } else {
    struct TapPair s3 = { tap_trk(h2_chk((3.5625 * erf(((s2.u - s2.v) * 0.125))))), tap_trk(s2.u) };
    struct V2 sv5 = ((struct V2){ tap_trk((3.5625 * erf(((p11 * s3.v) * 0.0625)))), tap_trk((2.1875 * atan(((s2.u * 0.625) * 0.25)))) });
    struct DI sv6 = h7_chk(((struct V2){ tap_trk((2.1875 * atan((s2.u * 0.25)))), tap_trk((3.5625 * erf((s3.v * 0.25)))) }), (3.5625 * sin(((tap_gt((p11 / (2.25 + cos(s2.v))), 1.3125) ? sv5.a : s2.v) * 0.25))), ((struct DI){ tap_trk(p11), 4 }));
  }
  return ((struct DI){ tap_trk((3.5625 * sin((((log1p((1.25 + cos((-(p11 * s2.v))))) + s2.u) + s2.v) * 0.125)))), 2 });
}
static double f_chk(int n, double x0, int sel, int m, double x1, double x2, double *a0) {
  double t19 = tap_trk(cos(x0));
  double c0[24];
  memcpy(c0, a0, 24 * sizeof *c0);
  double *g0 = NULL;
  for (int j0 = 0; j0 < m; j0++) {
    if (j0 % 2 == 0)
      g0 = (double *)realloc(g0, (j0 + 2) * sizeof(double));
    g0[j0] = tap_trk((erf(((double)(j0) + 0.03125)) + (0.5 * ((j0 > 0) ? g0[j0 - 1] : 0.0))));
  }
  double *c1 = (double *)malloc(24 * sizeof(double));
  for (int j1 = 0; j1 < 24; j1++) {
    c1[j1] = tap_trk((2.1875 * atan((((a0[(j1 * 1 + 21) % 24] * x1) + (((-1.25) * c0[j1]) + (0.0625 * sin((double)(j1))))) * 0.125))));
  }
  tap_ranks(c1, m);
  qsort(c1, m, sizeof *c1, tap_cmp2);
  tap_sorted(c1, m);
  double r0 = tap_trk((-4.5));
  for (int v1 = 0; v1 < m; v1++) {
    r0 = tap_trk(tap_fmax(r0, ((*(c0 + (v1))) + (0.25 * (double)(v1)))));
  }
  double r1 = tap_trk(2.5);
  for (int i0 = 0; i0 < n; i0++) {
    r1 = tap_trk(r1 + ((4.4375 * atan((tab0_chk[(i0 * sel + 0) % 3]((3.5625 * sin((expm1((5.375 * tanh((r0 * 0.125)))) * 0.015625)))) * 0.0078125)))));
  }
  struct DI sv7 = h8_chk((3.5625 * sin((hypot(c1[9], (1.0 + exp(g0[15]))) * 0.03125))));
  for (int i1 = 0; i1 < n; i1++) {
    struct DI sv8 = h8_chk((pow((1.5 + cos(((double)(i1) + 0.03125))), x1) / (2.8125 + ((double)(i1) + 0.03125))));
    c0[10] *= (-0.0625);
    int k5 = 0;
    while (k5 < n && tap_le(tap_fabs(sv7.d), 0.5)) {
      double t20 = tap_trk(tab0_chk[(sel + 2) % 3]((3.5625 * sin((exp2((5.375 * tanh((fma(t19, x1, 0.875) * 0.125)))) * 0.0625)))));
      k5++;
    }
  }
  g0[9] = tap_trk((3.5625 * tanh((tab0_chk[(sel + 0) % 3]((3.5625 * sin(((t19 + t19) * 0.25)))) * 0.0078125))));
  for (int i2 = 0; i2 < 2; i2++) {
    c0[(i2 * 3 + 23) % 24] *= (-0.9375);
    x1 += (c1[(i2 * 1 + 8) % 24] - ((double)(i2) + 0.03125));
  }
  c1[6] = tap_trk(x0);
  {
    double tap_r = tap_trk((((((((((((-pow((2.25 + cos(r1)), (2.25 * tanh(((-2.875) * 0.5))))) / pow((2.5 + cos((tap_lt(sin(c1[3]), t19) ? r1 : (-0.3125)))), ((-2.8125) / (-(2.0 + exp(x2)))))) - x0) + x2) + t19) * r1) + sv7.d) + a0[12]) + c0[20]) + g0[15]) + c1[6]));
    free(g0);
    free(c1);
    return tap_r;
  }
}

/* ---- ld ---- */
static long double h0_ld(long double *q0, long double p0) {
  for (int v0 = 0; v0 < 24; v0++) {
    q0[v0] = tap_trkl(p0);
  }
  struct TapPair_ld s0 = { tap_trkl(p0), tap_trkl((log1pl((1.5L + cosl(p0))) + (q0[1] * q0[15]))) };
  s0.v *= 0.375L;
  return tap_trkl(((cbrtl((-2.0L)) + s0.v) + q0[16]));
}
static long double h1_ld(long double p1, long double p2) {
  long double t0 = tap_trkl((log1pl((1.25L + cosl((p2 * (-2.4375L))))) / (1.25L + (((tap_gt(tap_fminl((-1.0625L), (-0.1875L)), expl((-2.875L))) && tap_gt(fmal(2.125L, p2, (-2.8125L)), (-0.6875L))) ? (p1 + p1) : hypotl(p1, (1.25L + (p1 * p1)))) * ((tap_gt(tap_fminl((-1.0625L), (-0.1875L)), expl((-2.875L))) && tap_gt(fmal(2.125L, p2, (-2.8125L)), (-0.6875L))) ? (p1 + p1) : hypotl(p1, (1.25L + (p1 * p1))))))));
  return tap_trkl((hypotl(t0, (0.5L + expl(p1))) + p1));
}
static __attribute__((noinline)) long double h2_ld(long double p3) {
  if (tap_ge((p3 + p3), (-4.0L))) {
    p3 -= p3;
  }
  int k0 = 0;
  while (k0 < 1 && tap_ge(tap_fabsl(0.0625L), 0.3125L)) {
    p3 = tap_trkl((4.4375L * atanl(((p3 - (p3 * p3)) * 0.015625L))));
    k0++;
  }
  p3 -= (p3 - ((tap_ge(powl((0.5L + ((-0.25L) * (-0.25L))), 1.3125L), (-0.5L)) ? p3 : (-1.9375L)) * (p3 - (p3 + 0.5L))));
  return tap_trkl((tanl((1.0625L * erfl((h1_ld((3.5625L * erfl((p3 * 0.0078125L))), (-2.125L)) * 0.03125L)))) + p3));
}
static __attribute__((noinline)) long double h3_ld(long double p4) {
  if (tap_le(erfcl(((-1.3125L) - p4)), 0.5L)) {
    if (tap_le((p4 / (2.5L + cosl(p4))), ((-2.9375L) + p4))) {
      long double t1 = tap_trkl((-p4));
      return tap_trkl((coshl(p4) + p4));
    } else {
      long double t2 = tap_trkl(((-p4) / (-(1.75L + (log2l((2.25L + cosl((-1.8125L)))) * log2l((2.25L + cosl((-1.8125L)))))))));
    }
  } else {
    if (tap_le(exp2l((5.375L * erfl(((p4 - (p4 + 0.5L)) * 0.125L)))), (erfl(p4) + p4))) {
      p4 -= (p4 - (p4 + 0.5L));
      long double t3 = tap_trkl(h1_ld(0.9375L, (3.5625L * tanhl((p4 * 0.125L)))));
      struct TapPair_ld s1 = { tap_trkl((-h1_ld((3.5625L * tanhl((p4 * 0.125L))), (3.5625L * tanhl((p4 * 0.125L)))))), tap_trkl((tap_copysignl(t3, (-0.375L)) + tap_fminl(p4, (-2.5625L)))) };
    }
  }
  return tap_trkl(((tap_ge(sinhl((5.375L * tanhl((p4 * 0.125L)))), (-44.625L)) ? p4 : logl((0.5L + expl((2.1875L * atanl((p4 * 0.125L))))))) + p4));
}
static long double h4_ld(long double p5) {
  long double t4 = tap_trkl(((-2.875L) / (-(2.0L + cosl(p5)))));
  p5 -= 2.4375L;
  return tap_trkl(((tap_copysignl(p5, (tap_le(h1_ld((-1.9375L), (3.5625L * tanhl((p5 * 0.25L)))), 11.75L) ? 2.0625L : tap_copysignl((-1.8125L), 0.375L))) + p5) + t4));
}
static long double (*const tab0_ld[3])(long double) = { h2_ld, h3_ld, h4_ld };
static __attribute__((noinline)) long double h5_ld(long double (*cb0)(long double), long double p6, long double p7) {
  p7 += (p6 + p6);
  int k1 = 0;
  while (k1 < 5) {
    p7 = tap_trkl((10.75L * tanhl(((p7 - coshl((5.375L * tanhl(((p6 - (p6 + 0.5L)) * 0.125L))))) * 0.03125L))));
    long double t5 = tap_trkl((asinhl((-3.0L)) * fmal(1.6875L, 1.25L, p6)));
    k1++;
  }
  if (tap_lt(p6, 2.0L)) {
    long double t6 = tap_trkl((2.125L / (1.75L + (p6 * p6))));
    return tap_trkl((h1_ld(((-1.6875L) / (2.75L + cosl(fmal((-1.25L), 0.125L, p6)))), (3.5625L * tanhl(((p6 * 2.625L) * 0.125L)))) + p7));
  }
  long double t7 = tap_trkl(cb0((3.5625L * erfl((p7 * 0.125L)))));
  return tap_trkl(((sqrtl((2.5L + cosl(p7))) + p7) + t7));
}
static struct V2_ld h6_ld(long double p8, struct V3_ld w0, long double p9) {
  w0.y += (-0.625L);
  long double t8 = tap_trkl(expl((3.3125L * atanl(((p8 - p9) * 0.25L)))));
  return ((struct V2_ld){ tap_trkl((2.1875L * atanl((((((((p8 / (-(-2.625L))) - hypotl(tap_fminl(w0.y, w0.z), (1.5L + (erfl(p9) * erfl(p9))))) + p8) + w0.x) - w0.y) + w0.z) * 0.0625L)))), tap_trkl((2.1875L * atanl(((((((p9 + p8) * w0.x) + w0.y) + p9) + t8) * 0.015625L)))) });
}
static __attribute__((noinline)) struct DI_ld h7_ld(struct V2_ld w1, long double p10, struct DI_ld w2) {
  int k2 = 0;
  while (k2 < 5) {
    long double t9 = tap_trkl(((p10 + (-2.625L)) / (1.0L + expl((3.5625L * sinl(((w2.d + p10) * 0.25L)))))));
    k2++;
  }
  int k3 = 0;
  while (k3 < 3 && tap_ge(tap_fminl(w2.d, (-2.5L)), (-3.8125L))) {
    if (tap_le((1.75L * erfl((powl((1.25L + ((w1.b * w2.d) * (w1.b * w2.d))), 2.125L) * 7.62939453125e-06L))), 0.375L)) {
      long double t10 = tap_trkl(log10l((1.75L + cosl((-1.5625L)))));
      long double t11 = tap_trkl(erfl(((-2.375L) * 2.625L)));
    }
    long double t12 = tap_trkl(log1pl((0.5L + expl((-1.0625L)))));
    if (tap_lt(hypotl(w1.b, (0.5L + expl(p10))), 13.8125L)) {
      long double t13 = tap_trkl(log2l((0.5L + (w1.b * w1.b))));
      long double t14 = tap_trkl((((-2.75L) - t12) * (-0.125L)));
    }
    k3++;
  }
  int k4 = 0;
  while (k4 < 1 && tap_le((2.4375L / (-2.875L)), tap_fabsl((-2.375L)))) {
    if (tap_gt((tap_le(h4_ld(((long double)(k4) + 0.03125L)), tap_fminl((-0.3125L), 1.375L)) ? (w2.d + w1.a) : h6_ld(w1.a, ((struct V3_ld){ tap_trkl(w1.b), tap_trkl(p10), tap_trkl((3.5625L * tanhl((((long double)(w2.n) + 0.03125L) * 0.25L)))) }), ((long double)(k4) + 0.03125L)).a), (-4.0L))) {
      struct V3_ld sv0 = ((struct V3_ld){ tap_trkl(h6_ld(p10, ((struct V3_ld){ tap_trkl(2.3125L), tap_trkl(1.375L), tap_trkl(2.0L) }), w2.d).a), tap_trkl(atanl((-1.6875L))), tap_trkl((-w1.a)) });
      struct V2_ld sv1 = h6_ld((hypotl((-1.9375L), (-1.0625L)) / (-(-2.375L))), ((struct V3_ld){ tap_trkl(((-2.3125L) + 1.9375L)), tap_trkl(exp2l(((long double)(k4) + 0.03125L))), tap_trkl((2.1875L * atanl(((tap_le(coshl(((long double)(w2.n) + 0.03125L)), sv0.x) ? (-0.25L) : ((long double)(w2.n) + 0.03125L)) * 0.25L)))) }), (-(w1.a * ((long double)(k4) + 0.03125L))));
      long double t15 = tap_trkl(atanhl((0.75L * erfl((w2.d * 0.5L)))));
    }
    w1.b = tap_trkl(((w2.d / (-(1.75L + expl(w1.b)))) + (-0.875L)));
    k4++;
  }
  return ((struct DI_ld){ tap_trkl((3.5625L * sinl((((((erfcl((w2.d - w1.a)) - ((p10 * (-1.5L)) * (((long double)(w2.n) + 0.03125L) - (((long double)(w2.n) + 0.03125L) + 0.5L)))) + w1.a) - w1.b) * w2.d) * 0.0078125L)))), w2.n % 3 + 1 });
}
static __attribute__((noinline)) struct DI_ld h8_ld(long double p11) {
  struct TapPair_ld s2 = { tap_trkl(h7_ld(((struct V2_ld){ tap_trkl(p11), tap_trkl(p11) }), p11, ((struct DI_ld){ tap_trkl(p11), 4 })).d), tap_trkl(tap_fminl(h1_ld(p11, (-1.3125L)), ((-1.0L) + p11))) };
  if ((tap_lt(((-(-1.6875L)) / (2.0L + cosl((1.0L * s2.u)))), expm1l(tap_copysignl(s2.u, s2.v))) && tap_gt(sqrtl((1.5L + expl((2.1875L * atanl((hypotl(s2.u, (1.0L + expl(s2.u))) * 0.03125L)))))), (-0.9375L)))) {
    long double t16 = tap_trkl(h5_ld(h2_ld, p11, s2.u));
    long double t17 = tap_trkl((log2l(1.5625L) - (2.8125L + s2.v)));
    s2.u *= 0.375L;
  } else {
    if (tap_lt(s2.u, 1.0L)) {
      s2.u -= s2.u;
    } else {
      struct V2_ld sv2 = ((struct V2_ld){ tap_trkl((3.5625L * erfl((s2.v * 0.25L)))), tap_trkl(p11) });
    }
  }
  if ((tap_le((s2.u - (tap_gt(cosl(s2.v), (-0.25L)) ? s2.u : s2.v)), 8.0L) && tap_ge(tanhl((s2.u - (-0.5625L))), 0.0L))) {
    struct DI_ld sv3 = ((struct DI_ld){ tap_trkl((3.5625L * tanhl((s2.v * 0.25L)))), 3 });
    struct DI_ld sv4 = h7_ld(((struct V2_ld){ tap_trkl((tap_gt(s2.v, 2.0L) ? p11 : p11)), tap_trkl((2.1875L * atanl((s2.v * 0.25L)))) }), (-((-1.75L) / 2.8125L)), sv3);
    long double t18 = tap_trkl(expm1l(tap_fabsl((-1.0625L))));
    sv4.d = tap_trkl((cosl(coshl((5.375L * sinl((s2.u * 0.25L))))) - (1.75L / (t18 + t18))));
  } else {
    struct TapPair_ld s3 = { tap_trkl(h2_ld((3.5625L * erfl(((s2.u - s2.v) * 0.125L))))), tap_trkl(s2.u) };
    struct V2_ld sv5 = ((struct V2_ld){ tap_trkl((3.5625L * erfl(((p11 * s3.v) * 0.0625L)))), tap_trkl((2.1875L * atanl(((s2.u * 0.625L) * 0.25L)))) });
    struct DI_ld sv6 = h7_ld(((struct V2_ld){ tap_trkl((2.1875L * atanl((s2.u * 0.25L)))), tap_trkl((3.5625L * erfl((s3.v * 0.25L)))) }), (3.5625L * sinl(((tap_gt((p11 / (2.25L + cosl(s2.v))), 1.3125L) ? sv5.a : s2.v) * 0.25L))), ((struct DI_ld){ tap_trkl(p11), 4 }));
  }
  return ((struct DI_ld){ tap_trkl((3.5625L * sinl((((log1pl((1.25L + cosl((-(p11 * s2.v))))) + s2.u) + s2.v) * 0.125L)))), 2 });
}
static long double f_ld(int n, long double x0, int sel, int m, long double x1, long double x2, long double *a0) {
  long double t19 = tap_trkl(cosl(x0));
  long double c0[24];
  memcpy(c0, a0, 24 * sizeof *c0);
  long double *g0 = NULL;
  for (int j0 = 0; j0 < m; j0++) {
    if (j0 % 2 == 0)
      g0 = (long double *)realloc(g0, (j0 + 2) * sizeof(long double));
    g0[j0] = tap_trkl((erfl(((long double)(j0) + 0.03125L)) + (0.5L * ((j0 > 0) ? g0[j0 - 1] : 0.0L))));
  }
  long double *c1 = (long double *)malloc(24 * sizeof(long double));
  for (int j1 = 0; j1 < 24; j1++) {
    c1[j1] = tap_trkl((2.1875L * atanl((((a0[(j1 * 1 + 21) % 24] * x1) + (((-1.25L) * c0[j1]) + (0.0625L * sinl((long double)(j1))))) * 0.125L))));
  }
  tap_ranksl(c1, m);
  qsort(c1, m, sizeof *c1, tap_cmp2_ld);
  tap_sortedl(c1, m);
  long double r0 = tap_trkl((-4.5L));
  for (int v1 = 0; v1 < m; v1++) {
    r0 = tap_trkl(tap_fmaxl(r0, ((*(c0 + (v1))) + (0.25L * (long double)(v1)))));
  }
  long double r1 = tap_trkl(2.5L);
  for (int i0 = 0; i0 < n; i0++) {
    r1 = tap_trkl(r1 + ((4.4375L * atanl((tab0_ld[(i0 * sel + 0) % 3]((3.5625L * sinl((expm1l((5.375L * tanhl((r0 * 0.125L)))) * 0.015625L)))) * 0.0078125L)))));
  }
  struct DI_ld sv7 = h8_ld((3.5625L * sinl((hypotl(c1[9], (1.0L + expl(g0[15]))) * 0.03125L))));
  for (int i1 = 0; i1 < n; i1++) {
    struct DI_ld sv8 = h8_ld((powl((1.5L + cosl(((long double)(i1) + 0.03125L))), x1) / (2.8125L + ((long double)(i1) + 0.03125L))));
    c0[10] *= (-0.0625L);
    int k5 = 0;
    while (k5 < n && tap_le(tap_fabsl(sv7.d), 0.5L)) {
      long double t20 = tap_trkl(tab0_ld[(sel + 2) % 3]((3.5625L * sinl((exp2l((5.375L * tanhl((fmal(t19, x1, 0.875L) * 0.125L)))) * 0.0625L)))));
      k5++;
    }
  }
  g0[9] = tap_trkl((3.5625L * tanhl((tab0_ld[(sel + 0) % 3]((3.5625L * sinl(((t19 + t19) * 0.25L)))) * 0.0078125L))));
  for (int i2 = 0; i2 < 2; i2++) {
    c0[(i2 * 3 + 23) % 24] *= (-0.9375L);
    x1 += (c1[(i2 * 1 + 8) % 24] - ((long double)(i2) + 0.03125L));
  }
  c1[6] = tap_trkl(x0);
  {
    long double tap_r = tap_trkl((((((((((((-powl((2.25L + cosl(r1)), (2.25L * tanhl(((-2.875L) * 0.5L))))) / powl((2.5L + cosl((tap_lt(sinl(c1[3]), t19) ? r1 : (-0.3125L)))), ((-2.8125L) / (-(2.0L + expl(x2)))))) - x0) + x2) + t19) * r1) + sv7.d) + a0[12]) + c0[20]) + g0[15]) + c1[6]));
    free(g0);
    free(c1);
    return tap_r;
  }
}

static double tap_eval_d(const double *v) {
  double a0[24];
  a0[0] = v[3];
  a0[1] = v[4];
  a0[2] = v[5];
  a0[3] = v[6];
  a0[4] = v[7];
  a0[5] = v[8];
  a0[6] = v[9];
  a0[7] = v[10];
  a0[8] = v[11];
  a0[9] = v[12];
  a0[10] = v[13];
  a0[11] = v[14];
  a0[12] = v[15];
  a0[13] = v[16];
  a0[14] = v[17];
  a0[15] = v[18];
  a0[16] = v[19];
  a0[17] = v[20];
  a0[18] = v[21];
  a0[19] = v[22];
  a0[20] = v[23];
  a0[21] = v[24];
  a0[22] = v[25];
  a0[23] = v[26];
  return f_chk(4, v[0], 5, 24, v[1], v[2], a0);
}

static long double tap_eval_ld(const long double *v) {
  long double a0[24];
  a0[0] = v[3];
  a0[1] = v[4];
  a0[2] = v[5];
  a0[3] = v[6];
  a0[4] = v[7];
  a0[5] = v[8];
  a0[6] = v[9];
  a0[7] = v[10];
  a0[8] = v[11];
  a0[9] = v[12];
  a0[10] = v[13];
  a0[11] = v[14];
  a0[12] = v[15];
  a0[13] = v[16];
  a0[14] = v[17];
  a0[15] = v[18];
  a0[16] = v[19];
  a0[17] = v[20];
  a0[18] = v[21];
  a0[19] = v[22];
  a0[20] = v[23];
  a0[21] = v[24];
  a0[22] = v[25];
  a0[23] = v[26];
  return f_ld(4, v[0], 5, 24, v[1], v[2], a0);
}
#define ND 27
#define HAS_FLOAT 0

/* ---- finite differences and smoothness checks (program independent) ---- */
static unsigned long long tap_path0;
static int tap_pathok = 1;
static double tap_at_d(const double *v, int k, double x) {
  double w[ND]; memcpy(w, v, sizeof w); w[k] = x;
  tap_reset(); double r = tap_eval_d(w);
  if (!HAS_FLOAT && tap_path != tap_path0) tap_pathok = 0;
  return r;
}
static long double tap_at_ld(const long double *v, int k, long double x) {
  long double w[ND]; memcpy(w, v, sizeof w); w[k] = x;
  tap_reset(); long double r = tap_eval_ld(w);
  if (tap_path != tap_path0) tap_pathok = 0;
  return r;
}
/* 5-point central difference; comparing steps h and h/4 estimates its error
   (truncation dominates for fast-oscillating functions) */
static long double tap_fd5(const long double *vl, int k, long double hl) {
  return (8 * (tap_at_ld(vl, k, vl[k] + hl) - tap_at_ld(vl, k, vl[k] - hl))
          - (tap_at_ld(vl, k, vl[k] + 2 * hl) - tap_at_ld(vl, k, vl[k] - 2 * hl))) / (12 * hl);
}
static void tap_checks(const double *v) {
  long double vl[ND];
  for (int k = 0; k < ND; k++) vl[k] = v[k];
  tap_reset();
  double p = tap_eval_d(v);
  tap_path0 = tap_path;
  printf("PRIMAL_CHK %.17g\nMARGIN %.6g\nMARGIN_SORT %.6g\nABSMAX %.6g\n", p, tap_margin,
         tap_margin_sort, tap_absmax);
  tap_reset();
  long double pl = tap_eval_ld(vl);
  if (tap_path != tap_path0) tap_pathok = 0;
  printf("PRIMAL_LD %.21Lg\n", pl);
  for (int k = 0; k < ND; k++) {
    double h = 1e-6 * fmax(1.0, fabs(v[k]));
    double xp = v[k] + h, xm = v[k] - h;
    double fd = (tap_at_d(v, k, xp) - tap_at_d(v, k, xm)) / (xp - xm);
    long double hl = 1e-5L * fmaxl(1.0L, fabsl(vl[k]));
    long double coarse = tap_fd5(vl, k, hl), fine = tap_fd5(vl, k, hl / 4);
    printf("FD %d %.17g\nFDL %d %.21Lg\nFDLERR %d %.6Lg\n", k, fd, k, fine, k,
           fabsl(coarse - fine));
  }
  printf("PATHOK %d\n", tap_pathok);
}

/* ---- AD entry points ---- */
typedef struct { double p; double g0; double g1; double g2; } TapGrad;
TapGrad __enzyme_autodiff(void *, ...);
double __enzyme_fwddiff(void *, ...);

/* ---- split mode ---- */
extern int enzyme_allocated, enzyme_tape, enzyme_nofree;
typedef struct { void *tape; double p; } TapAug;
typedef struct { void *augmented, *reverse, *release; unsigned long long tape_bytes; int reusable; } TapThunk;
typedef struct { double g0; double g1; double g2; } TapSGrad;
TapAug __enzyme_augmentfwd(void *, ...);
double __enzyme_augmentfwd_alloc(void *, ...);
TapSGrad __enzyme_reverse(void *, ...);
TapSGrad __enzyme_reverse_alloc(void *, ...);
TapSGrad __enzyme_reverse_nofree(void *, ...);
TapSGrad __enzyme_reverse_alloc_nofree(void *, ...);
int __enzyme_augmentsize(void *, ...);
const TapThunk *__tapestry_thunk(void *, ...);
typedef double (*TapAugFn)(int, double, int, int, double, double, double *, double *, void *);
typedef void (*TapRevFn)(int, double, int, int, double, double, double *, double *, double, void *, void *);
TapSGrad __enzyme_autodiff_split(void *, ...);
typedef struct { double t[3]; } TapBF;
TapBF __enzyme_fwddiff_batch(void *, ...);
typedef struct { double p; double g0[2]; double g1[2]; double g2[2]; } TapBR;
TapBR __enzyme_autodiff_batch(void *, ...);

int main(void) {
  static const double V[ND] = {-1.984375, -0.171875, 1.546875, 1.609375, -0.796875, -0.109375, -0.046875, -0.53125, 1.765625, -0.328125, -0.859375, 0.453125, 1.140625, -0.515625, -1.78125, -1.421875, -1.96875, 1.796875, -1.53125, 1.03125, -1.34375, 1.390625, -1.671875, -0.09375, -0.984375, -1.65625, -1.296875};
  {
    double a0_p[24], da0_p[24];
    memcpy(a0_p, V + 3, sizeof a0_p);
    memset(da0_p, 0, sizeof da0_p);
    printf("PRIMAL %.17g\n", f(4, -1.984375, 5, 24, -0.171875, 1.546875, a0_p));
  }
#ifndef TAP_NO_AD
  {
    double a0_r[24], da0_r[24];
    memcpy(a0_r, V + 3, sizeof a0_r);
    memset(da0_r, 0, sizeof da0_r);
    TapGrad r = __enzyme_autodiff((void *)f, enzyme_primal_return, enzyme_const, 4, -1.984375, 5, enzyme_const, 24, -0.171875, enzyme_out, 1.546875, enzyme_dup, a0_r, da0_r);
    printf("REVPRIMAL %.17g\n", r.p);
    printf("REV 0 %.17g\n", (double)r.g0);
    printf("REV 1 %.17g\n", (double)r.g1);
    printf("REV 2 %.17g\n", (double)r.g2);
    printf("REV 3 %.17g\n", da0_r[0]);
    printf("REV 4 %.17g\n", da0_r[1]);
    printf("REV 5 %.17g\n", da0_r[2]);
    printf("REV 6 %.17g\n", da0_r[3]);
    printf("REV 7 %.17g\n", da0_r[4]);
    printf("REV 8 %.17g\n", da0_r[5]);
    printf("REV 9 %.17g\n", da0_r[6]);
    printf("REV 10 %.17g\n", da0_r[7]);
    printf("REV 11 %.17g\n", da0_r[8]);
    printf("REV 12 %.17g\n", da0_r[9]);
    printf("REV 13 %.17g\n", da0_r[10]);
    printf("REV 14 %.17g\n", da0_r[11]);
    printf("REV 15 %.17g\n", da0_r[12]);
    printf("REV 16 %.17g\n", da0_r[13]);
    printf("REV 17 %.17g\n", da0_r[14]);
    printf("REV 18 %.17g\n", da0_r[15]);
    printf("REV 19 %.17g\n", da0_r[16]);
    printf("REV 20 %.17g\n", da0_r[17]);
    printf("REV 21 %.17g\n", da0_r[18]);
    printf("REV 22 %.17g\n", da0_r[19]);
    printf("REV 23 %.17g\n", da0_r[20]);
    printf("REV 24 %.17g\n", da0_r[21]);
    printf("REV 25 %.17g\n", da0_r[22]);
    printf("REV 26 %.17g\n", da0_r[23]);
  }
  {
    double a0_t[24], da0_t[24];
    memcpy(a0_t, V + 3, sizeof a0_t);
    memset(da0_t, 0, sizeof da0_t);
    printf("FWD 0 %.17g\n", __enzyme_fwddiff((void *)f, enzyme_const, 4, -1.984375, 1.0, 5, enzyme_const, 24, enzyme_dup, -0.171875, 0.0, 1.546875, 0.0, enzyme_const, a0_t));
  }
  {
    double a0_t[24], da0_t[24];
    memcpy(a0_t, V + 3, sizeof a0_t);
    memset(da0_t, 0, sizeof da0_t);
    printf("FWD 1 %.17g\n", __enzyme_fwddiff((void *)f, enzyme_const, 4, -1.984375, 0.0, 5, enzyme_const, 24, enzyme_dup, -0.171875, 1.0, 1.546875, 0.0, enzyme_const, a0_t));
  }
  {
    double a0_t[24], da0_t[24];
    memcpy(a0_t, V + 3, sizeof a0_t);
    memset(da0_t, 0, sizeof da0_t);
    printf("FWD 2 %.17g\n", __enzyme_fwddiff((void *)f, enzyme_const, 4, -1.984375, 0.0, 5, enzyme_const, 24, enzyme_dup, -0.171875, 0.0, 1.546875, 1.0, enzyme_const, a0_t));
  }
  fflush(stdout);
  {
    double a0_s[24], da0_s[24];
    memcpy(a0_s, V + 3, sizeof a0_s);
    memset(da0_s, 0, sizeof da0_s);
    TapAug s = __enzyme_augmentfwd((void *)f, enzyme_const, 4, -1.984375, 5, enzyme_const, 24, -0.171875, enzyme_out, 1.546875, enzyme_dup, a0_s, da0_s);
    printf("SPRIMAL %.17g\n", s.p);
    for (int j = 0; j < 24; j++) a0_s[j] = 1e30;
    TapSGrad g = __enzyme_reverse((void *)f, enzyme_const, 4, -1.984375, 5, enzyme_const, 24, -0.171875, enzyme_out, 1.546875, enzyme_dup, a0_s, da0_s, 1.0, s.tape);
    printf("SREV 0 %.17g\n", (double)g.g0);
    printf("SREV 1 %.17g\n", (double)g.g1);
    printf("SREV 2 %.17g\n", (double)g.g2);
    printf("SREV 3 %.17g\n", da0_s[0]);
    printf("SREV 4 %.17g\n", da0_s[1]);
    printf("SREV 5 %.17g\n", da0_s[2]);
    printf("SREV 6 %.17g\n", da0_s[3]);
    printf("SREV 7 %.17g\n", da0_s[4]);
    printf("SREV 8 %.17g\n", da0_s[5]);
    printf("SREV 9 %.17g\n", da0_s[6]);
    printf("SREV 10 %.17g\n", da0_s[7]);
    printf("SREV 11 %.17g\n", da0_s[8]);
    printf("SREV 12 %.17g\n", da0_s[9]);
    printf("SREV 13 %.17g\n", da0_s[10]);
    printf("SREV 14 %.17g\n", da0_s[11]);
    printf("SREV 15 %.17g\n", da0_s[12]);
    printf("SREV 16 %.17g\n", da0_s[13]);
    printf("SREV 17 %.17g\n", da0_s[14]);
    printf("SREV 18 %.17g\n", da0_s[15]);
    printf("SREV 19 %.17g\n", da0_s[16]);
    printf("SREV 20 %.17g\n", da0_s[17]);
    printf("SREV 21 %.17g\n", da0_s[18]);
    printf("SREV 22 %.17g\n", da0_s[19]);
    printf("SREV 23 %.17g\n", da0_s[20]);
    printf("SREV 24 %.17g\n", da0_s[21]);
    printf("SREV 25 %.17g\n", da0_s[22]);
    printf("SREV 26 %.17g\n", da0_s[23]);
  }
  fflush(stdout);
  {
    double a0_b[24], da0_b[24];
    memcpy(a0_b, V + 3, sizeof a0_b);
    memset(da0_b, 0, sizeof da0_b);
    int sz = __enzyme_augmentsize((void *)f, enzyme_const, enzyme_out, enzyme_const, enzyme_const, enzyme_out, enzyme_out, enzyme_dup);
    unsigned char *raw = malloc(0 + sz + 64);
    memset(raw, 0xA5, 0 + sz + 64);
    void *buf = raw + 0;
    double p = __enzyme_augmentfwd_alloc((void *)f, enzyme_allocated, sz, enzyme_tape, buf, enzyme_const, 4, -1.984375, 5, enzyme_const, 24, -0.171875, enzyme_out, 1.546875, enzyme_dup, a0_b, da0_b);
    printf("APRIMAL %.17g\n", p);
    double da0_b_0[24];
    memcpy(da0_b_0, da0_b, sizeof da0_b_0);
    for (int j = 0; j < 24; j++) a0_b[j] = 1e30;
    const TapThunk *tb = __tapestry_thunk((void *)f, enzyme_const, enzyme_out, enzyme_const, enzyme_const, enzyme_out, enzyme_out, enzyme_dup);
    if (tb->reusable) {
      TapSGrad g = __enzyme_reverse_alloc_nofree((void *)f, enzyme_nofree, enzyme_allocated, sz, enzyme_tape, buf, enzyme_const, 4, -1.984375, 5, enzyme_const, 24, -0.171875, enzyme_out, 1.546875, enzyme_dup, a0_b, da0_b, 1.0);
      printf("AREV 0 %.17g\n", (double)g.g0);
      printf("AREV 1 %.17g\n", (double)g.g1);
      printf("AREV 2 %.17g\n", (double)g.g2);
      printf("AREV 3 %.17g\n", da0_b[0]);
      printf("AREV 4 %.17g\n", da0_b[1]);
      printf("AREV 5 %.17g\n", da0_b[2]);
      printf("AREV 6 %.17g\n", da0_b[3]);
      printf("AREV 7 %.17g\n", da0_b[4]);
      printf("AREV 8 %.17g\n", da0_b[5]);
      printf("AREV 9 %.17g\n", da0_b[6]);
      printf("AREV 10 %.17g\n", da0_b[7]);
      printf("AREV 11 %.17g\n", da0_b[8]);
      printf("AREV 12 %.17g\n", da0_b[9]);
      printf("AREV 13 %.17g\n", da0_b[10]);
      printf("AREV 14 %.17g\n", da0_b[11]);
      printf("AREV 15 %.17g\n", da0_b[12]);
      printf("AREV 16 %.17g\n", da0_b[13]);
      printf("AREV 17 %.17g\n", da0_b[14]);
      printf("AREV 18 %.17g\n", da0_b[15]);
      printf("AREV 19 %.17g\n", da0_b[16]);
      printf("AREV 20 %.17g\n", da0_b[17]);
      printf("AREV 21 %.17g\n", da0_b[18]);
      printf("AREV 22 %.17g\n", da0_b[19]);
      printf("AREV 23 %.17g\n", da0_b[20]);
      printf("AREV 24 %.17g\n", da0_b[21]);
      printf("AREV 25 %.17g\n", da0_b[22]);
      printf("AREV 26 %.17g\n", da0_b[23]);
      {
      fflush(stdout);
        memcpy(da0_b, da0_b_0, sizeof da0_b_0);
        TapSGrad gr = __enzyme_reverse_alloc_nofree((void *)f, enzyme_nofree, enzyme_allocated, sz, enzyme_tape, buf, enzyme_const, 4, -1.984375, 5, enzyme_const, 24, -0.171875, enzyme_out, 1.546875, enzyme_dup, a0_b, da0_b, -0.5);
        printf("AREP 2 0 %.17g\n", (double)gr.g0);
        printf("AREP 2 1 %.17g\n", (double)gr.g1);
        printf("AREP 2 2 %.17g\n", (double)gr.g2);
        printf("AREP 2 3 %.17g\n", da0_b[0]);
        printf("AREP 2 4 %.17g\n", da0_b[1]);
        printf("AREP 2 5 %.17g\n", da0_b[2]);
        printf("AREP 2 6 %.17g\n", da0_b[3]);
        printf("AREP 2 7 %.17g\n", da0_b[4]);
        printf("AREP 2 8 %.17g\n", da0_b[5]);
        printf("AREP 2 9 %.17g\n", da0_b[6]);
        printf("AREP 2 10 %.17g\n", da0_b[7]);
        printf("AREP 2 11 %.17g\n", da0_b[8]);
        printf("AREP 2 12 %.17g\n", da0_b[9]);
        printf("AREP 2 13 %.17g\n", da0_b[10]);
        printf("AREP 2 14 %.17g\n", da0_b[11]);
        printf("AREP 2 15 %.17g\n", da0_b[12]);
        printf("AREP 2 16 %.17g\n", da0_b[13]);
        printf("AREP 2 17 %.17g\n", da0_b[14]);
        printf("AREP 2 18 %.17g\n", da0_b[15]);
        printf("AREP 2 19 %.17g\n", da0_b[16]);
        printf("AREP 2 20 %.17g\n", da0_b[17]);
        printf("AREP 2 21 %.17g\n", da0_b[18]);
        printf("AREP 2 22 %.17g\n", da0_b[19]);
        printf("AREP 2 23 %.17g\n", da0_b[20]);
        printf("AREP 2 24 %.17g\n", da0_b[21]);
        printf("AREP 2 25 %.17g\n", da0_b[22]);
        printf("AREP 2 26 %.17g\n", da0_b[23]);
      }
      {
      fflush(stdout);
        memcpy(da0_b, da0_b_0, sizeof da0_b_0);
        TapSGrad gr = __enzyme_reverse_alloc_nofree((void *)f, enzyme_nofree, enzyme_allocated, sz, enzyme_tape, buf, enzyme_const, 4, -1.984375, 5, enzyme_const, 24, -0.171875, enzyme_out, 1.546875, enzyme_dup, a0_b, da0_b, 0.5);
        printf("AREP 3 0 %.17g\n", (double)gr.g0);
        printf("AREP 3 1 %.17g\n", (double)gr.g1);
        printf("AREP 3 2 %.17g\n", (double)gr.g2);
        printf("AREP 3 3 %.17g\n", da0_b[0]);
        printf("AREP 3 4 %.17g\n", da0_b[1]);
        printf("AREP 3 5 %.17g\n", da0_b[2]);
        printf("AREP 3 6 %.17g\n", da0_b[3]);
        printf("AREP 3 7 %.17g\n", da0_b[4]);
        printf("AREP 3 8 %.17g\n", da0_b[5]);
        printf("AREP 3 9 %.17g\n", da0_b[6]);
        printf("AREP 3 10 %.17g\n", da0_b[7]);
        printf("AREP 3 11 %.17g\n", da0_b[8]);
        printf("AREP 3 12 %.17g\n", da0_b[9]);
        printf("AREP 3 13 %.17g\n", da0_b[10]);
        printf("AREP 3 14 %.17g\n", da0_b[11]);
        printf("AREP 3 15 %.17g\n", da0_b[12]);
        printf("AREP 3 16 %.17g\n", da0_b[13]);
        printf("AREP 3 17 %.17g\n", da0_b[14]);
        printf("AREP 3 18 %.17g\n", da0_b[15]);
        printf("AREP 3 19 %.17g\n", da0_b[16]);
        printf("AREP 3 20 %.17g\n", da0_b[17]);
        printf("AREP 3 21 %.17g\n", da0_b[18]);
        printf("AREP 3 22 %.17g\n", da0_b[19]);
        printf("AREP 3 23 %.17g\n", da0_b[20]);
        printf("AREP 3 24 %.17g\n", da0_b[21]);
        printf("AREP 3 25 %.17g\n", da0_b[22]);
        printf("AREP 3 26 %.17g\n", da0_b[23]);
      }
      {
      fflush(stdout);
        memcpy(da0_b, da0_b_0, sizeof da0_b_0);
        TapSGrad gr = __enzyme_reverse_alloc((void *)f, enzyme_allocated, sz, enzyme_tape, buf, enzyme_const, 4, -1.984375, 5, enzyme_const, 24, -0.171875, enzyme_out, 1.546875, enzyme_dup, a0_b, da0_b, -0.5);
        printf("AREP 4 0 %.17g\n", (double)gr.g0);
        printf("AREP 4 1 %.17g\n", (double)gr.g1);
        printf("AREP 4 2 %.17g\n", (double)gr.g2);
        printf("AREP 4 3 %.17g\n", da0_b[0]);
        printf("AREP 4 4 %.17g\n", da0_b[1]);
        printf("AREP 4 5 %.17g\n", da0_b[2]);
        printf("AREP 4 6 %.17g\n", da0_b[3]);
        printf("AREP 4 7 %.17g\n", da0_b[4]);
        printf("AREP 4 8 %.17g\n", da0_b[5]);
        printf("AREP 4 9 %.17g\n", da0_b[6]);
        printf("AREP 4 10 %.17g\n", da0_b[7]);
        printf("AREP 4 11 %.17g\n", da0_b[8]);
        printf("AREP 4 12 %.17g\n", da0_b[9]);
        printf("AREP 4 13 %.17g\n", da0_b[10]);
        printf("AREP 4 14 %.17g\n", da0_b[11]);
        printf("AREP 4 15 %.17g\n", da0_b[12]);
        printf("AREP 4 16 %.17g\n", da0_b[13]);
        printf("AREP 4 17 %.17g\n", da0_b[14]);
        printf("AREP 4 18 %.17g\n", da0_b[15]);
        printf("AREP 4 19 %.17g\n", da0_b[16]);
        printf("AREP 4 20 %.17g\n", da0_b[17]);
        printf("AREP 4 21 %.17g\n", da0_b[18]);
        printf("AREP 4 22 %.17g\n", da0_b[19]);
        printf("AREP 4 23 %.17g\n", da0_b[20]);
        printf("AREP 4 24 %.17g\n", da0_b[21]);
        printf("AREP 4 25 %.17g\n", da0_b[22]);
        printf("AREP 4 26 %.17g\n", da0_b[23]);
      }
    } else {
      TapSGrad g = __enzyme_reverse_alloc((void *)f, enzyme_allocated, sz, enzyme_tape, buf, enzyme_const, 4, -1.984375, 5, enzyme_const, 24, -0.171875, enzyme_out, 1.546875, enzyme_dup, a0_b, da0_b, 1.0);
      printf("AREV 0 %.17g\n", (double)g.g0);
      printf("AREV 1 %.17g\n", (double)g.g1);
      printf("AREV 2 %.17g\n", (double)g.g2);
      printf("AREV 3 %.17g\n", da0_b[0]);
      printf("AREV 4 %.17g\n", da0_b[1]);
      printf("AREV 5 %.17g\n", da0_b[2]);
      printf("AREV 6 %.17g\n", da0_b[3]);
      printf("AREV 7 %.17g\n", da0_b[4]);
      printf("AREV 8 %.17g\n", da0_b[5]);
      printf("AREV 9 %.17g\n", da0_b[6]);
      printf("AREV 10 %.17g\n", da0_b[7]);
      printf("AREV 11 %.17g\n", da0_b[8]);
      printf("AREV 12 %.17g\n", da0_b[9]);
      printf("AREV 13 %.17g\n", da0_b[10]);
      printf("AREV 14 %.17g\n", da0_b[11]);
      printf("AREV 15 %.17g\n", da0_b[12]);
      printf("AREV 16 %.17g\n", da0_b[13]);
      printf("AREV 17 %.17g\n", da0_b[14]);
      printf("AREV 18 %.17g\n", da0_b[15]);
      printf("AREV 19 %.17g\n", da0_b[16]);
      printf("AREV 20 %.17g\n", da0_b[17]);
      printf("AREV 21 %.17g\n", da0_b[18]);
      printf("AREV 22 %.17g\n", da0_b[19]);
      printf("AREV 23 %.17g\n", da0_b[20]);
      printf("AREV 24 %.17g\n", da0_b[21]);
      printf("AREV 25 %.17g\n", da0_b[22]);
      printf("AREV 26 %.17g\n", da0_b[23]);
    }
    int ok = 1;
    for (int j = 0; j < 64; j++) ok &= raw[0 + sz + j] == 0xA5;
    printf("CANARY %d\nAUGSIZE %d\n", ok, sz);
    free(raw);
  }
  fflush(stdout);
  {
    const TapThunk *t = __tapestry_thunk((void *)f, enzyme_const, enzyme_out, enzyme_const, enzyme_const, enzyme_out, enzyme_out, enzyme_dup);
    printf("REUSABLE %d\nTAPEBYTES %llu\n", t->reusable, t->tape_bytes);
    fflush(stdout);
    double a0_u[24], da0_u[24];
    memcpy(a0_u, V + 3, sizeof a0_u);
    memset(da0_u, 0, sizeof da0_u);
    void *tape = calloc(1, t->tape_bytes ? t->tape_bytes : 1);
    double p = ((TapAugFn)t->augmented)(4, -1.984375, 5, 24, -0.171875, 1.546875, a0_u, da0_u, tape);
    printf("XPRIMAL %.17g\n", p);
    fflush(stdout);
    double da0_u_0[24];
    memcpy(da0_u_0, da0_u, sizeof da0_u_0);
    for (int j = 0; j < 24; j++) a0_u[j] = 1e30;
    TapSGrad g;
    ((TapRevFn)t->reverse)(4, -1.984375, 5, 24, -0.171875, 1.546875, a0_u, da0_u, 1.0, tape, &g);
    printf("XREV1 0 %.17g\n", (double)g.g0);
    printf("XREV1 1 %.17g\n", (double)g.g1);
    printf("XREV1 2 %.17g\n", (double)g.g2);
    printf("XREV1 3 %.17g\n", da0_u[0]);
    printf("XREV1 4 %.17g\n", da0_u[1]);
    printf("XREV1 5 %.17g\n", da0_u[2]);
    printf("XREV1 6 %.17g\n", da0_u[3]);
    printf("XREV1 7 %.17g\n", da0_u[4]);
    printf("XREV1 8 %.17g\n", da0_u[5]);
    printf("XREV1 9 %.17g\n", da0_u[6]);
    printf("XREV1 10 %.17g\n", da0_u[7]);
    printf("XREV1 11 %.17g\n", da0_u[8]);
    printf("XREV1 12 %.17g\n", da0_u[9]);
    printf("XREV1 13 %.17g\n", da0_u[10]);
    printf("XREV1 14 %.17g\n", da0_u[11]);
    printf("XREV1 15 %.17g\n", da0_u[12]);
    printf("XREV1 16 %.17g\n", da0_u[13]);
    printf("XREV1 17 %.17g\n", da0_u[14]);
    printf("XREV1 18 %.17g\n", da0_u[15]);
    printf("XREV1 19 %.17g\n", da0_u[16]);
    printf("XREV1 20 %.17g\n", da0_u[17]);
    printf("XREV1 21 %.17g\n", da0_u[18]);
    printf("XREV1 22 %.17g\n", da0_u[19]);
    printf("XREV1 23 %.17g\n", da0_u[20]);
    printf("XREV1 24 %.17g\n", da0_u[21]);
    printf("XREV1 25 %.17g\n", da0_u[22]);
    printf("XREV1 26 %.17g\n", da0_u[23]);
    if (t->reusable) {
      {
      fflush(stdout);
      memcpy(da0_u, da0_u_0, sizeof da0_u_0);
        TapSGrad g2;
        ((TapRevFn)t->reverse)(4, -1.984375, 5, 24, -0.171875, 1.546875, a0_u, da0_u, -0.5, tape, &g2);
        printf("XREP 2 0 %.17g\n", (double)g2.g0);
        printf("XREP 2 1 %.17g\n", (double)g2.g1);
        printf("XREP 2 2 %.17g\n", (double)g2.g2);
        printf("XREP 2 3 %.17g\n", da0_u[0]);
        printf("XREP 2 4 %.17g\n", da0_u[1]);
        printf("XREP 2 5 %.17g\n", da0_u[2]);
        printf("XREP 2 6 %.17g\n", da0_u[3]);
        printf("XREP 2 7 %.17g\n", da0_u[4]);
        printf("XREP 2 8 %.17g\n", da0_u[5]);
        printf("XREP 2 9 %.17g\n", da0_u[6]);
        printf("XREP 2 10 %.17g\n", da0_u[7]);
        printf("XREP 2 11 %.17g\n", da0_u[8]);
        printf("XREP 2 12 %.17g\n", da0_u[9]);
        printf("XREP 2 13 %.17g\n", da0_u[10]);
        printf("XREP 2 14 %.17g\n", da0_u[11]);
        printf("XREP 2 15 %.17g\n", da0_u[12]);
        printf("XREP 2 16 %.17g\n", da0_u[13]);
        printf("XREP 2 17 %.17g\n", da0_u[14]);
        printf("XREP 2 18 %.17g\n", da0_u[15]);
        printf("XREP 2 19 %.17g\n", da0_u[16]);
        printf("XREP 2 20 %.17g\n", da0_u[17]);
        printf("XREP 2 21 %.17g\n", da0_u[18]);
        printf("XREP 2 22 %.17g\n", da0_u[19]);
        printf("XREP 2 23 %.17g\n", da0_u[20]);
        printf("XREP 2 24 %.17g\n", da0_u[21]);
        printf("XREP 2 25 %.17g\n", da0_u[22]);
        printf("XREP 2 26 %.17g\n", da0_u[23]);
      }
      {
      fflush(stdout);
      memcpy(da0_u, da0_u_0, sizeof da0_u_0);
        TapSGrad g2;
        ((TapRevFn)t->reverse)(4, -1.984375, 5, 24, -0.171875, 1.546875, a0_u, da0_u, 0.5, tape, &g2);
        printf("XREP 3 0 %.17g\n", (double)g2.g0);
        printf("XREP 3 1 %.17g\n", (double)g2.g1);
        printf("XREP 3 2 %.17g\n", (double)g2.g2);
        printf("XREP 3 3 %.17g\n", da0_u[0]);
        printf("XREP 3 4 %.17g\n", da0_u[1]);
        printf("XREP 3 5 %.17g\n", da0_u[2]);
        printf("XREP 3 6 %.17g\n", da0_u[3]);
        printf("XREP 3 7 %.17g\n", da0_u[4]);
        printf("XREP 3 8 %.17g\n", da0_u[5]);
        printf("XREP 3 9 %.17g\n", da0_u[6]);
        printf("XREP 3 10 %.17g\n", da0_u[7]);
        printf("XREP 3 11 %.17g\n", da0_u[8]);
        printf("XREP 3 12 %.17g\n", da0_u[9]);
        printf("XREP 3 13 %.17g\n", da0_u[10]);
        printf("XREP 3 14 %.17g\n", da0_u[11]);
        printf("XREP 3 15 %.17g\n", da0_u[12]);
        printf("XREP 3 16 %.17g\n", da0_u[13]);
        printf("XREP 3 17 %.17g\n", da0_u[14]);
        printf("XREP 3 18 %.17g\n", da0_u[15]);
        printf("XREP 3 19 %.17g\n", da0_u[16]);
        printf("XREP 3 20 %.17g\n", da0_u[17]);
        printf("XREP 3 21 %.17g\n", da0_u[18]);
        printf("XREP 3 22 %.17g\n", da0_u[19]);
        printf("XREP 3 23 %.17g\n", da0_u[20]);
        printf("XREP 3 24 %.17g\n", da0_u[21]);
        printf("XREP 3 25 %.17g\n", da0_u[22]);
        printf("XREP 3 26 %.17g\n", da0_u[23]);
      }
      {
      fflush(stdout);
      memcpy(da0_u, da0_u_0, sizeof da0_u_0);
        TapSGrad g2;
        ((TapRevFn)t->reverse)(4, -1.984375, 5, 24, -0.171875, 1.546875, a0_u, da0_u, -0.5, tape, &g2);
        printf("XREP 4 0 %.17g\n", (double)g2.g0);
        printf("XREP 4 1 %.17g\n", (double)g2.g1);
        printf("XREP 4 2 %.17g\n", (double)g2.g2);
        printf("XREP 4 3 %.17g\n", da0_u[0]);
        printf("XREP 4 4 %.17g\n", da0_u[1]);
        printf("XREP 4 5 %.17g\n", da0_u[2]);
        printf("XREP 4 6 %.17g\n", da0_u[3]);
        printf("XREP 4 7 %.17g\n", da0_u[4]);
        printf("XREP 4 8 %.17g\n", da0_u[5]);
        printf("XREP 4 9 %.17g\n", da0_u[6]);
        printf("XREP 4 10 %.17g\n", da0_u[7]);
        printf("XREP 4 11 %.17g\n", da0_u[8]);
        printf("XREP 4 12 %.17g\n", da0_u[9]);
        printf("XREP 4 13 %.17g\n", da0_u[10]);
        printf("XREP 4 14 %.17g\n", da0_u[11]);
        printf("XREP 4 15 %.17g\n", da0_u[12]);
        printf("XREP 4 16 %.17g\n", da0_u[13]);
        printf("XREP 4 17 %.17g\n", da0_u[14]);
        printf("XREP 4 18 %.17g\n", da0_u[15]);
        printf("XREP 4 19 %.17g\n", da0_u[16]);
        printf("XREP 4 20 %.17g\n", da0_u[17]);
        printf("XREP 4 21 %.17g\n", da0_u[18]);
        printf("XREP 4 22 %.17g\n", da0_u[19]);
        printf("XREP 4 23 %.17g\n", da0_u[20]);
        printf("XREP 4 24 %.17g\n", da0_u[21]);
        printf("XREP 4 25 %.17g\n", da0_u[22]);
        printf("XREP 4 26 %.17g\n", da0_u[23]);
      }
    }
    ((void (*)(void *))t->release)(tape);
    free(tape);
  }
  fflush(stdout);
  {
    double a0_w[24], da0_w[24];
    memcpy(a0_w, V + 3, sizeof a0_w);
    memset(da0_w, 0, sizeof da0_w);
    double a0_v[24], da0_v[24];
    memcpy(a0_v, V + 3, sizeof a0_v);
    memset(da0_v, 0, sizeof da0_v);
    for (int j = 0; j < 24; j++) a0_v[j] = -a0_v[j];
    double a0_m[24], da0_m[24];
    memcpy(a0_m, V + 3, sizeof a0_m);
    memset(da0_m, 0, sizeof da0_m);
    for (int j = 0; j < 24; j++) a0_m[j] = -a0_m[j];
    double a0_n[24], da0_n[24];
    memcpy(a0_n, V + 3, sizeof a0_n);
    memset(da0_n, 0, sizeof da0_n);
    for (int j = 0; j < 24; j++) a0_n[j] = -a0_n[j];
    printf("MPRIMAL %.17g\n", f(4, (-(-1.984375)), 5, 24, (-(-0.171875)), (-(1.546875)), a0_m));
    TapSGrad gm = __enzyme_autodiff_split((void *)f, enzyme_const, 4, (-(-1.984375)), 5, enzyme_const, 24, (-(-0.171875)), enzyme_out, (-(1.546875)), enzyme_dup, a0_n, da0_n);
    printf("MREV 0 %.17g\n", (double)gm.g0);
    printf("MREV 1 %.17g\n", (double)gm.g1);
    printf("MREV 2 %.17g\n", (double)gm.g2);
    printf("MREV 3 %.17g\n", da0_n[0]);
    printf("MREV 4 %.17g\n", da0_n[1]);
    printf("MREV 5 %.17g\n", da0_n[2]);
    printf("MREV 6 %.17g\n", da0_n[3]);
    printf("MREV 7 %.17g\n", da0_n[4]);
    printf("MREV 8 %.17g\n", da0_n[5]);
    printf("MREV 9 %.17g\n", da0_n[6]);
    printf("MREV 10 %.17g\n", da0_n[7]);
    printf("MREV 11 %.17g\n", da0_n[8]);
    printf("MREV 12 %.17g\n", da0_n[9]);
    printf("MREV 13 %.17g\n", da0_n[10]);
    printf("MREV 14 %.17g\n", da0_n[11]);
    printf("MREV 15 %.17g\n", da0_n[12]);
    printf("MREV 16 %.17g\n", da0_n[13]);
    printf("MREV 17 %.17g\n", da0_n[14]);
    printf("MREV 18 %.17g\n", da0_n[15]);
    printf("MREV 19 %.17g\n", da0_n[16]);
    printf("MREV 20 %.17g\n", da0_n[17]);
    printf("MREV 21 %.17g\n", da0_n[18]);
    printf("MREV 22 %.17g\n", da0_n[19]);
    printf("MREV 23 %.17g\n", da0_n[20]);
    printf("MREV 24 %.17g\n", da0_n[21]);
    printf("MREV 25 %.17g\n", da0_n[22]);
    printf("MREV 26 %.17g\n", da0_n[23]);
    fflush(stdout);
    TapAug a = __enzyme_augmentfwd((void *)f, enzyme_const, 4, -1.984375, 5, enzyme_const, 24, -0.171875, enzyme_out, 1.546875, enzyme_dup, a0_w, da0_w);
    TapAug b = __enzyme_augmentfwd((void *)f, enzyme_const, 4, (-(-1.984375)), 5, enzyme_const, 24, (-(-0.171875)), enzyme_out, (-(1.546875)), enzyme_dup, a0_v, da0_v);
    printf("WPRIMAL %.17g\nVPRIMAL %.17g\n", a.p, b.p);
    fflush(stdout);
    for (int j = 0; j < 24; j++) a0_w[j] = 1e30;
    for (int j = 0; j < 24; j++) a0_v[j] = 1e30;
    TapSGrad gb = __enzyme_reverse((void *)f, enzyme_const, 4, (-(-1.984375)), 5, enzyme_const, 24, (-(-0.171875)), enzyme_out, (-(1.546875)), enzyme_dup, a0_v, da0_v, 1.0, b.tape);
    TapSGrad ga = __enzyme_reverse((void *)f, enzyme_const, 4, -1.984375, 5, enzyme_const, 24, -0.171875, enzyme_out, 1.546875, enzyme_dup, a0_w, da0_w, 1.0, a.tape);
    printf("WREV 0 %.17g\n", (double)ga.g0);
    printf("WREV 1 %.17g\n", (double)ga.g1);
    printf("WREV 2 %.17g\n", (double)ga.g2);
    printf("WREV 3 %.17g\n", da0_w[0]);
    printf("WREV 4 %.17g\n", da0_w[1]);
    printf("WREV 5 %.17g\n", da0_w[2]);
    printf("WREV 6 %.17g\n", da0_w[3]);
    printf("WREV 7 %.17g\n", da0_w[4]);
    printf("WREV 8 %.17g\n", da0_w[5]);
    printf("WREV 9 %.17g\n", da0_w[6]);
    printf("WREV 10 %.17g\n", da0_w[7]);
    printf("WREV 11 %.17g\n", da0_w[8]);
    printf("WREV 12 %.17g\n", da0_w[9]);
    printf("WREV 13 %.17g\n", da0_w[10]);
    printf("WREV 14 %.17g\n", da0_w[11]);
    printf("WREV 15 %.17g\n", da0_w[12]);
    printf("WREV 16 %.17g\n", da0_w[13]);
    printf("WREV 17 %.17g\n", da0_w[14]);
    printf("WREV 18 %.17g\n", da0_w[15]);
    printf("WREV 19 %.17g\n", da0_w[16]);
    printf("WREV 20 %.17g\n", da0_w[17]);
    printf("WREV 21 %.17g\n", da0_w[18]);
    printf("WREV 22 %.17g\n", da0_w[19]);
    printf("WREV 23 %.17g\n", da0_w[20]);
    printf("WREV 24 %.17g\n", da0_w[21]);
    printf("WREV 25 %.17g\n", da0_w[22]);
    printf("WREV 26 %.17g\n", da0_w[23]);
    printf("VREV 0 %.17g\n", (double)gb.g0);
    printf("VREV 1 %.17g\n", (double)gb.g1);
    printf("VREV 2 %.17g\n", (double)gb.g2);
    printf("VREV 3 %.17g\n", da0_v[0]);
    printf("VREV 4 %.17g\n", da0_v[1]);
    printf("VREV 5 %.17g\n", da0_v[2]);
    printf("VREV 6 %.17g\n", da0_v[3]);
    printf("VREV 7 %.17g\n", da0_v[4]);
    printf("VREV 8 %.17g\n", da0_v[5]);
    printf("VREV 9 %.17g\n", da0_v[6]);
    printf("VREV 10 %.17g\n", da0_v[7]);
    printf("VREV 11 %.17g\n", da0_v[8]);
    printf("VREV 12 %.17g\n", da0_v[9]);
    printf("VREV 13 %.17g\n", da0_v[10]);
    printf("VREV 14 %.17g\n", da0_v[11]);
    printf("VREV 15 %.17g\n", da0_v[12]);
    printf("VREV 16 %.17g\n", da0_v[13]);
    printf("VREV 17 %.17g\n", da0_v[14]);
    printf("VREV 18 %.17g\n", da0_v[15]);
    printf("VREV 19 %.17g\n", da0_v[16]);
    printf("VREV 20 %.17g\n", da0_v[17]);
    printf("VREV 21 %.17g\n", da0_v[18]);
    printf("VREV 22 %.17g\n", da0_v[19]);
    printf("VREV 23 %.17g\n", da0_v[20]);
    printf("VREV 24 %.17g\n", da0_v[21]);
    printf("VREV 25 %.17g\n", da0_v[22]);
    printf("VREV 26 %.17g\n", da0_v[23]);
  }
  fflush(stdout);
  {
    double a0_b[24], da0_b[24];
    memcpy(a0_b, V + 3, sizeof a0_b);
    memset(da0_b, 0, sizeof da0_b);
    TapBF r = __enzyme_fwddiff_batch((void *)f, enzyme_width, 3, enzyme_const, 4, -1.984375, 1.0, 0.0, 0.0, 5, enzyme_const, 24, enzyme_dup, -0.171875, 0.0, 1.0, 0.0, 1.546875, 0.0, 0.0, 1.0, enzyme_const, a0_b);
    printf("BFWD 0 %.17g\n", r.t[0]);
    printf("BFWD 1 %.17g\n", r.t[1]);
    printf("BFWD 2 %.17g\n", r.t[2]);
  }
  {
    double a0_c[24], da0_c[24];
    memcpy(a0_c, V + 3, sizeof a0_c);
    memset(da0_c, 0, sizeof da0_c);
    double ea0_c[24];
    memset(ea0_c, 0, sizeof ea0_c);
    TapBR r = __enzyme_autodiff_batch((void *)f, enzyme_width, 2, enzyme_primal_return, enzyme_const, 4, -1.984375, 5, enzyme_const, 24, -0.171875, enzyme_out, 1.546875, enzyme_dup, a0_c, da0_c, ea0_c);
    printf("BREVPRIMAL %.17g\n", r.p);
    printf("BREV 0 %.17g\nBREV1 0 %.17g\n", (double)r.g0[0], (double)r.g0[1]);
    printf("BREV 1 %.17g\nBREV1 1 %.17g\n", (double)r.g1[0], (double)r.g1[1]);
    printf("BREV 2 %.17g\nBREV1 2 %.17g\n", (double)r.g2[0], (double)r.g2[1]);
    printf("BREV 3 %.17g\nBREV1 3 %.17g\n", da0_c[0], ea0_c[0]);
    printf("BREV 4 %.17g\nBREV1 4 %.17g\n", da0_c[1], ea0_c[1]);
    printf("BREV 5 %.17g\nBREV1 5 %.17g\n", da0_c[2], ea0_c[2]);
    printf("BREV 6 %.17g\nBREV1 6 %.17g\n", da0_c[3], ea0_c[3]);
    printf("BREV 7 %.17g\nBREV1 7 %.17g\n", da0_c[4], ea0_c[4]);
    printf("BREV 8 %.17g\nBREV1 8 %.17g\n", da0_c[5], ea0_c[5]);
    printf("BREV 9 %.17g\nBREV1 9 %.17g\n", da0_c[6], ea0_c[6]);
    printf("BREV 10 %.17g\nBREV1 10 %.17g\n", da0_c[7], ea0_c[7]);
    printf("BREV 11 %.17g\nBREV1 11 %.17g\n", da0_c[8], ea0_c[8]);
    printf("BREV 12 %.17g\nBREV1 12 %.17g\n", da0_c[9], ea0_c[9]);
    printf("BREV 13 %.17g\nBREV1 13 %.17g\n", da0_c[10], ea0_c[10]);
    printf("BREV 14 %.17g\nBREV1 14 %.17g\n", da0_c[11], ea0_c[11]);
    printf("BREV 15 %.17g\nBREV1 15 %.17g\n", da0_c[12], ea0_c[12]);
    printf("BREV 16 %.17g\nBREV1 16 %.17g\n", da0_c[13], ea0_c[13]);
    printf("BREV 17 %.17g\nBREV1 17 %.17g\n", da0_c[14], ea0_c[14]);
    printf("BREV 18 %.17g\nBREV1 18 %.17g\n", da0_c[15], ea0_c[15]);
    printf("BREV 19 %.17g\nBREV1 19 %.17g\n", da0_c[16], ea0_c[16]);
    printf("BREV 20 %.17g\nBREV1 20 %.17g\n", da0_c[17], ea0_c[17]);
    printf("BREV 21 %.17g\nBREV1 21 %.17g\n", da0_c[18], ea0_c[18]);
    printf("BREV 22 %.17g\nBREV1 22 %.17g\n", da0_c[19], ea0_c[19]);
    printf("BREV 23 %.17g\nBREV1 23 %.17g\n", da0_c[20], ea0_c[20]);
    printf("BREV 24 %.17g\nBREV1 24 %.17g\n", da0_c[21], ea0_c[21]);
    printf("BREV 25 %.17g\nBREV1 25 %.17g\n", da0_c[22], ea0_c[22]);
    printf("BREV 26 %.17g\nBREV1 26 %.17g\n", da0_c[23], ea0_c[23]);
  }
#endif
  tap_checks(V);
  printf("DONE\n");
  return 0;
}
