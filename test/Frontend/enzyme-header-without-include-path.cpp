// Enzyme's clang plugin makes <enzyme/enzyme> available with no -I: its
// users' build lines name only the plugin. Tapestry's clang part searches
// its own headers last, after the command line's and the system's.
// RUN: %plain_cxx -std=c++17 -O0 %s -fpass-plugin=%plugin -Xclang -load -Xclang %plugin -o %t0 && %t0 | FileCheck %s
// RUN: %plain_cxx -std=c++17 -O1 %s -fpass-plugin=%plugin -Xclang -load -Xclang %plugin -o %t1 && %t1 | FileCheck %s
// RUN: %plain_cxx -std=c++17 -O2 %s -fplugin=%plugin -o %t2 && %t2 | FileCheck %s
// RUN: %plain_cxx -std=c++17 -O3 %s -fplugin=%plugin -o %t3 && %t3 | FileCheck %s
// A directory on the command line still comes first.
// RUN: rm -rf %t.dir && mkdir -p %t.dir/enzyme
// RUN: echo '#error the user header was found' > %t.dir/enzyme/enzyme
// RUN: not %plain_cxx -std=c++17 -fsyntax-only -I%t.dir %s -fplugin=%plugin 2>&1 | FileCheck %s --check-prefix=USER
// CHECK-NOT: FAIL
// CHECK: ALL PASSED
// USER: the user header was found
#include <cmath>
#include <cstdio>
#include <enzyme/enzyme>

static int failures = 0;
static void check(const char *what, double got, double want) {
  bool ok = std::fabs(got - want) <= 1e-12 * (1 + std::fabs(want));
  failures += !ok;
  std::printf("%s %s: got %.15g want %.15g\n", ok ? "PASS" : "FAIL", what, got,
              want);
}

// f(x, y) = x^2 sin(y)
static double f(double x, double y) { return x * x * std::sin(y); }

int main() {
  double x = 1.5, y = 0.4;
  double dx = enzyme::get<0>(enzyme::autodiff<enzyme::Forward>(
      f, enzyme::Duplicated<double>(x, 1.0), enzyme::Const<double>(y)));
  check("forward df/dx", dx, 2 * x * std::sin(y));
  auto grads = enzyme::get<0>(enzyme::autodiff<enzyme::Reverse>(
      f, enzyme::Active<double>(x), enzyme::Active<double>(y)));
  check("reverse df/dx", enzyme::get<0>(grads), 2 * x * std::sin(y));
  check("reverse df/dy", enzyme::get<1>(grads), x * x * std::cos(y));
  std::printf("%s\n", failures ? "FAILED" : "ALL PASSED");
  return failures != 0;
}
