// std::complex<float> functions inside differentiated code (probe21a R6):
// libstdc++ calls the C library's cabsf, cargf, cexpf, clogf, csqrtf,
// csinf, ccosf, csinhf, ccoshf and cpowf, which take and return a float
// complex as <2 x float> on x86-64 and were "no derivative is known for
// external function 'cabsf'". Reverse and forward mode at -O0 and -O2 and
// the opt flow, against the analytic derivatives: for a holomorphic g,
// d/da mix(g(a + ib)) = mix(g'(z)) and d/db = mix(i g'(z)), computed in
// double; |z| and arg z by their real formulas.
// RUN: %clangxx -O0 %s -o %t0 && %t0 | FileCheck %s
// RUN: %clangxx -O2 %s -o %t2 && %t2 | FileCheck %s
// RUN: %plain_cxx -O2 -S -emit-llvm %s -o %t.ll
// RUN: %opt -passes=tapestry %t.ll -o %t.bc
// RUN: %plain_cxx -O2 %t.bc -o %to && %to | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: ALL PASSED
#include "Inputs/check.h"

#include <complex>

extern "C" {
extern int enzyme_out, enzyme_dup, enzyme_const;
void __enzyme_autodiff(void *, ...);
float __enzyme_fwddiff(void *, ...);
}

using F = std::complex<float>;
using D = std::complex<double>;

static float mix(F w) { return w.real() + 0.7f * w.imag(); }
static double mixD(D w) { return w.real() + 0.7 * w.imag(); }

float f_exp(float a, float b) { return mix(std::exp(F(a, b))); }
float f_log(float a, float b) { return mix(std::log(F(a, b))); }
float f_sqrt(float a, float b) { return mix(std::sqrt(F(a, b))); }
float f_sin(float a, float b) { return mix(std::sin(F(a, b))); }
float f_cos(float a, float b) { return mix(std::cos(F(a, b))); }
float f_sinh(float a, float b) { return mix(std::sinh(F(a, b))); }
float f_cosh(float a, float b) { return mix(std::cosh(F(a, b))); }
float f_pow(float a, float b) { return mix(std::pow(F(a, b), F(1.5f, 0.25f))); }
float f_abs(float a, float b) { return std::abs(F(a, b)); }
float f_arg(float a, float b) { return std::arg(F(a, b)); }

struct Grad {
  float da, db;
};

// Wrappers taking pointers, so that reverse mode writes both partials.
#define BY_POINTER(fn)                                                         \
  float fn##_p(const float *a, const float *b) { return fn(*a, *b); }
BY_POINTER(f_exp)
BY_POINTER(f_log)
BY_POINTER(f_sqrt)
BY_POINTER(f_sin)
BY_POINTER(f_cos)
BY_POINTER(f_sinh)
BY_POINTER(f_cosh)
BY_POINTER(f_pow)
BY_POINTER(f_abs)
BY_POINTER(f_arg)

static void expect(const char *name, float a, float b, Grad g, float t,
                   double wa, double wb) {
  char label[64];
  snprintf(label, sizeof label, "%s d/da", name);
  check_close(label, g.da, wa, 2e-5);
  snprintf(label, sizeof label, "%s d/db", name);
  check_close(label, g.db, wb, 2e-5);
  snprintf(label, sizeof label, "%s forward d/da", name);
  check_close(label, t, wa, 2e-5);
}

// The partials of mix(g(z)) for a holomorphic g with derivative gp.
static void expectHolomorphic(const char *name, float a, float b, Grad g,
                              float t, D gp) {
  expect(name, a, b, g, t, mixD(gp), mixD(D(0, 1) * gp));
}

#define RUN(fn)                                                                \
  Grad fn##_g = {0, 0};                                                        \
  {                                                                            \
    float a0 = a, b0 = b;                                                      \
    __enzyme_autodiff((void *)fn##_p, enzyme_dup, &a0, &fn##_g.da,             \
                      enzyme_dup, &b0, &fn##_g.db);                            \
  }                                                                            \
  float fn##_t = __enzyme_fwddiff((void *)fn, a, 1.0f, enzyme_const, b);

int main() {
  for (float b : {0.8f, -0.6f}) {
    float a = 0.9f;
    D z(a, b);
    RUN(f_exp)
    RUN(f_log)
    RUN(f_sqrt)
    RUN(f_sin)
    RUN(f_cos)
    RUN(f_sinh)
    RUN(f_cosh)
    RUN(f_pow)
    RUN(f_abs)
    RUN(f_arg)
    expectHolomorphic("exp", a, b, f_exp_g, f_exp_t, std::exp(z));
    expectHolomorphic("log", a, b, f_log_g, f_log_t, 1.0 / z);
    expectHolomorphic("sqrt", a, b, f_sqrt_g, f_sqrt_t,
                      1.0 / (2.0 * std::sqrt(z)));
    expectHolomorphic("sin", a, b, f_sin_g, f_sin_t, std::cos(z));
    expectHolomorphic("cos", a, b, f_cos_g, f_cos_t, -std::sin(z));
    expectHolomorphic("sinh", a, b, f_sinh_g, f_sinh_t, std::cosh(z));
    expectHolomorphic("cosh", a, b, f_cosh_g, f_cosh_t, std::sinh(z));
    D w(1.5, 0.25);
    expectHolomorphic("pow", a, b, f_pow_g, f_pow_t,
                      w * std::pow(z, w - 1.0));
    double r = std::abs(z);
    expect("abs", a, b, f_abs_g, f_abs_t, a / r, b / r);
    expect("arg", a, b, f_arg_g, f_arg_t, -b / (r * r), a / (r * r));
  }
  return check_report();
}
