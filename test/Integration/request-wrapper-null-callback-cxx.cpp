// C++: a helper requesting its function parameter without testing it, in a
// scope with a destructor to run, called with a function and, when the
// program is run with "stop", with nullptr: the request reached with null
// stops the program, naming the entry point as the source does (not its
// mangled name: review44 F6), the helper and its caller. Expected value
// analytic: sq'(3) = 6.
// RUN: %clangxx -O0 -g %s -o %t0 && %t0 | FileCheck %s
// RUN: %clangxx -O2 %s -o %t2 && %t2 | FileCheck %s
// RUN: not --crash %t0 stop 2>&1 | FileCheck %s --check-prefix=STOP
// RUN: not --crash %t2 stop 2>&1 | FileCheck %s --check-prefix=STOP
// CHECK-NOT: FAIL
// CHECK: ALL PASSED
// STOP: tapestry: __enzyme_autodiff{{.*}} in 'deriv(double (*)(double), double)', called from 'main'{{.*}}, was asked for the derivative of a null function pointer
// STOP-NOT: not stopped
#include "Inputs/check.h"

#include <cstdio>
#include <cstring>

extern int enzyme_out;
extern double __enzyme_autodiff(void *, ...);

typedef double (*fn_t)(double);

static double sq(double x) { return x * x; }

static int scopes;

struct Scope {
  ~Scope() { ++scopes; }
};

static double deriv(fn_t f, double x) {
  Scope s;
  return __enzyme_autodiff((void *)f, enzyme_out, x);
}

int main(int argc, char **argv) {
  if (argc > 1 && std::strcmp(argv[1], "stop") == 0) {
    deriv(nullptr, 1.0);
    std::printf("not stopped\n");
    return 0;
  }
  check_close("sq'(3)", deriv(sq, 3.0), 6.0, 1e-12);
  check_close("scopes left", scopes, 1, 0);
  return check_report();
}
