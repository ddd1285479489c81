// A std::function called with active arguments inside a differentiated
// function: its target is a function pointer loaded from the object, not
// known at compile time. The error says so and what to write instead.
// RUN: not %clangxx -g -O0 -c %s -o /dev/null 2>&1 | FileCheck %s
// RUN: not %clangxx -g -O2 -c %s -o /dev/null 2>&1 | FileCheck %s
// CHECK: std_function.h:{{[0-9]+}}:{{[0-9]+}}: error: tapestry: cannot differentiate 'objective(double)': a call through a function pointer that is not known at compile time takes active arguments (a std::function: take the callable as a template parameter, template <class F> ... (F f), so that the call is direct)
// CHECK-NOT: PLEASE submit a bug report
#include <enzyme/enzyme>

#include <cmath>
#include <functional>

double integrate(const std::function<double(double)> &f, double a, double b, int n) {
  double h = (b - a) / n, s = 0;
  for (int i = 0; i < n; ++i)
    s += f(a + (i + 0.5) * h) * h;
  return s;
}

double objective(double k) {
  std::function<double(double)> f = [k](double t) { return std::sin(k * t); };
  return integrate(f, 0.0, 1.0, 100);
}

double gradient(double k) {
  return enzyme::get<0>(
      enzyme::get<0>(enzyme::autodiff<enzyme::Reverse>(objective, enzyme::Active(k))));
}
