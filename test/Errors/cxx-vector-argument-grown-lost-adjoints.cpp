// A std::vector argument whose storage the differentiated function replaces
// after reading it: push_back outgrowing the capacity, a move assignment.
// In reverse mode the adjoints of the values read reach the shadow of the
// old storage, freed with it, while the caller's shadow vector points to
// the new one: the gradient came back 0 without a word (probe25b W1). The
// program now stops when the request ends, naming the function. A vector
// that grows from empty, a scratch member resized from empty, and a copy
// assignment into the same storage run and match the analytic gradient,
// also where the caller's vector has more capacity than its shadow (built
// by push_back, the shadow sized to it): the shadow's own block is copied
// and compared, not as many bytes as the primal's.
// RUN: %clangxx -std=c++20 -O0 %s -lm -o %t0
// RUN: %t0 ok | FileCheck %s
// RUN: not --crash %t0 push 2>&1 | FileCheck %s --check-prefix=PUSH
// RUN: not --crash %t0 move 2>&1 | FileCheck %s --check-prefix=MOVE
// Without sized deallocation (C++11, -fno-sized-deallocation) std::vector
// frees with the unsized operator delete: checked the same.
// RUN: %clangxx -std=c++11 -fno-sized-deallocation -O2 %s -lm -o %t11
// RUN: %t11 ok | FileCheck %s
// RUN: not --crash %t11 push 2>&1 | FileCheck %s --check-prefix=PUSH
// RUN: %clangxx -std=c++20 -O2 %s -lm -o %t2
// RUN: %t2 ok | FileCheck %s
// RUN: not --crash %t2 push 2>&1 | FileCheck %s --check-prefix=PUSH
// RUN: not --crash %t2 move 2>&1 | FileCheck %s --check-prefix=MOVE
// CHECK-NOT: FAIL
// CHECK: ALL PASSED
// PUSH: tapestry: the reverse derivative of 'step(std::vector<double, std::allocator<double>>&)' lost adjoints
// PUSH-NOT: dh
// MOVE: tapestry: the reverse derivative of 'softmax_first(std::vector<double, std::allocator<double>>&)' lost adjoints
#include "../Integration/Inputs/check.h"
#include <cmath>
#include <cstdio>
#include <cstring>
#include <vector>

static char label_[96];
#define LABEL(...) (std::snprintf(label_, sizeof label_, __VA_ARGS__), label_)

extern int enzyme_dup, enzyme_const;
extern "C" void __enzyme_autodiff(void *, ...);

// A history buffer: the next value from the last two, appended.
double step(std::vector<double> &h) {
  std::size_t n = h.size();
  double next = 0.9 * h[n - 1] + 0.3 * h[n - 2] * h[n - 2];
  h.push_back(next);
  return next;
}

// Softmax in place through a temporary moved into the argument.
double softmax_first(std::vector<double> &v) {
  std::vector<double> w(v.size());
  double z = 0;
  for (std::size_t i = 0; i < v.size(); ++i)
    z += w[i] = std::exp(v[i]);
  for (double &e : w)
    e /= z;
  v = std::move(w);
  return v[0];
}

// The same with a copy assignment: v keeps its storage.
double softmax_first_copy(std::vector<double> &v) {
  std::vector<double> w(v.size());
  double z = 0;
  for (std::size_t i = 0; i < v.size(); ++i)
    z += w[i] = std::exp(v[i]);
  for (double &e : w)
    e /= z;
  v = w;
  return v[0];
}

// Squares appended to a vector the caller passes empty.
double squares(std::vector<double> &out, const double *in, int n) {
  for (int i = 0; i < n; ++i)
    out.push_back(in[i] * in[i]);
  double s = 0;
  for (double e : out)
    s += e * std::sin(e);
  return s;
}

// A solver with a scratch member sized on first use.
struct Smoother {
  std::vector<double> work;
  double run(const double *in, int n) {
    work.resize(n);
    for (int i = 0; i < n; ++i)
      work[i] = in[i] * (i + 1);
    double s = 0;
    for (int i = 1; i < n; ++i)
      s += work[i] * work[i - 1];
    return s;
  }
};
double smooth(Smoother *s, const double *in, int n) { return s->run(in, n); }

// Resized past its capacity and overwritten: its old values get no adjoint.
double refill(std::vector<double> &v, const double *x, int n) {
  v.resize(100);
  for (int i = 0; i < 100; ++i)
    v[i] = x[i % n] * (i + 1);
  double s = 0;
  for (double e : v)
    s += std::sin(e);
  return s;
}

int main(int argc, char **argv) {
  const char *mode = argc > 1 ? argv[1] : "ok";
  if (!std::strcmp(mode, "push")) {
    std::vector<double> h{1.0, 2.0}, dh(2, 0.0);
    __enzyme_autodiff((void *)step, enzyme_dup, &h, &dh);
    std::printf("dh[0] = %g\n", dh[0]);
    return 0;
  }
  if (!std::strcmp(mode, "move")) {
    std::vector<double> v{0.5, -0.2, 1.1}, dv(3, 0.0);
    __enzyme_autodiff((void *)softmax_first, enzyme_dup, &v, &dv);
    std::printf("dv[0] = %g\n", dv[0]);
    return 0;
  }
  {
    double x[3] = {0.5, -0.2, 1.1};
    std::vector<double> v(x, x + 3), dv(3, 0.0);
    __enzyme_autodiff((void *)softmax_first_copy, enzyme_dup, &v, &dv);
    double z = std::exp(x[0]) + std::exp(x[1]) + std::exp(x[2]);
    double p0 = std::exp(x[0]) / z;
    for (int i = 0; i < 3; ++i)
      check_close(LABEL("softmax_first_copy d/dv[%d]", i), dv[i],
                  p0 * ((i == 0) - std::exp(x[i]) / z), 1e-12);
  }
  {
    double in[3] = {0.7, -1.1, 1.3}, din[3] = {0};
    std::vector<double> out, dout;
    __enzyme_autodiff((void *)squares, enzyme_dup, &out, &dout, enzyme_dup, in,
                      din, enzyme_const, 3);
    for (int i = 0; i < 3; ++i) {
      double u = in[i] * in[i];
      check_close(LABEL("squares d/din[%d]", i), din[i],
                  2 * in[i] * (std::sin(u) + u * std::cos(u)), 1e-12);
    }
  }
  {
    double in[4] = {0.6, -1.7, 1.2, 0.9}, din[4] = {0};
    Smoother s, ds;
    __enzyme_autodiff((void *)smooth, enzyme_dup, &s, &ds, enzyme_dup, in, din,
                      enzyme_const, 4);
    // s = sum_i (i+1) i in[i] in[i-1]
    for (int j = 0; j < 4; ++j) {
      double want = 0;
      if (j >= 1)
        want += (j + 1) * j * in[j - 1];
      if (j + 1 < 4)
        want += (j + 2) * (j + 1) * in[j + 1];
      check_close(LABEL("smooth d/din[%d]", j), din[j], want, 1e-12);
    }
  }
  {
    const int n = 3;
    double x[n] = {0.3, -0.8, 1.1}, dx[n] = {0};
    std::vector<double> v;
    for (int i = 0; i < 40; ++i)
      v.push_back(i);
    std::vector<double> dv(v.size(), 0.0);
    __enzyme_autodiff((void *)refill, enzyme_dup, &v, &dv, enzyme_dup, x, dx,
                      enzyme_const, n);
    for (int j = 0; j < n; ++j) {
      double want = 0;
      for (int i = j; i < 100; i += n)
        want += (i + 1) * std::cos(x[j] * (i + 1));
      check_close(LABEL("refill d/dx[%d]", j), dx[j], want, 1e-10);
    }
  }
  return check_report();
}
