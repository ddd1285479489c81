extern int enzyme_dup, enzyme_const, enzyme_out;
double __enzyme_autodiff(void *, ...);
void *__enzyme_augmentfwd(void *, ...);
void __enzyme_reverse(void *, ...);
double sin(double);
void *malloc(unsigned long);
void free(void *);

void matvec(const double *A, const double *x, double *y, int n) {
  for (int i = 0; i < n; i++) {
    y[i] = 0;
    for (int j = 0; j < n; j++)
      y[i] += A[i * n + j] * x[j];
  }
}

double ratios(const double *restrict x, const double *restrict c, int n) {
  double s = 0;
  for (int i = 0; i < n; i++) {
    double r = x[i] / c[i];
    s += r * r + sin(x[i]) * x[i];
  }
  return s;
}

static double sq(double x) { return x * x; }
__attribute__((noinline)) double cube(double x) { return x * x * x; }
double power(double x, int n) { return n == 0 ? 1.0 : x * power(x, n - 1); }
double poly(double x) { return sq(x) + cube(x) + power(x, 3); }

void square(const double *x, double *y) { y[0] = x[0] * x[0]; }
void scratch(const double *x, double *y, int n) {
  for (int i = 0; i < n; i++) {
    double *t = malloc(2 * sizeof(double));
    t[0] = x[i] * x[i];
    y[i] = t[0] * x[i];
    free(t);
  }
}

double grads(double *A, double *dA, double *x, double *dx, double *y,
             double *dy, int n) {
  __enzyme_autodiff((void *)matvec, enzyme_dup, A, dA, enzyme_dup, x, dx,
                    enzyme_dup, y, dy, enzyme_const, n);
  __enzyme_autodiff((void *)ratios, enzyme_dup, x, dx, enzyme_const, A,
                    enzyme_const, n);
  void *t1 = __enzyme_augmentfwd((void *)square, enzyme_dup, x, dx,
                                 enzyme_dup, y, dy);
  __enzyme_reverse((void *)square, enzyme_dup, x, dx, enzyme_dup, y, dy, t1);
  void *t2 = __enzyme_augmentfwd((void *)scratch, enzyme_dup, x, dx,
                                 enzyme_dup, y, dy, enzyme_const, n);
  __enzyme_reverse((void *)scratch, enzyme_dup, x, dx, enzyme_dup, y, dy,
                   enzyme_const, n, t2);
  return __enzyme_autodiff((void *)poly, enzyme_out, x[0]);
}

void *realloc(void *, unsigned long);
void grown(const double *x, double *y, int n) {
  double *t = 0; /* grown by realloc in the loop: not the tape's */
  for (int i = 0; i < n; i++) {
    t = realloc(t, (i + 1) * sizeof(double));
    t[i] = x[i] * x[i];
    y[i] = t[i] * x[i];
  }
  free(t);
}
void grown_split(double *x, double *dx, double *y, double *dy, int n) {
  void *t = __enzyme_augmentfwd((void *)grown, enzyme_dup, x, dx, enzyme_dup,
                                y, dy, enzyme_const, n);
  __enzyme_reverse((void *)grown, enzyme_dup, x, dx, enzyme_dup, y, dy,
                   enzyme_const, n, t);
}

// The checks are at the end of the file, so that the line numbers they name
// are easy to read off the program above them.
//
// -Rpass-missed=tapestry says, for each value a reverse sweep caches, why it
// could be neither recomputed nor reloaded, at the line that computes it:
// a load whose memory a later store may overwrite (with the restrict advice
// when two pointer parameters are involved), a call's result,
// and a product whose operand would itself need the tape.
// -Rpass-analysis=tapestry reports inlining decisions (inlined, or kept:
// recursive, noinline, -O0) and whether each split-mode tape is reusable.
// RUN: %clang -O0 -g -Rpass-missed=tapestry -Rpass-analysis=tapestry -c %s -o /dev/null 2>&1 | FileCheck %s --check-prefixes=CHECK,O0
// RUN: %clang -O2 -g -Rpass-missed=tapestry -Rpass-analysis=tapestry -c %s -o /dev/null 2>&1 | FileCheck %s --check-prefixes=CHECK,O2
// x[i] * x[i] is recomputed from the cached x[i] (one record field, not
// two), so it is no longer reported as cached.
// RUN: %clang -O2 -g -Rpass-missed=tapestry -c %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=RECOMPUTED
// RECOMPUTED-NOT: caches a double computed (line 35)
// r = x[i] / c[i] of restrict inputs is recomputed from two reloads.
// RECOMPUTED-NOT: caches the variable 'r'
// Without the flags, no remark.
// RUN: %clang -O2 -g -c %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=QUIET --allow-empty
// QUIET-NOT: remark
// CHECK-DAG: missed-remarks.c:13:30: remark: reverse sweep of 'matvec' caches an element of 'x' (line 13), 8 bytes per iteration of the loop at line 12, instead of reloading it: the memory it reads may be overwritten after it is read, by the store to 'y' at line 11; if 'x' and 'y' never overlap, declare them restrict (__restrict in C++) and it is reloaded instead [-Rpass-missed=tapestry]
// CHECK-DAG: missed-remarks.c:13:15: remark: reverse sweep of 'matvec' caches an element of 'A' (line 13), 8 bytes per iteration of the loop at line 12, instead of reloading it: the memory it reads may be overwritten after it is read, by the store to 'y' at line 11; if 'A' and 'y' never overlap, declare them restrict (__restrict in C++) and it is reloaded instead [-Rpass-missed=tapestry]
// CHECK-DAG: missed-remarks.c:21:18: remark: reverse sweep of 'ratios' caches the result of 'sin' (line 21), 8 bytes per iteration of the loop at line 19, instead of recomputing it: results of calls other than sqrt, fma, fabs, copysign, fmin and fmax are not recomputed (a call may be costly or have effects) [-Rpass-missed=tapestry]
// CHECK-DAG: missed-remarks.c:35:12: remark: reverse sweep of 'scratch' caches an element of 'x' (line 35), 8 bytes per iteration of the loop at line 33, instead of reloading it: the memory it reads may be overwritten after it is read, by the store to 'y' at line 36; if 'x' and 'y' never overlap, declare them restrict (__restrict in C++) and it is reloaded instead [-Rpass-missed=tapestry]
// O2-DAG: missed-remarks.c:29:32: remark: 'sq' is inlined into the derivative of 'poly' (differentiated with it, no tape of its own) [-Rpass-analysis=tapestry]
// O2-DAG: missed-remarks.c:29:40: remark: 'cube' stays a call in the derivative of 'poly' (it gets a derivative of its own, and its reverse a tape allocated per call): it is declared noinline [-Rpass-analysis=tapestry]
// O0-DAG: missed-remarks.c:29:32: remark: 'sq' stays a call in the derivative of 'poly' (it gets a derivative of its own, and its reverse a tape allocated per call): it is compiled at -O0, where every function is noinline (-mllvm -enzyme-inline inlines it) [-Rpass-analysis=tapestry]
// CHECK-DAG: missed-remarks.c:29:50: remark: 'power' stays a call in the derivative of 'poly' (it gets a derivative of its own, and its reverse a tape allocated per call): it is recursive [-Rpass-analysis=tapestry]
// CHECK-DAG: missed-remarks.c:47:14: remark: the tape of 'square' (16 bytes) is reusable: the reverse may run again on it, with other seeds [-Rpass-analysis=tapestry]
// CHECK-DAG: missed-remarks.c:50:14: remark: the tape of 'scratch' ({{[0-9]+}} bytes, plus heap blocks it owns) is reusable: the reverse may run again on it, with other seeds [-Rpass-analysis=tapestry]
// CHECK-DAG: missed-remarks.c:68:13: remark: the tape of 'grown' ({{[0-9]+}} bytes, plus heap blocks it owns) is not reusable, one reverse per augmented forward: its reverse sweep frees the shadow of {{.*}}, which realloc grows inside a loop
// CHECK-NOT: error:
