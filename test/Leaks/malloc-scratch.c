// LeakSanitizer, heap scratch space inside the differentiated function, in
// reverse mode (where each allocation gets a shadow and its free is deferred
// to the reverse sweep) and forward mode (a shadow allocation next to each
// primal one): malloc/fill/reduce/free, calloc, an allocation made and freed
// in every loop iteration, a buffer grown by realloc, and a linked list of
// malloc'd nodes. The program is compiled with AddressSanitizer and run with
// leak detection: no leak and no memory error may be reported, every
// derivative call must leave no heap bytes behind, and the derivatives must
// match their analytic values.
// REQUIRES: lsan
// RUN: %clang -fsanitize=address -fno-omit-frame-pointer -g -O0 %s -lm %tapestry_rt -o %t0 && %lsan_run %t0 2>&1 | FileCheck %s
// RUN: %clang -fsanitize=address -fno-omit-frame-pointer -g -O2 %s -lm %tapestry_rt -o %t2 && %lsan_run %t2 2>&1 | FileCheck %s
// CHECK-NOT: {{FAIL|Sanitizer|ERROR}}
// CHECK: ALL PASSED: 0 failure(s)
// CHECK-NOT: {{FAIL|Sanitizer|ERROR}}
#include "Inputs/heap.h"
#include <stdlib.h>
#include <string.h>

extern int enzyme_out, enzyme_dup, enzyme_const;
void __enzyme_autodiff(void *, ...);
double __enzyme_fwddiff(void *, ...);

#define TOL 1e-11

/* sum_i t_i sin(t_(n-1-i)), t = x^2 in a malloc'd buffer. (Read mirrored:
 * a scratch read only at the index it was written is computed again where
 * it is read, and its buffer then goes, shadow and all; that shape is
 * test/Integration/scratch-arrays-between-loops.c.) */
double scratch(const double *x, int n) {
  double *t = malloc(n * sizeof *t);
  for (int i = 0; i < n; i++)
    t[i] = x[i] * x[i];
  double s = 0.0;
  for (int i = 0; i < n; i++)
    s += t[i] * sin(t[n - 1 - i]);
  free(t);
  return s;
}
static double scratch_d(const double *x, int n, int k) {
  double t = x[k] * x[k], m = x[n - 1 - k] * x[n - 1 - k];
  return 2 * x[k] * (sin(m) + m * cos(t));
}

/* A calloc'd accumulator of n / 2 + 1 cells, acc[i % k] += exp(x_i) and
 * s = sum acc_k^2. */
double accumulate(const double *x, int n) {
  int k = n / 2 + 1;
  double *acc = calloc(k, sizeof *acc);
  for (int i = 0; i < n; i++)
    acc[i % k] += exp(0.5 * x[i]);
  double s = 0.0;
  for (int j = 0; j < k; j++)
    s += acc[j] * acc[j];
  free(acc);
  return s;
}
static double accumulate_d(const double *x, int n, int i) {
  int k = n / 2 + 1;
  double cell = 0.0;
  for (int m = i % k; m < n; m += k)
    cell += exp(0.5 * x[m]);
  return 2 * cell * 0.5 * exp(0.5 * x[i]);
}

/* m = 3 + i % 4 cells malloc'd and freed in every iteration, b_k =
 * x_i^(k+1) / (k+1)!, s += b_(m-1) + b_1. */
double per_iteration(const double *x, int n) {
  double s = 0.0;
  for (int i = 0; i < n; i++) {
    int m = 3 + i % 4;
    double *b = malloc(m * sizeof *b);
    b[0] = x[i];
    for (int k = 1; k < m; k++)
      b[k] = b[k - 1] * x[i] / (k + 1);
    s += b[m - 1] + b[1];
    free(b);
  }
  return s;
}
static double per_iteration_d(double x, int i) {
  int m = 3 + i % 4;
  double p = 1.0; /* x^(m-1) / (m-1)! */
  for (int k = 1; k < m; k++)
    p *= x / k;
  return p + x;
}

/* exp(x_i) appended to a buffer realloc'd to twice its size when full, then
 * s = sum buf_i^2. */
double grown(const double *x, int n) {
  double *buf = NULL;
  int len = 0, cap = 0;
  for (int i = 0; i < n; i++) {
    if (len == cap) {
      cap = cap ? 2 * cap : 1;
      buf = realloc(buf, cap * sizeof *buf);
    }
    buf[len++] = exp(x[i]);
  }
  double s = 0.0;
  for (int i = 0; i < len; i++)
    s += buf[i] * buf[i];
  free(buf);
  return s;
}
static double grown_d(double x) { return 2 * exp(2 * x); }

/* A linked list of malloc'd nodes holding x_i cos(x_i), pushed at the head,
 * then walked (s = sum v_i w_i with w_i the weight of the position) and
 * freed. */
struct node {
  double v;
  struct node *next;
};
double list(const double *x, int n) {
  struct node *head = NULL;
  for (int i = 0; i < n; i++) {
    struct node *e = malloc(sizeof *e);
    e->v = x[i] * cos(x[i]);
    e->next = head;
    head = e;
  }
  double s = 0.0, w = 1.0;
  while (head) {
    struct node *next = head->next;
    s += w * head->v * head->v;
    w += 1.0;
    free(head);
    head = next;
  }
  return s;
}
static double list_d(double x, int i, int n) {
  double w = n - i; /* the node of x_i is visited (n - 1 - i)-th */
  double v = x * cos(x);
  return w * 2 * v * (cos(x) - x * sin(x));
}

static char label[128];
#define LABEL(...) (snprintf(label, sizeof label, __VA_ARGS__), label)

enum { N = 37 };
static double x[N], dx[N], want[N];

/* A macro, not a function: the differentiated function must be a constant. */
#define CHECK_KERNEL(name, f)                                                  \
  do {                                                                         \
    for (int i = 0; i < N; i++)                                                \
      dx[i] = 0.0;                                                             \
    HEAP_CHECK(name " reverse", 1,                                             \
               __enzyme_autodiff((void *)f, enzyme_dup, x, dx, enzyme_const,   \
                                 N));                                          \
    for (int i = 0; i < N; i++)                                                \
      check_close(LABEL("%s reverse d/dx[%d]", name, i), dx[i], want[i], TOL); \
    for (int j = 0; j < N; j += 6) {                                           \
      double t[N] = {0}, d = 0;                                                \
      t[j] = 1.0;                                                              \
      HEAP_CHECK(LABEL("%s forward e_%d", name, j), 1,                         \
                 d = __enzyme_fwddiff((void *)f, enzyme_dup, x, t,             \
                                      enzyme_const, N));                       \
      check_close(LABEL("%s forward d/dx[%d]", name, j), d, want[j], TOL);     \
    }                                                                          \
  } while (0)

int main(void) {
  for (int i = 0; i < N; i++)
    x[i] = 0.3 + 0.7 * sin(1.3 * i);
  for (int rep = 0; rep < 2; rep++) {
    for (int i = 0; i < N; i++)
      want[i] = scratch_d(x, N, i);
    CHECK_KERNEL("scratch", scratch);
    for (int i = 0; i < N; i++)
      want[i] = accumulate_d(x, N, i);
    CHECK_KERNEL("accumulate", accumulate);
    for (int i = 0; i < N; i++)
      want[i] = per_iteration_d(x[i], i);
    CHECK_KERNEL("per_iteration", per_iteration);
    for (int i = 0; i < N; i++)
      want[i] = grown_d(x[i]);
    CHECK_KERNEL("grown", grown);
    for (int i = 0; i < N; i++)
      want[i] = list_d(x[i], i, N);
    CHECK_KERNEL("list", list);
  }
  return check_report();
}
