// A pointer into an enzyme_const argument's memory chosen together with
// differentiable memory: std::min of references between a local active
// value and a member of a const table (probe42b F2; under
// -fsanitize=address, whose instrumented stack slots SROA does not turn
// into values, the choice stays one between addresses). The message named
// "the pointer 'the variable 'this' (line N)'", std::optional's `this`; it
// now names the parameter the memory belongs to and says what to do.
// RUN: not %clangxx -std=c++17 -O1 -fsanitize=address -g -c %s -o /dev/null 2>&1 | FileCheck %s
// CHECK: error: tapestry: cannot differentiate 'value({{.*}})': a pointer into the memory of parameter 2 ('bonds'), passed enzyme_const, is used here as differentiable memory (chosen between it and differentiable memory, or written with differentiable data), so it needs a shadow it does not have; pass that argument as enzyme_dup with a zeroed shadow, or choose between values instead of their addresses (copy them before std::min or ?:)
// CHECK-NEXT: if (b.callPrice)
#include <algorithm>
#include <cmath>
#include <iostream>
#include <optional>
#include <vector>
extern int enzyme_dup, enzyme_const;
double __enzyme_autodiff(void *, ...);

// Logs the scope (its calls keep the choice between addresses too).
struct ScopeLog {
  explicit ScopeLog(const char *) { std::cerr << "[enter]\n"; }
  ~ScopeLog() { std::cerr << "[leave]\n"; }
};

struct Bond {
  double maturity;
  std::optional<double> callPrice;
};

double value(const std::vector<double> *zero, const std::vector<Bond> *bonds) {
  ScopeLog log("value");
  double v = 0;
  for (const Bond &b : *bonds) {
    double pv = 100 * std::exp(-(*zero)[0] * b.maturity);
    if (b.callPrice) pv = std::min(pv, *b.callPrice);
    v += pv;
  }
  return v;
}

void gradient(const std::vector<double> &z, std::vector<double> &dz,
              const std::vector<Bond> &bonds) {
  __enzyme_autodiff((void *)value, enzyme_dup, &z, &dz, enzyme_const, &bonds);
}
