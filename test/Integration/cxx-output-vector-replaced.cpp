// XFAIL: *
// Known bug (silent wrong number, docs/no-silent-wrong-numbers.md "a
// caller's block freed or grown inside the function", (a); probe39b F1):
// in reverse mode, an output std::vector the caller seeded and that the
// function replaces by a move assignment (`out = sq(z)`) or a swap keeps
// its seeds in the shadow block the move frees; nothing reads them and the
// gradient is 0, with no error, even when the caller gave the output its
// final size. The run-time check of caller blocks freed inside the function
// compares shadows at the end, which cannot tell seeds left behind in a
// replaced block from seeds consumed. Expected: the analytic derivative
// d/dz_i sum_j dout_j (z_j)^2 = 2 z_i dout_i.
// RUN: %clangxx -std=c++17 -O0 %s -o %t0 && %t0 | FileCheck %s
// RUN: %clangxx -std=c++17 -O2 %s -o %t2 && %t2 | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: ALL PASSED
#include "Inputs/check.h"
#include <enzyme/enzyme>
#include <vector>

static std::vector<double> sq(const std::vector<double> &z) {
  std::vector<double> e(z.size());
  for (size_t i = 0; i < z.size(); i++)
    e[i] = z[i] * z[i];
  return e;
}

void sqInto(const std::vector<double> &z, std::vector<double> &out) {
  out = sq(z);
}

void sqSwap(const std::vector<double> &z, std::vector<double> &out) {
  std::vector<double> t = sq(z);
  out.swap(t);
}

int main() {
  std::vector<double> z{0.3, 1.2}, dz(2, 0.0), out(2), dout{1.0, 0.5};
  enzyme::autodiff<enzyme::Reverse>(
      sqInto, enzyme::Duplicated<const std::vector<double> &>(z, dz),
      enzyme::Duplicated<std::vector<double> &>(out, dout));
  for (int i = 0; i < 2; i++)
    check_close("move-assigned output", dz[i], 2 * z[i] * (i ? 0.5 : 1.0),
                1e-12);
  std::vector<double> dz2(2, 0.0), out2(2), dout2{1.0, 0.5};
  enzyme::autodiff<enzyme::Reverse>(
      sqSwap, enzyme::Duplicated<const std::vector<double> &>(z, dz2),
      enzyme::Duplicated<std::vector<double> &>(out2, dout2));
  for (int i = 0; i < 2; i++)
    check_close("swapped output", dz2[i], 2 * z[i] * (i ? 0.5 : 1.0), 1e-12);
  return check_report();
}
