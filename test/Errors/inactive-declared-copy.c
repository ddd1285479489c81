// A function that moves differentiated data cannot be declared inactive:
// an external copy_vec listed in __enzyme_inactivefn that receives a pointer
// to floating-point memory read with a derivative afterwards (a local
// buffer), or memory the caller reads back (an enzyme_dup argument), is an
// error at the call, in both modes, saying what to do instead. Following the
// advice given for an unknown function ("only if nothing it writes depends
// on differentiated values") thus never yields a silently wrong gradient.
// RUN: not %clang -O0 -g -c %s -o /dev/null 2>&1 | FileCheck %s
// RUN: not %clang -O2 -g -c %s -o /dev/null 2>&1 | FileCheck %s
// RUN: not %clang -O0 -g -c %s -o /dev/null -DFWD 2>&1 | FileCheck %s
// RUN: not %clang -O2 -g -c %s -o /dev/null -DFWD 2>&1 | FileCheck %s
// CHECK-NOT: PLEASE submit a bug report
// CHECK-NOT: Stack dump
#include <stdlib.h>
extern int enzyme_dup, enzyme_const;
void __enzyme_autodiff(void *, ...);
double __enzyme_fwddiff(void *, ...);
void copy_vec(double *dst, const double *src, int n);
void *__enzyme_inactivefn[] = {(void *)copy_vec};

double sumsq(const double *in, int n) {
  double *x = malloc(n * sizeof *x);
  // CHECK-DAG: inactive-declared-copy.c:[[@LINE+1]]:3: error: tapestry: cannot differentiate 'sumsq': 'copy_vec' is declared inactive (__enzyme_inactivefn) but may write floating-point data through its argument 1 ({{.*}}), which is read with a derivative afterwards; a function that moves differentiated data cannot be inactive (its writes would carry no derivative). Remove it from __enzyme_inactivefn and give its body (one that only reads the data may stay inactive), or register its derivative with 'void *__enzyme_register_gradient_copy_vec[3] = {(void*)copy_vec, (void*)aug, (void*)rev};' or 'void *__enzyme_register_derivative_copy_vec[2] = {(void*)copy_vec, (void*)fwd};'
  copy_vec(x, in, n);
  double s = 0;
  for (int i = 0; i < n; i++)
    s += x[i] * x[i];
  free(x);
  return s;
}

void scaled_copy(double *out, const double *in, double a, int n) {
  double t[4];
  for (int i = 0; i < 4; i++)
    t[i] = a * in[i];
  // CHECK-DAG: inactive-declared-copy.c:[[@LINE+1]]:3: error: tapestry: cannot differentiate 'scaled_copy': 'copy_vec' is declared inactive (__enzyme_inactivefn) but may write floating-point data through its argument 1 ({{.*}}), which the caller reads back; a function that moves differentiated data cannot be inactive
  copy_vec(out, t, n < 4 ? n : 4);
}

void g(double *in, double *din, double *out, double *dout) {
#ifndef FWD
  __enzyme_autodiff((void *)sumsq, enzyme_dup, in, din, enzyme_const, 4);
  __enzyme_autodiff((void *)scaled_copy, enzyme_dup, out, dout, enzyme_dup, in,
                    din, 2.0, enzyme_const, 4);
#else
  __enzyme_fwddiff((void *)sumsq, enzyme_dup, in, din, enzyme_const, 4);
  __enzyme_fwddiff((void *)scaled_copy, enzyme_dup, out, dout, enzyme_dup, in,
                   din, 2.0, 1.0, enzyme_const, 4);
#endif
}
// CHECK: 2 errors generated.
