// Memory whose type the IR does not say (issue 14 item 2): structs mixing
// int and double copied by assignment (optimised into i64 and vector loads
// and stores), doubles moved through a union's uint64_t member and kept as
// their bits in a uint64_t array (memcpy to and from), memcpy of a
// struct {float; double; int}, and an array of structs and a double buffer
// both initialised with `n > 0 ? malloc(...) : NULL` (issue 14 item 3: the
// shared null must not mix their types). Reverse and forward mode against
// central finite differences, at -O0..-O3.
// RUN: %clang -O0 %s -lm -o %t0 && %t0 | FileCheck %s
// RUN: %clang -O1 %s -lm -o %t1 && %t1 | FileCheck %s
// RUN: %clang -O2 %s -lm -o %t2 && %t2 | FileCheck %s
// RUN: %clang -O3 %s -lm -o %t3 && %t3 | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: ALL PASSED
#include "Inputs/check.h"
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

extern int enzyme_dup, enzyme_const;
void __enzyme_autodiff(void *, ...);
double __enzyme_fwddiff(void *, ...);

#include "Inputs/gradcheck.h"

/* ---- struct of int and doubles, copied by assignment ---- */
typedef struct {
  double a;
  int n;
  double b;
} Rec;

/* swaps two records, copies one out and mixes them */
double rec_swap(Rec *r, Rec *out, int k) {
  Rec t = r[0];
  r[0] = r[1];
  r[1] = t;
  out[0] = r[k];
  out[1] = out[0];
  out[1].b *= out[1].a;
  return out[0].a * out[0].b * out[0].n + r[0].a * sin(r[1].b) + out[1].b;
}

/* p = [a0, b0, a1, b1] */
static void recs_of(const double *p, Rec *r) {
  for (int i = 0; i < 2; i++) {
    r[i].a = p[2 * i];
    r[i].n = i + 2;
    r[i].b = p[2 * i + 1];
  }
}
static double rs_eval(const double *p) {
  Rec r[2], out[2];
  recs_of(p, r);
  return rec_swap(r, out, 1);
}
static void rs_grad(const double *p, double *g) {
  Rec r[2], dr[2], out[2], dout[2];
  recs_of(p, r);
  memset(dr, 0, sizeof dr);
  memset(dout, 0, sizeof dout);
  __enzyme_autodiff((void *)rec_swap, enzyme_dup, r, dr, enzyme_dup, out, dout,
                    enzyme_const, 1);
  for (int i = 0; i < 2; i++)
    g[2 * i] = dr[i].a, g[2 * i + 1] = dr[i].b;
}
static double rs_tangent(const double *p, int j) {
  Rec r[2], dr[2], out[2], dout[2];
  double *e = unit_slice(j, 0, 4);
  recs_of(p, r);
  recs_of(e, dr);
  memset(dout, 0, sizeof dout);
  double t = __enzyme_fwddiff((void *)rec_swap, enzyme_dup, r, dr, enzyme_dup,
                              out, dout, enzyme_const, 1);
  free(e);
  return t;
}

/* ---- doubles moved through a union's integer member ---- */
typedef union {
  double d;
  uint64_t u;
} Bits;

double union_move(const double *x, Bits *tmp, int n) {
  for (int i = 0; i < n; i++)
    tmp[i].d = x[i] * x[(i + 1) % n];
  /* rotate the bits by one place, as integers */
  uint64_t first = tmp[0].u;
  for (int i = 0; i + 1 < n; i++)
    tmp[i].u = tmp[i + 1].u;
  tmp[n - 1].u = first;
  double s = 0;
  for (int i = 0; i < n; i++)
    s += (i + 1) * tmp[i].d;
  return s;
}

#define NU 5
static double um_eval(const double *p) {
  Bits tmp[NU];
  return union_move(p, tmp, NU);
}
static void um_grad(const double *p, double *g) {
  Bits tmp[NU], dtmp[NU];
  double *x = copy_of(p, NU);
  memset(dtmp, 0, sizeof dtmp);
  __enzyme_autodiff((void *)union_move, enzyme_dup, x, g, enzyme_dup, tmp, dtmp,
                    enzyme_const, NU);
  free(x);
}
static double um_tangent(const double *p, int j) {
  Bits tmp[NU], dtmp[NU];
  double *x = copy_of(p, NU), *e = unit_slice(j, 0, NU);
  memset(dtmp, 0, sizeof dtmp);
  double t = __enzyme_fwddiff((void *)union_move, enzyme_dup, x, e, enzyme_dup,
                              tmp, dtmp, enzyme_const, NU);
  free(x), free(e);
  return t;
}

/* ---- doubles kept as their bits in a uint64_t array ---- */
double bits_array(const double *x, uint64_t *scratch, int n) {
  for (int i = 0; i < n; i++) {
    double y = x[i] * x[(i + 2) % n];
    uint64_t u;
    memcpy(&u, &y, sizeof u);
    scratch[i] = u;
  }
  double s = 0;
  for (int i = 0; i < n; i++) {
    double r;
    memcpy(&r, &scratch[(i + 1) % n], sizeof r);
    s += (i + 1) * sin(r);
  }
  return s;
}

static double ba_eval(const double *p) {
  uint64_t scratch[NU];
  return bits_array(p, scratch, NU);
}
static void ba_grad(const double *p, double *g) {
  uint64_t scratch[NU], dscratch[NU];
  double *x = copy_of(p, NU);
  memset(dscratch, 0, sizeof dscratch);
  __enzyme_autodiff((void *)bits_array, enzyme_dup, x, g, enzyme_dup, scratch,
                    dscratch, enzyme_const, NU);
  free(x);
}
static double ba_tangent(const double *p, int j) {
  uint64_t scratch[NU], dscratch[NU];
  double *x = copy_of(p, NU), *e = unit_slice(j, 0, NU);
  memset(dscratch, 0, sizeof dscratch);
  double t = __enzyme_fwddiff((void *)bits_array, enzyme_dup, x, e, enzyme_dup,
                              scratch, dscratch, enzyme_const, NU);
  free(x), free(e);
  return t;
}

/* ---- memcpy of a struct {float; double; int} ---- */
typedef struct {
  float a;
  double b;
  int n;
} FDI;

double fdi_copy(const FDI *in, FDI *out, int n) {
  FDI t[4];
  memcpy(t, in, n * sizeof *in);
  for (int i = 0; i < n; i++) {
    t[i].b = t[i].b * t[i].n + t[(i + 1) % n].b;
    t[i].a = 2.0f * t[i].a;
  }
  memcpy(out, t, n * sizeof *out);
  FDI one;
  memcpy(&one, &t[1], sizeof one);
  double s = 0;
  for (int i = 0; i < n; i++)
    s += out[i].b * out[i].b + out[i].a * out[i].n;
  return s + one.b * one.a;
}

/* p = [b0..b3]: the float members are constants here so that finite
   differences stay accurate; their derivatives are checked analytically. */
#define NF 4
static void fdis_of(const double *p, FDI *f) {
  for (int i = 0; i < NF; i++) {
    f[i].a = 0.25f * (i + 1);
    f[i].b = p[i];
    f[i].n = i + 1;
  }
}
static double fd_eval(const double *p) {
  FDI in[NF], out[NF];
  fdis_of(p, in);
  return fdi_copy(in, out, NF);
}
static void fd_grad(const double *p, double *g) {
  FDI in[NF], din[NF], out[NF], dout[NF];
  fdis_of(p, in);
  memset(din, 0, sizeof din);
  memset(dout, 0, sizeof dout);
  __enzyme_autodiff((void *)fdi_copy, enzyme_dup, in, din, enzyme_dup, out,
                    dout, enzyme_const, NF);
  for (int i = 0; i < NF; i++)
    g[i] = din[i].b;
  /* s = sum_i out[i].a * n_i (+ one.b * one.a), out[i].a = 2 a_i:
     d/da_i = 2 n_i, and one = t[1] adds 2 * t[1].b at i = 1. */
  for (int i = 0; i < NF; i++) {
    double want = 2.0 * (i + 1);
    if (i == 1)
      want += 2.0 * (in[1].b * in[1].n + in[2].b);
    check_close(LABEL("fdi_copy: reverse d/da[%d] (float member)", i),
                din[i].a, want, 1e-5);
    check_close(LABEL("fdi_copy: integer member's shadow untouched [%d]", i),
                din[i].n, 0, 0);
  }
}
static double fd_tangent(const double *p, int j) {
  FDI in[NF], din[NF], out[NF], dout[NF];
  double *e = unit_slice(j, 0, NF);
  fdis_of(p, in);
  memset(din, 0, sizeof din);
  for (int i = 0; i < NF; i++)
    din[i].b = e[i];
  memset(dout, 0, sizeof dout);
  double t = __enzyme_fwddiff((void *)fdi_copy, enzyme_dup, in, din, enzyme_dup,
                              out, dout, enzyme_const, NF);
  free(e);
  return t;
}

/* ---- null-initialised array of structs and double buffer ---- */
typedef struct {
  int id;
  int count;
  double w;
} Item;

double null_init(const double *x, int n) {
  Item *items = n > 0 ? malloc(n * sizeof(Item)) : NULL;
  double *buf = n > 0 ? malloc(n * sizeof(double)) : NULL;
  for (int i = 0; i < n; i++) {
    items[i].id = i;
    items[i].count = i % 3 + 1;
    items[i].w = x[i];
    buf[i] = x[i] * x[(i + 2) % n];
  }
  /* copy the int fields (and the whole struct) around */
  for (int i = 0; i + 1 < n; i++)
    items[i].count = items[i + 1].count;
  Item last = items[0];
  items[0] = items[n - 1];
  items[n - 1] = last;
  double s = 0;
  for (int i = 0; i < n; i++)
    s += items[i].w * items[i].count * buf[items[i].id];
  free(items);
  free(buf);
  return s;
}

#define NN 6
static double ni_eval(const double *p) { return null_init(p, NN); }
static void ni_grad(const double *p, double *g) {
  double *x = copy_of(p, NN);
  __enzyme_autodiff((void *)null_init, enzyme_dup, x, g, enzyme_const, NN);
  free(x);
}
static double ni_tangent(const double *p, int j) {
  double *x = copy_of(p, NN), *e = unit_slice(j, 0, NN);
  double t =
      __enzyme_fwddiff((void *)null_init, enzyme_dup, x, e, enzyme_const, NN);
  free(x), free(e);
  return t;
}

int main(void) {
  double p[8];
  fill(p, 8, -1.0, 1.5, 14);
  compare("rec_swap (struct assignment)", 4, p, rs_eval, rs_grad, rs_tangent);
  compare("union_move (uint64_t member)", NU, p, um_eval, um_grad, um_tangent);
  compare("bits_array (doubles as uint64_t)", NU, p, ba_eval, ba_grad,
          ba_tangent);
  compare("fdi_copy (memcpy of {float, double, int})", NF, p, fd_eval, fd_grad,
          fd_tangent);
  compare("null_init (array of structs, double buffer)", NN, p, ni_eval,
          ni_grad, ni_tangent);
  return check_report();
}
