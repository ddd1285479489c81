// A call through std::function or a virtual method is dispatched over every
// function of its type whose address escapes in the file. A candidate the
// differentiated code never reaches -- a test harness's lambda that records
// its argument, a debugging override that writes into its object, a lambda
// calling a function of another file -- cannot be differentiated, and that
// must not cost the derivative: it is built, and stops with a message naming
// the candidate and why only if the pointer holds it (never a wrong
// number). What the program printed before the stop is flushed first
// (no fflush here). Expected values are analytic. Before, every -O level was a
// compile error ("an active value is stored to memory that has no shadow").
// RUN: %clang -O0 -c %S/Inputs/other-file-value.c -o %t.other.o
// RUN: %clangxx -O0 %s %t.other.o -o %t0
// RUN: %t0 | FileCheck %s
// RUN: not --crash %t0 record 2>&1 | FileCheck %s --check-prefix=STOP
// RUN: not --crash %t0 debug 2>&1 | FileCheck %s --check-prefix=VSTOP
// RUN: %clangxx -O1 %s %t.other.o -o %t1
// RUN: %t1 | FileCheck %s
// RUN: not --crash %t1 record 2>&1 | FileCheck %s --check-prefix=STOP
// RUN: %clangxx -O2 -g %s %t.other.o -o %t2
// RUN: %t2 | FileCheck %s
// RUN: not --crash %t2 record 2>&1 | FileCheck %s --check-prefix=STOP
// RUN: not --crash %t2 debug 2>&1 | FileCheck %s --check-prefix=VSTOP
// RUN: %clangxx -O3 %s %t.other.o -o %t3
// RUN: %t3 | FileCheck %s
// RUN: not --crash %t3 debug 2>&1 | FileCheck %s --check-prefix=VSTOP
// The candidate stopped is named at compile time too.
// RUN: %clangxx -O2 -c %s -o /dev/null -Rpass-analysis=tapestry 2>&1 \
// RUN:   | FileCheck %s --check-prefix=REMARK
// CHECK-NOT: FAIL
// CHECK: ALL PASSED
// STOP: primal before the derivative
// STOP: Tapestry: {{.*}}the derivative of 'total(Model const*, double)' calls 'main::$_1::operator()' through a function pointer, and cannot differentiate it: cannot differentiate '{{.*}}': an active value is stored to memory that has no shadow
// STOP-NOT: PASS
// VSTOP: primal before the derivative
// VSTOP: Tapestry: {{.*}}the derivative of 'layer(Activation const*, double const*, int)' calls 'Recording::apply(double) const' through a function pointer, and cannot differentiate it: {{.*}}enzyme_const
// VSTOP-NOT: PASS
// REMARK-DAG: remark: the derivative of 'total(Model const*, double)' calls 'main::$_1::operator()' through a function pointer, and stops at run time if the pointer holds it: cannot differentiate
// REMARK-DAG: remark: the derivative of 'layer(Activation const*, double const*, int)' calls 'Recording::apply(double) const' through a function pointer, and stops at run time if the pointer holds it:
#include "Inputs/check.h"

#include <cmath>
#include <cstdio>
#include <cstring>
#include <functional>

extern "C" int enzyme_const, enzyme_dup, enzyme_out;
extern "C" double __enzyme_autodiff(void *, ...);
extern "C" double other_file_function_value(double);

struct Model {
  std::function<double(double)> link;
};
double total(const Model *m, double x) { return m->link(x) * x; }

struct Activation {
  virtual ~Activation() = default;
  virtual double apply(double z) const = 0;
};
struct Tanh : Activation {
  double apply(double z) const override { return std::tanh(z); }
};
// A debugging override: it records what it was given.
struct Recording : Activation {
  mutable double last = 0;
  double apply(double z) const override {
    last = z;
    return std::tanh(z);
  }
};
double layer(const Activation *act, const double *w, int n) {
  double s = 0;
  for (int i = 0; i < n; ++i)
    s += act->apply(w[i] * (i + 1));
  return s;
}

int main(int argc, char **argv) {
  const char *mode = argc > 1 ? argv[1] : "";
  double last = 0;
  Model m{[](double s) { return std::log1p(s * s); }};
  // A harness lambda of the same type, never stored into m.link, that
  // records its argument: not differentiable here (last has no shadow).
  std::function<double(double)> recorder = [&last](double t) {
    last = t;
    return std::log1p(t * t);
  };
  // One more calling a function of another file (no derivative known).
  std::function<double(double)> external = [](double t) {
    return other_file_function_value(t);
  };
  if (!std::strcmp(mode, "record"))
    m.link = recorder;
  double x = 0.8;
  std::printf("primal before the derivative %g %g\n", total(&m, x),
              external(1.0));
  double d = __enzyme_autodiff((void *)total, enzyme_const, &m, enzyme_out, x);
  // d/dx [x log1p(x^2)] = log1p(x^2) + 2x^2 / (1 + x^2)
  check_close("std::function", d, std::log1p(x * x) + 2 * x * x / (1 + x * x),
              1e-12);

  Tanh th;
  Recording rec;
  const Activation *act = &th;
  if (!std::strcmp(mode, "debug"))
    act = &rec;
  double w[3] = {0.3, -0.2, 0.5}, dw[3] = {0, 0, 0};
  std::printf("primal before the derivative %g\n", layer(act, w, 3));
  __enzyme_autodiff((void *)layer, enzyme_const, act, enzyme_dup, w, dw,
                    enzyme_const, 3);
  for (int i = 0; i < 3; ++i) {
    double t = std::tanh(w[i] * (i + 1));
    check_close("virtual", dw[i], (1 - t * t) * (i + 1), 1e-12);
  }
  return check_report() + (int)(last * 0);
}
