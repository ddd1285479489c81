// A call to a function of another file (no body here, no arguments) made
// while an array with derivatives is reachable through a global it stored
// the array's address into may change that array (here the other file
// scaled an element by 1.5 and the derivative missed the factor: review28):
// it is an error that names the call and the array, unless the function is
// given, registered or declared inactive. Calls before the address escapes
// are fine (test/Integration/opaque-call-local-scratch.c).
// RUN: not %clang -O0 -g -c %s -o /dev/null 2>&1 | FileCheck %s
// RUN: not %clang -O2 -g -c %s -o /dev/null 2>&1 | FileCheck %s
// CHECK-NOT: PLEASE submit a bug report
// CHECK-NOT: Stack dump
#include <stdlib.h>

extern int enzyme_dup, enzyme_const;
void __enzyme_autodiff(void *, ...);

extern double *scratchSeen;
void rescaleSeen(void);

struct Registry {
  double *data;
  int size;
};
extern struct Registry *registry;
double registryTotal(void);

// sum_i t_i x_i with t_i = x_i^2, t_2 scaled in the other file.
static double published(const double *x, int n) {
  double *t = malloc(n * sizeof(double));
  scratchSeen = t;
  for (int i = 0; i < n; i++)
    t[i] = x[i] * x[i];
  // CHECK-DAG: opaque-call-escaped-shadow.c:[[@LINE+1]]:3: error: tapestry: cannot differentiate 'published': 'rescaleSeen' has no body in this file and is called while the variable 't' (line [[@LINE-4]]), which holds derivatives, became reachable from other files when its address was stored (line [[@LINE-3]]): what it writes there, or returns from there, would get no derivative; give its body (or compile with -flto), register its derivative (__enzyme_register_gradient_rescaleSeen), or, if it does not touch that memory, declare it inactive with 'void *__enzyme_inactivefn[] = {(void*)rescaleSeen};'
  rescaleSeen();
  double s = 0;
  for (int i = 0; i < n; i++)
    s += t[i] * x[i];
  free(t);
  return s;
}

// The address goes into a heap record that a global points to; the other
// file reads the array back and its sum is used.
static double throughRecord(const double *x, int n) {
  double *t = malloc(n * sizeof(double));
  struct Registry *r = malloc(sizeof *r);
  r->data = t;
  r->size = n;
  for (int i = 0; i < n; i++)
    t[i] = x[i] * x[i];
  registry = r;
  // CHECK-DAG: opaque-call-escaped-shadow.c:[[@LINE+1]]:14: error: tapestry: cannot differentiate 'throughRecord': 'registryTotal' has no body in this file and is called while
  double s = registryTotal();
  free(r);
  free(t);
  return s;
}

// A block from posix_memalign, known only as a loaded pointer, published
// through a global.
static double alignedPublished(const double *x, int n) {
  double *t = 0;
  if (posix_memalign((void **)&t, 64, n * sizeof(double)))
    return 0;
  for (int i = 0; i < n; i++)
    t[i] = x[i] * x[i];
  scratchSeen = t;
  // CHECK-DAG: opaque-call-escaped-shadow.c:[[@LINE+1]]:3: error: tapestry: cannot differentiate 'alignedPublished': 'rescaleSeen' has no body in this file and is called while
  rescaleSeen();
  double s = 0;
  for (int i = 0; i < n; i++)
    s += t[i] * x[i];
  free(t);
  return s;
}

// A file-local array whose address a function other files may call
// returns (review29 m04: the other file scaled an element through it).
static double accessed[8];
double *accessedBuffer(void) { return accessed; }
static double throughAccessor(const double *x, int n) {
  for (int i = 0; i < n; i++)
    accessed[i] = x[i] * x[i];
  // CHECK-DAG: opaque-call-escaped-shadow.c:[[@LINE+1]]:3: error: tapestry: cannot differentiate 'throughAccessor': 'rescaleSeen' has no body in this file and is called while the global 'accessed', which other files can reach (its address is returned by 'accessedBuffer' (line [[@LINE-4]])), holds derivatives stored into it (line [[@LINE-1]]): what it writes there
  rescaleSeen();
  double s = 0;
  for (int i = 0; i < n; i++)
    s += accessed[i] * x[i];
  return s;
}

// A block kept in a file-local pointer whose address an accessor other
// files may call returns.
static double *kept;
double **keptHandle(void) { return &kept; }
static double keptBehindAccessor(const double *x, int n) {
  kept = malloc(n * sizeof(double));
  for (int i = 0; i < n; i++)
    kept[i] = x[i] * x[i];
  // CHECK-DAG: opaque-call-escaped-shadow.c:[[@LINE+1]]:3: error: tapestry: cannot differentiate 'keptBehindAccessor': 'rescaleSeen' has no body in this file and is called while
  rescaleSeen();
  double s = 0;
  for (int i = 0; i < n; i++)
    s += kept[i] * x[i];
  free(kept);
  return s;
}

void gradKeptBehindAccessor(double *x, double *dx, int n) {
  __enzyme_autodiff((void *)keptBehindAccessor, enzyme_dup, x, dx,
                    enzyme_const, n);
}
void gradThroughAccessor(double *x, double *dx, int n) {
  __enzyme_autodiff((void *)throughAccessor, enzyme_dup, x, dx, enzyme_const,
                    n);
}
void gradAlignedPublished(double *x, double *dx, int n) {
  __enzyme_autodiff((void *)alignedPublished, enzyme_dup, x, dx, enzyme_const,
                    n);
}
void gradPublished(double *x, double *dx, int n) {
  __enzyme_autodiff((void *)published, enzyme_dup, x, dx, enzyme_const, n);
}
void gradThroughRecord(double *x, double *dx, int n) {
  __enzyme_autodiff((void *)throughRecord, enzyme_dup, x, dx, enzyme_const, n);
}
// CHECK-NOT: PLEASE submit a bug report
// CHECK-NOT: Stack dump
