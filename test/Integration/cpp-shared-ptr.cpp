// std::shared_ptr made and shared inside the differentiated function
// (probe21a R1): the control block's virtual calls may reach the deleting
// destructor of the abstract _Sp_counted_base, whose body only traps; it
// was differentiated as a dispatch candidate and refused ("the function
// never returns"). A body that only traps is no candidate: such a call
// would stop the derivative with a message. Cases: make_shared of a
// double, of a struct copied into a second owner, a vector of shared
// pointers, and shared ownership handed to a helper. Reverse and forward
// mode. Expected: analytic.
// RUN: %clangxx -O0 %s -o %t0 && %t0 | FileCheck %s
// RUN: %clangxx -O1 %s -o %t1 && %t1 | FileCheck %s
// RUN: %clangxx -O2 %s -o %t2 && %t2 | FileCheck %s
// RUN: %clangxx -O3 %s -o %t3 && %t3 | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: ALL PASSED
#include "Inputs/check.h"
#include <cmath>
#include <memory>
#include <vector>

extern "C" {
extern int enzyme_out, enzyme_dup;
double __enzyme_autodiff(void *, ...);
double __enzyme_fwddiff(void *, ...);
}

// 3 x^2.
double single(double x) {
  std::shared_ptr<double> p = std::make_shared<double>(x * x);
  return 3 * *p;
}

struct State {
  double position, velocity;
};

// Two owners of one state: x^3 + sin x.
double shared(double x) {
  auto a = std::make_shared<State>(State{x, std::sin(x)});
  std::shared_ptr<State> b = a;
  b->position *= x * x;
  return a->position + b->velocity;
}

// sum_k (k + 1) x^k, k < 4: 1 + 2x + 3x^2 + 4x^3.
double many(double x) {
  std::vector<std::shared_ptr<double>> terms;
  double power = 1;
  for (int k = 0; k < 4; k++) {
    terms.push_back(std::make_shared<double>((k + 1) * power));
    power *= x;
  }
  double s = 0;
  for (const auto &t : terms)
    s += *t;
  return s;
}

__attribute__((noinline)) static double energy(std::shared_ptr<State> s) {
  return 0.5 * s->velocity * s->velocity + std::cos(s->position);
}

// 0.5 (2x)^2 + cos x = 2 x^2 + cos x.
double handed(double x) {
  auto s = std::make_shared<State>(State{x, 2 * x});
  return energy(s);
}

int main() {
  volatile double vx = 0.9;
  double x = vx;
  struct {
    const char *name;
    double want;
  } cases[] = {
      {"single", 6 * x},
      {"shared", 3 * x * x + std::cos(x)},
      {"many", 2 + 6 * x + 12 * x * x},
      {"handed", 4 * x - std::sin(x)},
  };
  double rev[4] = {__enzyme_autodiff((void *)single, enzyme_out, x),
                   __enzyme_autodiff((void *)shared, enzyme_out, x),
                   __enzyme_autodiff((void *)many, enzyme_out, x),
                   __enzyme_autodiff((void *)handed, enzyme_out, x)};
  double fwd[4] = {__enzyme_fwddiff((void *)single, enzyme_dup, x, 1.0),
                   __enzyme_fwddiff((void *)shared, enzyme_dup, x, 1.0),
                   __enzyme_fwddiff((void *)many, enzyme_dup, x, 1.0),
                   __enzyme_fwddiff((void *)handed, enzyme_dup, x, 1.0)};
  char what[48];
  for (int i = 0; i < 4; i++) {
    snprintf(what, sizeof what, "%s reverse", cases[i].name);
    check_close(what, rev[i], cases[i].want, 1e-13);
    snprintf(what, sizeof what, "%s forward", cases[i].name);
    check_close(what, fwd[i], cases[i].want, 1e-13);
  }
  return check_report();
}
