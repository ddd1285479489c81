/* An independent reference for truncation to emulated formats: exact
 * rounding of a long double to the IEEE-like format with E exponent and M
 * mantissa bits (bias 2^(E-1)-1, subnormals, round to nearest even,
 * overflow to infinity), written with frexpl, ldexpl and nearbyintl.
 *
 * Exact operation results: products of two formats of at most 31 bits of
 * precision are exact in long double (64 bits); sums and fused
 * multiply-adds are made exact with a TwoSum in long double (s + e); a
 * quotient or square root rounded to 64 bits and then to at most 31 bits
 * is rounded correctly (64 >= 2 * 31 + 2). */
#ifndef EMULATED_REFERENCE_H
#define EMULATED_REFERENCE_H

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

static long double ref_max(int E, int M) {
  return ldexpl(2.0L - ldexpl(1.0L, -M), (1 << (E - 1)) - 1);
}

/* The exponent of the format's quantum at x. */
static int ref_quantum(long double x, int E, int M) {
  int emin = 2 - (1 << (E - 1)), e;
  frexpl(x, &e);
  e -= 1; /* x = 1.f * 2^e */
  return (e < emin ? emin : e) - M;
}

static long double ref_overflow(long double r, long double x, int E, int M) {
  return fabsl(r) > ref_max(E, M) ? copysignl(INFINITY, x) : r;
}

static long double ref_round(long double x, int E, int M) {
  if (x == 0 || isnan(x) || isinf(x))
    return x;
  int qe = ref_quantum(x, E, M);
  long double r = ldexpl(nearbyintl(ldexpl(x, -qe)), qe);
  return ref_overflow(copysignl(r, x), x, E, M);
}

/* The rounding of s + e, where s is the nearest long double to s + e. */
static long double ref_round2(long double s, long double e, int E, int M) {
  if (e == 0 || isnan(s) || isinf(s) || s == 0)
    return ref_round(s, E, M);
  int qe = ref_quantum(s, E, M);
  long double t = ldexpl(s, -qe);
  if (fabsl(t - truncl(t)) != 0.5L)
    return ref_round(s, E, M); /* e cannot move s across a midpoint */
  long double r = ldexpl(e > 0 ? ceill(t) : floorl(t), qe);
  return ref_overflow(copysignl(r, s), s, E, M);
}

static long double ref_add(long double a, long double b, int E, int M) {
  long double s = a + b, bb = s - a;
  long double e = (a - (s - bb)) + (b - bb);
  return ref_round2(s, e, E, M);
}

/* Same number (NaNs equal each other, zeros compared with their sign). */
static int same(double got, long double want) {
  if (isnan(got) || isnan(want))
    return isnan(got) && isnan(want);
  return (long double)got == want && !signbit(got) == !signbit(want);
}

static int ref_failures = 0;
static void ref_check(const char *fmt, const char *op, double got,
                      long double want, double a, double b) {
  if (same(got, want))
    return;
  if (++ref_failures <= 20)
    printf("FAIL %s %s(%a, %a): got %a want %La\n", fmt, op, a, b, got,
           want);
}

/* Random doubles whose exponents span the format's subnormals to beyond
 * its overflow, with zeros, infinities and NaNs now and then. */
static uint64_t ref_state = 0x9E3779B97F4A7C15u;
static uint64_t ref_next(void) {
  ref_state ^= ref_state << 13;
  ref_state ^= ref_state >> 7;
  ref_state ^= ref_state << 17;
  return ref_state;
}
static double ref_random(int E, int M) {
  uint64_t r = ref_next();
  int emin = 2 - (1 << (E - 1)), emax = (1 << (E - 1)) - 1;
  switch (r % 64) {
  case 0:
    return (r >> 8) & 1 ? 0.0 : -0.0;
  case 1:
    return (r >> 8) & 1 ? INFINITY : -INFINITY;
  case 2:
    return NAN;
  default:
    break;
  }
  int span = emax + 3 - (emin - M - 3);
  int e = emin - M - 3 + (int)((r >> 8) % (uint64_t)span);
  /* Few significant bits now and then: exact results and ties. */
  uint64_t frac = ref_next() >> 12;
  if ((r >> 20) % 4 == 0)
    frac &= ~(uint64_t)0 << (52 - (M + 2 < 52 ? M + 2 : 52));
  double x = ldexp(1.0 + ldexp((double)frac, -52), e);
  return (r >> 30) & 1 ? -x : x;
}

#endif
