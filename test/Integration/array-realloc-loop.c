// realloc in the shapes issue 14 (item 8) lists, in reverse and forward mode
// against central finite differences, and in split and batch mode against
// one-shot reverse mode: a buffer grown one element per iteration from a null
// pointer and freed after the loop (a constant trip count, which the
// simplifier rotates so that the free after the loop names the loop's
// allocation: it used to free every iteration's block a second time), the
// same with a data-dependent length, a buffer shrunk with realloc, and a
// buffer reached through an enzyme_dup struct grown by realloc.
// RUN: %clang -O0 %s -lm -o %t0 && %t0 | FileCheck %s
// RUN: %clang -O1 %s -lm -o %t1 && %t1 | FileCheck %s
// RUN: %clang -O2 %s -lm -o %t2 && %t2 | FileCheck %s
// RUN: %clang -O3 %s -lm -o %t3 && %t3 | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: ALL PASSED
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
typedef struct {
  double d[2];
} D2;
D2 __enzyme_fwddiff_2(void *, ...);

#include "Inputs/gradcheck.h"

#define NM 4

/* Constant trip count, null start, free after the loop. */
double grow4(const double *in) {
  double *x = 0;
  for (int i = 0; i < NM; i++) {
    x = realloc(x, (i + 1) * sizeof *x);
    x[i] = in[i] * in[i] + sin(in[i]);
  }
  double s = 0;
  for (int i = 0; i < NM; i++)
    s += x[i] * x[NM - 1 - i] + (i + 1) * x[i];
  free(x);
  return s;
}

/* Only the positive inputs are kept: the length depends on the data. */
double keep_positive(const double *in, int n) {
  double *x = NULL;
  int len = 0;
  for (int i = 0; i < n; i++)
    if (in[i] > 0) {
      x = realloc(x, (len + 1) * sizeof *x);
      x[len++] = in[i] * exp(0.5 * in[i]);
    }
  double s = 0;
  for (int i = 0; i < len; i++)
    s += (i + 1) * x[i] * x[i];
  free(x);
  return s;
}

/* Filled at twice the size, then shrunk. */
double shrink(const double *in, int n) {
  double *x = malloc(2 * n * sizeof *x);
  for (int i = 0; i < 2 * n; i++)
    x[i] = cos(in[i % n]) * (i + 1);
  x = realloc(x, n * sizeof *x);
  double s = 0;
  for (int i = 0; i < n; i++)
    s += x[i] * x[i] * in[i];
  free(x);
  return s;
}

/* A vector the caller owns, passed enzyme_dup, grown by realloc. */
typedef struct {
  double *data;
  int len;
} Vec;
static void push(Vec *v, double val) {
  v->data = realloc(v->data, (v->len + 1) * sizeof *v->data);
  v->data[v->len++] = val;
}
double fill_vec(Vec *v, const double *in, int n) {
  for (int i = 0; i < n; i++)
    push(v, in[i] * in[i]);
  double s = 0;
  for (int i = 0; i < v->len; i++)
    s += v->data[i] * sin(v->data[i]);
  return s;
}

static double e_grow(const double *p) {
  double *x = copy_of(p, NM);
  double r = grow4(x);
  free(x);
  return r;
}
static void g_grow(const double *p, double *g) {
  double *x = copy_of(p, NM);
  __enzyme_autodiff((void *)grow4, enzyme_dup, x, g);
  free(x);
}
static double t_grow(const double *p, int j) {
  double *x = copy_of(p, NM), *tx = unit_slice(j, 0, NM);
  double t = __enzyme_fwddiff((void *)grow4, enzyme_dup, x, tx);
  free(x), free(tx);
  return t;
}

#define NK 7
static double e_keep(const double *p) {
  double *x = copy_of(p, NK);
  double r = keep_positive(x, NK);
  free(x);
  return r;
}
static void g_keep(const double *p, double *g) {
  double *x = copy_of(p, NK);
  __enzyme_autodiff((void *)keep_positive, enzyme_dup, x, g, enzyme_const, NK);
  free(x);
}
static double t_keep(const double *p, int j) {
  double *x = copy_of(p, NK), *tx = unit_slice(j, 0, NK);
  double t = __enzyme_fwddiff((void *)keep_positive, enzyme_dup, x, tx,
                              enzyme_const, NK);
  free(x), free(tx);
  return t;
}

static double e_shrink(const double *p) {
  double *x = copy_of(p, NK);
  double r = shrink(x, NK);
  free(x);
  return r;
}
static void g_shrink(const double *p, double *g) {
  double *x = copy_of(p, NK);
  __enzyme_autodiff((void *)shrink, enzyme_dup, x, g, enzyme_const, NK);
  free(x);
}
static double t_shrink(const double *p, int j) {
  double *x = copy_of(p, NK), *tx = unit_slice(j, 0, NK);
  double t =
      __enzyme_fwddiff((void *)shrink, enzyme_dup, x, tx, enzyme_const, NK);
  free(x), free(tx);
  return t;
}

/* The vector starts empty. (Started with an element whose value the result
   reads, the realloc frees the caller's block after that read: reverse mode
   stops, Errors/caller-block-freed-lost-adjoints.c.) */
static Vec start_vec(void) {
  Vec v = {NULL, 0};
  return v;
}
static double e_vec(const double *p) {
  Vec v = start_vec();
  double r = fill_vec(&v, p, NK);
  free(v.data);
  return r;
}
static void g_vec(const double *p, double *g) {
  double *x = copy_of(p, NK);
  Vec v = start_vec(), dv = start_vec();
  __enzyme_autodiff((void *)fill_vec, enzyme_dup, &v, &dv, enzyme_dup, x, g,
                    enzyme_const, NK);
  free(v.data), free(dv.data), free(x);
}
static double t_vec(const double *p, int j) {
  double *x = copy_of(p, NK), *tx = unit_slice(j, 0, NK);
  Vec v = start_vec(), dv = start_vec();
  double t = __enzyme_fwddiff((void *)fill_vec, enzyme_dup, &v, &dv, enzyme_dup,
                              x, tx, enzyme_const, NK);
  free(v.data), free(dv.data), free(x), free(tx);
  return t;
}

int main(void) {
  double p[NK];
  fill(p, NK, -1.0, 1.5, 12);
  compare("grow4", NM, p, e_grow, g_grow, t_grow);
  compare("keep_positive", NK, p, e_keep, g_keep, t_keep);
  compare("shrink", NK, p, e_shrink, g_shrink, t_shrink);
  compare("fill_vec", NK, p, e_vec, g_vec, t_vec);

  /* Split mode and batch mode agree with one-shot reverse mode. */
  double once[NK] = {0};
  g_keep(p, once);
  {
    double x[NK], dx[NK] = {0};
    memcpy(x, p, sizeof x);
    aug_d r = __enzyme_augmentfwd_d((void *)keep_positive, enzyme_dup, x, dx,
                                    enzyme_const, NK);
    check_close("keep_positive split primal", r.primal, e_keep(p), 1e-12);
    __enzyme_reverse_d((void *)keep_positive, enzyme_dup, x, dx, enzyme_const,
                       NK, 1.0, r.tape);
    for (int j = 0; j < NK; j++)
      check_close(LABEL("keep_positive split vs one-shot, d/dp[%d]", j), dx[j],
                  once[j], 1e-12);
  }
  {
    double x[NK], d0[NK] = {0}, d1[NK] = {0};
    memcpy(x, p, sizeof x);
    __enzyme_autodiff((void *)keep_positive, enzyme_width, 2, enzyme_dup, x, d0,
                      d1, enzyme_const, NK);
    for (int j = 0; j < NK; j++) {
      check_close(LABEL("keep_positive batch lane 0, d/dp[%d]", j), d0[j],
                  once[j], 1e-12);
      check_close(LABEL("keep_positive batch lane 1, d/dp[%d]", j), d1[j],
                  once[j], 1e-12);
    }
    double t0[NK] = {0}, t1[NK] = {0};
    for (int j = 0; j < NK; j++)
      t0[j] = 1.0, t1[j] = j - 2.0;
    D2 t = __enzyme_fwddiff_2((void *)keep_positive, enzyme_width, 2,
                              enzyme_dup, x, t0, t1, enzyme_const, NK);
    double want0 = 0, want1 = 0;
    for (int j = 0; j < NK; j++)
      want0 += once[j] * t0[j], want1 += once[j] * t1[j];
    check_close("keep_positive batch forward lane 0", t.d[0], want0, 1e-10);
    check_close("keep_positive batch forward lane 1", t.d[1], want1, 1e-10);
  }
  double once4[NM] = {0};
  g_grow(p, once4);
  {
    double x[NM], d0[NM] = {0}, d1[NM] = {0};
    memcpy(x, p, sizeof x);
    __enzyme_autodiff((void *)grow4, enzyme_width, 2, enzyme_dup, x, d0, d1);
    for (int j = 0; j < NM; j++)
      check_close(LABEL("grow4 batch lane 1, d/dp[%d]", j), d1[j], once4[j],
                  1e-12);
    double dx[NM] = {0};
    memcpy(x, p, sizeof x);
    aug_d r = __enzyme_augmentfwd_d((void *)grow4, enzyme_dup, x, dx);
    __enzyme_reverse_d((void *)grow4, enzyme_dup, x, dx, 1.0, r.tape);
    for (int j = 0; j < NM; j++)
      check_close(LABEL("grow4 split vs one-shot, d/dp[%d]", j), dx[j],
                  once4[j], 1e-12);
  }
  return check_report();
}
