// -Rpass=tapestry reports what each loop's reverse sweep caches and how
// many bytes per iteration: the in-place update caches the two values it
// multiplies (u[i] is overwritten, u[i-1] was overwritten by the previous
// iteration) once per iteration of the inner loop, and a dot product of
// unchanged (restrict) inputs caches nothing: it reloads them.
// RUN: %clang -O2 -g -Rpass=tapestry -c %s -o /dev/null 2>&1 | FileCheck %s
// RUN: %clang -O0 -g -Rpass=tapestry -c %s -o /dev/null 2>&1 | FileCheck %s
extern int enzyme_dup, enzyme_const;
double __enzyme_autodiff(void *, ...);

void relax(double *u, int n, int steps) {
  for (int t = 0; t < steps; t++)
    // CHECK-DAG: tape-remarks.c:[[@LINE+1]]:5: remark: reverse sweep of 'relax' caches 2 value(s), 16 bytes per iteration of this loop: an element of 'u' (line [[#@LINE+2]]); an element of 'u' (line [[#@LINE+2]]);
    for (int i = 1; i < n; i++)
      u[i] = u[i] * u[i - 1];
}

double dot(const double *restrict a, const double *restrict b, int n) {
  double s = 0;
  for (int i = 0; i < n; i++)
    s += a[i] * b[i];
  return s;
}
// CHECK-DAG: remark: reverse sweep of 'dot' caches 0 value(s) computed once and nothing per loop iteration

void grads(double *u, double *du, double *a, double *da, double *b,
           double *db, int n) {
  __enzyme_autodiff((void *)relax, enzyme_dup, u, du, enzyme_const, n,
                    enzyme_const, 3);
  __enzyme_autodiff((void *)dot, enzyme_dup, a, da, enzyme_dup, b, db,
                    enzyme_const, n);
}
