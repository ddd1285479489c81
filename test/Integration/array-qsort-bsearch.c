// qsort and bsearch with user comparators inside differentiated code
// (issue 14, item 8): the derivative follows the permutation qsort applies
// (forward mode permutes the tangents the same way, reverse mode sends each
// adjoint back to where its element came from); the comparators only
// compare; bsearch's result points into the shadow at the same offset. On
// an array of doubles (also with glibc's qsort_r and a comparator argument),
// an array of structs with a double key, an in-place sort of an enzyme_dup
// argument, and a sort inside a loop; reverse and forward mode against
// central finite differences, split and batch mode against one-shot reverse.
//
// The lowering's per-element moves become i64 loads and stores after
// instcombine, at byte offsets `perm[i] << 3`; the type analysis reads the
// index's known trailing zeros as the element stride (once, it saw a stride
// of 1, found no double at these bytes and the reverse moved no adjoint).
// RUN: %clang -O0 %s -lm -o %t0 && %t0 | FileCheck %s
// RUN: %clang -O1 %s -lm -o %t1 && %t1 | FileCheck %s
// RUN: %clang -O2 %s -lm -o %t2 && %t2 | FileCheck %s
// RUN: %clang -O3 %s -lm -o %t3 && %t3 | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: ALL PASSED
#define _GNU_SOURCE /* qsort_r */
#include "Inputs/check.h"
#include <stdlib.h>
#include <string.h>

extern int enzyme_dup, enzyme_const, enzyme_width;
void __enzyme_autodiff(void *, ...);
double __enzyme_fwddiff(void *, ...);
typedef struct {
  void *tape;
  double primal;
} aug_d;
aug_d __enzyme_augmentfwd_d(void *, ...);
double __enzyme_reverse_d(void *, ...);

#include "Inputs/gradcheck.h"

static int by_value(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

static int by_value_in(const void *a, const void *b, void *dir) {
  return *(const int *)dir * by_value(a, b);
}

typedef struct {
  int id;
  double key;
  double weight;
} Item;
static int by_key(const void *a, const void *b) {
  const Item *x = a, *y = b;
  return (x->key > y->key) - (x->key < y->key);
}

/* Sorted values weighted by rank: a piecewise smooth function. */
double ranked(const double *in, int n) {
  double *x = malloc(n * sizeof *x);
  for (int i = 0; i < n; i++)
    x[i] = sin(in[i]) * in[i] + 0.1 * i;
  qsort(x, n, sizeof *x, by_value);
  double s = 0;
  for (int i = 0; i < n; i++)
    s += (i + 1) * x[i] * x[i];
  free(x);
  return s;
}

/* The same, sorted in descending order by qsort_r. */
double ranked_desc(const double *in, int n) {
  double *x = malloc(n * sizeof *x);
  for (int i = 0; i < n; i++)
    x[i] = sin(in[i]) * in[i] + 0.1 * i;
  int dir = -1;
  qsort_r(x, n, sizeof *x, by_value_in, &dir);
  double s = 0;
  for (int i = 0; i < n; i++)
    s += (i + 1) * x[i] * x[i];
  free(x);
  return s;
}

/* Structs sorted by a double key, then the median's weight found again by
 * bsearch. */
double items(const double *in, int n) {
  Item *it = malloc(n * sizeof *it);
  for (int i = 0; i < n; i++) {
    it[i].id = i;
    it[i].key = cos(in[i]) + 0.01 * i;
    it[i].weight = in[i] * in[i];
  }
  qsort(it, n, sizeof *it, by_key);
  double s = 0;
  for (int i = 0; i < n; i++)
    s += (i + 1) * it[i].weight + it[i].key * it[i].id;
  Item probe = {0, it[n / 2].key, 0};
  Item *found = bsearch(&probe, it, n, sizeof *it, by_key);
  s += 3 * found->weight * found->key;
  free(it);
  return s;
}

/* The caller's array sorted in place, then a sort of a scratch copy in
 * every iteration of a loop. */
double sort_in_place(double *x, int n) {
  qsort(x, n, sizeof *x, by_value);
  double s = 0;
  double *t = malloc(n * sizeof *t);
  for (int k = 0; k < 3; k++) {
    for (int i = 0; i < n; i++)
      t[i] = x[(i * (k + 2)) % n] * (k + 1) - x[i];
    qsort(t, n, sizeof *t, by_value);
    for (int i = 0; i < n; i++)
      s += (i + k) * t[i] * x[i];
  }
  free(t);
  return s;
}

#define NK 7
#define KERNEL(name)                                                           \
  static double e_##name(const double *p) {                                    \
    double *x = copy_of(p, NK);                                                \
    double r = name(x, NK);                                                    \
    free(x);                                                                   \
    return r;                                                                  \
  }                                                                            \
  static void g_##name(const double *p, double *g) {                           \
    double *x = copy_of(p, NK);                                                \
    __enzyme_autodiff((void *)name, enzyme_dup, x, g, enzyme_const, NK);       \
    free(x);                                                                   \
  }                                                                            \
  static double t_##name(const double *p, int j) {                             \
    double *x = copy_of(p, NK), *tx = unit_slice(j, 0, NK);                    \
    double t =                                                                 \
        __enzyme_fwddiff((void *)name, enzyme_dup, x, tx, enzyme_const, NK);   \
    free(x), free(tx);                                                         \
    return t;                                                                  \
  }
KERNEL(ranked)
KERNEL(ranked_desc)
KERNEL(items)
KERNEL(sort_in_place)

int main(void) {
  double p[NK];
  fill(p, NK, -1.0, 1.5, 12);
  compare("ranked", NK, p, e_ranked, g_ranked, t_ranked);
  compare("ranked_desc", NK, p, e_ranked_desc, g_ranked_desc, t_ranked_desc);
  compare("items", NK, p, e_items, g_items, t_items);
  compare("sort_in_place", NK, p, e_sort_in_place, g_sort_in_place,
          t_sort_in_place);

  /* Split and batch mode agree with one-shot reverse mode. */
  double once[NK] = {0};
  g_items(p, once);
  {
    double x[NK], dx[NK] = {0};
    memcpy(x, p, sizeof x);
    aug_d r = __enzyme_augmentfwd_d((void *)items, enzyme_dup, x, dx,
                                    enzyme_const, NK);
    check_close("items split primal", r.primal, e_items(p), 1e-12);
    __enzyme_reverse_d((void *)items, enzyme_dup, x, dx, enzyme_const, NK, 1.0,
                       r.tape);
    for (int j = 0; j < NK; j++)
      check_close(LABEL("items split vs one-shot, d/dp[%d]", j), dx[j], once[j],
                  1e-12);
  }
  double once_ip[NK] = {0};
  g_sort_in_place(p, once_ip);
  {
    double x[NK], d0[NK] = {0}, d1[NK] = {0};
    memcpy(x, p, sizeof x);
    __enzyme_autodiff((void *)sort_in_place, enzyme_width, 2, enzyme_dup, x, d0,
                      d1, enzyme_const, NK);
    for (int j = 0; j < NK; j++) {
      check_close(LABEL("sort_in_place batch lane 0, d/dp[%d]", j), d0[j],
                  once_ip[j], 1e-12);
      check_close(LABEL("sort_in_place batch lane 1, d/dp[%d]", j), d1[j],
                  once_ip[j], 1e-12);
    }
  }
  return check_report();
}
