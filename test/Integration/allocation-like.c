// Allocators registered with __enzyme_allocation_like are treated as malloc
// and their deallocators as free, in reverse and forward mode: the shadow
// of a block is allocated by calling the allocator again with the same
// arguments and zeroed over its size argument, and freed by the registered
// deallocator exactly once. The allocator fills its blocks with garbage, so
// an unzeroed shadow gives a wrong derivative; it keeps a list of live
// blocks, so a free of an unknown or already freed block is counted, and
// the program checks that every block it allocated was freed.
// Derivatives against analytic formulas and central finite differences.
// RUN: %clang -O0 %s -lm -o %t0 && %t0 | FileCheck %s
// RUN: %clang -O1 %s -lm -o %t1 && %t1 | FileCheck %s
// RUN: %clang -O2 %s -lm -o %t2 && %t2 | FileCheck %s
// RUN: %clang -O3 %s -lm -o %t3 && %t3 | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: ALL PASSED
#include "Inputs/check.h"
#include <stdlib.h>
#include <string.h>

extern int enzyme_dup, enzyme_const, enzyme_out, enzyme_dupnoneed,
    enzyme_width;
void __enzyme_autodiff(void *, ...);
double __enzyme_fwddiff(void *, ...);
typedef struct {
  void *tape;
  double primal;
} aug_d;
aug_d __enzyme_augmentfwd_d(void *, ...);
void __enzyme_reverse(void *, ...);
typedef struct {
  double d[2];
} D2;
D2 __enzyme_fwddiff_2(void *, ...);

// ---- The allocators: pool_alloc(pool, bytes) / pool_free(p, pool), and
// one_alloc(bytes) / one_free(p).
#define MAX_LIVE 4096
static void *live[MAX_LIVE];
static int live_pool[MAX_LIVE];
static int n_live;
static long n_alloc, n_free, bad_frees;

static void *track(void *p, int pool) {
  if (n_live == MAX_LIVE)
    abort();
  live_pool[n_live] = pool;
  live[n_live++] = p;
  n_alloc++;
  return p;
}
static void untrack(void *p, int pool) {
  for (int i = 0; i < n_live; i++)
    if (live[i] == p) {
      if (live_pool[i] != pool)
        bad_frees++;
      live[i] = live[--n_live];
      live_pool[i] = live_pool[n_live];
      n_free++;
      free(p);
      return;
    }
  bad_frees++; // unknown block, or freed twice
}

__attribute__((noinline)) void *pool_alloc(int pool, size_t bytes) {
  void *p = malloc(bytes);
  memset(p, 0x5a, bytes); // garbage: a shadow must be zeroed
  return track(p, pool);
}
__attribute__((noinline)) void pool_free(void *p, int pool) {
  untrack(p, pool);
}
void *__enzyme_allocation_like[4] = {(void *)pool_alloc, (void *)1,
                                     (void *)"-1,0", (void *)pool_free};

void *one_alloc(size_t bytes) {
  void *p = malloc(bytes);
  memset(p, 0x33, bytes);
  return track(p, -1);
}
void one_free(void *p) { untrack(p, -1); }
void *__enzyme_allocation_like1[4] = {(void *)one_alloc, (void *)0,
                                      (void *)"-1", (void *)one_free};

// ---- Functions to differentiate.

// A scratch buffer: written with active values, read back, freed.
// f = sum_i t_i t_{n-1-i}, t_i = sin(x_i) x_{(i+1)%n}.
double scratch(const double *x, int n) {
  double *t = pool_alloc(7, n * sizeof *t);
  for (int i = 0; i < n; i++)
    t[i] = sin(x[i]) * x[(i + 1) % n];
  double s = 0;
  for (int i = 0; i < n; i++)
    s += t[i] * t[n - 1 - i];
  pool_free(t, 7);
  return s;
}

// A block allocated and freed in every iteration (accumulated in place,
// so a shadow that is not zeroed adds garbage):
// f = sum_k (x_k^2 + x_k^3), through t[0] += ..., t[1] += ...
double per_iteration(const double *x, int n) {
  double s = 0;
  for (int k = 0; k < n; k++) {
    double *t = one_alloc(2 * sizeof *t);
    t[0] = 0;
    t[1] = x[k] * x[k];
    t[0] += t[1] * x[k];
    s += t[0] + t[1];
    one_free(t);
  }
  return s;
}

// A block that outlives the loop that fills it, freed later (the free is
// not in the allocation's loop): f = sum_i w_i x_i^2 with w_i = i + 1.
double kept(const double *x, int n) {
  double *sq[4];
  for (int i = 0; i < n; i++) {
    sq[i] = pool_alloc(i, sizeof(double));
    *sq[i] = x[i] * x[i];
  }
  double s = 0;
  for (int i = 0; i < n; i++) {
    s += (i + 1) * *sq[i];
    pool_free(sq[i], i);
  }
  return s;
}

// The caller's block, freed here: f = sum_i buf_i x_i with buf_i = x_i^2,
// df/dx_i = 3 x_i^2. Its shadow is freed (by one_free) once the request
// is done with it.
double consume(const double *x, double *buf, int n) {
  for (int i = 0; i < n; i++)
    buf[i] = x[i] * x[i];
  double s = 0;
  for (int i = 0; i < n; i++)
    s += buf[i] * x[i];
  one_free(buf);
  return s;
}

#define N 4
static const double X0[N] = {0.7, -1.3, 0.4, 2.1};

typedef double (*fn)(const double *, int);

static double fd(fn f, int j) {
  double x[N];
  memcpy(x, X0, sizeof x);
  double h = 1e-6;
  x[j] = X0[j] + h;
  double fp = f(x, N);
  x[j] = X0[j] - h;
  double fm = f(x, N);
  return (fp - fm) / (2 * h);
}

typedef void (*grad_fn)(double *x, double *dx);
typedef double (*tangent_fn)(double *x, double *t);

#define WRAPPERS(f)                                                            \
  static void f##_grad(double *x, double *dx) {                                \
    __enzyme_autodiff((void *)f, enzyme_dup, x, dx, enzyme_const, N);          \
  }                                                                            \
  static double f##_tangent(double *x, double *t) {                            \
    return __enzyme_fwddiff((void *)f, enzyme_dup, x, t, enzyme_const, N);     \
  }
WRAPPERS(scratch)
WRAPPERS(per_iteration)
WRAPPERS(kept)

/* Split mode (the tape carries the blocks from the forward half to the
 * reverse half) and batch mode (two shadows per block) agree with the
 * one-shot reverse, and free what they allocate. */
#define SPLIT_AND_BATCH(f)                                                     \
  static void f##_split_batch(const double *once) {                            \
    double x[N], dx[N] = {0}, d1[N] = {0};                                     \
    memcpy(x, X0, sizeof x);                                                   \
    long a0 = n_alloc, f0 = n_free;                                            \
    aug_d r = __enzyme_augmentfwd_d((void *)f, enzyme_dup, x, dx,              \
                                    enzyme_const, N);                          \
    __enzyme_reverse((void *)f, enzyme_dup, x, dx, enzyme_const, N, 1.0,       \
                     r.tape);                                                  \
    check_close(#f " split: blocks freed", (double)(n_free - f0),              \
                (double)(n_alloc - a0), 0);                                    \
    for (int j = 0; j < N; j++)                                                \
      check_close(#f " split vs one-shot", dx[j], once[j], 1e-12);             \
    memset(dx, 0, sizeof dx);                                                  \
    a0 = n_alloc, f0 = n_free;                                                 \
    __enzyme_autodiff((void *)f, enzyme_width, 2, enzyme_dup, x, dx, d1,       \
                      enzyme_const, N);                                        \
    check_close(#f " batch: blocks freed", (double)(n_free - f0),              \
                (double)(n_alloc - a0), 0);                                    \
    for (int j = 0; j < N; j++) {                                              \
      check_close(#f " batch lane 0 vs one-shot", dx[j], once[j], 1e-12);     \
      check_close(#f " batch lane 1 vs one-shot", d1[j], once[j], 1e-12);     \
    }                                                                          \
    double t0[N], t1[N], want0 = 0, want1 = 0;                                 \
    for (int j = 0; j < N; j++) {                                              \
      t0[j] = 1, t1[j] = j - 1.5;                                              \
      want0 += once[j] * t0[j], want1 += once[j] * t1[j];                      \
    }                                                                          \
    a0 = n_alloc, f0 = n_free;                                                 \
    D2 t = __enzyme_fwddiff_2((void *)f, enzyme_width, 2, enzyme_dup, x, t0,   \
                              t1, enzyme_const, N);                            \
    check_close(#f " batch forward: blocks freed", (double)(n_free - f0),      \
                (double)(n_alloc - a0), 0);                                    \
    check_close(#f " batch forward lane 0", t.d[0], want0, 1e-10);             \
    check_close(#f " batch forward lane 1", t.d[1], want1, 1e-10);             \
  }
SPLIT_AND_BATCH(scratch)
SPLIT_AND_BATCH(kept)

/* Reverse against finite differences, forward against reverse, and each
 * derivative call allocates and frees as many shadows as the primal has
 * blocks. */
static void check_fn(const char *name, fn f, grad_fn grad, tangent_fn tangent,
                     int blocks_per_run) {
  char label[128];
  double x[N], dx[N] = {0};
  memcpy(x, X0, sizeof x);
  long a0 = n_alloc, f0 = n_free;
  grad(x, dx);
  snprintf(label, sizeof label, "%s reverse: blocks allocated", name);
  check_close(label, (double)(n_alloc - a0), 2.0 * blocks_per_run, 0);
  snprintf(label, sizeof label, "%s reverse: blocks freed", name);
  check_close(label, (double)(n_free - f0), 2.0 * blocks_per_run, 0);
  for (int j = 0; j < N; j++) {
    snprintf(label, sizeof label, "%s reverse d/dx%d vs finite difference",
             name, j);
    check_close(label, dx[j], fd(f, j), 1e-6);
    double t[N] = {0};
    t[j] = 1;
    a0 = n_alloc, f0 = n_free;
    double d = tangent(x, t);
    snprintf(label, sizeof label, "%s forward d/dx%d vs reverse", name, j);
    check_close(label, d, dx[j], 1e-10);
    snprintf(label, sizeof label, "%s forward: blocks allocated", name);
    check_close(label, (double)(n_alloc - a0), 2.0 * blocks_per_run, 0);
    snprintf(label, sizeof label, "%s forward: blocks freed", name);
    check_close(label, (double)(n_free - f0), 2.0 * blocks_per_run, 0);
  }
}

int main(void) {
  check_fn("scratch", scratch, scratch_grad, scratch_tangent, 1);
  check_fn("per_iteration", per_iteration, per_iteration_grad,
           per_iteration_tangent, N);
  check_fn("kept", kept, kept_grad, kept_tangent, N);
  // Analytic: per_iteration' = 2x + 3x^2, kept' = 2 (i+1) x.
  {
    double x[N], dx[N] = {0}, dk[N] = {0};
    memcpy(x, X0, sizeof x);
    per_iteration_grad(x, dx);
    kept_grad(x, dk);
    for (int j = 0; j < N; j++) {
      check_close("per_iteration analytic", dx[j],
                  2 * X0[j] + 3 * X0[j] * X0[j], 1e-12);
      check_close("kept analytic", dk[j], 2 * (j + 1) * X0[j], 1e-12);
    }
  }
  {
    double x[N], ds[N] = {0}, dk[N] = {0};
    memcpy(x, X0, sizeof x);
    scratch_grad(x, ds);
    kept_grad(x, dk);
    scratch_split_batch(ds);
    kept_split_batch(dk);
  }
  // The caller's blocks, freed by the function (shadow included).
  {
    double x[N], dx[N] = {0};
    memcpy(x, X0, sizeof x);
    long a0 = n_alloc, f0 = n_free;
    double *buf = one_alloc(N * sizeof(double));
    double *dbuf = one_alloc(N * sizeof(double));
    memset(dbuf, 0, N * sizeof(double));
    __enzyme_autodiff((void *)consume, enzyme_dup, x, dx, enzyme_dup, buf, dbuf,
                      enzyme_const, N);
    for (int j = 0; j < N; j++)
      check_close("consume reverse vs analytic", dx[j], 3 * X0[j] * X0[j],
                  1e-12);
    check_close("consume reverse: blocks freed", (double)(n_free - f0),
                (double)(n_alloc - a0), 0);
    buf = one_alloc(N * sizeof(double));
    dbuf = one_alloc(N * sizeof(double));
    memset(dbuf, 0, N * sizeof(double));
    double t[N] = {0.5, -1, 2, 0.25};
    double d = __enzyme_fwddiff((void *)consume, enzyme_dup, x, t, enzyme_dup,
                                buf, dbuf, enzyme_const, N);
    double want = 0;
    for (int j = 0; j < N; j++)
      want += 3 * X0[j] * X0[j] * t[j];
    check_close("consume forward vs analytic", d, want, 1e-12);
  }
  check_close("blocks still live", (double)n_live, 0, 0);
  check_close("blocks allocated == blocks freed", (double)n_alloc,
              (double)n_free, 0);
  check_close("frees of unknown or freed blocks", (double)bad_frees, 0, 0);
  return check_report();
}
