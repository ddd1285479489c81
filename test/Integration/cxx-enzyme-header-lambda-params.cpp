// Lambdas given to enzyme::autodiff whose parameters are references, with
// the wrappers Enzyme's users write for them: Duplicated<T *>(&x, &dx) and
// Const<T *>(&c) for `const T &` parameters (as for functions), besides
// Duplicated<const T &>. A lambda that accepts the wrapped types is called
// with them (an overloaded functor picks its overload so); one that does not
// is called through its declared call operator. The shapes are those of
// Enzyme's elasticity-kernel test: a lambda taking two vectors and a weight
// by reference, reverse and forward mode, a scalar and a std::vector
// result. Expected values are analytic derivatives.
// RUN: %clangxx -std=c++17 -O0 %s -o %t0 && %t0 | FileCheck %s
// RUN: %clangxx -std=c++17 -O1 %s -o %t1 && %t1 | FileCheck %s
// RUN: %clangxx -std=c++17 -O2 %s -o %t2 && %t2 | FileCheck %s
// RUN: %clangxx -std=c++17 -O3 %s -o %t3 && %t3 | FileCheck %s
// With a class result too (at -O0 that is a known bug:
// cxx-enzyme-header-lambda-class-result-O0.cpp).
// RUN: %clangxx -std=c++17 -O1 -DCLASS_RESULT %s -o %t4 && %t4 | FileCheck %s
// RUN: %clangxx -std=c++17 -O2 -DCLASS_RESULT %s -o %t5 && %t5 | FileCheck %s
// RUN: %clangxx -std=c++17 -O3 -DCLASS_RESULT %s -o %t6 && %t6 | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: ALL PASSED
#include "Inputs/check.h"

#include <enzyme/enzyme>

#include <cmath>
#include <vector>

static const double TOL = 1e-12;

int main() {
  std::vector<double> u{1.0, -2.0, 3.0, 0.5}, J{2.0, 4.0, 1.0, 1.0};
  double w = 1.5;
  // s = w * J[0] * sum(u_i^2)
  auto energy = [](const std::vector<double> &u, const std::vector<double> &J,
                   const double &w) {
    double s = 0;
    for (double e : u)
      s += e * e;
    return w * J[0] * s;
  };
  /* Reverse, pointers for the reference parameters. */
  {
    std::vector<double> du(4, 0.0);
    double dw = 0;
    enzyme::autodiff<enzyme::Reverse>(
        energy, enzyme::Duplicated<std::vector<double> *>{&u, &du},
        enzyme::Const<std::vector<double> *>{&J},
        enzyme::Duplicated<double *>{&w, &dw});
    for (int i = 0; i < 4; i++)
      check_close("energy d/du_i (pointers)", du[i], 2 * w * J[0] * u[i], TOL);
    double s = 0;
    for (double e : u)
      s += e * e;
    check_close("energy d/dw (pointers)", dw, J[0] * s, TOL);
  }
  /* Forward, the same lambda, references for the references. */
  {
    std::vector<double> tu{1.0, 0.0, 0.0, 1.0};
    auto t = enzyme::autodiff<enzyme::Forward>(
        energy, enzyme::Duplicated<const std::vector<double> &>{u, tu},
        enzyme::Const<const std::vector<double> &>{J},
        enzyme::Const<const double &>{w});
    check_close("energy tangent (references)", enzyme::get<0>(t),
                2 * w * J[0] * (u[0] + u[3]), TOL);
    /* And through the lambda's function pointer (+lambda). */
    auto t2 = enzyme::autodiff<enzyme::Forward>(
        +energy, enzyme::Duplicated<const std::vector<double> &>{u, tu},
        enzyme::Const<const std::vector<double> &>{J},
        enzyme::Const<const double &>{w});
    check_close("energy tangent (+lambda)", enzyme::get<0>(t2),
                enzyme::get<0>(t), TOL);
  }
#ifdef CLASS_RESULT
  /* Enzyme's elasticity kernel: a std::vector result, forward mode. */
  {
    auto kernel = [](const std::vector<double> &dudxi,
                     const std::vector<double> &J, const double &w) {
      auto r = dudxi;
      for (auto &e : r)
        e *= w * J[0];
      return r;
    };
    std::vector<double> s_dudxi{0.0, 1.0, 0.0, 0.0};
    auto t = enzyme::get<0>(
        enzyme::autodiff<enzyme::Forward,
                         enzyme::DuplicatedNoNeed<std::vector<double>>>(
            kernel, enzyme::Duplicated<std::vector<double> *>{&u, &s_dudxi},
            enzyme::Const<std::vector<double> *>{&J},
            enzyme::Const<double *>{&w}));
    check_close("kernel tangent size", (double)t.size(), 4.0, TOL);
    for (int i = 0; i < 4; i++)
      check_close("kernel tangent", t[i], w * J[0] * s_dudxi[i], TOL);
    auto t2 = enzyme::get<0>(
        enzyme::autodiff<enzyme::Forward,
                         enzyme::DuplicatedNoNeed<std::vector<double>>>(
            +kernel, enzyme::Duplicated<std::vector<double> *>{&u, &s_dudxi},
            enzyme::Const<std::vector<double> *>{&J},
            enzyme::Const<double *>{&w}));
    check_close("kernel tangent (+lambda)", t2[1], w * J[0], TOL);
  }
#endif
  return check_report();
}
