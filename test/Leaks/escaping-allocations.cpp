// Memory a differentiated function allocates and leaves to its caller (a
// block stored into a Duplicated struct, a Duplicated std::vector grown by
// push_back) keeps its shadow too: the caller finds the shadow block in its
// shadow struct / shadow vector and frees both, as it frees the primal. The
// reverse sweep must not free it (that was a double free at ~vector), and
// nothing may leak: the shadows of the blocks the function frees (the
// vector's old storage, its own or the caller's) are freed once the
// reverse sweep is done with them. Compiled with AddressSanitizer, run with leak detection.
// Expected values are analytic.
// REQUIRES: lsan
// RUN: %clang --driver-mode=g++ -fsanitize=address -fno-omit-frame-pointer -g -O0 %s %tapestry_rt -o %t0 && %lsan_run %t0 2>&1 | FileCheck %s
// RUN: %clang --driver-mode=g++ -fsanitize=address -fno-omit-frame-pointer -g -O2 %s %tapestry_rt -o %t2 && %lsan_run %t2 2>&1 | FileCheck %s
// CHECK-NOT: {{FAIL|Sanitizer|ERROR}}
// CHECK: ALL PASSED: 0 failure(s)
// CHECK-NOT: {{FAIL|Sanitizer|ERROR}}
#include "Inputs/heap.h"
#include <enzyme/enzyme>

#include <cmath>
#include <cstdlib>
#include <vector>

struct Buf {
  double *p;
};

// q[0] = x^2 escapes through b->p; the result reads it back.
double alloc_into(Buf *b, double x) {
  double *q = (double *)malloc(2 * sizeof(double));
  q[0] = x * x;
  q[1] = std::sin(x);
  b->p = q;
  return q[0] + 3 * q[1];
}

// v grows (reallocating several times); returns the sum of what was added.
double append_squares(std::vector<double> &v, const double *x, int n) {
  double s = 0;
  for (int i = 0; i < n; ++i) {
    v.push_back(x[i] * x[i]);
    s += v.back();
  }
  return s;
}

int main() {
  Buf b{nullptr}, db{nullptr};
  const double x = 0.7;
  double dx = enzyme::get<0>(enzyme::get<0>(enzyme::autodiff<enzyme::Reverse>(
      alloc_into, enzyme::Duplicated<Buf *>(&b, &db), enzyme::Active(x))));
  check_close("escaping block, d/dx", dx, 2 * x + 3 * std::cos(x), 1e-12);
  check_close("escaping block has a shadow", db.p != nullptr, 1, 0);
  check_close("its adjoint was consumed", db.p[0] + db.p[1], 0, 0);
  free(b.p);
  free(db.p);

  const int n = 9;
  double xs[n], dxs[n] = {0};
  for (int i = 0; i < n; ++i)
    xs[i] = 0.1 * (i + 1);
  {
    std::vector<double> v, dv;
    enzyme::autodiff<enzyme::Reverse>(append_squares,
                                      enzyme::Duplicated<std::vector<double> &>(v, dv),
                                      enzyme::Duplicated<const double *>(xs, dxs),
                                      enzyme::Const(n));
    check_close("grown vector keeps its size", (double)v.size(), n, 0);
    check_close("shadow vector grew with it", (double)dv.size(), n, 0);
    for (int i = 0; i < n; ++i)
      check_close("push_back, reverse", dxs[i], 2 * xs[i], 1e-12);
  }
  {
    // The caller's own storage (3 elements, full) is freed when v grows:
    // its shadow, dv's old storage, is freed when the request ends.
    std::vector<double> v = {1, 2, 3}, dv = {0.5, 0.5, 0.5};
    v.shrink_to_fit();
    dv.shrink_to_fit();
    double d2[n] = {0};
    enzyme::autodiff<enzyme::Reverse>(append_squares,
                                      enzyme::Duplicated<std::vector<double> &>(v, dv),
                                      enzyme::Duplicated<const double *>(xs, d2),
                                      enzyme::Const(n));
    check_close("grown from the caller's storage", (double)dv.size(), n + 3, 0);
    for (int i = 0; i < n; ++i)
      check_close("push_back after the caller's elements, reverse", d2[i], 2 * xs[i], 1e-12);
  }
  {
    std::vector<double> v, tv;
    double tx[n];
    for (int i = 0; i < n; ++i)
      tx[i] = i % 3 - 1.0;
    double t = enzyme::get<0>(enzyme::autodiff<enzyme::Forward>(
        append_squares, enzyme::Duplicated<std::vector<double> &>(v, tv),
        enzyme::Duplicated<const double *>(xs, tx), enzyme::Const(n)));
    double want = 0;
    for (int i = 0; i < n; ++i) {
      want += 2 * xs[i] * tx[i];
      check_close("push_back, forward tangent element", tv.at(i), 2 * xs[i] * tx[i], 1e-12);
    }
    check_close("push_back, forward", t, want, 1e-12);
  }
  return check_report();
}
