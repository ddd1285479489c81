// Recursion: a recursive power, a recursive sum over a binary tree passed
// enzyme_dup with a shadow tree, and mutual recursion, in reverse and
// forward mode, against analytic derivatives and finite differences.
// RUN: %clang -O0 %s -lm -o %t0 && %t0 | FileCheck %s
// RUN: %clang -O1 %s -lm -o %t1 && %t1 | FileCheck %s
// RUN: %clang -O2 %s -lm -o %t2 && %t2 | FileCheck %s
// RUN: %clang -O3 %s -lm -o %t3 && %t3 | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: ALL PASSED
#include "Inputs/check.h"

extern int enzyme_dup, enzyme_const, enzyme_out;
double __enzyme_autodiff(void *, ...);
double __enzyme_fwddiff(void *, ...);

double rpow(double x, int n) { return n == 0 ? 1.0 : x * rpow(x, n - 1); }

typedef struct Node {
  double v;
  struct Node *l, *r;
} Node;

double tsum(const Node *t) {
  if (!t)
    return 0;
  return sin(t->v) * t->v + tsum(t->l) + tsum(t->r);
}

double oddf(double x, int n);
double evenf(double x, int n) { return n == 0 ? x : oddf(x * x, n - 1); }
double oddf(double x, int n) { return n == 0 ? x : evenf(sin(x), n - 1); }

int main(void) {
  double x = 1.3;
  check_close("reverse rpow",
              __enzyme_autodiff((void *)rpow, enzyme_out, x, enzyme_const, 5),
              5 * pow(x, 4), 1e-12);
  check_close("forward rpow",
              __enzyme_fwddiff((void *)rpow, enzyme_dup, x, 1.0, enzyme_const,
                               5),
              5 * pow(x, 4), 1e-12);

  Node n[6] = {{0.1, &n[1], &n[2]}, {0.2, &n[3], 0}, {0.3, 0, &n[4]},
               {0.4, 0, &n[5]},     {0.5, 0, 0},     {0.6, 0, 0}};
  Node d[6] = {{0, &d[1], &d[2]}, {0, &d[3], 0}, {0, 0, &d[4]},
               {0, 0, &d[5]},     {0, 0, 0},     {0, 0, 0}};
  __enzyme_autodiff((void *)tsum, enzyme_dup, n, d);
  for (int i = 0; i < 6; i++)
    check_close("reverse tree sum", d[i].v,
                cos(n[i].v) * n[i].v + sin(n[i].v), 1e-12);
  Node t[6] = {{1, &t[1], &t[2]}, {0, &t[3], 0}, {0, 0, &t[4]},
               {0, 0, &t[5]},     {0, 0, 0},     {0, 0, 0}};
  check_close("forward tree sum along node 0",
              __enzyme_fwddiff((void *)tsum, enzyme_dup, n, t),
              cos(0.1) * 0.1 + sin(0.1), 1e-12);

  double y = 0.7, h = 1e-6;
  double fd = (evenf(y + h, 4) - evenf(y - h, 4)) / (2 * h);
  check_close("reverse mutual recursion",
              __enzyme_autodiff((void *)evenf, enzyme_out, y, enzyme_const, 4),
              fd, 1e-6);
  check_close("forward mutual recursion",
              __enzyme_fwddiff((void *)evenf, enzyme_dup, y, 1.0,
                               enzyme_const, 4),
              fd, 1e-6);
  return check_report();
}
