// OpenMP constructs Tapestry cannot differentiate are errors at the
// construct's line naming it, never a silently wrong derivative.
// clang-format off
// RUN: not %clang -O0 -g -fopenmp -c %s -o /dev/null -DTASK 2>&1 | FileCheck %s --check-prefix=TASK
// RUN: not %clang -O2 -g -fopenmp -c %s -o /dev/null -DTASK 2>&1 | FileCheck %s --check-prefix=TASK
// RUN: not %clang -O0 -g -fopenmp -c %s -o /dev/null -DORDERED 2>&1 | FileCheck %s --check-prefix=ORDERED
// RUN: not %clang -O2 -g -fopenmp -c %s -o /dev/null -DCOPYPRIVATE 2>&1 | FileCheck %s --check-prefix=COPYPRIVATE
// RUN: not %clang -O0 -g -fopenmp -c %s -o /dev/null -DMARKER 2>&1 | FileCheck %s --check-prefix=MARKER
// RUN: not %clang -O2 -g -fopenmp -c %s -o /dev/null -DMARKER 2>&1 | FileCheck %s --check-prefix=MARKER
// RUN: not %clang -O0 -g -fopenmp -c %s -o /dev/null -DATOMIC_MUL 2>&1 | FileCheck %s --check-prefix=ATOMIC_MUL
// RUN: not %clang -O2 -g -fopenmp -c %s -o /dev/null -DATOMIC_MUL 2>&1 | FileCheck %s --check-prefix=ATOMIC_MUL
// CHECK-NOT: PLEASE submit a bug report
extern int enzyme_dup, enzyme_const;
void __enzyme_autodiff(void *, ...);

#ifdef TASK
void f(double *x, int n) {
#pragma omp parallel
#pragma omp single
  for (int i = 0; i < n; i++) {
    // TASK: openmp-unsupported.c:[[@LINE+1]]:{{[0-9]+}}: error: tapestry: cannot differentiate 'f (OpenMP parallel region)': OpenMP tasks ('#pragma omp task', 'taskloop', 'taskwait') (runtime call '__kmpc_omp_task{{[a-z_]*}}') inside a differentiated function is not supported; supported are 'parallel', 'for' (any schedule), reductions, 'critical', 'atomic', 'barrier', 'single', 'master' and 'masked'
#pragma omp task
    x[i] = x[i] * x[i];
  }
}
#endif

#ifdef ATOMIC_MUL
// clang makes `atomic *=` of a double a compare-exchange loop on its bits:
// the message names the atomic update, not bit manipulation (probe28).
double f(const double *x, int n) {
  double p = 1;
#pragma omp parallel for
  for (int i = 0; i < n; i++) {
    // ATOMIC_MUL: openmp-unsupported.c:[[@LINE+2]]:{{[0-9]+}}: error: tapestry: cannot differentiate 'f (OpenMP parallel region)': an atomic update of a floating-point value other than += and -= (#pragma omp atomic x *= v, which becomes a compare-exchange loop on its bits) cannot be differentiated; use a reduction clause (reduction(*:x)) or write the update under '#pragma omp critical'
#pragma omp atomic
    p *= 1 + 0.1 * x[i];
  }
  return p;
}
#endif

#ifdef ORDERED
void f(double *x, int n) {
#pragma omp parallel for ordered
  for (int i = 1; i < n; i++) {
    // ORDERED: openmp-unsupported.c:[[@LINE+1]]:{{[0-9]+}}: error: tapestry: cannot differentiate 'f (OpenMP parallel region)': '#pragma omp ordered' (runtime call '__kmpc_ordered') inside a differentiated function is not supported
#pragma omp ordered
    x[i] = x[i - 1] * x[i];
  }
}
#endif

#ifdef COPYPRIVATE
void f(double *x, int n) {
#pragma omp parallel
  {
    double v;
    // COPYPRIVATE: openmp-unsupported.c:[[@LINE+2]]:{{[0-9]+}}: error: tapestry: cannot differentiate 'f (OpenMP parallel region)': '#pragma omp single copyprivate' (runtime call '__kmpc_copyprivate') inside a differentiated function is not supported
#pragma omp single copyprivate(v)
    v = x[0] * x[0];
    x[1] = v;
  }
}
#endif

#ifdef MARKER
// A region reading a pointer that is constant (w, enzyme_const) or not (x)
// depending on a run-time test: the region's derivative could not tell.
const double *w;
void f(double *x, int n) {
  const double *p = x;
  if (n > 5)
    p = w;
  double s = 0;
  // MARKER: openmp-unsupported.c:[[@LINE+1]]:{{[0-9]+}}: error: tapestry: cannot differentiate 'f': argument {{[0-9]+}} of this call is a pointer read from memory that also holds pointers to constant data
#pragma omp parallel for reduction(+ : s)
  for (int i = 0; i < n; i++)
    s += p[i] * x[i];
  x[0] = s;
}
#endif

void g(double *x, double *dx, int n) {
  __enzyme_autodiff((void *)f, enzyme_dup, x, dx, enzyme_const, n);
}
// The construct is named once, with no second, generic error after it.
// TASK-NOT: no derivative is known
// COPYPRIVATE-NOT: no derivative is known
