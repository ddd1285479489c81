// A quantitative-finance user's program: the Black-Scholes price of a
// European call and put, with the normal CDF written through erfc
// (N(x) = erfc(-x/sqrt 2)/2), and its greeks by reverse mode (enzyme_out
// on spot, volatility, rate and maturity at once) and by forward mode (one
// direction per call). Analytic greeks, with d1 = (ln(S/K) + (r +
// s^2/2) T)/(s sqrt T), d2 = d1 - s sqrt T, n = standard normal density:
// call: delta = N(d1), vega = S n(d1) sqrt T, rho = K T e^{-rT} N(d2),
// dC/dT = S n(d1) s/(2 sqrt T) + r K e^{-rT} N(d2);
// put: delta = N(d1) - 1, vega same, rho = -K T e^{-rT} N(-d2),
// dP/dT = S n(d1) s/(2 sqrt T) - r K e^{-rT} N(-d2).
// RUN: %clang -O0 %s -lm -o %t0 && %t0 | FileCheck %s
// RUN: %clang -O1 %s -lm -o %t1 && %t1 | FileCheck %s
// RUN: %clang -O2 %s -lm -o %t2 && %t2 | FileCheck %s
// RUN: %clang -O3 %s -lm -o %t3 && %t3 | FileCheck %s
// RUN: %clang -O3 -march=native -ffast-math %s -lm -o %tf && %tf | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: ALL PASSED
#include "Inputs/check.h"

typedef struct {
  double dS, dsigma, dr, dT;
} greeks;
extern int enzyme_out, enzyme_const, enzyme_dup;
extern greeks __enzyme_autodiff(void *, ...);
extern double __enzyme_fwddiff(void *, ...);

static double norm_cdf(double x) { return 0.5 * erfc(-x / sqrt(2.0)); }

/* is_call selects the payoff; K is the strike (constant). */
double bs_price(double S, double sigma, double r, double T, double K,
                int is_call) {
  double sqT = sqrt(T);
  double d1 = (log(S / K) + (r + 0.5 * sigma * sigma) * T) / (sigma * sqT);
  double d2 = d1 - sigma * sqT;
  double disc = exp(-r * T);
  if (is_call)
    return S * norm_cdf(d1) - K * disc * norm_cdf(d2);
  return K * disc * norm_cdf(-d2) - S * norm_cdf(-d1);
}

static double npdf(double x) { return exp(-0.5 * x * x) / sqrt(2 * M_PI); }

static void analytic(double S, double s, double r, double T, double K,
                     int call, greeks *g) {
  double sqT = sqrt(T);
  double d1 = (log(S / K) + (r + 0.5 * s * s) * T) / (s * sqT);
  double d2 = d1 - s * sqT;
  double disc = exp(-r * T);
  double Nd1 = 0.5 * erfc(-d1 / sqrt(2.0)), Nd2 = 0.5 * erfc(-d2 / sqrt(2.0));
  g->dsigma = S * npdf(d1) * sqT;
  if (call) {
    g->dS = Nd1;
    g->dr = K * T * disc * Nd2;
    g->dT = S * npdf(d1) * s / (2 * sqT) + r * K * disc * Nd2;
  } else {
    g->dS = Nd1 - 1;
    g->dr = -K * T * disc * (1 - Nd2);
    g->dT = S * npdf(d1) * s / (2 * sqT) - r * K * disc * (1 - Nd2);
  }
}

int main(void) {
  const double K = 100.0;
  const double cases[3][4] = {
      {105.0, 0.22, 0.03, 0.75}, /* in the money */
      {80.0, 0.35, 0.01, 2.0},   /* far out of the money */
      {100.0, 0.15, 0.05, 0.1},  /* at the money, short */
  };
  for (int c = 0; c < 3; ++c) {
    double S = cases[c][0], s = cases[c][1], r = cases[c][2], T = cases[c][3];
    for (int call = 0; call <= 1; ++call) {
      greeks want;
      analytic(S, s, r, T, K, call, &want);
      greeks g = __enzyme_autodiff((void *)bs_price, enzyme_out, S,
                                   enzyme_out, s, enzyme_out, r, enzyme_out,
                                   T, enzyme_const, K, enzyme_const, call);
      const char *name = call ? "call" : "put";
      printf("case %d %s\n", c, name);
      check_close("rev delta", g.dS, want.dS, 1e-11);
      check_close("rev vega", g.dsigma, want.dsigma, 1e-11);
      check_close("rev rho", g.dr, want.dr, 1e-11);
      check_close("rev dT", g.dT, want.dT, 1e-11);
      double fd = __enzyme_fwddiff((void *)bs_price, S, 1.0, s, 0.0, r, 0.0,
                                   T, 0.0, enzyme_const, K, enzyme_const,
                                   call);
      double fv = __enzyme_fwddiff((void *)bs_price, S, 0.0, s, 1.0, r, 0.0,
                                   T, 0.0, enzyme_const, K, enzyme_const,
                                   call);
      double fr = __enzyme_fwddiff((void *)bs_price, S, 0.0, s, 0.0, r, 1.0,
                                   T, 0.0, enzyme_const, K, enzyme_const,
                                   call);
      double fT = __enzyme_fwddiff((void *)bs_price, S, 0.0, s, 0.0, r, 0.0,
                                   T, 1.0, enzyme_const, K, enzyme_const,
                                   call);
      check_close("fwd delta", fd, want.dS, 1e-11);
      check_close("fwd vega", fv, want.dsigma, 1e-11);
      check_close("fwd rho", fr, want.dr, 1e-11);
      check_close("fwd dT", fT, want.dT, 1e-11);
      /* A mixed direction: dPrice along (1, 10, -5, 0.5). */
      double mix = __enzyme_fwddiff((void *)bs_price, S, 1.0, s, 10.0, r,
                                    -5.0, T, 0.5, enzyme_const, K,
                                    enzyme_const, call);
      check_close("fwd mixed", mix,
                  want.dS + 10 * want.dsigma - 5 * want.dr + 0.5 * want.dT,
                  1e-11);
    }
  }
  return check_report();
}
