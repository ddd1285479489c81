// LeakSanitizer, C++ std::vector inside the differentiated function in
// reverse and forward mode: push_back growth (reallocation, copy and free of the storage
// an unknown number of times), a vector sized at construction, and a vector
// of vectors, compiled with exceptions as C++ is by default. Every buffer the
// vector allocates gets a shadow (freed with the sized operator delete), in
// reverse mode with a deferred free. The program is
// compiled with AddressSanitizer and run with leak detection: no leak and no
// memory error may be reported, every derivative call must leave no heap
// bytes behind, and the derivatives must match their analytic values.
// REQUIRES: lsan
// RUN: %clang --driver-mode=g++ -fsanitize=address -fno-omit-frame-pointer -g -O0 %s %tapestry_rt -o %t0 && %lsan_run %t0 2>&1 | FileCheck %s
// RUN: %clang --driver-mode=g++ -fsanitize=address -fno-omit-frame-pointer -g -O2 %s %tapestry_rt -o %t2 && %lsan_run %t2 2>&1 | FileCheck %s
// CHECK-NOT: {{FAIL|Sanitizer|ERROR}}
// CHECK: ALL PASSED: 0 failure(s)
// CHECK-NOT: {{FAIL|Sanitizer|ERROR}}
#include "Inputs/heap.h"
#include <vector>

extern "C" int enzyme_dup, enzyme_const;
extern "C" void __enzyme_autodiff(void *, ...);
extern "C" double __enzyme_fwddiff(void *, ...);

#define TOL 1e-11

/* v gets sin(x_i) x_i for every i and also exp(0.3 x_i) for even i, by
 * push_back; s = sum_k v_k^2. */
double pushback(const double *x, int n) {
  std::vector<double> v;
  for (int i = 0; i < n; i++) {
    v.push_back(sin(x[i]) * x[i]);
    if (i % 2 == 0)
      v.push_back(exp(0.3 * x[i]));
  }
  double s = 0;
  for (size_t k = 0; k < v.size(); k++)
    s += v[k] * v[k];
  return s;
}
static double pushback_d(double x, int i) {
  double a = sin(x) * x, d = 2 * a * (cos(x) * x + sin(x));
  if (i % 2 == 0)
    d += 2 * exp(0.6 * x) * 0.3;
  return d;
}

/* v(n) filled by index: v_i = x_i x_(i+1 mod n); s = sum v_i. */
double sized(const double *x, int n) {
  std::vector<double> v(n);
  for (int i = 0; i < n; i++)
    v[i] = x[i] * x[(i + 1) % n];
  double s = 0;
  for (double e : v)
    s += e;
  return s;
}
static double sized_d(const double *x, int n, int i) {
  return x[(i + 1) % n] + x[(i + n - 1) % n];
}

/* rows[r] holds x_r^1 .. x_r^(r % 5 + 1), pushed one by one; s = sum of all. */
double rows(const double *x, int n) {
  std::vector<std::vector<double>> t;
  for (int r = 0; r < n; r++) {
    std::vector<double> row;
    double p = 1.0;
    for (int k = 0; k <= r % 5; k++) {
      p *= x[r];
      row.push_back(p);
    }
    t.push_back(row);
  }
  double s = 0;
  for (const auto &row : t)
    for (double e : row)
      s += e;
  return s;
}
static double rows_d(double x, int r) {
  double d = 0;
  for (int k = 1; k <= r % 5 + 1; k++)
    d += k * pow(x, k - 1);
  return d;
}

static char label[128];
#define LABEL(...) (snprintf(label, sizeof label, __VA_ARGS__), label)

enum { N = 29 };
static double x[N], dx[N];

#define CHECK_KERNEL(name, f, want)                                            \
  do {                                                                         \
    for (int i = 0; i < N; i++)                                                \
      dx[i] = 0.0;                                                             \
    HEAP_CHECK(name " reverse", 1,                                             \
               __enzyme_autodiff((void *)f, enzyme_dup, x, dx, enzyme_const,   \
                                 (int)N));                                     \
    for (int i = 0; i < N; i++)                                                \
      check_close(LABEL("%s reverse d/dx[%d]", name, i), dx[i], want, TOL);   \
    for (int i = 0; i < N; i += 7) {                                           \
      double t[N] = {0}, d = 0;                                                \
      t[i] = 1.0;                                                              \
      HEAP_CHECK(LABEL("%s forward e_%d", name, i), 1,                         \
                 d = __enzyme_fwddiff((void *)f, enzyme_dup, x, t,             \
                                      enzyme_const, (int)N));                  \
      check_close(LABEL("%s forward d/dx[%d]", name, i), d, want, TOL);       \
    }                                                                          \
  } while (0)

int main() {
  for (int i = 0; i < N; i++)
    x[i] = 0.1 + 0.8 * sin(0.9 * i + 0.4);
  for (int rep = 0; rep < 2; rep++) {
    CHECK_KERNEL("pushback", pushback, pushback_d(x[i], i));
    CHECK_KERNEL("sized", sized, sized_d(x, N, i));
    CHECK_KERNEL("rows", rows, rows_d(x[i], i));
  }
  return check_report();
}
