// In reverse mode, a result of a class that is not trivially copyable (a
// std::vector returned by value) cannot be Active in <enzyme/enzyme>: a
// compile-time error that says what to write instead (forward mode's
// Duplicated and DuplicatedNoNeed results of such classes work:
// test/Integration/cxx-enzyme-header-class-result.cpp), and a
// differentiated integer result is refused as before. An Active struct
// result returned in memory is seeded with ones, which needs members all
// double or all float (test/Integration/cxx-enzyme-header-struct-result.cpp
// has the ones that work); <tapestry/tapestry.hpp>, which has no return
// activity, refuses a struct result in reverse mode.
// RUN: not %clangxx -std=c++17 -fsyntax-only %s -DVECTOR 2>&1 | FileCheck %s --check-prefix=VECTOR
// RUN: not %clangxx -std=c++17 -fsyntax-only %s -DINTEGER 2>&1 | FileCheck %s --check-prefix=INTEGER
// RUN: not %clangxx -std=c++17 -fsyntax-only %s -DMIXED 2>&1 | FileCheck %s --check-prefix=MIXED
// RUN: not %clangxx -std=c++17 -fsyntax-only %s -DTAPESTRY 2>&1 | FileCheck %s --check-prefix=TAPESTRY
// CHECK-NOT: PLEASE submit a bug report
#include <enzyme/enzyme>
#include <tapestry/tapestry.hpp>
#include <vector>

std::vector<double> twice(const std::vector<double> &x) {
  return {2 * x[0], 2 * x[1]};
}
int count(double x) { return x > 0; }
struct FD {
  float f;
  double d, e;
};
FD mixed(double t) { return {(float)t, t, t}; }
struct V2 {
  double x, y;
};
V2 polar(double t, double r) { return {r * t, r + t}; }

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
#ifdef MIXED
  // MIXED: error: static assertion failed {{.*}}an Active struct result returned in memory (larger than 16 bytes) is seeded with 1 in every member, which needs a struct whose members are all double or all float; return the struct through a pointer parameter (Duplicated<S *>(&out, &seed)) and seed it yourself
  enzyme::autodiff<enzyme::Reverse, enzyme::Active<FD>>(mixed,
                                                        enzyme::Active(1.0));
#endif
#ifdef TAPESTRY
  // TAPESTRY: error: static assertion failed {{.*}}in reverse mode a function returning a struct needs its return activity: with <enzyme/enzyme>, enzyme::autodiff<enzyme::Reverse, enzyme::Active<S>> seeds every member with 1 (Enzyme's rule) and the default, Const<S>, seeds none; <tapestry/tapestry.hpp> takes no return activity: differentiate a function that returns a scalar (a member, or a weighted sum of them)
  tapestry::autodiff<tapestry::Reverse, polar>(tapestry::Active(1.0),
                                               tapestry::Const(2.0));
#endif
}
