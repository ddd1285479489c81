// A pointer to differentiated data (the input array) kept in a global that
// gets no shadow, because not every read of it in the differentiated code
// follows a store into it in the same call, was taken for a constant: the
// gradient came out 0 or half of it, silently (review30: a second request
// reading the global, a conditional store, a loop filling a table of
// pointers, a struct assignment between globals). Each read through it is
// now an error naming the global and the store. (Set before every read,
// such a global gets a shadow and the numbers are right:
// test/Integration/global-pointer-reloaded.c; by a setter called before
// the reads too: test/Integration/global-pointer-set-by-helper.c.)
// RUN: not %clang -O0 -g -c %s -o /dev/null 2>&1 | FileCheck %s
// RUN: not %clang -O2 -g -c %s -o /dev/null 2>&1 | FileCheck %s
// CHECK-NOT: PLEASE submit a bug report
// CHECK-NOT: Stack dump

extern int enzyme_dup, enzyme_const;
void __enzyme_autodiff(void *, ...);

#define NOINLINE __attribute__((noinline))

// Set by f, read by another request's function before it sets it.
static double *shared;
NOINLINE static double readShared(int i) {
  // CHECK-DAG: global-pointer-without-shadow.c:[[@LINE+1]]:10: error: tapestry: cannot differentiate 'readShared': the pointer read from the global 'shared' (line [[@LINE+1]]) may point to memory with derivatives ('setsShared' stores one into it (line [[@LINE+4]])), but the global gets no shadow, because not every read of it in the differentiated code follows a store into it in the same call: what is read through it would be taken for a constant; pass the pointer to the function as an argument, or store it into the global before the reads in the function that reads it
  return shared[i];
}
double setsShared(double *x) {
  shared = x;
  return readShared(0) * readShared(0) + readShared(1);
}
double readsOnly(double *y) { return y[0] * readShared(0) + y[1] * readShared(1); }

// Set on one path only.
static double *kept;
double conditional(double *x, int flag) {
  if (flag)
    kept = x;
  // CHECK-DAG: global-pointer-without-shadow.c:[[@LINE+1]]:17: error: tapestry: cannot differentiate 'conditional': the pointer read from the global 'kept' (line [[@LINE+1]]) may point to memory with derivatives ('conditional' stores one into it (line [[@LINE-1]]))
  return x[0] * kept[0];
}

// A table of pointers filled in a loop.
static double *rows[2];
double table(double *x, int n) {
  for (int i = 0; i < n; i++)
    rows[i] = x + i;
  // CHECK-DAG: global-pointer-without-shadow.c:[[@LINE+1]]:10: error: tapestry: cannot differentiate 'table': the pointer read from the global 'rows' (line [[@LINE+1]]) may point to memory with derivatives ('table' stores one into it (line [[@LINE-1]]))
  return rows[0][0] * rows[1][0];
}

// Copied into the global (a struct assignment between globals).
typedef struct {
  double *a;
  long n;
} Context;
static Context first, second;
NOINLINE static double readSecond(void) {
  // CHECK-DAG: global-pointer-without-shadow.c:[[@LINE+1]]:10: error: tapestry: cannot differentiate 'readSecond': the pointer read from the global 'second' (line [[@LINE+1]]) may point to memory with derivatives ('copied' stores one into it (line [[@LINE+6]]))
  return second.a[0] * second.a[1];
}
double copied(double *x) {
  first.a = x;
  first.n = 2;
  second = first;
  return readSecond();
}

void grads2(double *x, double *dx) {
  __enzyme_autodiff((void *)copied, enzyme_dup, x, dx);
}
void grads(double *x, double *dx, double *y, double *dy, int n) {
  __enzyme_autodiff((void *)setsShared, enzyme_dup, x, dx);
  __enzyme_autodiff((void *)readsOnly, enzyme_dup, y, dy);
  __enzyme_autodiff((void *)conditional, enzyme_dup, x, dx, enzyme_const, n);
  __enzyme_autodiff((void *)table, enzyme_dup, x, dx, enzyme_const, n);
}
// CHECK-NOT: PLEASE submit a bug report
