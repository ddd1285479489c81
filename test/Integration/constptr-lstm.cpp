// The ADBench LSTM construct in C++: a std::vector<const double *> built by
// push_back over an enzyme_const sequence, read back and used in active
// arithmetic (this crashed at every -O level: the derivative accumulated
// into the null shadow of the vector's storage), and a lambda capturing a
// constant array by pointer beside an active one. The shadow of a constant
// pointer is the pointer itself, tested at run time where it is read back
// (Enzyme's "runtime activity"). Reverse against central finite
// differences, forward and split against reverse, at every -O level.
// RUN: %clangxx -O0 %s -o %t0 && %t0 | FileCheck %s
// RUN: %clangxx -O1 %s -o %t1 && %t1 | FileCheck %s
// RUN: %clangxx -O2 %s -o %t2 && %t2 | FileCheck %s
// RUN: %clangxx -O3 %s -o %t3 && %t3 | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: ALL PASSED
#include "Inputs/check.h"
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <vector>

extern "C" int enzyme_dup, enzyme_const, enzyme_out;
extern "C" void __enzyme_autodiff(void *, ...);
extern "C" double __enzyme_fwddiff(void *, ...);
struct Aug {
  void *tape;
  double primal;
};
extern "C" Aug __enzyme_augmentfwd(void *, ...);
extern "C" void __enzyme_reverse(void *, ...);

static char label_[256];
#define LABEL(...) (snprintf(label_, sizeof label_, __VA_ARGS__), label_)

constexpr int B = 3, N = 4;

static double sigmoid(double x) { return 1.0 / (1.0 + std::exp(-x)); }

// A one-cell LSTM-like recurrence over the rows of a sequence, the rows
// gathered as pointers the way ADBench's lstm_objective gathers them.
double lstm(const double *w, const double *seq, int n, int b) {
  std::vector<const double *> rows;
  for (int i = 0; i < n; i++)
    rows.push_back(&seq[b * i]);
  std::vector<double> h(b, 0.0), c(b, 0.0);
  double loss = 0;
  for (const double *x : rows) {
    for (int j = 0; j < b; j++) {
      double f = sigmoid(w[j] * x[j] + h[j]);
      double g = std::tanh(w[(j + 1) % b] * x[j] - h[j]);
      c[j] = f * c[j] + (1 - f) * g;
      h[j] = std::tanh(c[j]);
    }
    for (int j = 0; j < b; j++)
      loss += (h[j] - x[j]) * (h[j] - x[j]);
  }
  return loss;
}

// A lambda capturing a constant array and an active one by pointer,
// applied to every row.
template <class F> static double sum_rows(F f, int n) {
  double s = 0;
  for (int i = 0; i < n; i++)
    s += f(i);
  return s;
}
double lambda_capture(const double *w, const double *seq, int n, int b) {
  const double *x = seq;
  auto row = [x, w, b](int i) {
    double s = 0;
    for (int j = 0; j < b; j++)
      s += std::sin(w[j] * x[b * i + j]) * w[j];
    return s;
  };
  double s = 0;
  for (int i = 0; i < n; i++)
    s += row(i);
  return s + sum_rows(row, n);
}

typedef double (*kernel_fn)(const double *, const double *, int, int);

template <kernel_fn k> static void check_kernel(const char *name) {
  double seq[N * B];
  for (int i = 0; i < N * B; i++)
    seq[i] = 0.15 * i - 0.4;
  const double p[B] = {0.3, 0.5, -0.2};
  double g[B] = {0}, w[B];
  std::memcpy(w, p, sizeof w);
  __enzyme_autodiff((void *)k, enzyme_dup, w, g, enzyme_const, seq,
                    enzyme_const, N, enzyme_const, B);
  for (int j = 0; j < B; j++) {
    double q[B];
    std::memcpy(q, p, sizeof q);
    q[j] = p[j] + 1e-6;
    double fp = k(q, seq, N, B);
    q[j] = p[j] - 1e-6;
    double fm = k(q, seq, N, B);
    check_close(LABEL("%s: reverse vs finite difference, d/dw[%d]", name, j),
                g[j], (fp - fm) / 2e-6, 1e-6);
    double dw[B] = {0};
    dw[j] = 1;
    std::memcpy(w, p, sizeof w);
    double t = __enzyme_fwddiff((void *)k, enzyme_dup, w, dw, enzyme_const,
                                seq, enzyme_const, N, enzyme_const, B);
    check_close(LABEL("%s: forward vs reverse, d/dw[%d]", name, j), t, g[j],
                1e-10);
  }
  double ds[B] = {0};
  std::memcpy(w, p, sizeof w);
  Aug a = __enzyme_augmentfwd((void *)k, enzyme_dup, w, ds, enzyme_const, seq,
                               enzyme_const, N, enzyme_const, B);
  __enzyme_reverse((void *)k, enzyme_dup, w, ds, enzyme_const, seq,
                   enzyme_const, N, enzyme_const, B, 1.0, a.tape);
  check_close(LABEL("%s: split primal", name), a.primal, k(p, seq, N, B),
              1e-12);
  for (int j = 0; j < B; j++)
    check_close(LABEL("%s: split vs one-shot, d/dw[%d]", name, j), ds[j], g[j],
                1e-12);
  check_close(LABEL("%s: sequence unchanged", name), seq[5], 0.15 * 5 - 0.4,
              0);
}

int main() {
  check_kernel<lstm>("lstm");
  check_kernel<lambda_capture>("lambda_capture");
  return check_report();
}
