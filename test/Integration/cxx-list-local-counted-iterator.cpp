// A local std::list<double> written through an iterator advanced a counted
// number of times (for (i = 0; i < n; ++i, ++it) *it *= w[i]) rather than
// until end(), and one filled by assign(first, last): df/dx_i = w_i + x_i,
// analytic. Nothing tells the type analysis that the counted iterator never
// reaches the list's header (it stops by count, not at end()), nor, for
// assign, a walk in libstdc++'s code; the header keeps its element count at
// offset 16, where a node keeps its value, so updating the count (++,
// += the nodes inserted) was refused as bit manipulation of a double ("an
// active floating-point value is reinterpreted as a long here"). The
// count's accesses carry TBAA's `long`: under strict aliasing no double is
// read there, and an integer added to it is a count, not a double's bits.
// At -O0 clang emits no TBAA, and the GEP addressing the count names the
// member's declared type: cxx-list-local-counted-iterator-O0.cpp. The same loop to it != end(), push_back and the range
// constructor work at every level (cxx-list-local-filled.cpp).
// RUN: %clangxx -O1 %s -o %t1 && %t1 | FileCheck %s
// RUN: %clangxx -O2 %s -o %t2 && %t2 | FileCheck %s
// RUN: %clangxx -O3 %s -o %t3 && %t3 | FileCheck %s
// RUN: %clangxx -O2 -fsanitize=address -fno-omit-frame-pointer %s -o %ta && %ta | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: ALL PASSED
#include "Inputs/check.h"

#include <list>

extern "C" int enzyme_dup, enzyme_const;
extern "C" void __enzyme_autodiff(void *, ...);

double weighted_sum(const double *x, const double *w, int n) {
  std::list<double> l(x, x + n);
  auto it = l.begin();
  for (int i = 0; i < n; i++, ++it)
    *it *= w[i];
  std::list<double> copy;
  copy.assign(x, x + n);
  double s = 0;
  for (double v : l)
    s += v;
  for (double v : copy)
    s += 0.5 * v * v;
  return s;
}

int main() {
  double x[3] = {0.5, 0.9, -0.2}, w[3] = {1.5, -2.0, 0.25},
         dx[3] = {0, 0, 0};
  __enzyme_autodiff((void *)weighted_sum, enzyme_dup, x, dx, enzyme_const, w,
                    enzyme_const, 3);
  for (int i = 0; i < 3; i++)
    check_close("list", dx[i], w[i] + x[i], 1e-12);
  return check_report();
}
