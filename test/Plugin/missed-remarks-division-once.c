// -Rpass-missed=tapestry on a division outside loops: it is cached once (a
// stack slot), not recomputed, and the remark says why; its operands are
// reloads of restrict memory, so nothing else stands in the way. In a loop
// the same division is recomputed (test/Reverse/recompute-sqrt-division.ll).
// RUN: %clang -O2 -g -Rpass-missed=tapestry -c %s -o /dev/null 2>&1 | FileCheck %s
// CHECK: missed-remarks-division-once.c:[[#@LINE+8]]:21: remark: reverse sweep of 'f' caches the variable 'r' (line [[#@LINE+8]]), 8 bytes once, instead of recomputing it: a division or square root outside loops is cached once: a store and a load cost less than computing it again [-Rpass-missed=tapestry]
// CHECK-NOT: remark
extern int enzyme_dup, enzyme_const;
void __enzyme_autodiff(void *, ...);

double f(const double *restrict x, int c) {
  double s = x[0];
  if (c) {
    double r = x[0] / x[1];
    s = r * r;
  }
  return s;
}

void g(double *x, double *dx, int c) {
  __enzyme_autodiff((void *)f, enzyme_dup, x, dx, enzyme_const, c);
}
