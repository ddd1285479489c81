// In reverse mode, a result of a class that is not trivially copyable (a
// std::vector returned by value) cannot be Active in <enzyme/enzyme>: a
// compile-time error that says what to write instead (forward mode's
// Duplicated and DuplicatedNoNeed results of such classes work:
// test/Integration/cxx-enzyme-header-class-result.cpp), and a
// differentiated integer result is refused as before.
// RUN: not %clangxx -std=c++17 -fsyntax-only %s -DVECTOR 2>&1 | FileCheck %s --check-prefix=VECTOR
// RUN: not %clangxx -std=c++17 -fsyntax-only %s -DINTEGER 2>&1 | FileCheck %s --check-prefix=INTEGER
// CHECK-NOT: PLEASE submit a bug report
#include <enzyme/enzyme>
#include <vector>

std::vector<double> twice(const std::vector<double> &x) {
  return {2 * x[0], 2 * x[1]};
}
int count(double x) { return x > 0; }

int main() {
  std::vector<double> x{1, 2}, dx{1, 0};
#ifdef VECTOR
  // VECTOR: error: static assertion failed {{.*}}in reverse mode a result of a class that is not trivially copyable (std::vector, std::string, ...) cannot be Active: give the function the result as a reference parameter (Duplicated<std::vector<double> &>) and seed its shadow
  enzyme::autodiff<enzyme::Reverse, enzyme::Active<std::vector<double>>>(
      twice, enzyme::Duplicated<const std::vector<double> &>(x, dx));
#endif
#ifdef INTEGER
  // INTEGER: error: static assertion failed {{.*}}a differentiated return activity needs a floating-point result
  enzyme::autodiff<enzyme::Forward, enzyme::DuplicatedNoNeed<int>>(
      count, enzyme::Duplicated<double>(1.0, 1.0));
#endif
}
