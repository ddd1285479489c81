// Batch mode through calls that stay calls: recursion (the callee's batched
// derivative, memoised by width, calls itself), mutual recursion, a
// recursive walk of a tree passed with N shadow trees, and a registered
// scalar forward derivative, applied lane by lane (once per lane, counted).
// Against analytic derivatives and central finite differences.
// RUN: %clang -O0 %s -lm -o %t0 && %t0 | FileCheck %s
// RUN: %clang -O1 %s -lm -o %t1 && %t1 | FileCheck %s
// RUN: %clang -O2 %s -lm -o %t2 && %t2 | FileCheck %s
// RUN: %clang -O3 %s -lm -o %t3 && %t3 | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: ALL PASSED
#include "../Integration/Inputs/check.h"

extern int enzyme_width, enzyme_dup, enzyme_const, enzyme_out;
typedef struct { double d[2]; } D2;
typedef struct { double d[3]; } D3;
D2 __enzyme_fwddiff_2(void *, ...);
D3 __enzyme_fwddiff_3(void *, ...);
D2 __enzyme_autodiff_2(void *, ...);
void __enzyme_autodiff(void *, ...);

double rpow(double x, int n) { return n == 0 ? 1.0 : x * rpow(x, n - 1); }

double oddf(double x, int n);
double evenf(double x, int n) { return n == 0 ? x : oddf(x * x, n - 1); }
double oddf(double x, int n) { return n == 0 ? x : evenf(sin(x), n - 1); }

typedef struct Node {
  double v;
  struct Node *l, *r;
} Node;

double tsum(const Node *t) {
  if (!t)
    return 0;
  return sin(t->v) * t->v + tsum(t->l) + tsum(t->r);
}

static int fwd_calls;
__attribute__((noinline)) double solve(double a) {
  double x = a;
  for (int i = 0; i < 60; i++)
    x = 0.5 * (x + a / x);
  return x;
}
double solve_fwd(double a, double da) {
  fwd_calls++;
  return da * 0.5 / sqrt(a);
}
void *__enzyme_register_derivative_solve[2] = {(void *)solve,
                                               (void *)solve_fwd};
double usesolve(double a) { return solve(a) * a; }

int main(void) {
  double x = 1.3;
  D2 f = __enzyme_fwddiff_2((void *)rpow, enzyme_width, 2, x, 1.0, -2.0,
                            enzyme_const, 5);
  check_close("forward rpow lane 0", f.d[0], 5 * pow(x, 4), 1e-12);
  check_close("forward rpow lane 1", f.d[1], -2 * 5 * pow(x, 4), 1e-12);
  D2 r = __enzyme_autodiff_2((void *)rpow, enzyme_width, 2, enzyme_out, x,
                             enzyme_const, 5);
  check_close("reverse rpow lane 0", r.d[0], 5 * pow(x, 4), 1e-12);
  check_close("reverse rpow lane 1", r.d[1], 5 * pow(x, 4), 1e-12);

  double y = 0.7, h = 1e-6;
  double fd = (evenf(y + h, 4) - evenf(y - h, 4)) / (2 * h);
  D3 e = __enzyme_fwddiff_3((void *)evenf, enzyme_width, 3, y, 1.0, 0.5, 0.0,
                            enzyme_const, 4);
  check_close("forward mutual recursion lane 0", e.d[0], fd, 1e-6);
  check_close("forward mutual recursion lane 1", e.d[1], 0.5 * fd, 1e-6);
  check_close("forward mutual recursion lane 2", e.d[2], 0, 0);
  D2 er = __enzyme_autodiff_2((void *)evenf, enzyme_width, 2, enzyme_out, y,
                              enzyme_const, 4);
  check_close("reverse mutual recursion lane 0", er.d[0], fd, 1e-6);
  check_close("reverse mutual recursion lane 1", er.d[1], fd, 1e-6);

  /* A tree and two shadow trees of the same shape. */
  Node n[6] = {{0.1, &n[1], &n[2]}, {0.2, &n[3], 0}, {0.3, 0, &n[4]},
               {0.4, 0, &n[5]},     {0.5, 0, 0},     {0.6, 0, 0}};
  Node a[6] = {{0, &a[1], &a[2]}, {0, &a[3], 0}, {0, 0, &a[4]},
               {0, 0, &a[5]},     {0, 0, 0},     {0, 0, 0}};
  Node b[6] = {{0, &b[1], &b[2]}, {0, &b[3], 0}, {0, 0, &b[4]},
               {0, 0, &b[5]},     {0, 0, 0},     {0, 0, 0}};
  for (int i = 0; i < 6; i++)
    b[i].v = 10; /* lane 1 accumulates onto 10 */
  __enzyme_autodiff((void *)tsum, enzyme_width, 2, enzyme_dup, n, a, b);
  for (int i = 0; i < 6; i++) {
    double want = cos(n[i].v) * n[i].v + sin(n[i].v);
    check_close("reverse tree lane 0", a[i].v, want, 1e-12);
    check_close("reverse tree lane 1", b[i].v - 10, want, 1e-12);
  }
  /* Forward: lane 0 along node 2, lane 1 along nodes 0 and 5. */
  for (int i = 0; i < 6; i++)
    a[i].v = i == 2, b[i].v = i == 0 || i == 5;
  D2 t = __enzyme_fwddiff_2((void *)tsum, enzyme_width, 2, enzyme_dup, n, a,
                            b);
  double g[6];
  for (int i = 0; i < 6; i++)
    g[i] = cos(n[i].v) * n[i].v + sin(n[i].v);
  check_close("forward tree lane 0", t.d[0], g[2], 1e-12);
  check_close("forward tree lane 1", t.d[1], g[0] + g[5], 1e-12);

  /* The registered scalar derivative serves each lane. */
  double s = 2.0;
  D3 u = __enzyme_fwddiff_3((void *)usesolve, enzyme_width, 3, s, 1.0, 2.0,
                            -1.0);
  double du = 0.5 / sqrt(s) * s + sqrt(s);
  check_close("registered derivative lane 0", u.d[0], du, 1e-12);
  check_close("registered derivative lane 1", u.d[1], 2 * du, 1e-12);
  check_close("registered derivative lane 2", u.d[2], -du, 1e-12);
  check_close("registered derivative called once per lane", fwd_calls, 3, 0);
  return check_report();
}
