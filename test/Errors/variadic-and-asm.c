// Two constructs Tapestry cannot differentiate yet, each a clear error at
// the user's line, in reverse and forward mode: active values passed
// through `...` to a variadic function that reads them with va_arg (once,
// the callee was inlined against LLVM's rules and the derivative failed
// the verifier: "internal error ... invalid IR"), and an inline assembly
// statement on active values (once described as "a call through a function
// pointer"). A variadic logging helper given only inactive values is fine.
// RUN: not %clang -O0 -g -c %s -o /dev/null 2>&1 | FileCheck %s
// RUN: not %clang -O2 -g -c %s -o /dev/null 2>&1 | FileCheck %s
// RUN: not %clang -O0 -g -c %s -o /dev/null -DFWD 2>&1 | FileCheck %s
// RUN: not %clang -O2 -g -c %s -o /dev/null -DFWD 2>&1 | FileCheck %s
// CHECK-NOT: internal error
// CHECK-NOT: PLEASE submit a bug report
#include <stdarg.h>
#include <stdio.h>
extern int enzyme_dup;
double __enzyme_autodiff(void *, ...);
double __enzyme_fwddiff(void *, ...);

static double sumv(int n, ...) {
  va_list ap;
  va_start(ap, n);
  double s = 0;
  for (int i = 0; i < n; i++)
    s += va_arg(ap, double);
  va_end(ap);
  return s;
}

static int logged;
static void log_msg(const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  logged += vfprintf(stderr, fmt, ap);
  va_end(ap);
}

double through_varargs(double x, double y) {
  log_msg("step %d\n", 1);
  // CHECK-DAG: variadic-and-asm.c:[[@LINE+1]]:{{[0-9]+}}: error: tapestry: cannot differentiate 'through_varargs': 'sumv' takes a variable number of arguments (...) and is called with active values; Tapestry cannot differentiate va_arg yet: pass the values in an array (const double *) or as fixed parameters, or register a derivative for 'sumv' (if it only prints or logs them, declare it inactive: __enzyme_inactivefn or __attribute__((enzyme_inactive)))
  return sumv(2, x * x, x * y);
}

double through_asm(double x) {
  double r;
  // CHECK-DAG: variadic-and-asm.c:[[@LINE+1]]:{{[0-9]+}}: error: tapestry: cannot differentiate 'through_asm': an inline assembly statement (asm) takes or gives active values, and Tapestry cannot differentiate assembly
  __asm__("" : "=x"(r) : "0"(x));
  return r * x;
}

void g(double x, double y, double *out) {
#ifndef FWD
  out[0] = __enzyme_autodiff((void *)through_varargs, x, y);
  out[1] = __enzyme_autodiff((void *)through_asm, x);
#else
  out[0] = __enzyme_fwddiff((void *)through_varargs, x, 1.0, y, 0.0);
  out[1] = __enzyme_fwddiff((void *)through_asm, x, 1.0);
#endif
}
