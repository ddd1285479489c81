// A global declared inactive (Enzyme's __enzyme_inactive_global_*, or
// enzyme_inactive through the clang part) carries no derivative. When the
// differentiated code stores a value with a derivative there and reads it
// back where that derivative matters, the declaration is false, and the
// derivative depended on the build: 0 where the read stayed a load, the
// true one where the optimiser forwarded the store (probe45b F1). That is
// an error at the store, in both modes and through a memcpy, saying what
// to do. A value only logged there, read back to be printed or handed to
// a logger, a counter beside it, and a warm start read before the write
// stay accepted (the -DOK RUN lines: true derivatives). Reads through a
// pointer held by another global, or by a callee naming the global, count.
// RUN: not %clang -O0 -g -c %s -o /dev/null 2>&1 | FileCheck %s
// RUN: not %clang -O2 -g -c %s -o /dev/null 2>&1 | FileCheck %s
// RUN: not %clang -O0 -g -c %s -o /dev/null -DFWD 2>&1 | FileCheck %s
// RUN: not %clang -O1 -g -c %s -o /dev/null -DCOPY 2>&1 | FileCheck %s --check-prefix=COPY
// RUN: not %clang -O0 -g -c %s -o /dev/null -DVIA_PTR 2>&1 | FileCheck %s --check-prefix=READER
// RUN: not %clang -O2 -g -c %s -o /dev/null -DVIA_PTR 2>&1 | FileCheck %s --check-prefix=READER
// RUN: not %clang -O0 -g -c %s -o /dev/null -DVIA_CALLEE 2>&1 | FileCheck %s --check-prefix=READER
// RUN: not %clang -O2 -g -c %s -o /dev/null -DVIA_CALLEE 2>&1 | FileCheck %s --check-prefix=READER
// RUN: %clang -O0 -DOK %s -lm -o %t0 && %t0 | FileCheck %s --check-prefix=OK
// RUN: %clang -O2 -DOK %s -lm -o %t2 && %t2 | FileCheck %s --check-prefix=OK
// CHECK-NOT: PLEASE submit a bug report
// OK-NOT: FAIL
// OK: ALL PASSED
#include "../Integration/Inputs/check.h"
#include <string.h>

extern int enzyme_dup, enzyme_out;
double __enzyme_autodiff(void *, ...);
double __enzyme_fwddiff(void *, ...);

double buf[4];
void *__enzyme_inactive_global_buf[] = {(void *)buf};
double last;
void *__enzyme_inactive_global_last[] = {(void *)&last};

#if defined(VIA_PTR) || defined(VIA_CALLEE)
// Read back through a pointer another global holds, or by a callee that
// names the global (review45 F4: a silent 0 before).
double *histp = buf;

__attribute__((noinline)) double sumhist(void) {
  double s = 0;
  for (int i = 0; i < 4; i++)
    s += buf[i] * buf[i];
  return s;
}

double sumsq(const double *x) {
  for (int i = 0; i < 4; i++)
    // READER: :[[@LINE+1]]:12: error: tapestry: cannot differentiate 'sumsq': an active value is stored to the global 'buf', which is declared inactive
    buf[i] = x[i] * x[i];
#ifdef VIA_PTR
  double s = 0;
  for (int i = 0; i < 4; i++)
    s += histp[i] * histp[i];
  return s;
#else
  return sumhist();
#endif
}

int main(void) {
  double x[4] = {1, 2, 3, 4}, dx[4] = {0};
  __enzyme_autodiff((void *)sumsq, enzyme_dup, x, dx);
  return dx[0] > 0;
}
#elif !defined(OK)
double sumsq(const double *x) {
  for (int i = 0; i < 4; i++)
#ifdef COPY
    ;
  // COPY: :[[@LINE+1]]:3: error: tapestry: cannot differentiate 'sumsq': memory holding active values is copied to the global 'buf', which is declared inactive
  memcpy(buf, x, sizeof buf);
#else
    // CHECK: :[[@LINE+1]]:12: error: tapestry: cannot differentiate 'sumsq': an active value is stored to the global 'buf', which is declared inactive (__enzyme_inactive_global or enzyme_inactive), and read back where its derivative matters: the declaration would drop that derivative. Remove the declaration (a global the differentiated code writes gets a derivative of its own), or keep differentiated values out of the global
    buf[i] = x[i] * x[i];
#endif
  double s = 0;
  for (int i = 0; i < 4; i++)
    s += buf[i] * buf[i];
  return s;
}

int main(void) {
  double x[4] = {1, 2, 3, 4}, dx[4] = {0};
#ifdef FWD
  return __enzyme_fwddiff((void *)sumsq, enzyme_dup, x, dx) > 0;
#else
  __enzyme_autodiff((void *)sumsq, enzyme_dup, x, dx);
  return dx[0] > 0;
#endif
}
#else
// Uses of an inactive global that drop no derivative (review45 F3):
// the last partial sum kept and printed; a trace with its own counter;
// a history handed to a logging helper with a body; and a warm start,
// read before it is written (the previous call's value, constant here).
struct Trace {
  int n;
  double v[64];
} trace;
void *__enzyme_inactive_global_trace[] = {(void *)&trace};
static double guess = 1.0;
void *__enzyme_inactive_global_guess[] = {(void *)&guess};

__attribute__((noinline)) void dump(const double *v, int n) {
  for (int i = 0; i < n; i++)
    printf("%g ", v[i]);
  printf("\n");
}

// Weights read through a file-scope pointer to another array.
static double weights_data[4] = {1, 1, 1, 1};
static double *weights = weights_data;

double logged(const double *x) {
  double s = 0;
  for (int i = 0; i < 4; i++) {
    s += weights[i] * x[i] * x[i];
    last = s;
    buf[i] = s;
    if (trace.n < 64)
      trace.v[trace.n++] = s;
  }
  printf("last partial sum %g\n", last);
  dump(buf, 4);
  return s;
}

double newton_sqrt(double a) {
  double y = guess;
  for (int i = 0; i < 60; i++)
    y = 0.5 * (y + a / y);
  guess = y;
  return y;
}

int main(void) {
  double x[4] = {1, 2, 3, 4}, dx[4] = {0};
  __enzyme_autodiff((void *)logged, enzyme_dup, x, dx);
  for (int i = 0; i < 4; i++)
    check_close("d logged / dx_i = 2 x_i", dx[i], 2 * x[i], 1e-14);
  for (double a = 2.0; a < 6; a += 1.5) {
    check_close("d sqrt(a) / da, warm start",
                __enzyme_autodiff((void *)newton_sqrt, enzyme_out, a),
                0.5 / sqrt(a), 1e-12);
    check_close("forward, warm start", __enzyme_fwddiff((void *)newton_sqrt, a, 1.0),
                0.5 / sqrt(a), 1e-12);
  }
  return check_report();
}
#endif
