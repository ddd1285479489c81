// Recursion inside differentiated code, in reverse and forward mode at every
// -O level, against analytic derivatives:
//   - a recursive power pow_rec(x, n) = n == 0 ? 1 : x * pow_rec(x, n - 1)
//     for several n (n = 0 included: the derivative is exactly 0; n = 300
//     for a deep recursion), called directly and from another function, and
//     a two-argument variant whose adjoints come back as a struct;
//   - recursive Horner evaluation over an array (pointer + count recursion);
//   - recursive sums over a heap-allocated binary tree of 7 nodes
//     (sum of v*v, and sum of sin(w*v) with an active scalar w), the
//     gradient landing in a shadow tree of the same shape; in forward mode
//     the shadow tree carries per-node tangents;
//   - a recursion whose result is used nonlinearly by its caller (checked
//     against central finite differences, no simple closed form);
//   - mutual recursion (even/odd), with the closed form
//     even_p(x, n) = 2^floor(n/2) x^n.
// RUN: %clang -O0 %s -lm -o %t0 && %t0 | FileCheck %s
// RUN: %clang -O1 %s -lm -o %t1 && %t1 | FileCheck %s
// RUN: %clang -O2 %s -lm -o %t2 && %t2 | FileCheck %s
// RUN: %clang -O3 %s -lm -o %t3 && %t3 | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: ALL PASSED
#include "Inputs/check.h"
#include <stdlib.h>

extern int enzyme_dup, enzyme_const, enzyme_out;
double __enzyme_autodiff(void *, ...);
typedef struct {
  double dx, dy;
} Pair;
Pair __enzyme_autodiff_pair(void *, ...);
double __enzyme_fwddiff(void *, ...);

static char label_[128];
#define LBL(...) (snprintf(label_, sizeof label_, __VA_ARGS__), label_)

/* ---- recursive power ---- */
double pow_rec(double x, int n) { return n == 0 ? 1.0 : x * pow_rec(x, n - 1); }

/* pow_rec from another function, with two different bases:
   x^3 + (x^2)^2 = x^3 + x^4 */
double pow_user(double x) { return pow_rec(x, 3) + pow_rec(x * x, 2); }

/* x^n * y, the recursion carrying y down */
double pow_scale(double x, double y, int n) {
  return n == 0 ? y : x * pow_scale(x, y, n - 1);
}

/* ---- recursive Horner: c[0] + x (c[1] + x (c[2] + ...)) ---- */
double horner(const double *c, int n, double x) {
  return n == 0 ? 0.0 : c[0] + x * horner(c + 1, n - 1, x);
}

/* ---- trees ---- */
typedef struct Node {
  double v;
  struct Node *l, *r;
} Node;

double tree_sq(const Node *t) {
  if (!t)
    return 0.0;
  return t->v * t->v + tree_sq(t->l) + tree_sq(t->r);
}

double tree_sin(const Node *t, double w) {
  if (!t)
    return 0.0;
  return tree_sin(t->l, w) + sin(w * t->v) + tree_sin(t->r, w);
}

/* Nonlinear use of the recursive result: v * exp(0.5 * nest(left)) +
   nest(right). */
double tree_nest(const Node *t) {
  if (!t)
    return 0.0;
  return t->v * exp(0.5 * tree_nest(t->l)) + tree_nest(t->r);
}

/* A complete tree of 7 nodes in heap order (children of i: 2i+1, 2i+2), its
   values from vals (or zero). */
static Node *build(Node *nodes, const double *vals) {
  for (int i = 0; i < 7; i++) {
    nodes[i].v = vals ? vals[i] : 0.0;
    nodes[i].l = 2 * i + 1 < 7 ? &nodes[2 * i + 1] : NULL;
    nodes[i].r = 2 * i + 2 < 7 ? &nodes[2 * i + 2] : NULL;
  }
  return nodes;
}

/* ---- mutual recursion ---- */
double odd_p(double x, int n);
double even_p(double x, int n) { return n == 0 ? 1.0 : x * odd_p(x, n - 1); }
double odd_p(double x, int n) {
  return n == 0 ? 1.0 : 2.0 * x * even_p(x, n - 1);
}

int main(void) {
  /* pow_rec, reverse and forward */
  double x = 1.3;
  for (int n = 0; n <= 7; n++) {
    double want = n == 0 ? 0.0 : n * pow(x, n - 1);
    check_close(LBL("reverse pow_rec n=%d", n),
                __enzyme_autodiff((void *)pow_rec, enzyme_out, x, enzyme_const,
                                  n),
                want, 1e-13);
    check_close(LBL("forward pow_rec n=%d", n),
                __enzyme_fwddiff((void *)pow_rec, enzyme_dup, x, 1.0,
                                 enzyme_const, n),
                want, 1e-13);
  }
  check_close("forward pow_rec n=5, tangent 2.5",
              __enzyme_fwddiff((void *)pow_rec, enzyme_dup, x, 2.5,
                               enzyme_const, 5),
              2.5 * 5 * pow(x, 4), 1e-13);
  check_close("reverse pow_rec at x = -0.7, n = 6",
              __enzyme_autodiff((void *)pow_rec, enzyme_out, -0.7,
                                enzyme_const, 6),
              6 * pow(-0.7, 5), 1e-13);

  /* deep recursion (300 frames) */
  check_close("reverse pow_rec at x = 1.001, n = 300",
              __enzyme_autodiff((void *)pow_rec, enzyme_out, 1.001,
                                enzyme_const, 300),
              300 * pow(1.001, 299), 1e-12);
  check_close("forward pow_rec at x = 1.001, n = 300",
              __enzyme_fwddiff((void *)pow_rec, enzyme_dup, 1.001, 1.0,
                               enzyme_const, 300),
              300 * pow(1.001, 299), 1e-12);

  check_close("reverse pow_user",
              __enzyme_autodiff((void *)pow_user, enzyme_out, x),
              3 * x * x + 4 * x * x * x, 1e-13);
  check_close("forward pow_user",
              __enzyme_fwddiff((void *)pow_user, enzyme_dup, x, 1.0),
              3 * x * x + 4 * x * x * x, 1e-13);

  {
    double y = -0.8;
    Pair g = __enzyme_autodiff_pair((void *)pow_scale, enzyme_out, x,
                                    enzyme_out, y, enzyme_const, 4);
    check_close("reverse pow_scale d/dx", g.dx, 4 * pow(x, 3) * y, 1e-13);
    check_close("reverse pow_scale d/dy", g.dy, pow(x, 4), 1e-13);
    check_close("forward pow_scale along (0.5, 2)",
                __enzyme_fwddiff((void *)pow_scale, enzyme_dup, x, 0.5,
                                 enzyme_dup, y, 2.0, enzyme_const, 4),
                0.5 * 4 * pow(x, 3) * y + 2.0 * pow(x, 4), 1e-13);
  }

  /* Horner, c duplicated and x active */
  {
    double c[5] = {0.5, -1.0, 2.0, 0.25, -0.75}, dc[5] = {0};
    double xh = 0.9;
    double dx = __enzyme_autodiff((void *)horner, enzyme_dup, c, dc,
                                  enzyme_const, 5, enzyme_out, xh);
    double want_dx = 0;
    for (int i = 1; i < 5; i++)
      want_dx += i * c[i] * pow(xh, i - 1);
    check_close("reverse horner d/dx", dx, want_dx, 1e-13);
    for (int i = 0; i < 5; i++)
      check_close(LBL("reverse horner d/dc[%d]", i), dc[i], pow(xh, i),
                  1e-13);
    double tc[5] = {1, 0, 0, 0, 1};
    check_close("forward horner along dc = e0 + e4, dx = 0",
                __enzyme_fwddiff((void *)horner, enzyme_dup, c, tc,
                                 enzyme_const, 5, enzyme_dup, xh, 0.0),
                1 + pow(xh, 4), 1e-13);
    double t0[5] = {0};
    check_close("forward horner along dx = 1",
                __enzyme_fwddiff((void *)horner, enzyme_dup, c, t0,
                                 enzyme_const, 5, enzyme_dup, xh, 1.0),
                want_dx, 1e-13);
  }

  /* Trees on the heap */
  const double vals[7] = {0.1, -0.4, 0.7, 1.2, -0.3, 0.25, 0.9};
  Node *n = malloc(7 * sizeof *n), *d = malloc(7 * sizeof *d);
  build(n, vals);
  build(d, NULL);
  __enzyme_autodiff((void *)tree_sq, enzyme_dup, n, d);
  for (int i = 0; i < 7; i++)
    check_close(LBL("reverse tree_sq d/dv[%d]", i), d[i].v, 2 * vals[i],
                1e-14);
  for (int i = 0; i < 7; i++)
    check_close(LBL("tree_sq left the shadow links alone [%d]", i),
                (d[i].l == (2 * i + 1 < 7 ? &d[2 * i + 1] : NULL)) &&
                    (d[i].r == (2 * i + 2 < 7 ? &d[2 * i + 2] : NULL)),
                1, 0);
  {
    double tv[7] = {1, 2, 3, -1, 0.5, 0, 4}, want = 0;
    Node *t = malloc(7 * sizeof *t);
    build(t, tv);
    for (int i = 0; i < 7; i++)
      want += 2 * vals[i] * tv[i];
    check_close("forward tree_sq along per-node tangents",
                __enzyme_fwddiff((void *)tree_sq, enzyme_dup, n, t), want,
                1e-14);
    free(t);
  }

  {
    double w = 1.7, want_w = 0;
    build(d, NULL);
    double dw = __enzyme_autodiff((void *)tree_sin, enzyme_dup, n, d,
                                  enzyme_out, w);
    for (int i = 0; i < 7; i++) {
      want_w += vals[i] * cos(w * vals[i]);
      check_close(LBL("reverse tree_sin d/dv[%d]", i), d[i].v,
                  w * cos(w * vals[i]), 1e-13);
    }
    check_close("reverse tree_sin d/dw", dw, want_w, 1e-13);
    /* Accumulation: a second call adds the same again. */
    __enzyme_autodiff((void *)tree_sin, enzyme_dup, n, d, enzyme_out, w);
    check_close("reverse tree_sin accumulates into the shadow tree", d[6].v,
                2 * w * cos(w * vals[6]), 1e-13);

    Node *t = malloc(7 * sizeof *t);
    build(t, NULL);
    check_close("forward tree_sin along dw = 1",
                __enzyme_fwddiff((void *)tree_sin, enzyme_dup, n, t,
                                 enzyme_dup, w, 1.0),
                want_w, 1e-13);
    t[3].v = 1.0;
    check_close("forward tree_sin along node 3",
                __enzyme_fwddiff((void *)tree_sin, enzyme_dup, n, t,
                                 enzyme_dup, w, 0.0),
                w * cos(w * vals[3]), 1e-13);
    free(t);
  }

  /* Nonlinear recursion, against central differences. */
  {
    build(d, NULL);
    __enzyme_autodiff((void *)tree_nest, enzyme_dup, n, d);
    Node *t = malloc(7 * sizeof *t);
    build(t, NULL);
    for (int i = 0; i < 7; i++) {
      double h = 1e-6, v0 = n[i].v;
      n[i].v = v0 + h;
      double fp = tree_nest(n);
      n[i].v = v0 - h;
      double fm = tree_nest(n);
      n[i].v = v0;
      double fd = (fp - fm) / (2 * h);
      check_close(LBL("reverse tree_nest d/dv[%d] vs FD", i), d[i].v, fd,
                  1e-8);
      t[i].v = 1.0;
      check_close(LBL("forward tree_nest e_%d vs reverse", i),
                  __enzyme_fwddiff((void *)tree_nest, enzyme_dup, n, t),
                  d[i].v, 1e-13);
      t[i].v = 0.0;
    }
    free(t);
  }
  free(n);
  free(d);

  /* Mutual recursion */
  for (int k = 0; k <= 5; k++) {
    double y = 0.85;
    double want = k == 0 ? 0.0 : k * pow(2.0, k / 2) * pow(y, k - 1);
    check_close(LBL("even_p primal n=%d", k), even_p(y, k),
                pow(2.0, k / 2) * pow(y, k), 1e-14);
    check_close(LBL("reverse mutual recursion n=%d", k),
                __enzyme_autodiff((void *)even_p, enzyme_out, y, enzyme_const,
                                  k),
                want, 1e-13);
    check_close(LBL("forward mutual recursion n=%d", k),
                __enzyme_fwddiff((void *)even_p, enzyme_dup, y, 1.0,
                                 enzyme_const, k),
                want, 1e-13);
  }
  /* entering through the other function: odd_p(x, n) = 2^ceil(n/2) x^n */
  check_close("reverse mutual recursion via odd_p n=5",
              __enzyme_autodiff((void *)odd_p, enzyme_out, 0.85, enzyme_const,
                                5),
              5 * pow(2.0, 3) * pow(0.85, 4), 1e-13);
  return check_report();
}
