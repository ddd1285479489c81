// Library objects that keep the addresses of functions or string literals
// beside pointers to differentiated data: a std::function composed from
// another inside the differentiated function, nodes linked by
// std::shared_ptr (whose control blocks keep a vtable and deleter), and a
// std::map<std::string, double> keyed by string literals. A function's
// address is only called (through a dispatch on the pointer itself) and a
// literal holds no derivatives, so the memory they are stored into holds
// no pointer whose constness must be tested at run time. Each was refused
// ("a pointer read from memory that also holds pointers to constant data
// ... this call cannot test it") at some -O level before. Expected values
// are analytic.
// RUN: %clangxx -std=c++17 -O0 %s -o %t0 && %t0 | FileCheck %s
// RUN: %clangxx -std=c++17 -O1 %s -o %t1 && %t1 | FileCheck %s
// RUN: %clangxx -std=c++17 -O2 %s -o %t2 && %t2 | FileCheck %s
// RUN: %clangxx -std=c++17 -O3 %s -o %t3 && %t3 | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: ALL PASSED
#include "Inputs/check.h"

#include <cmath>
#include <functional>
#include <map>
#include <memory>
#include <string>

extern "C" int enzyme_dup, enzyme_const, enzyme_out;
extern "C" double __enzyme_autodiff(void *, ...);

double call_twice(const std::function<double(double)> &f, double x) {
  return f(x) + f(2 * x);
}
// sum(x) = exp(-k x) + x, through two std::function objects.
double composed(double k) {
  std::function<double(double)> f1 = [k](double x) { return std::exp(-k * x); };
  std::function<double(double)> sum = [&f1](double x) { return f1(x) + x; };
  return call_twice(sum, 0.5);
}

struct Node {
  double w;
  std::shared_ptr<Node> next;
};
double linked(double a) {
  auto head = std::make_shared<Node>(Node{a, nullptr});
  head->next = std::make_shared<Node>(Node{a * a, nullptr});
  return head->w + head->next->w;
}

double named_sums(const double *x, int n) {
  std::map<std::string, double> named;
  for (int i = 0; i < n; i++)
    named[i % 2 ? "odd" : "even"] += x[i] * x[i];
  return named["odd"] * named["even"];
}

int main() {
  double k = 0.8;
  check_close("composed std::function",
              __enzyme_autodiff((void *)composed, enzyme_out, k),
              -0.5 * std::exp(-0.4) - 1.0 * std::exp(-0.8), 1e-12);
  double a = 1.5;
  check_close("shared_ptr nodes", __enzyme_autodiff((void *)linked, enzyme_out, a),
              1 + 2 * a, 1e-12);
  double x[4] = {0.5, 1.2, -0.8, 2.0}, dx[4] = {0, 0, 0, 0};
  __enzyme_autodiff((void *)named_sums, enzyme_dup, x, dx, enzyme_const, 4);
  double even = x[0] * x[0] + x[2] * x[2], odd = x[1] * x[1] + x[3] * x[3];
  for (int i = 0; i < 4; i++)
    check_close("map<string, double>", dx[i],
                2 * x[i] * (i % 2 ? even : odd), 1e-12);
  return check_report();
}
