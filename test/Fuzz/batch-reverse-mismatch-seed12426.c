// Found by the all-features fuzz campaign (seed 12426, 5 Dec 2026): built
// by the opt flow from IR optimised at -O3 for AVX2 with -ffast-math, the
// batched reverse derivative (BREV, width 2) of x0 and x1 differed from the
// scalar reverse (REV), which forward mode (FWD) and finite differences
// agree with: BREV 0 was -0.00165 for -0.000692. The cause: a vector divide
// whose unused lane's divisor was poison, made 0 by preparation, so x / 0
// under the fast-math flags nnan/ninf was poison again and reached real
// adjoints (reduced: test/Vector/fastmath-undefined-lanes.c). The prepared
// primal now drops nnan and ninf.
// RUN: %plain_cc -O3 -march=x86-64-v3 -w -ffast-math -S -emit-llvm %s -o %t.ll
// RUN: %opt -passes=tapestry %t.ll -o %t.bc
// RUN: %plain_cc -O1 -march=x86-64-v3 -w %t.bc -lm -o %t && %t | FileCheck %s
// CHECK: {{^}}REV 0 [[X0:[-+0-9.e]+]]
// CHECK: {{^}}REV 1 [[X1:[-+0-9.e]+]]
// CHECK: {{^}}BREV 0 [[X0]]{{$}}
// CHECK: {{^}}BREV 1 [[X1]]{{$}}
/* Tapestry fuzz program: seed 12426, features api,arrays,batch,branches,byval,calls,constptr,floats,fnptr,loops,malloc,realloc,recursion,scalar,sort,split,structs,tape,vectorize */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

extern int enzyme_dup, enzyme_const, enzyme_out, enzyme_dupnoneed, enzyme_primal_return;
extern int enzyme_width;
struct TapPair { double u; double v; };
struct TapPair_ld { long double u; long double v; };
#define TAP_IDENT 0

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
static __attribute__((noinline)) double h0(double *q0, double p0, double p1) {
  int k0 = 0;
  while (k0 < 2 && ((q0[(k0 * 1 + 1) % 18] - q0[(k0 * 1 + 4) % 18]) < 4.0)) {
    p0 = (3.5625 * tanh(((p0 + log2f((1.75 + cos(((double)(k0) + 0.03125))))) * 0.25)));
    double t0 = ((double)(k0) + 0.03125);
    q0[(k0 * 1 + 17) % 18] = (3.5625 * erf((pow((1.25 + exp(p1)), 0.8125) * 0.0625)));
    k0++;
  }
  float t1 = ((*(q0 + (13))) / (1.25 + (q0[3] * q0[3])));
  struct TapPair s0 = { (t1 + (*(q0 + (14)))), (q0[8] - (p0 + 2.1875)) };
  return ((2.1875 * atan(((((((((s0.v - p0) - (s0.v + q0[10])) + p0) * p1) + t1) + s0.u) * s0.v) * 0.0009765625))) + q0[2]);
}
static __attribute__((noinline)) double h1(double *q1, double p2, double p3, double p4) {
  for (int i0 = 0; i0 < 5; i0++) {
    struct TapPair s1 = { fma(h0(q1, p3, (*(q1 + ((i0 * 3 + 17) % 18)))), (p4 * (-0.3125)), tan((0.625 * atan((q1[(i0 * 1 + 6) % 18] * 0.5))))), q1[(i0 * 2 + 16) % 18] };
  }
  p2 += (q1[14] + (pow((1.5 + (p4 * p4)), 2.1875) + ((-0.625f) * 1.5625)));
  return ((1.5 / (2.0 + exp(p4))) + p2);
}
static __attribute__((noinline)) double h2(double *q2, double p5) {
  int k1 = 0;
  while (k1 < 2) {
    double t2 = asinh(p5);
    q2[(k1 * 2 + 12) % 18] = (2.1875 * atan((((h1(q2, q2[(k1 * 2 + 11) % 18], (0.1875 - t2), (3.5625 * sin((copysign(q2[(k1 * 1 + 0) % 18], p5) * 0.25)))) >= 262.5) ? ((0.3125f + t2) * log1p(((double)(k1) + 0.03125))) : h1(q2, (3.5625 * sin(((p5 * ((float)(k1) + 0.03125f)) * 0.25))), log1p((-0.4375)), tan((1.0625 * erf((-2.0)))))) * 0.001953125)));
    k1++;
  }
  double r0 = 5.5;
  for (int v0 = 0; v0 < 18 / 2; v0++) {
    r0 = fmin(r0, (p5 + (0.125 * (double)(v0))));
  }
  return ((((h0(q2, p5, (-2.1875)) > q2[8]) ? p5 : (-1.125f)) * r0) + q2[13]);
}
static __attribute__((noinline)) double h3(double *q3, double p6) {
  double r1 = (-0.0625);
  for (int v1 = 0; v1 < 18; v1++) {
    r1 += sqrtf((1.5 + ((-1.0) * (-1.0))));
  }
  double c0[18];
  memcpy(c0, q3, 18 * sizeof *c0);
  double r2 = (-3.625);
  for (int v2 = 0; v2 < 18 / 2; v2++) {
    r2 = ((((3.5625 * (((q3[v2] * r1) * 0.015625) / sqrt((1.0 + (((q3[v2] * r1) * 0.015625) * ((q3[v2] * r1) * 0.015625)))))) + (0.25 * (double)(v2))) > r2) ? ((3.5625 * (((q3[v2] * r1) * 0.015625) / sqrt((1.0 + (((q3[v2] * r1) * 0.015625) * ((q3[v2] * r1) * 0.015625)))))) + (0.25 * (double)(v2))) : r2);
  }
  return (((((*(q3 + (16))) + p6) * r1) + r2) + q3[2]);
}
static double (*tab0[2])(double *, double) = { h2, h3 };
double h4(double (*cb0)(double *, double), double *q4, double p7) {
  q4[14] = (3.5625 * erf(((hypot(q4[9], (2.5 + cos(sin((-0.25))))) / (2.0 + cos(cb0(q4, (3.5625 * sin((expm1(2.625) * 0.125))))))) * 0.25)));
  q4[1] = atan((p7 + expm1f(2.0f)));
  double t3 = cb0(q4, (3.5625 * sin((cb0(q4, p7) * 0.0078125))));
  return (((atan2((7.1875 * tanh(((t3 * (q4[2] - t3)) * 3.0517578125e-05))), (1.75 + cos(cb0(q4, (3.5625 * erf((cb0(q4, p7) * 0.0078125))))))) + p7) - q4[6]) + t3);
}
static struct V3 h5(struct V2 w0, double p8, double p9) {
  w0.b += (-w0.a);
  p9 += p9;
  return ((struct V3){ (2.1875 * atan((((p9 + w0.b) * p8) * 0.03125))), (3.5625 * sin((((atan(sqrt((1.25 + exp(p8)))) - w0.b) * p8) * 0.03125))), (2.1875 * atan((((cos(p8) - w0.a) + w0.b) * 0.125))) });
}
struct V2 h6(double p10, double p11) {
  for (int i1 = 0; i1 < 3; i1++) {
    double t4 = atan(((-0.75) - p11));
    struct V2 sv0 = ((struct V2){ 1.375f, t4 });
    struct V3 sv1 = h5(((struct V2){ ((double)(i1) + 0.03125), ((double)(i1) + 0.03125) }), p11, (((float)(i1) + 0.03125f) * sv0.a));
  }
  return ((struct V2){ (3.5625 * tanh(((1.75f + p10) * 0.25))), (3.5625 * sin((((-0.9375) + p10) * 0.25))) });
}
double f(double x0, int n, int sel, double x1, double *a0) {
  double *g0 = NULL;
  int g0_cap = 0;
  for (int j0 = 0; j0 < 18; j0++) {
    if (j0 == g0_cap) {
      g0_cap = g0_cap ? 2 * g0_cap : 1;
      g0 = (double *)realloc(g0, g0_cap * sizeof(double));
    }
    g0[j0] = (3.5625 * erf(((x1 * x0) * 0.25)));
  }
  double *c1 = (double *)malloc(18 * sizeof(double));
  for (int j1 = 0; j1 < 18; j1++) {
    c1[j1] = (3.5625 * sin(((((double)(j1) + 0.03125) + ((0.75 * g0[j1]) + (0.0625 * sin((double)(j1))))) * 0.0625)));
  }
  qsort(c1, 18, sizeof *c1, tap_cmp2);
  for (int v3 = 0; v3 < 18 / 2; v3++) {
    g0[2 * v3 + 1] = (3.5625f * ((fabsf(((float)(v3) + 0.03125f)) * 0.0625f) / sqrtf((1.0f + ((fabsf(((float)(v3) + 0.03125f)) * 0.0625f) * (fabsf(((float)(v3) + 0.03125f)) * 0.0625f))))));
  }
  double r3 = 0.4375;
  for (int i2 = 0; i2 < n; i2++) {
    r3 += (7.1875 * erf((tab0[(i2 + 0) % 2](a0, (x1 / (-1.75))) * 0.0078125)));
  }
  struct V2 sv2 = h6(a0[10], tan((1.0625 * sin(((-2.75) * 0.5)))));
  double r4 = 0.6875;
  for (int v4 = 0; v4 < 18 / 2; v4++) {
    r4 *= (1.0 + (0.125 * (0.875 * (((sv2.b / (1.25 + (c1[2 * v4] * c1[2 * v4]))) * 0.5) / sqrt((1.0 + (((sv2.b / (1.25 + (c1[2 * v4] * c1[2 * v4]))) * 0.5) * ((sv2.b / (1.25 + (c1[2 * v4] * c1[2 * v4]))) * 0.5))))))));
  }
  {
    double tap_r = ((((((((-2.5f) / (2.0 + (x1 * x1))) * (r4 + sv2.b)) + x0) + x1) * sv2.a) * g0[1]) * c1[16]);
    free(g0);
    free(c1);
    return tap_r;
  }
}

/* ---- chk ---- */
static __attribute__((noinline)) double h0_chk(double *q0, double p0, double p1) {
  int k0 = 0;
  while (k0 < 2 && tap_lt((q0[(k0 * 1 + 1) % 18] - q0[(k0 * 1 + 4) % 18]), 4.0)) {
    p0 = tap_trk((3.5625 * tanh(((p0 + log2f((1.75 + cos(((double)(k0) + 0.03125))))) * 0.25))));
    double t0 = tap_trk(((double)(k0) + 0.03125));
    q0[(k0 * 1 + 17) % 18] = tap_trk((3.5625 * erf((pow((1.25 + exp(p1)), 0.8125) * 0.0625))));
    k0++;
  }
  float t1 = tap_trkf(((*(q0 + (13))) / (1.25 + (q0[3] * q0[3]))));
  struct TapPair s0 = { tap_trk((t1 + (*(q0 + (14))))), tap_trk((q0[8] - (p0 + 2.1875))) };
  return tap_trk(((2.1875 * atan(((((((((s0.v - p0) - (s0.v + q0[10])) + p0) * p1) + t1) + s0.u) * s0.v) * 0.0009765625))) + q0[2]));
}
static __attribute__((noinline)) double h1_chk(double *q1, double p2, double p3, double p4) {
  for (int i0 = 0; i0 < 5; i0++) {
    struct TapPair s1 = { tap_trk(fma(h0_chk(q1, p3, (*(q1 + ((i0 * 3 + 17) % 18)))), (p4 * (-0.3125)), tan((0.625 * atan((q1[(i0 * 1 + 6) % 18] * 0.5)))))), tap_trk(q1[(i0 * 2 + 16) % 18]) };
  }
  p2 += (q1[14] + (pow((1.5 + (p4 * p4)), 2.1875) + ((-0.625f) * 1.5625)));
  return tap_trk(((1.5 / (2.0 + exp(p4))) + p2));
}
static __attribute__((noinline)) double h2_chk(double *q2, double p5) {
  int k1 = 0;
  while (k1 < 2) {
    double t2 = tap_trk(asinh(p5));
    q2[(k1 * 2 + 12) % 18] = tap_trk((2.1875 * atan(((tap_ge(h1_chk(q2, q2[(k1 * 2 + 11) % 18], (0.1875 - t2), (3.5625 * sin((tap_copysign(q2[(k1 * 1 + 0) % 18], p5) * 0.25)))), 262.5) ? ((0.3125f + t2) * log1p(((double)(k1) + 0.03125))) : h1_chk(q2, (3.5625 * sin(((p5 * ((float)(k1) + 0.03125f)) * 0.25))), log1p((-0.4375)), tan((1.0625 * erf((-2.0)))))) * 0.001953125))));
    k1++;
  }
  double r0 = tap_trk(5.5);
  for (int v0 = 0; v0 < 18 / 2; v0++) {
    r0 = tap_trk(tap_fmin(r0, (p5 + (0.125 * (double)(v0)))));
  }
  return tap_trk((((tap_gt(h0_chk(q2, p5, (-2.1875)), q2[8]) ? p5 : (-1.125f)) * r0) + q2[13]));
}
static __attribute__((noinline)) double h3_chk(double *q3, double p6) {
  double r1 = tap_trk((-0.0625));
  for (int v1 = 0; v1 < 18; v1++) {
    r1 = tap_trk(r1 + (sqrtf((1.5 + ((-1.0) * (-1.0))))));
  }
  double c0[18];
  memcpy(c0, q3, 18 * sizeof *c0);
  double r2 = tap_trk((-3.625));
  for (int v2 = 0; v2 < 18 / 2; v2++) {
    r2 = tap_trk((tap_gt(((3.5625 * (((q3[v2] * r1) * 0.015625) / sqrt((1.0 + (((q3[v2] * r1) * 0.015625) * ((q3[v2] * r1) * 0.015625)))))) + (0.25 * (double)(v2))), r2) ? ((3.5625 * (((q3[v2] * r1) * 0.015625) / sqrt((1.0 + (((q3[v2] * r1) * 0.015625) * ((q3[v2] * r1) * 0.015625)))))) + (0.25 * (double)(v2))) : r2));
  }
  return tap_trk((((((*(q3 + (16))) + p6) * r1) + r2) + q3[2]));
}
static double (*tab0_chk[2])(double *, double) = { h2_chk, h3_chk };
static double h4_chk(double (*cb0)(double *, double), double *q4, double p7) {
  q4[14] = tap_trk((3.5625 * erf(((hypot(q4[9], (2.5 + cos(sin((-0.25))))) / (2.0 + cos(cb0(q4, (3.5625 * sin((expm1(2.625) * 0.125))))))) * 0.25))));
  q4[1] = tap_trk(atan((p7 + expm1f(2.0f))));
  double t3 = tap_trk(cb0(q4, (3.5625 * sin((cb0(q4, p7) * 0.0078125)))));
  return tap_trk((((atan2((7.1875 * tanh(((t3 * (q4[2] - t3)) * 3.0517578125e-05))), (1.75 + cos(cb0(q4, (3.5625 * erf((cb0(q4, p7) * 0.0078125))))))) + p7) - q4[6]) + t3));
}
static struct V3 h5_chk(struct V2 w0, double p8, double p9) {
  w0.b += (-w0.a);
  p9 += p9;
  return ((struct V3){ tap_trk((2.1875 * atan((((p9 + w0.b) * p8) * 0.03125)))), tap_trk((3.5625 * sin((((atan(sqrt((1.25 + exp(p8)))) - w0.b) * p8) * 0.03125)))), tap_trk((2.1875 * atan((((cos(p8) - w0.a) + w0.b) * 0.125)))) });
}
static struct V2 h6_chk(double p10, double p11) {
  for (int i1 = 0; i1 < 3; i1++) {
    double t4 = tap_trk(atan(((-0.75) - p11)));
    struct V2 sv0 = ((struct V2){ tap_trk(1.375f), tap_trk(t4) });
    struct V3 sv1 = h5_chk(((struct V2){ tap_trk(((double)(i1) + 0.03125)), tap_trk(((double)(i1) + 0.03125)) }), p11, (((float)(i1) + 0.03125f) * sv0.a));
  }
  return ((struct V2){ tap_trk((3.5625 * tanh(((1.75f + p10) * 0.25)))), tap_trk((3.5625 * sin((((-0.9375) + p10) * 0.25)))) });
}
static double f_chk(double x0, int n, int sel, double x1, double *a0) {
  double *g0 = NULL;
  int g0_cap = 0;
  for (int j0 = 0; j0 < 18; j0++) {
    if (j0 == g0_cap) {
      g0_cap = g0_cap ? 2 * g0_cap : 1;
      g0 = (double *)realloc(g0, g0_cap * sizeof(double));
    }
    g0[j0] = tap_trk((3.5625 * erf(((x1 * x0) * 0.25))));
  }
  double *c1 = (double *)malloc(18 * sizeof(double));
  for (int j1 = 0; j1 < 18; j1++) {
    c1[j1] = tap_trk((3.5625 * sin(((((double)(j1) + 0.03125) + ((0.75 * g0[j1]) + (0.0625 * sin((double)(j1))))) * 0.0625))));
  }
  tap_ranks(c1, 18);
  qsort(c1, 18, sizeof *c1, tap_cmp2);
  tap_sorted(c1, 18);
  for (int v3 = 0; v3 < 18 / 2; v3++) {
    g0[2 * v3 + 1] = tap_trk((3.5625f * ((tap_fabsf(((float)(v3) + 0.03125f)) * 0.0625f) / sqrtf((1.0f + ((tap_fabsf(((float)(v3) + 0.03125f)) * 0.0625f) * (tap_fabsf(((float)(v3) + 0.03125f)) * 0.0625f)))))));
  }
  double r3 = tap_trk(0.4375);
  for (int i2 = 0; i2 < n; i2++) {
    r3 = tap_trk(r3 + ((7.1875 * erf((tab0_chk[(i2 + 0) % 2](a0, (x1 / (-1.75))) * 0.0078125)))));
  }
  struct V2 sv2 = h6_chk(a0[10], tan((1.0625 * sin(((-2.75) * 0.5)))));
  double r4 = tap_trk(0.6875);
  for (int v4 = 0; v4 < 18 / 2; v4++) {
    r4 = tap_trk(r4 * ((1.0 + (0.125 * (0.875 * (((sv2.b / (1.25 + (c1[2 * v4] * c1[2 * v4]))) * 0.5) / sqrt((1.0 + (((sv2.b / (1.25 + (c1[2 * v4] * c1[2 * v4]))) * 0.5) * ((sv2.b / (1.25 + (c1[2 * v4] * c1[2 * v4]))) * 0.5))))))))));
  }
  {
    double tap_r = tap_trk(((((((((-2.5f) / (2.0 + (x1 * x1))) * (r4 + sv2.b)) + x0) + x1) * sv2.a) * g0[1]) * c1[16]));
    free(g0);
    free(c1);
    return tap_r;
  }
}

/* ---- ld ---- */
static __attribute__((noinline)) long double h0_ld(long double *q0, long double p0, long double p1) {
  int k0 = 0;
  while (k0 < 2 && tap_lt((q0[(k0 * 1 + 1) % 18] - q0[(k0 * 1 + 4) % 18]), 4.0L)) {
    p0 = tap_trkl((3.5625L * tanhl(((p0 + log2l((1.75L + cosl(((long double)(k0) + 0.03125L))))) * 0.25L))));
    long double t0 = tap_trkl(((long double)(k0) + 0.03125L));
    q0[(k0 * 1 + 17) % 18] = tap_trkl((3.5625L * erfl((powl((1.25L + expl(p1)), 0.8125L) * 0.0625L))));
    k0++;
  }
  long double t1 = tap_trkl(((*(q0 + (13))) / (1.25L + (q0[3] * q0[3]))));
  struct TapPair_ld s0 = { tap_trkl((t1 + (*(q0 + (14))))), tap_trkl((q0[8] - (p0 + 2.1875L))) };
  return tap_trkl(((2.1875L * atanl(((((((((s0.v - p0) - (s0.v + q0[10])) + p0) * p1) + t1) + s0.u) * s0.v) * 0.0009765625L))) + q0[2]));
}
static __attribute__((noinline)) long double h1_ld(long double *q1, long double p2, long double p3, long double p4) {
  for (int i0 = 0; i0 < 5; i0++) {
    struct TapPair_ld s1 = { tap_trkl(fmal(h0_ld(q1, p3, (*(q1 + ((i0 * 3 + 17) % 18)))), (p4 * (-0.3125L)), tanl((0.625L * atanl((q1[(i0 * 1 + 6) % 18] * 0.5L)))))), tap_trkl(q1[(i0 * 2 + 16) % 18]) };
  }
  p2 += (q1[14] + (powl((1.5L + (p4 * p4)), 2.1875L) + ((-0.625L) * 1.5625L)));
  return tap_trkl(((1.5L / (2.0L + expl(p4))) + p2));
}
static __attribute__((noinline)) long double h2_ld(long double *q2, long double p5) {
  int k1 = 0;
  while (k1 < 2) {
    long double t2 = tap_trkl(asinhl(p5));
    q2[(k1 * 2 + 12) % 18] = tap_trkl((2.1875L * atanl(((tap_ge(h1_ld(q2, q2[(k1 * 2 + 11) % 18], (0.1875L - t2), (3.5625L * sinl((tap_copysignl(q2[(k1 * 1 + 0) % 18], p5) * 0.25L)))), 262.5L) ? ((0.3125L + t2) * log1pl(((long double)(k1) + 0.03125L))) : h1_ld(q2, (3.5625L * sinl(((p5 * ((long double)(k1) + 0.03125L)) * 0.25L))), log1pl((-0.4375L)), tanl((1.0625L * erfl((-2.0L)))))) * 0.001953125L))));
    k1++;
  }
  long double r0 = tap_trkl(5.5L);
  for (int v0 = 0; v0 < 18 / 2; v0++) {
    r0 = tap_trkl(tap_fminl(r0, (p5 + (0.125L * (long double)(v0)))));
  }
  return tap_trkl((((tap_gt(h0_ld(q2, p5, (-2.1875L)), q2[8]) ? p5 : (-1.125L)) * r0) + q2[13]));
}
static __attribute__((noinline)) long double h3_ld(long double *q3, long double p6) {
  long double r1 = tap_trkl((-0.0625L));
  for (int v1 = 0; v1 < 18; v1++) {
    r1 = tap_trkl(r1 + (sqrtl((1.5L + ((-1.0L) * (-1.0L))))));
  }
  long double c0[18];
  memcpy(c0, q3, 18 * sizeof *c0);
  long double r2 = tap_trkl((-3.625L));
  for (int v2 = 0; v2 < 18 / 2; v2++) {
    r2 = tap_trkl((tap_gt(((3.5625L * (((q3[v2] * r1) * 0.015625L) / sqrtl((1.0L + (((q3[v2] * r1) * 0.015625L) * ((q3[v2] * r1) * 0.015625L)))))) + (0.25L * (long double)(v2))), r2) ? ((3.5625L * (((q3[v2] * r1) * 0.015625L) / sqrtl((1.0L + (((q3[v2] * r1) * 0.015625L) * ((q3[v2] * r1) * 0.015625L)))))) + (0.25L * (long double)(v2))) : r2));
  }
  return tap_trkl((((((*(q3 + (16))) + p6) * r1) + r2) + q3[2]));
}
static long double (*tab0_ld[2])(long double *, long double) = { h2_ld, h3_ld };
static long double h4_ld(long double (*cb0)(long double *, long double), long double *q4, long double p7) {
  q4[14] = tap_trkl((3.5625L * erfl(((hypotl(q4[9], (2.5L + cosl(sinl((-0.25L))))) / (2.0L + cosl(cb0(q4, (3.5625L * sinl((expm1l(2.625L) * 0.125L))))))) * 0.25L))));
  q4[1] = tap_trkl(atanl((p7 + expm1l(2.0L))));
  long double t3 = tap_trkl(cb0(q4, (3.5625L * sinl((cb0(q4, p7) * 0.0078125L)))));
  return tap_trkl((((atan2l((7.1875L * tanhl(((t3 * (q4[2] - t3)) * 3.0517578125e-05L))), (1.75L + cosl(cb0(q4, (3.5625L * erfl((cb0(q4, p7) * 0.0078125L))))))) + p7) - q4[6]) + t3));
}
static struct V3_ld h5_ld(struct V2_ld w0, long double p8, long double p9) {
  w0.b += (-w0.a);
  p9 += p9;
  return ((struct V3_ld){ tap_trkl((2.1875L * atanl((((p9 + w0.b) * p8) * 0.03125L)))), tap_trkl((3.5625L * sinl((((atanl(sqrtl((1.25L + expl(p8)))) - w0.b) * p8) * 0.03125L)))), tap_trkl((2.1875L * atanl((((cosl(p8) - w0.a) + w0.b) * 0.125L)))) });
}
static struct V2_ld h6_ld(long double p10, long double p11) {
  for (int i1 = 0; i1 < 3; i1++) {
    long double t4 = tap_trkl(atanl(((-0.75L) - p11)));
    struct V2_ld sv0 = ((struct V2_ld){ tap_trkl(1.375L), tap_trkl(t4) });
    struct V3_ld sv1 = h5_ld(((struct V2_ld){ tap_trkl(((long double)(i1) + 0.03125L)), tap_trkl(((long double)(i1) + 0.03125L)) }), p11, (((long double)(i1) + 0.03125L) * sv0.a));
  }
  return ((struct V2_ld){ tap_trkl((3.5625L * tanhl(((1.75L + p10) * 0.25L)))), tap_trkl((3.5625L * sinl((((-0.9375L) + p10) * 0.25L)))) });
}
static long double f_ld(long double x0, int n, int sel, long double x1, long double *a0) {
  long double *g0 = NULL;
  int g0_cap = 0;
  for (int j0 = 0; j0 < 18; j0++) {
    if (j0 == g0_cap) {
      g0_cap = g0_cap ? 2 * g0_cap : 1;
      g0 = (long double *)realloc(g0, g0_cap * sizeof(long double));
    }
    g0[j0] = tap_trkl((3.5625L * erfl(((x1 * x0) * 0.25L))));
  }
  long double *c1 = (long double *)malloc(18 * sizeof(long double));
  for (int j1 = 0; j1 < 18; j1++) {
    c1[j1] = tap_trkl((3.5625L * sinl(((((long double)(j1) + 0.03125L) + ((0.75L * g0[j1]) + (0.0625L * sinl((long double)(j1))))) * 0.0625L))));
  }
  tap_ranksl(c1, 18);
  qsort(c1, 18, sizeof *c1, tap_cmp2_ld);
  tap_sortedl(c1, 18);
  for (int v3 = 0; v3 < 18 / 2; v3++) {
    g0[2 * v3 + 1] = tap_trkl((3.5625L * ((tap_fabsl(((long double)(v3) + 0.03125L)) * 0.0625L) / sqrtl((1.0L + ((tap_fabsl(((long double)(v3) + 0.03125L)) * 0.0625L) * (tap_fabsl(((long double)(v3) + 0.03125L)) * 0.0625L)))))));
  }
  long double r3 = tap_trkl(0.4375L);
  for (int i2 = 0; i2 < n; i2++) {
    r3 = tap_trkl(r3 + ((7.1875L * erfl((tab0_ld[(i2 + 0) % 2](a0, (x1 / (-1.75L))) * 0.0078125L)))));
  }
  struct V2_ld sv2 = h6_ld(a0[10], tanl((1.0625L * sinl(((-2.75L) * 0.5L)))));
  long double r4 = tap_trkl(0.6875L);
  for (int v4 = 0; v4 < 18 / 2; v4++) {
    r4 = tap_trkl(r4 * ((1.0L + (0.125L * (0.875L * (((sv2.b / (1.25L + (c1[2 * v4] * c1[2 * v4]))) * 0.5L) / sqrtl((1.0L + (((sv2.b / (1.25L + (c1[2 * v4] * c1[2 * v4]))) * 0.5L) * ((sv2.b / (1.25L + (c1[2 * v4] * c1[2 * v4]))) * 0.5L))))))))));
  }
  {
    long double tap_r = tap_trkl(((((((((-2.5L) / (2.0L + (x1 * x1))) * (r4 + sv2.b)) + x0) + x1) * sv2.a) * g0[1]) * c1[16]));
    free(g0);
    free(c1);
    return tap_r;
  }
}

static double tap_eval_d(const double *v) {
  double a0[18];
  a0[0] = v[2];
  a0[1] = v[3];
  a0[2] = v[4];
  a0[3] = v[5];
  a0[4] = v[6];
  a0[5] = v[7];
  a0[6] = v[8];
  a0[7] = v[9];
  a0[8] = v[10];
  a0[9] = v[11];
  a0[10] = v[12];
  a0[11] = v[13];
  a0[12] = v[14];
  a0[13] = v[15];
  a0[14] = v[16];
  a0[15] = v[17];
  a0[16] = v[18];
  a0[17] = v[19];
  return f_chk(v[0], 2, 5, v[1], a0);
}

static long double tap_eval_ld(const long double *v) {
  long double a0[18];
  a0[0] = v[2];
  a0[1] = v[3];
  a0[2] = v[4];
  a0[3] = v[5];
  a0[4] = v[6];
  a0[5] = v[7];
  a0[6] = v[8];
  a0[7] = v[9];
  a0[8] = v[10];
  a0[9] = v[11];
  a0[10] = v[12];
  a0[11] = v[13];
  a0[12] = v[14];
  a0[13] = v[15];
  a0[14] = v[16];
  a0[15] = v[17];
  a0[16] = v[18];
  a0[17] = v[19];
  return f_ld(v[0], 2, 5, v[1], a0);
}
#define ND 20
#define HAS_FLOAT 1

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
typedef struct { double p; double g0; double g1; } TapGrad;
TapGrad __enzyme_autodiff_typed(void *, int, double, int, int, int, int, double, int, double *, double *);
double __enzyme_fwddiff_typed(void *, int, double, double, int, int, int, double, int, double *, double *);

/* ---- split mode ---- */
extern int enzyme_allocated, enzyme_tape, enzyme_nofree;
typedef struct { void *tape; double p; } TapAug;
typedef struct { void *augmented, *reverse, *release; unsigned long long tape_bytes; int reusable; } TapThunk;
typedef struct { double g0; double g1; } TapSGrad;
TapAug __enzyme_augmentfwd_typed(void *, double, int, int, int, int, double, int, double *, double *);
double __enzyme_augmentfwd_alloc_typed(void *, int, int, int, void *, double, int, int, int, int, double, int, double *, double *);
TapSGrad __enzyme_reverse_typed(void *, double, int, int, int, int, double, int, double *, double *, double, void *);
TapSGrad __enzyme_reverse_alloc_typed(void *, int, int, int, void *, double, int, int, int, int, double, int, double *, double *, double);
TapSGrad __enzyme_reverse_nofree_typed(void *, int, double, int, int, int, int, double, int, double *, double *, double, void *);
TapSGrad __enzyme_reverse_alloc_nofree_typed(void *, int, int, int, int, void *, double, int, int, int, int, double, int, double *, double *, double);
int __enzyme_augmentsize(void *, ...);
const TapThunk *__tapestry_thunk(void *, ...);
typedef double (*TapAugFn)(double, int, int, double, double *, double *, void *);
typedef void (*TapRevFn)(double, int, int, double, double *, double *, double, void *, void *);
TapSGrad __enzyme_autodiff_split_typed(void *, double, int, int, int, int, double, int, double *, double *);
typedef struct { double t[8]; } TapBF;
TapBF __enzyme_fwddiff_batch_typed(void *, int, int, int, double, double, double, double, double, double, double, double, double, int, int, int, double, int, double *, double *, double *, double *, double *, double *, double *, double *, double *);
typedef struct { double p; double g0[2]; double g1[2]; } TapBR;
TapBR __enzyme_autodiff_batch_typed(void *, int, int, int, double, int, int, int, int, double, int, double *, double *, double *);

int main(void) {
  static const double V[ND] = {1.453125, -1.734375, 0.734375, 1.140625, -0.21875, -1.984375, -1.609375, 0.90625, 0.578125, -0.609375, 1.578125, 0.453125, 0.46875, 0.921875, -1.796875, 0.984375, -1.203125, -0.078125, -0.359375, 1.546875};
  static volatile double VV[ND] = {1.453125, -1.734375, 0.734375, 1.140625, -0.21875, -1.984375, -1.609375, 0.90625, 0.578125, -0.609375, 1.578125, 0.453125, 0.46875, 0.921875, -1.796875, 0.984375, -1.203125, -0.078125, -0.359375, 1.546875};
  double X[ND];
  for (int k = 0; k < ND; k++) X[k] = VV[k];
  {
    double a0_p[18], da0_p[18];
    memcpy(a0_p, V + 2, sizeof a0_p);
    memset(da0_p, 0, sizeof da0_p);
    printf("PRIMAL %.17g\n", f(X[0], 2, 5, X[1], a0_p));
  }
#ifndef TAP_NO_AD
  {
    double a0_r[18], da0_r[18];
    memcpy(a0_r, V + 2, sizeof a0_r);
    memset(da0_r, 0, sizeof da0_r);
    TapGrad r = __enzyme_autodiff_typed((void *)&f, enzyme_primal_return, X[0], enzyme_const, 2, enzyme_const, 5, X[1], enzyme_dup, a0_r, da0_r);
    printf("REVPRIMAL %.17g\n", r.p);
    printf("REV 0 %.17g\n", (double)r.g0);
    printf("REV 1 %.17g\n", (double)r.g1);
    printf("REV 2 %.17g\n", da0_r[0]);
    printf("REV 3 %.17g\n", da0_r[1]);
    printf("REV 4 %.17g\n", da0_r[2]);
    printf("REV 5 %.17g\n", da0_r[3]);
    printf("REV 6 %.17g\n", da0_r[4]);
    printf("REV 7 %.17g\n", da0_r[5]);
    printf("REV 8 %.17g\n", da0_r[6]);
    printf("REV 9 %.17g\n", da0_r[7]);
    printf("REV 10 %.17g\n", da0_r[8]);
    printf("REV 11 %.17g\n", da0_r[9]);
    printf("REV 12 %.17g\n", da0_r[10]);
    printf("REV 13 %.17g\n", da0_r[11]);
    printf("REV 14 %.17g\n", da0_r[12]);
    printf("REV 15 %.17g\n", da0_r[13]);
    printf("REV 16 %.17g\n", da0_r[14]);
    printf("REV 17 %.17g\n", da0_r[15]);
    printf("REV 18 %.17g\n", da0_r[16]);
    printf("REV 19 %.17g\n", da0_r[17]);
  }
  {
    double a0_t[18], da0_t[18];
    memcpy(a0_t, V + 2, sizeof a0_t);
    memset(da0_t, 0, sizeof da0_t);
    printf("FWD 0 %.17g\n", __enzyme_fwddiff_typed((void *)&f, enzyme_dup, X[0], 1.0, 2, 5, enzyme_const, X[1], enzyme_dup, a0_t, da0_t));
  }
  {
    double a0_t[18], da0_t[18];
    memcpy(a0_t, V + 2, sizeof a0_t);
    memset(da0_t, 0, sizeof da0_t);
    da0_t[0] = 1.0;
    printf("FWD 2 %.17g\n", __enzyme_fwddiff_typed((void *)&f, enzyme_dup, X[0], 0.0, 2, 5, enzyme_const, X[1], enzyme_dup, a0_t, da0_t));
  }
  {
    double a0_t[18], da0_t[18];
    memcpy(a0_t, V + 2, sizeof a0_t);
    memset(da0_t, 0, sizeof da0_t);
    da0_t[1] = 1.0;
    printf("FWD 3 %.17g\n", __enzyme_fwddiff_typed((void *)&f, enzyme_dup, X[0], 0.0, 2, 5, enzyme_const, X[1], enzyme_dup, a0_t, da0_t));
  }
  {
    double a0_t[18], da0_t[18];
    memcpy(a0_t, V + 2, sizeof a0_t);
    memset(da0_t, 0, sizeof da0_t);
    da0_t[2] = 1.0;
    printf("FWD 4 %.17g\n", __enzyme_fwddiff_typed((void *)&f, enzyme_dup, X[0], 0.0, 2, 5, enzyme_const, X[1], enzyme_dup, a0_t, da0_t));
  }
  {
    double a0_t[18], da0_t[18];
    memcpy(a0_t, V + 2, sizeof a0_t);
    memset(da0_t, 0, sizeof da0_t);
    da0_t[3] = 1.0;
    printf("FWD 5 %.17g\n", __enzyme_fwddiff_typed((void *)&f, enzyme_dup, X[0], 0.0, 2, 5, enzyme_const, X[1], enzyme_dup, a0_t, da0_t));
  }
  {
    double a0_t[18], da0_t[18];
    memcpy(a0_t, V + 2, sizeof a0_t);
    memset(da0_t, 0, sizeof da0_t);
    da0_t[4] = 1.0;
    printf("FWD 6 %.17g\n", __enzyme_fwddiff_typed((void *)&f, enzyme_dup, X[0], 0.0, 2, 5, enzyme_const, X[1], enzyme_dup, a0_t, da0_t));
  }
  {
    double a0_t[18], da0_t[18];
    memcpy(a0_t, V + 2, sizeof a0_t);
    memset(da0_t, 0, sizeof da0_t);
    da0_t[5] = 1.0;
    printf("FWD 7 %.17g\n", __enzyme_fwddiff_typed((void *)&f, enzyme_dup, X[0], 0.0, 2, 5, enzyme_const, X[1], enzyme_dup, a0_t, da0_t));
  }
  {
    double a0_t[18], da0_t[18];
    memcpy(a0_t, V + 2, sizeof a0_t);
    memset(da0_t, 0, sizeof da0_t);
    da0_t[6] = 1.0;
    printf("FWD 8 %.17g\n", __enzyme_fwddiff_typed((void *)&f, enzyme_dup, X[0], 0.0, 2, 5, enzyme_const, X[1], enzyme_dup, a0_t, da0_t));
  }
  {
    double a0_t[18], da0_t[18];
    memcpy(a0_t, V + 2, sizeof a0_t);
    memset(da0_t, 0, sizeof da0_t);
    da0_t[7] = 1.0;
    printf("FWD 9 %.17g\n", __enzyme_fwddiff_typed((void *)&f, enzyme_dup, X[0], 0.0, 2, 5, enzyme_const, X[1], enzyme_dup, a0_t, da0_t));
  }
  {
    double a0_t[18], da0_t[18];
    memcpy(a0_t, V + 2, sizeof a0_t);
    memset(da0_t, 0, sizeof da0_t);
    da0_t[8] = 1.0;
    printf("FWD 10 %.17g\n", __enzyme_fwddiff_typed((void *)&f, enzyme_dup, X[0], 0.0, 2, 5, enzyme_const, X[1], enzyme_dup, a0_t, da0_t));
  }
  {
    double a0_t[18], da0_t[18];
    memcpy(a0_t, V + 2, sizeof a0_t);
    memset(da0_t, 0, sizeof da0_t);
    da0_t[9] = 1.0;
    printf("FWD 11 %.17g\n", __enzyme_fwddiff_typed((void *)&f, enzyme_dup, X[0], 0.0, 2, 5, enzyme_const, X[1], enzyme_dup, a0_t, da0_t));
  }
  {
    double a0_t[18], da0_t[18];
    memcpy(a0_t, V + 2, sizeof a0_t);
    memset(da0_t, 0, sizeof da0_t);
    da0_t[10] = 1.0;
    printf("FWD 12 %.17g\n", __enzyme_fwddiff_typed((void *)&f, enzyme_dup, X[0], 0.0, 2, 5, enzyme_const, X[1], enzyme_dup, a0_t, da0_t));
  }
  {
    double a0_t[18], da0_t[18];
    memcpy(a0_t, V + 2, sizeof a0_t);
    memset(da0_t, 0, sizeof da0_t);
    da0_t[11] = 1.0;
    printf("FWD 13 %.17g\n", __enzyme_fwddiff_typed((void *)&f, enzyme_dup, X[0], 0.0, 2, 5, enzyme_const, X[1], enzyme_dup, a0_t, da0_t));
  }
  {
    double a0_t[18], da0_t[18];
    memcpy(a0_t, V + 2, sizeof a0_t);
    memset(da0_t, 0, sizeof da0_t);
    da0_t[12] = 1.0;
    printf("FWD 14 %.17g\n", __enzyme_fwddiff_typed((void *)&f, enzyme_dup, X[0], 0.0, 2, 5, enzyme_const, X[1], enzyme_dup, a0_t, da0_t));
  }
  {
    double a0_t[18], da0_t[18];
    memcpy(a0_t, V + 2, sizeof a0_t);
    memset(da0_t, 0, sizeof da0_t);
    da0_t[13] = 1.0;
    printf("FWD 15 %.17g\n", __enzyme_fwddiff_typed((void *)&f, enzyme_dup, X[0], 0.0, 2, 5, enzyme_const, X[1], enzyme_dup, a0_t, da0_t));
  }
  {
    double a0_t[18], da0_t[18];
    memcpy(a0_t, V + 2, sizeof a0_t);
    memset(da0_t, 0, sizeof da0_t);
    da0_t[14] = 1.0;
    printf("FWD 16 %.17g\n", __enzyme_fwddiff_typed((void *)&f, enzyme_dup, X[0], 0.0, 2, 5, enzyme_const, X[1], enzyme_dup, a0_t, da0_t));
  }
  {
    double a0_t[18], da0_t[18];
    memcpy(a0_t, V + 2, sizeof a0_t);
    memset(da0_t, 0, sizeof da0_t);
    da0_t[15] = 1.0;
    printf("FWD 17 %.17g\n", __enzyme_fwddiff_typed((void *)&f, enzyme_dup, X[0], 0.0, 2, 5, enzyme_const, X[1], enzyme_dup, a0_t, da0_t));
  }
  {
    double a0_t[18], da0_t[18];
    memcpy(a0_t, V + 2, sizeof a0_t);
    memset(da0_t, 0, sizeof da0_t);
    da0_t[16] = 1.0;
    printf("FWD 18 %.17g\n", __enzyme_fwddiff_typed((void *)&f, enzyme_dup, X[0], 0.0, 2, 5, enzyme_const, X[1], enzyme_dup, a0_t, da0_t));
  }
  {
    double a0_t[18], da0_t[18];
    memcpy(a0_t, V + 2, sizeof a0_t);
    memset(da0_t, 0, sizeof da0_t);
    da0_t[17] = 1.0;
    printf("FWD 19 %.17g\n", __enzyme_fwddiff_typed((void *)&f, enzyme_dup, X[0], 0.0, 2, 5, enzyme_const, X[1], enzyme_dup, a0_t, da0_t));
  }
  fflush(stdout);
  {
    double a0_s[18], da0_s[18];
    memcpy(a0_s, V + 2, sizeof a0_s);
    memset(da0_s, 0, sizeof da0_s);
    TapAug s = __enzyme_augmentfwd_typed((void *)&f, X[0], enzyme_const, 2, enzyme_const, 5, X[1], enzyme_dup, a0_s, da0_s);
    printf("SPRIMAL %.17g\n", s.p);
    for (int j = 0; j < 18; j++) a0_s[j] = 1e30;
    TapSGrad g = __enzyme_reverse_typed((void *)&f, X[0], enzyme_const, 2, enzyme_const, 5, X[1], enzyme_dup, a0_s, da0_s, 1.0, s.tape);
    printf("SREV 0 %.17g\n", (double)g.g0);
    printf("SREV 1 %.17g\n", (double)g.g1);
    printf("SREV 2 %.17g\n", da0_s[0]);
    printf("SREV 3 %.17g\n", da0_s[1]);
    printf("SREV 4 %.17g\n", da0_s[2]);
    printf("SREV 5 %.17g\n", da0_s[3]);
    printf("SREV 6 %.17g\n", da0_s[4]);
    printf("SREV 7 %.17g\n", da0_s[5]);
    printf("SREV 8 %.17g\n", da0_s[6]);
    printf("SREV 9 %.17g\n", da0_s[7]);
    printf("SREV 10 %.17g\n", da0_s[8]);
    printf("SREV 11 %.17g\n", da0_s[9]);
    printf("SREV 12 %.17g\n", da0_s[10]);
    printf("SREV 13 %.17g\n", da0_s[11]);
    printf("SREV 14 %.17g\n", da0_s[12]);
    printf("SREV 15 %.17g\n", da0_s[13]);
    printf("SREV 16 %.17g\n", da0_s[14]);
    printf("SREV 17 %.17g\n", da0_s[15]);
    printf("SREV 18 %.17g\n", da0_s[16]);
    printf("SREV 19 %.17g\n", da0_s[17]);
  }
  fflush(stdout);
  {
    double a0_b[18], da0_b[18];
    memcpy(a0_b, V + 2, sizeof a0_b);
    memset(da0_b, 0, sizeof da0_b);
    int sz = __enzyme_augmentsize((void *)&f, enzyme_out, enzyme_const, enzyme_const, enzyme_out, enzyme_dup);
    unsigned char *raw = malloc(8 + sz + 64);
    memset(raw, 0xA5, 8 + sz + 64);
    void *buf = raw + 8;
    double p = __enzyme_augmentfwd_alloc_typed((void *)&f, enzyme_allocated, sz, enzyme_tape, buf, X[0], enzyme_const, 2, enzyme_const, 5, X[1], enzyme_dup, a0_b, da0_b);
    printf("APRIMAL %.17g\n", p);
    double da0_b_0[18];
    memcpy(da0_b_0, da0_b, sizeof da0_b_0);
    for (int j = 0; j < 18; j++) a0_b[j] = 1e30;
    const TapThunk *tb = __tapestry_thunk((void *)&f, enzyme_out, enzyme_const, enzyme_const, enzyme_out, enzyme_dup);
    if (tb->reusable) {
      TapSGrad g = __enzyme_reverse_alloc_nofree_typed((void *)&f, enzyme_nofree, enzyme_allocated, sz, enzyme_tape, buf, X[0], enzyme_const, 2, enzyme_const, 5, X[1], enzyme_dup, a0_b, da0_b, 1.0);
      printf("AREV 0 %.17g\n", (double)g.g0);
      printf("AREV 1 %.17g\n", (double)g.g1);
      printf("AREV 2 %.17g\n", da0_b[0]);
      printf("AREV 3 %.17g\n", da0_b[1]);
      printf("AREV 4 %.17g\n", da0_b[2]);
      printf("AREV 5 %.17g\n", da0_b[3]);
      printf("AREV 6 %.17g\n", da0_b[4]);
      printf("AREV 7 %.17g\n", da0_b[5]);
      printf("AREV 8 %.17g\n", da0_b[6]);
      printf("AREV 9 %.17g\n", da0_b[7]);
      printf("AREV 10 %.17g\n", da0_b[8]);
      printf("AREV 11 %.17g\n", da0_b[9]);
      printf("AREV 12 %.17g\n", da0_b[10]);
      printf("AREV 13 %.17g\n", da0_b[11]);
      printf("AREV 14 %.17g\n", da0_b[12]);
      printf("AREV 15 %.17g\n", da0_b[13]);
      printf("AREV 16 %.17g\n", da0_b[14]);
      printf("AREV 17 %.17g\n", da0_b[15]);
      printf("AREV 18 %.17g\n", da0_b[16]);
      printf("AREV 19 %.17g\n", da0_b[17]);
      {
      fflush(stdout);
        memcpy(da0_b, da0_b_0, sizeof da0_b_0);
        TapSGrad gr = __enzyme_reverse_alloc_nofree_typed((void *)&f, enzyme_nofree, enzyme_allocated, sz, enzyme_tape, buf, X[0], enzyme_const, 2, enzyme_const, 5, X[1], enzyme_dup, a0_b, da0_b, 4.0);
        printf("AREP 2 0 %.17g\n", (double)gr.g0);
        printf("AREP 2 1 %.17g\n", (double)gr.g1);
        printf("AREP 2 2 %.17g\n", da0_b[0]);
        printf("AREP 2 3 %.17g\n", da0_b[1]);
        printf("AREP 2 4 %.17g\n", da0_b[2]);
        printf("AREP 2 5 %.17g\n", da0_b[3]);
        printf("AREP 2 6 %.17g\n", da0_b[4]);
        printf("AREP 2 7 %.17g\n", da0_b[5]);
        printf("AREP 2 8 %.17g\n", da0_b[6]);
        printf("AREP 2 9 %.17g\n", da0_b[7]);
        printf("AREP 2 10 %.17g\n", da0_b[8]);
        printf("AREP 2 11 %.17g\n", da0_b[9]);
        printf("AREP 2 12 %.17g\n", da0_b[10]);
        printf("AREP 2 13 %.17g\n", da0_b[11]);
        printf("AREP 2 14 %.17g\n", da0_b[12]);
        printf("AREP 2 15 %.17g\n", da0_b[13]);
        printf("AREP 2 16 %.17g\n", da0_b[14]);
        printf("AREP 2 17 %.17g\n", da0_b[15]);
        printf("AREP 2 18 %.17g\n", da0_b[16]);
        printf("AREP 2 19 %.17g\n", da0_b[17]);
      }
      {
      fflush(stdout);
        memcpy(da0_b, da0_b_0, sizeof da0_b_0);
        TapSGrad gr = __enzyme_reverse_alloc_nofree_typed((void *)&f, enzyme_nofree, enzyme_allocated, sz, enzyme_tape, buf, X[0], enzyme_const, 2, enzyme_const, 5, X[1], enzyme_dup, a0_b, da0_b, -0.25);
        printf("AREP 3 0 %.17g\n", (double)gr.g0);
        printf("AREP 3 1 %.17g\n", (double)gr.g1);
        printf("AREP 3 2 %.17g\n", da0_b[0]);
        printf("AREP 3 3 %.17g\n", da0_b[1]);
        printf("AREP 3 4 %.17g\n", da0_b[2]);
        printf("AREP 3 5 %.17g\n", da0_b[3]);
        printf("AREP 3 6 %.17g\n", da0_b[4]);
        printf("AREP 3 7 %.17g\n", da0_b[5]);
        printf("AREP 3 8 %.17g\n", da0_b[6]);
        printf("AREP 3 9 %.17g\n", da0_b[7]);
        printf("AREP 3 10 %.17g\n", da0_b[8]);
        printf("AREP 3 11 %.17g\n", da0_b[9]);
        printf("AREP 3 12 %.17g\n", da0_b[10]);
        printf("AREP 3 13 %.17g\n", da0_b[11]);
        printf("AREP 3 14 %.17g\n", da0_b[12]);
        printf("AREP 3 15 %.17g\n", da0_b[13]);
        printf("AREP 3 16 %.17g\n", da0_b[14]);
        printf("AREP 3 17 %.17g\n", da0_b[15]);
        printf("AREP 3 18 %.17g\n", da0_b[16]);
        printf("AREP 3 19 %.17g\n", da0_b[17]);
      }
      {
      fflush(stdout);
        memcpy(da0_b, da0_b_0, sizeof da0_b_0);
        TapSGrad gr = __enzyme_reverse_alloc_typed((void *)&f, enzyme_allocated, sz, enzyme_tape, buf, X[0], enzyme_const, 2, enzyme_const, 5, X[1], enzyme_dup, a0_b, da0_b, -0.5);
        printf("AREP 4 0 %.17g\n", (double)gr.g0);
        printf("AREP 4 1 %.17g\n", (double)gr.g1);
        printf("AREP 4 2 %.17g\n", da0_b[0]);
        printf("AREP 4 3 %.17g\n", da0_b[1]);
        printf("AREP 4 4 %.17g\n", da0_b[2]);
        printf("AREP 4 5 %.17g\n", da0_b[3]);
        printf("AREP 4 6 %.17g\n", da0_b[4]);
        printf("AREP 4 7 %.17g\n", da0_b[5]);
        printf("AREP 4 8 %.17g\n", da0_b[6]);
        printf("AREP 4 9 %.17g\n", da0_b[7]);
        printf("AREP 4 10 %.17g\n", da0_b[8]);
        printf("AREP 4 11 %.17g\n", da0_b[9]);
        printf("AREP 4 12 %.17g\n", da0_b[10]);
        printf("AREP 4 13 %.17g\n", da0_b[11]);
        printf("AREP 4 14 %.17g\n", da0_b[12]);
        printf("AREP 4 15 %.17g\n", da0_b[13]);
        printf("AREP 4 16 %.17g\n", da0_b[14]);
        printf("AREP 4 17 %.17g\n", da0_b[15]);
        printf("AREP 4 18 %.17g\n", da0_b[16]);
        printf("AREP 4 19 %.17g\n", da0_b[17]);
      }
    } else {
      TapSGrad g = __enzyme_reverse_alloc_typed((void *)&f, enzyme_allocated, sz, enzyme_tape, buf, X[0], enzyme_const, 2, enzyme_const, 5, X[1], enzyme_dup, a0_b, da0_b, 1.0);
      printf("AREV 0 %.17g\n", (double)g.g0);
      printf("AREV 1 %.17g\n", (double)g.g1);
      printf("AREV 2 %.17g\n", da0_b[0]);
      printf("AREV 3 %.17g\n", da0_b[1]);
      printf("AREV 4 %.17g\n", da0_b[2]);
      printf("AREV 5 %.17g\n", da0_b[3]);
      printf("AREV 6 %.17g\n", da0_b[4]);
      printf("AREV 7 %.17g\n", da0_b[5]);
      printf("AREV 8 %.17g\n", da0_b[6]);
      printf("AREV 9 %.17g\n", da0_b[7]);
      printf("AREV 10 %.17g\n", da0_b[8]);
      printf("AREV 11 %.17g\n", da0_b[9]);
      printf("AREV 12 %.17g\n", da0_b[10]);
      printf("AREV 13 %.17g\n", da0_b[11]);
      printf("AREV 14 %.17g\n", da0_b[12]);
      printf("AREV 15 %.17g\n", da0_b[13]);
      printf("AREV 16 %.17g\n", da0_b[14]);
      printf("AREV 17 %.17g\n", da0_b[15]);
      printf("AREV 18 %.17g\n", da0_b[16]);
      printf("AREV 19 %.17g\n", da0_b[17]);
    }
    int ok = 1;
    for (int j = 0; j < 8; j++) ok &= raw[j] == 0xA5;
    for (int j = 0; j < 64; j++) ok &= raw[8 + sz + j] == 0xA5;
    printf("CANARY %d\nAUGSIZE %d\n", ok, sz);
    free(raw);
  }
  fflush(stdout);
  {
    const TapThunk *t = __tapestry_thunk((void *)&f, enzyme_out, enzyme_const, enzyme_const, enzyme_out, enzyme_dup);
    printf("REUSABLE %d\nTAPEBYTES %llu\n", t->reusable, t->tape_bytes);
    fflush(stdout);
    double a0_u[18], da0_u[18];
    memcpy(a0_u, V + 2, sizeof a0_u);
    memset(da0_u, 0, sizeof da0_u);
    void *tape = calloc(1, t->tape_bytes ? t->tape_bytes : 1);
    double p = ((TapAugFn)t->augmented)(X[0], 2, 5, X[1], a0_u, da0_u, tape);
    printf("XPRIMAL %.17g\n", p);
    fflush(stdout);
    double da0_u_0[18];
    memcpy(da0_u_0, da0_u, sizeof da0_u_0);
    for (int j = 0; j < 18; j++) a0_u[j] = 1e30;
    TapSGrad g;
    ((TapRevFn)t->reverse)(X[0], 2, 5, X[1], a0_u, da0_u, 1.0, tape, &g);
    printf("XREV1 0 %.17g\n", (double)g.g0);
    printf("XREV1 1 %.17g\n", (double)g.g1);
    printf("XREV1 2 %.17g\n", da0_u[0]);
    printf("XREV1 3 %.17g\n", da0_u[1]);
    printf("XREV1 4 %.17g\n", da0_u[2]);
    printf("XREV1 5 %.17g\n", da0_u[3]);
    printf("XREV1 6 %.17g\n", da0_u[4]);
    printf("XREV1 7 %.17g\n", da0_u[5]);
    printf("XREV1 8 %.17g\n", da0_u[6]);
    printf("XREV1 9 %.17g\n", da0_u[7]);
    printf("XREV1 10 %.17g\n", da0_u[8]);
    printf("XREV1 11 %.17g\n", da0_u[9]);
    printf("XREV1 12 %.17g\n", da0_u[10]);
    printf("XREV1 13 %.17g\n", da0_u[11]);
    printf("XREV1 14 %.17g\n", da0_u[12]);
    printf("XREV1 15 %.17g\n", da0_u[13]);
    printf("XREV1 16 %.17g\n", da0_u[14]);
    printf("XREV1 17 %.17g\n", da0_u[15]);
    printf("XREV1 18 %.17g\n", da0_u[16]);
    printf("XREV1 19 %.17g\n", da0_u[17]);
    if (t->reusable) {
      {
      fflush(stdout);
      memcpy(da0_u, da0_u_0, sizeof da0_u_0);
        TapSGrad g2;
        ((TapRevFn)t->reverse)(X[0], 2, 5, X[1], a0_u, da0_u, 4.0, tape, &g2);
        printf("XREP 2 0 %.17g\n", (double)g2.g0);
        printf("XREP 2 1 %.17g\n", (double)g2.g1);
        printf("XREP 2 2 %.17g\n", da0_u[0]);
        printf("XREP 2 3 %.17g\n", da0_u[1]);
        printf("XREP 2 4 %.17g\n", da0_u[2]);
        printf("XREP 2 5 %.17g\n", da0_u[3]);
        printf("XREP 2 6 %.17g\n", da0_u[4]);
        printf("XREP 2 7 %.17g\n", da0_u[5]);
        printf("XREP 2 8 %.17g\n", da0_u[6]);
        printf("XREP 2 9 %.17g\n", da0_u[7]);
        printf("XREP 2 10 %.17g\n", da0_u[8]);
        printf("XREP 2 11 %.17g\n", da0_u[9]);
        printf("XREP 2 12 %.17g\n", da0_u[10]);
        printf("XREP 2 13 %.17g\n", da0_u[11]);
        printf("XREP 2 14 %.17g\n", da0_u[12]);
        printf("XREP 2 15 %.17g\n", da0_u[13]);
        printf("XREP 2 16 %.17g\n", da0_u[14]);
        printf("XREP 2 17 %.17g\n", da0_u[15]);
        printf("XREP 2 18 %.17g\n", da0_u[16]);
        printf("XREP 2 19 %.17g\n", da0_u[17]);
      }
      {
      fflush(stdout);
      memcpy(da0_u, da0_u_0, sizeof da0_u_0);
        TapSGrad g2;
        ((TapRevFn)t->reverse)(X[0], 2, 5, X[1], a0_u, da0_u, -0.25, tape, &g2);
        printf("XREP 3 0 %.17g\n", (double)g2.g0);
        printf("XREP 3 1 %.17g\n", (double)g2.g1);
        printf("XREP 3 2 %.17g\n", da0_u[0]);
        printf("XREP 3 3 %.17g\n", da0_u[1]);
        printf("XREP 3 4 %.17g\n", da0_u[2]);
        printf("XREP 3 5 %.17g\n", da0_u[3]);
        printf("XREP 3 6 %.17g\n", da0_u[4]);
        printf("XREP 3 7 %.17g\n", da0_u[5]);
        printf("XREP 3 8 %.17g\n", da0_u[6]);
        printf("XREP 3 9 %.17g\n", da0_u[7]);
        printf("XREP 3 10 %.17g\n", da0_u[8]);
        printf("XREP 3 11 %.17g\n", da0_u[9]);
        printf("XREP 3 12 %.17g\n", da0_u[10]);
        printf("XREP 3 13 %.17g\n", da0_u[11]);
        printf("XREP 3 14 %.17g\n", da0_u[12]);
        printf("XREP 3 15 %.17g\n", da0_u[13]);
        printf("XREP 3 16 %.17g\n", da0_u[14]);
        printf("XREP 3 17 %.17g\n", da0_u[15]);
        printf("XREP 3 18 %.17g\n", da0_u[16]);
        printf("XREP 3 19 %.17g\n", da0_u[17]);
      }
      {
      fflush(stdout);
      memcpy(da0_u, da0_u_0, sizeof da0_u_0);
        TapSGrad g2;
        ((TapRevFn)t->reverse)(X[0], 2, 5, X[1], a0_u, da0_u, -0.5, tape, &g2);
        printf("XREP 4 0 %.17g\n", (double)g2.g0);
        printf("XREP 4 1 %.17g\n", (double)g2.g1);
        printf("XREP 4 2 %.17g\n", da0_u[0]);
        printf("XREP 4 3 %.17g\n", da0_u[1]);
        printf("XREP 4 4 %.17g\n", da0_u[2]);
        printf("XREP 4 5 %.17g\n", da0_u[3]);
        printf("XREP 4 6 %.17g\n", da0_u[4]);
        printf("XREP 4 7 %.17g\n", da0_u[5]);
        printf("XREP 4 8 %.17g\n", da0_u[6]);
        printf("XREP 4 9 %.17g\n", da0_u[7]);
        printf("XREP 4 10 %.17g\n", da0_u[8]);
        printf("XREP 4 11 %.17g\n", da0_u[9]);
        printf("XREP 4 12 %.17g\n", da0_u[10]);
        printf("XREP 4 13 %.17g\n", da0_u[11]);
        printf("XREP 4 14 %.17g\n", da0_u[12]);
        printf("XREP 4 15 %.17g\n", da0_u[13]);
        printf("XREP 4 16 %.17g\n", da0_u[14]);
        printf("XREP 4 17 %.17g\n", da0_u[15]);
        printf("XREP 4 18 %.17g\n", da0_u[16]);
        printf("XREP 4 19 %.17g\n", da0_u[17]);
      }
    }
    ((void (*)(void *))t->release)(tape);
    free(tape);
  }
  fflush(stdout);
  {
    double a0_w[18], da0_w[18];
    memcpy(a0_w, V + 2, sizeof a0_w);
    memset(da0_w, 0, sizeof da0_w);
    double a0_v[18], da0_v[18];
    memcpy(a0_v, V + 2, sizeof a0_v);
    memset(da0_v, 0, sizeof da0_v);
    for (int j = 0; j < 18; j++) a0_v[j] = -a0_v[j];
    double a0_m[18], da0_m[18];
    memcpy(a0_m, V + 2, sizeof a0_m);
    memset(da0_m, 0, sizeof da0_m);
    for (int j = 0; j < 18; j++) a0_m[j] = -a0_m[j];
    double a0_n[18], da0_n[18];
    memcpy(a0_n, V + 2, sizeof a0_n);
    memset(da0_n, 0, sizeof da0_n);
    for (int j = 0; j < 18; j++) a0_n[j] = -a0_n[j];
    printf("MPRIMAL %.17g\n", f((-(X[0])), 2, 5, (-(X[1])), a0_m));
    TapSGrad gm = __enzyme_autodiff_split_typed((void *)&f, (-(X[0])), enzyme_const, 2, enzyme_const, 5, (-(X[1])), enzyme_dup, a0_n, da0_n);
    printf("MREV 0 %.17g\n", (double)gm.g0);
    printf("MREV 1 %.17g\n", (double)gm.g1);
    printf("MREV 2 %.17g\n", da0_n[0]);
    printf("MREV 3 %.17g\n", da0_n[1]);
    printf("MREV 4 %.17g\n", da0_n[2]);
    printf("MREV 5 %.17g\n", da0_n[3]);
    printf("MREV 6 %.17g\n", da0_n[4]);
    printf("MREV 7 %.17g\n", da0_n[5]);
    printf("MREV 8 %.17g\n", da0_n[6]);
    printf("MREV 9 %.17g\n", da0_n[7]);
    printf("MREV 10 %.17g\n", da0_n[8]);
    printf("MREV 11 %.17g\n", da0_n[9]);
    printf("MREV 12 %.17g\n", da0_n[10]);
    printf("MREV 13 %.17g\n", da0_n[11]);
    printf("MREV 14 %.17g\n", da0_n[12]);
    printf("MREV 15 %.17g\n", da0_n[13]);
    printf("MREV 16 %.17g\n", da0_n[14]);
    printf("MREV 17 %.17g\n", da0_n[15]);
    printf("MREV 18 %.17g\n", da0_n[16]);
    printf("MREV 19 %.17g\n", da0_n[17]);
    fflush(stdout);
    TapAug a = __enzyme_augmentfwd_typed((void *)&f, X[0], enzyme_const, 2, enzyme_const, 5, X[1], enzyme_dup, a0_w, da0_w);
    TapAug b = __enzyme_augmentfwd_typed((void *)&f, (-(X[0])), enzyme_const, 2, enzyme_const, 5, (-(X[1])), enzyme_dup, a0_v, da0_v);
    printf("WPRIMAL %.17g\nVPRIMAL %.17g\n", a.p, b.p);
    fflush(stdout);
    for (int j = 0; j < 18; j++) a0_w[j] = 1e30;
    for (int j = 0; j < 18; j++) a0_v[j] = 1e30;
    TapSGrad gb = __enzyme_reverse_typed((void *)&f, (-(X[0])), enzyme_const, 2, enzyme_const, 5, (-(X[1])), enzyme_dup, a0_v, da0_v, 1.0, b.tape);
    TapSGrad ga = __enzyme_reverse_typed((void *)&f, X[0], enzyme_const, 2, enzyme_const, 5, X[1], enzyme_dup, a0_w, da0_w, 1.0, a.tape);
    printf("WREV 0 %.17g\n", (double)ga.g0);
    printf("WREV 1 %.17g\n", (double)ga.g1);
    printf("WREV 2 %.17g\n", da0_w[0]);
    printf("WREV 3 %.17g\n", da0_w[1]);
    printf("WREV 4 %.17g\n", da0_w[2]);
    printf("WREV 5 %.17g\n", da0_w[3]);
    printf("WREV 6 %.17g\n", da0_w[4]);
    printf("WREV 7 %.17g\n", da0_w[5]);
    printf("WREV 8 %.17g\n", da0_w[6]);
    printf("WREV 9 %.17g\n", da0_w[7]);
    printf("WREV 10 %.17g\n", da0_w[8]);
    printf("WREV 11 %.17g\n", da0_w[9]);
    printf("WREV 12 %.17g\n", da0_w[10]);
    printf("WREV 13 %.17g\n", da0_w[11]);
    printf("WREV 14 %.17g\n", da0_w[12]);
    printf("WREV 15 %.17g\n", da0_w[13]);
    printf("WREV 16 %.17g\n", da0_w[14]);
    printf("WREV 17 %.17g\n", da0_w[15]);
    printf("WREV 18 %.17g\n", da0_w[16]);
    printf("WREV 19 %.17g\n", da0_w[17]);
    printf("VREV 0 %.17g\n", (double)gb.g0);
    printf("VREV 1 %.17g\n", (double)gb.g1);
    printf("VREV 2 %.17g\n", da0_v[0]);
    printf("VREV 3 %.17g\n", da0_v[1]);
    printf("VREV 4 %.17g\n", da0_v[2]);
    printf("VREV 5 %.17g\n", da0_v[3]);
    printf("VREV 6 %.17g\n", da0_v[4]);
    printf("VREV 7 %.17g\n", da0_v[5]);
    printf("VREV 8 %.17g\n", da0_v[6]);
    printf("VREV 9 %.17g\n", da0_v[7]);
    printf("VREV 10 %.17g\n", da0_v[8]);
    printf("VREV 11 %.17g\n", da0_v[9]);
    printf("VREV 12 %.17g\n", da0_v[10]);
    printf("VREV 13 %.17g\n", da0_v[11]);
    printf("VREV 14 %.17g\n", da0_v[12]);
    printf("VREV 15 %.17g\n", da0_v[13]);
    printf("VREV 16 %.17g\n", da0_v[14]);
    printf("VREV 17 %.17g\n", da0_v[15]);
    printf("VREV 18 %.17g\n", da0_v[16]);
    printf("VREV 19 %.17g\n", da0_v[17]);
  }
  fflush(stdout);
  {
    double a0_b[18], da0_b[18];
    memcpy(a0_b, V + 2, sizeof a0_b);
    memset(da0_b, 0, sizeof da0_b);
    double da0_bl[8][18];
    memset(da0_bl, 0, sizeof da0_bl);
    da0_bl[1][0] = 1.0;
    da0_bl[2][1] = 1.0;
    da0_bl[3][2] = 1.0;
    da0_bl[4][3] = 1.0;
    da0_bl[5][4] = 1.0;
    da0_bl[6][5] = 1.0;
    da0_bl[7][6] = 1.0;
    TapBF r = __enzyme_fwddiff_batch_typed((void *)&f, enzyme_width, 8, enzyme_dup, X[0], 1.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 2, 5, enzyme_const, X[1], enzyme_dup, a0_b, da0_bl[0], da0_bl[1], da0_bl[2], da0_bl[3], da0_bl[4], da0_bl[5], da0_bl[6], da0_bl[7]);
    printf("BFWD 0 %.17g\n", r.t[0]);
    printf("BFWD 2 %.17g\n", r.t[1]);
    printf("BFWD 3 %.17g\n", r.t[2]);
    printf("BFWD 4 %.17g\n", r.t[3]);
    printf("BFWD 5 %.17g\n", r.t[4]);
    printf("BFWD 6 %.17g\n", r.t[5]);
    printf("BFWD 7 %.17g\n", r.t[6]);
    printf("BFWD 8 %.17g\n", r.t[7]);
  }
  {
    double a0_c[18], da0_c[18];
    memcpy(a0_c, V + 2, sizeof a0_c);
    memset(da0_c, 0, sizeof da0_c);
    double ea0_c[18];
    memset(ea0_c, 0, sizeof ea0_c);
    TapBR r = __enzyme_autodiff_batch_typed((void *)&f, enzyme_width, 2, enzyme_primal_return, X[0], enzyme_const, 2, enzyme_const, 5, X[1], enzyme_dup, a0_c, da0_c, ea0_c);
    printf("BREVPRIMAL %.17g\n", r.p);
    printf("BREV 0 %.17g\nBREV1 0 %.17g\n", (double)r.g0[0], (double)r.g0[1]);
    printf("BREV 1 %.17g\nBREV1 1 %.17g\n", (double)r.g1[0], (double)r.g1[1]);
    printf("BREV 2 %.17g\nBREV1 2 %.17g\n", da0_c[0], ea0_c[0]);
    printf("BREV 3 %.17g\nBREV1 3 %.17g\n", da0_c[1], ea0_c[1]);
    printf("BREV 4 %.17g\nBREV1 4 %.17g\n", da0_c[2], ea0_c[2]);
    printf("BREV 5 %.17g\nBREV1 5 %.17g\n", da0_c[3], ea0_c[3]);
    printf("BREV 6 %.17g\nBREV1 6 %.17g\n", da0_c[4], ea0_c[4]);
    printf("BREV 7 %.17g\nBREV1 7 %.17g\n", da0_c[5], ea0_c[5]);
    printf("BREV 8 %.17g\nBREV1 8 %.17g\n", da0_c[6], ea0_c[6]);
    printf("BREV 9 %.17g\nBREV1 9 %.17g\n", da0_c[7], ea0_c[7]);
    printf("BREV 10 %.17g\nBREV1 10 %.17g\n", da0_c[8], ea0_c[8]);
    printf("BREV 11 %.17g\nBREV1 11 %.17g\n", da0_c[9], ea0_c[9]);
    printf("BREV 12 %.17g\nBREV1 12 %.17g\n", da0_c[10], ea0_c[10]);
    printf("BREV 13 %.17g\nBREV1 13 %.17g\n", da0_c[11], ea0_c[11]);
    printf("BREV 14 %.17g\nBREV1 14 %.17g\n", da0_c[12], ea0_c[12]);
    printf("BREV 15 %.17g\nBREV1 15 %.17g\n", da0_c[13], ea0_c[13]);
    printf("BREV 16 %.17g\nBREV1 16 %.17g\n", da0_c[14], ea0_c[14]);
    printf("BREV 17 %.17g\nBREV1 17 %.17g\n", da0_c[15], ea0_c[15]);
    printf("BREV 18 %.17g\nBREV1 18 %.17g\n", da0_c[16], ea0_c[16]);
    printf("BREV 19 %.17g\nBREV1 19 %.17g\n", da0_c[17], ea0_c[17]);
  }
#endif
  tap_checks(V);
  printf("DONE\n");
  return 0;
}
