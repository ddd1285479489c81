// C++ compiled with exceptions: the derivative follows the path on which
// nothing is thrown, and a throw reached while a derivative runs stops the
// program with a message naming the throw (never a half-finished gradient
// handed back through an exception). Cases: a guard clause in the
// differentiated function, a try/catch around an active computation, a
// throw in a callee that keeps its own derivative (every function is
// noinline at -O0), std::vector::at out of range (libstdc++'s out-of-line
// __throw_out_of_range_fmt), a message quoting the value, and forward
// mode. What the program printed before the stop is not lost in stdio's
// buffers (the output is a pipe here). Expected values are analytic.
// RUN: %clangxx -g -O0 %s -o %t0 && %t0 | FileCheck %s
// RUN: %clangxx -g -O1 %s -o %t1 && %t1 | FileCheck %s
// RUN: %clangxx -g -O2 %s -o %t2 && %t2 | FileCheck %s
// RUN: %clangxx -g -O3 %s -o %t3 && %t3 | FileCheck %s
// RUN: not %t0 guard 2>&1 | FileCheck %s --check-prefix=GUARD
// RUN: not %t2 guard 2>&1 | FileCheck %s --check-prefix=GUARD
// RUN: not %t0 caught 2>&1 | FileCheck %s --check-prefix=CAUGHT
// RUN: not %t3 caught 2>&1 | FileCheck %s --check-prefix=CAUGHT
// RUN: not %t0 callee 2>&1 | FileCheck %s --check-prefix=CALLEE
// RUN: not %t2 callee 2>&1 | FileCheck %s --check-prefix=CALLEE
// RUN: not %t0 at 2>&1 | FileCheck %s --check-prefix=AT
// RUN: not %t2 at 2>&1 | FileCheck %s --check-prefix=AT
// RUN: not %t1 forward 2>&1 | FileCheck %s --check-prefix=FORWARD
// RUN: not %t0 quoted 2>&1 | FileCheck %s --check-prefix=QUOTED
// RUN: not %t2 quoted 2>&1 | FileCheck %s --check-prefix=QUOTED
// RUN: %t2 primal | FileCheck %s --check-prefix=PRIMAL
// Without -g the message names the function being differentiated.
// RUN: %clangxx -O2 %s -o %t2n && not %t2n guard 2>&1 | FileCheck %s --check-prefix=NODEBUG
// NODEBUG: tapestry: exception thrown in guarded_sqrt(double) while differentiating guarded_sqrt(double)
// CHECK-NOT: FAIL
// CHECK: ALL PASSED
// GUARD: printed before the derivative
// GUARD: exception thrown at {{.*}}cpp-exceptions.cpp:53
// GUARD-SAME: while differentiating
// GUARD-NOT: unreachable
#include "Inputs/check.h"
#include <enzyme/enzyme>

#include <cmath>
#include <cstring>
#include <stdexcept>
#include <vector>

extern "C" {
extern int enzyme_dup, enzyme_const, enzyme_out;
double __enzyme_autodiff(void *, ...);
double __enzyme_fwddiff(void *, ...);
}

// A guard clause on an active value.
double guarded_sqrt(double x) {
  if (x < 0)
    throw std::domain_error("guarded_sqrt: negative argument");
  return std::sqrt(x) * x;
}

// A throw inside a try whose handler continues with an active value.
double risky(double x) {
  if (x > 10)
    throw std::overflow_error("risky: too large");
  return std::exp(x);
}
double with_fallback(double x) {
  double y;
  try {
    y = risky(x);
  } catch (const std::overflow_error &) {
    y = x * x;
  }
  return y * std::sin(x);
}

// A noinline callee that throws: it keeps its own derivative.
__attribute__((noinline)) double scaled(double x, int n) {
  if (n <= 0)
    throw std::invalid_argument("scaled: n must be positive");
  return x * x / n;
}
double uses_scaled(double x, int n) { return scaled(x, n) + std::cos(x); }

// std::vector::at with an index from the caller.
double pick(const double *x, int n, int i) {
  std::vector<double> v(x, x + n);
  return v.at(i) * v.at(0);
}

// A guard whose message quotes the value: the message (std::to_string,
// concatenation, the exception's constructor from a std::string, which
// has no derivative) is built only on the path that throws, and is not
// differentiated (probe21a R3).
double quoted_log(double x) {
  if (x <= 0)
    throw std::invalid_argument("quoted_log: x must be positive, got " +
                                std::to_string(x));
  return std::log(x) * x;
}

int main(int argc, char **argv) {
  const char *which = argc > 1 ? argv[1] : "";
  if (!std::strcmp(which, "primal")) {
    // The user's own function still throws and catches as C++ says.
    try {
      guarded_sqrt(-1);
    } catch (const std::domain_error &e) {
      std::printf("PRIMAL caught: %s\n", e.what());
    }
    std::printf("PRIMAL fallback %.6f\n", with_fallback(11));
    return 0;
  }
  if (!std::strcmp(which, "guard")) {
    // Not flushed here: the stop flushes what was printed before it.
    std::printf("printed before the derivative\n");
    double d = __enzyme_autodiff((void *)guarded_sqrt, enzyme_out, -4.0);
    std::printf("unreachable %g\n", d);
    return 0;
  }
  if (!std::strcmp(which, "caught")) {
    double d = __enzyme_autodiff((void *)with_fallback, enzyme_out, 12.0);
    std::printf("unreachable %g\n", d);
    return 0;
  }
  if (!std::strcmp(which, "callee")) {
    double d = __enzyme_autodiff((void *)uses_scaled, enzyme_out, 2.0,
                                 enzyme_const, 0);
    std::printf("unreachable %g\n", d);
    return 0;
  }
  if (!std::strcmp(which, "at")) {
    double x[3] = {1, 2, 3}, dx[3] = {0, 0, 0};
    __enzyme_autodiff((void *)pick, enzyme_dup, x, dx, enzyme_const, 3,
                      enzyme_const, 7);
    std::printf("unreachable %g\n", dx[0]);
    return 0;
  }
  if (!std::strcmp(which, "quoted")) {
    double d = __enzyme_autodiff((void *)quoted_log, enzyme_out, -1.0);
    std::printf("unreachable %g\n", d);
    return 0;
  }
  if (!std::strcmp(which, "forward")) {
    double t = __enzyme_fwddiff((void *)guarded_sqrt, enzyme_dup, -1.0, 1.0);
    std::printf("unreachable %g\n", t);
    return 0;
  }

  // No exception on the path: exact derivatives.
  const double x = 2.25;
  check_close("guard, reverse",
              __enzyme_autodiff((void *)guarded_sqrt, enzyme_out, x),
              1.5 * std::sqrt(x), 1e-12);
  check_close("guard, forward",
              __enzyme_fwddiff((void *)guarded_sqrt, enzyme_dup, x, 1.0),
              1.5 * std::sqrt(x), 1e-12);
  check_close("guard, Enzyme C++ header",
              enzyme::get<0>(enzyme::get<0>(enzyme::autodiff<enzyme::Reverse>(
                  guarded_sqrt, enzyme::Active(x)))),
              1.5 * std::sqrt(x), 1e-12);
  const double y = 1.5;
  check_close("try/catch, no throw",
              __enzyme_autodiff((void *)with_fallback, enzyme_out, y),
              std::exp(y) * (std::sin(y) + std::cos(y)), 1e-12);
  check_close("throwing callee, no throw",
              __enzyme_autodiff((void *)uses_scaled, enzyme_out, y,
                                enzyme_const, 3),
              2 * y / 3 - std::sin(y), 1e-12);
  check_close("quoted message, reverse",
              __enzyme_autodiff((void *)quoted_log, enzyme_out, y),
              std::log(y) + 1, 1e-12);
  check_close("quoted message, forward",
              __enzyme_fwddiff((void *)quoted_log, enzyme_dup, y, 1.0),
              std::log(y) + 1, 1e-12);
  double v[3] = {1, 2, 3}, dv[3] = {0, 0, 0};
  __enzyme_autodiff((void *)pick, enzyme_dup, v, dv, enzyme_const, 3,
                    enzyme_const, 2);
  check_close("vector::at, d/dv0", dv[0], 3, 1e-12);
  check_close("vector::at, d/dv1", dv[1], 0, 1e-12);
  check_close("vector::at, d/dv2", dv[2], 1, 1e-12);
  return check_report();
}

// CAUGHT: exception thrown at {{.*}}cpp-exceptions.cpp:60
// CAUGHT-SAME: while differentiating
// CALLEE: exception thrown at {{.*}}cpp-exceptions.cpp:76
// CALLEE-SAME: while differentiating
// AT: exception thrown {{.*}}__throw_out_of_range_fmt
// AT-SAME: reached from {{.*}}cpp-exceptions.cpp:84 while differentiating
// FORWARD: exception thrown at {{.*}}cpp-exceptions.cpp:53
// QUOTED: exception thrown at {{.*}}cpp-exceptions.cpp:93
// QUOTED-SAME: while differentiating
// QUOTED-NOT: unreachable
// PRIMAL: PRIMAL caught: guarded_sqrt: negative argument
// PRIMAL: PRIMAL fallback -120.998815
