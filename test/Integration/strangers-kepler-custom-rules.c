// An orbital-mechanics user's program: Kepler's equation E - e sin E = M is
// solved by Newton's method (a while loop whose trip count depends on the
// data), and the user registers derivatives for the solver instead of
// differentiating its iterations, from the implicit function theorem:
//   dE/dM = 1 / (1 - e cos E),  dE/de = sin E / (1 - e cos E).
// The reverse rule (__enzyme_register_gradient_) keeps E on a tape it
// allocates in the augmented forward, which returns {tape, E}; the forward
// rule (__enzyme_register_derivative_) returns the tangent. The position on
// the orbit, x = a (cos E - e), y = a sqrt(1 - e^2) sin E, is then
// differentiated with respect to the mean anomaly, the eccentricity and the
// semi-major axis, in reverse and forward mode, through a helper whose
// square root goes through a user function declared like sqrt
// (__enzyme_function_like) and a counter marked inactive
// (__enzyme_inactivefn). Expected: the analytic derivatives above and
// central finite differences.
// RUN: %clang -O0 %s -lm -o %t0 && %t0 | FileCheck %s
// RUN: %clang -O1 %s -lm -o %t1 && %t1 | FileCheck %s
// RUN: %clang -O2 %s -lm -o %t2 && %t2 | FileCheck %s
// RUN: %clang -O3 %s -lm -o %t3 && %t3 | FileCheck %s
// RUN: %clang_enzyme -O1 %s -S -emit-llvm -o - | lli - | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: inactive counter advanced: yes
// CHECK: ALL PASSED
#include "Inputs/check.h"
#include <stdlib.h>

extern int enzyme_const, enzyme_out, enzyme_dup;
typedef struct {
  double dM, de, da;
} Grad3;
Grad3 __enzyme_autodiff(void *, ...);
double __enzyme_fwddiff(void *, ...);

static long newton_iterations;

void count_iterations(long k) { newton_iterations += k; }

double kepler_E(double M, double e) {
  double E = e < 0.8 ? M : 3.14159;
  double step = 1;
  long k = 0;
  while (fabs(step) > 1e-15 && k < 60) {
    step = (E - e * sin(E) - M) / (1 - e * cos(E));
    E -= step;
    k++;
  }
  count_iterations(k);
  return E;
}

typedef struct {
  void *tape;
  double E;
} KeplerAug;

KeplerAug kepler_aug(double M, double e) {
  double *saved = malloc(sizeof(double));
  *saved = kepler_E(M, e);
  KeplerAug r = {saved, *saved};
  return r;
}

typedef struct {
  double dM, de;
} KeplerAdj;

KeplerAdj kepler_rev(double M, double e, double dE, void *tape) {
  double E = *(double *)tape;
  free(tape);
  double denom = 1 - e * cos(E);
  KeplerAdj r = {dE / denom, dE * sin(E) / denom};
  return r;
}

double kepler_fwd(double M, double dM, double e, double de) {
  double E = kepler_E(M, e);
  return (dM + de * sin(E)) / (1 - e * cos(E));
}

void *__enzyme_register_gradient_kepler[3] = {
    (void *)kepler_E, (void *)kepler_aug, (void *)kepler_rev};
void *__enzyme_register_derivative_kepler[2] = {(void *)kepler_E,
                                                (void *)kepler_fwd};
void *__enzyme_inactivefn[1] = {(void *)count_iterations};

/* A square root the user wrote (Babylonian iterations), declared to behave
   like the C library's sqrt. */
double user_sqrt(double v) {
  double r = v > 1 ? v : 1;
  for (int i = 0; i < 40; i++)
    r = 0.5 * (r + v / r);
  return r;
}
void *__enzyme_function_like[2] = {(void *)user_sqrt, (void *)"sqrt"};

/* A weighted combination of the position on the orbit. */
double position_mix(double M, double e, double a) {
  double E = kepler_E(M, e);
  double x = a * (cos(E) - e);
  double y = a * user_sqrt(1 - e * e) * sin(E);
  return 0.7 * x + 1.3 * y;
}

static double position_mix_plain(double M, double e, double a) {
  double E = kepler_E(M, e);
  return 0.7 * a * (cos(E) - e) + 1.3 * a * sqrt(1 - e * e) * sin(E);
}

int main(void) {
  const double M = 1.2, e = 0.45, a = 2.3;
  double E = kepler_E(M, e);
  check_close("Kepler residual", E - e * sin(E), M, 1e-14);
  double denom = 1 - e * cos(E);
  double dEdM = 1 / denom, dEde = sin(E) / denom;
  double b = sqrt(1 - e * e);
  /* d(mix)/dE, d(mix)/de at fixed E, d(mix)/da */
  double pE = 0.7 * a * (-sin(E)) + 1.3 * a * b * cos(E);
  double pe = 0.7 * a * (-1) + 1.3 * a * (-e / b) * sin(E);
  double pa = 0.7 * (cos(E) - e) + 1.3 * b * sin(E);

  long before = newton_iterations;
  Grad3 g = __enzyme_autodiff((void *)position_mix, enzyme_out, M, enzyme_out,
                              e, enzyme_out, a);
  check_close("reverse d/dM", g.dM, pE * dEdM, 1e-12);
  check_close("reverse d/de", g.de, pE * dEde + pe, 1e-12);
  check_close("reverse d/da", g.da, pa, 1e-12);
  printf("inactive counter advanced: %s\n",
         newton_iterations > before ? "yes" : "no");

  double tM = __enzyme_fwddiff((void *)position_mix, M, 1.0, e, 0.0, a, 0.0);
  double te = __enzyme_fwddiff((void *)position_mix, M, 0.0, e, 1.0, a, 0.0);
  double ta = __enzyme_fwddiff((void *)position_mix, M, 0.0, e, 0.0, a, 1.0);
  check_close("forward d/dM", tM, pE * dEdM, 1e-12);
  check_close("forward d/de", te, pE * dEde + pe, 1e-12);
  check_close("forward d/da", ta, pa, 1e-12);

  const double h = 1e-6;
  check_close("FD d/dM", g.dM,
              CENTRAL_DIFF(position_mix_plain(t_, e, a), M, h), 1e-7);
  check_close("FD d/de", g.de,
              CENTRAL_DIFF(position_mix_plain(M, t_, a), e, h), 1e-7);
  check_close("FD d/da", g.da,
              CENTRAL_DIFF(position_mix_plain(M, e, t_), a, h), 1e-7);
  return check_report();
}
