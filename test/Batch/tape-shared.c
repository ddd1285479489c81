// The tape of a batched reverse sweep is the scalar sweep's: primal values
// are cached once for all lanes, not once per lane. The remarks of the same
// in-place stencil differentiated at width 1 and width 4 list the same
// values and bytes per iteration.
// RUN: %clang -O2 -g -c %s -o /dev/null -Rpass=tapestry 2>&1 | FileCheck %s
// RUN: %clang -O0 -g -c %s -o /dev/null -Rpass=tapestry 2>&1 | FileCheck %s --check-prefix=O0
// The time loop tapes nothing at either width: the guard of the inner
// loop (n > 2) decides how its exit was reached, where an index was taped
// per step before.
// CHECK-NOT: loop counter or index
// CHECK: tape-shared.c:[[#INNER:]]:5: remark: reverse sweep of 'heat' caches 2 value(s), 16 bytes per iteration of this loop: the variable 'left' (line {{[0-9]+}}); a double computed (line {{[0-9]+}})
// The loss loop's 1 + 0.1 * i is recomputed, at either width: no tape.
// CHECK-NOT: caches {{.*}}'fmuladd'
// CHECK-NOT: loop counter or index
// CHECK: tape-shared.c:[[#INNER]]:5: remark: reverse sweep of 'heat' caches 2 value(s), 16 bytes per iteration of this loop: the variable 'left' (line [[#INNER+1]]); a double computed (line [[#INNER+2]])
// CHECK-NOT: caches {{.*}}'fmuladd'
// O0: remark: reverse sweep of 'heat' caches [[N1:[0-9]+]] value(s), [[B1:[0-9]+]] bytes per iteration
// O0-NOT: bytes per iteration
// O0: remark: reverse sweep of 'heat' recomputes
// O0-NOT: bytes per iteration
// O0: remark: reverse sweep of 'heat' caches [[N1]] value(s), [[B1]] bytes per iteration
// O0-NOT: bytes per iteration
// O0: remark: reverse sweep of 'heat' recomputes
// O0-NOT: bytes per iteration
extern int enzyme_width, enzyme_dup, enzyme_const, enzyme_out;
typedef struct { double d[4]; } D4;
double __enzyme_autodiff(void *, ...);
D4 __enzyme_autodiff4(void *, ...);
double heat(double *u, int n, int steps, double r) {
  for (int t = 0; t < steps; t++) {
    double left = u[0];
    for (int i = 1; i < n - 1; i++) {
      double c = u[i];
      u[i] = c + r * (left - 2 * c + u[i + 1]) + 0.01 * __builtin_sin(c);
      left = c;
    }
  }
  double loss = 0;
  for (int i = 0; i < n; i++)
    loss += __builtin_cos(u[i]) * (1 + 0.1 * i);
  return loss;
}
double g1(double *u, double *du, int n) {
  return __enzyme_autodiff((void *)heat, enzyme_dup, u, du, enzyme_const, n, enzyme_const, 10, enzyme_out, 0.2);
}
D4 g4(double *u, double *d0, double *d1, double *d2, double *d3, int n) {
  return __enzyme_autodiff4((void *)heat, enzyme_width, 4, enzyme_dup, u, d0, d1, d2, d3, enzyme_const, n, enzyme_const, 10, enzyme_out, 0.2);
}
