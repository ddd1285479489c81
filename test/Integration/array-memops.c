// memset, memcpy and memmove of double arrays inside differentiated functions
// (as libc calls and, at -O1 and above, as the LLVM intrinsics clang turns
// them and copy loops into), in reverse and forward mode against central
// finite differences: copies of an input into a local array and into a
// caller's output array, memset to clear an accumulator, an overlapping
// memmove that shifts an array in place, and a struct copy.
// RUN: %clang -O0 %s -lm -o %t0 && %t0 | FileCheck %s
// RUN: %clang -O1 %s -lm -o %t1 && %t1 | FileCheck %s
// RUN: %clang -O2 %s -lm -o %t2 && %t2 | FileCheck %s
// RUN: %clang -O3 %s -lm -o %t3 && %t3 | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: ALL PASSED
#include "Inputs/check.h"
#include <stdlib.h>
#include <string.h>

extern int enzyme_dup, enzyme_dupnoneed, enzyme_const, enzyme_out;
void __enzyme_autodiff(void *, ...);
double __enzyme_autodiff_d(void *, ...);
double __enzyme_fwddiff(void *, ...);
void __enzyme_fwddiff_v(void *, ...);

#include "Inputs/gradcheck.h"

#define NO 8

/* memcpy an input into a local array, transform the copy */
double copy_local(const double *x, int n) {
  double t[NO];
  memcpy(t, x, n * sizeof *x);
  for (int i = 0; i < n; i++)
    t[i] = sin(t[i]) + t[(i + 1) % n] * t[i];
  double s = 0;
  for (int i = 0; i < n; i++)
    s += t[i] * t[i];
  return s;
}

/* memset the output, accumulate into it, memcpy part of it into a second
   output; returns a loss of both */
double accumulate(const double *x, double *acc, double *out, int n) {
  memset(acc, 0, n * sizeof *acc);
  for (int i = 0; i < n; i++)
    for (int j = 0; j < n; j++)
      acc[(i + j) % n] += x[i] * x[j] * 0.5;
  memcpy(out, acc + 2, (n - 2) * sizeof *acc);
  double s = 0;
  for (int i = 0; i < n - 2; i++)
    s += out[i] * (i + 1) + cos(acc[i]);
  return s;
}

/* shift right by two with an overlapping memmove, fill the front, repeat */
double shift_inplace(double *x, int n) {
  for (int r = 0; r < 3; r++) {
    double a = x[n - 1], b = x[n - 2];
    memmove(x + 2, x, (n - 2) * sizeof *x);
    x[0] = sin(a) + b;
    x[1] = a * b;
    /* and an overlapping move to the left */
    memmove(x, x + 1, (n - 1) * sizeof *x);
    x[n - 1] = 0.5 * x[0];
  }
  double s = 0;
  for (int i = 0; i < n; i++)
    s += (i + 1) * x[i] * x[i];
  return s;
}

typedef struct {
  double pos[3], w;
  int tag;
} Body;

/* copy structs (memcpy of a struct with double and int fields) */
double struct_copy(const Body *in, int n) {
  Body tmp[4];
  memcpy(tmp, in, n * sizeof *in);
  Body first = tmp[0];
  double s = 0;
  for (int i = 0; i < n; i++) {
    tmp[i].w *= tmp[i].pos[0] + first.pos[1];
    s += tmp[i].w * (tmp[i].tag + 1) + tmp[i].pos[2] * tmp[i].pos[1];
  }
  return s;
}

static double cl_eval(const double *p) {
  double *x = copy_of(p, NO);
  double r = copy_local(x, NO);
  free(x);
  return r;
}
static void cl_grad(const double *p, double *g) {
  double *x = copy_of(p, NO);
  __enzyme_autodiff((void *)copy_local, enzyme_dup, x, g, enzyme_const, NO);
  free(x);
}
static double cl_tangent(const double *p, int j) {
  double *x = copy_of(p, NO), *tx = unit_slice(j, 0, NO);
  double t =
      __enzyme_fwddiff((void *)copy_local, enzyme_dup, x, tx, enzyme_const, NO);
  free(x), free(tx);
  return t;
}

/* p = [x (NO), acc_in (NO), out_in (NO - 2)] */
#define NACC (3 * NO - 2)
static double acc_eval(const double *p) {
  double *x = copy_of(p, NO), *a = copy_of(p + NO, NO),
         *o = copy_of(p + 2 * NO, NO - 2);
  double r = accumulate(x, a, o, NO);
  free(x), free(a), free(o);
  return r;
}
static void acc_grad(const double *p, double *g) {
  double *x = copy_of(p, NO), *a = copy_of(p + NO, NO),
         *o = copy_of(p + 2 * NO, NO - 2);
  __enzyme_autodiff((void *)accumulate, enzyme_dup, x, g, enzyme_dup, a, g + NO,
                    enzyme_dup, o, g + 2 * NO, enzyme_const, NO);
  free(x), free(a), free(o);
}
static double acc_tangent(const double *p, int j) {
  double *x = copy_of(p, NO), *a = copy_of(p + NO, NO),
         *o = copy_of(p + 2 * NO, NO - 2);
  double *tx = unit_slice(j, 0, NO), *ta = unit_slice(j, NO, NO),
         *to = unit_slice(j, 2 * NO, NO - 2);
  double t = __enzyme_fwddiff((void *)accumulate, enzyme_dup, x, tx, enzyme_dup,
                              a, ta, enzyme_dup, o, to, enzyme_const, NO);
  free(x), free(a), free(o), free(tx), free(ta), free(to);
  return t;
}

static double sh_eval(const double *p) {
  double *x = copy_of(p, NO);
  double r = shift_inplace(x, NO);
  free(x);
  return r;
}
static void sh_grad(const double *p, double *g) {
  double *x = copy_of(p, NO);
  __enzyme_autodiff((void *)shift_inplace, enzyme_dup, x, g, enzyme_const, NO);
  free(x);
}
static double sh_tangent(const double *p, int j) {
  double *x = copy_of(p, NO), *tx = unit_slice(j, 0, NO);
  double t = __enzyme_fwddiff((void *)shift_inplace, enzyme_dup, x, tx,
                              enzyme_const, NO);
  free(x), free(tx);
  return t;
}

/* p = [pos0, pos1, pos2, w] per body */
#define NBODY 4
static void bodies_of(const double *p, Body *b) {
  for (int i = 0; i < NBODY; i++) {
    memcpy(b[i].pos, p + 4 * i, 3 * sizeof(double));
    b[i].w = p[4 * i + 3];
    b[i].tag = i;
  }
}
static double sc_eval(const double *p) {
  Body b[NBODY];
  bodies_of(p, b);
  return struct_copy(b, NBODY);
}
static void sc_grad(const double *p, double *g) {
  Body b[NBODY], db[NBODY];
  bodies_of(p, b);
  memset(db, 0, sizeof db);
  __enzyme_autodiff((void *)struct_copy, enzyme_dup, b, db, enzyme_const,
                    NBODY);
  for (int i = 0; i < NBODY; i++) {
    memcpy(g + 4 * i, db[i].pos, 3 * sizeof(double));
    g[4 * i + 3] = db[i].w;
  }
}
static double sc_tangent(const double *p, int j) {
  Body b[NBODY], tb[NBODY];
  double *e = unit_slice(j, 0, 4 * NBODY);
  bodies_of(p, b);
  bodies_of(e, tb);
  double t = __enzyme_fwddiff((void *)struct_copy, enzyme_dup, b, tb,
                              enzyme_const, NBODY);
  free(e);
  return t;
}

int main(void) {
  double p[NACC];
  fill(p, NACC, -1.0, 1.0, 20);
  compare("copy_local (memcpy into a local)", NO, p, cl_eval, cl_grad,
          cl_tangent);
  compare("accumulate (memset, memcpy to output)", NACC, p, acc_eval, acc_grad,
          acc_tangent);
  compare("shift_inplace (overlapping memmove)", NO, p, sh_eval, sh_grad,
          sh_tangent);
  compare("struct_copy", 4 * NBODY, p, sc_eval, sc_grad, sc_tangent);
  return check_report();
}
