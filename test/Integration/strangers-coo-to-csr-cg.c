// A stranger's program (probe 37, integers on the heap beside the math):
// self-checking against central finite differences, as its author wrote it.
// RUN: %clang -O0 %s -lm -o %t0 && %t0 | FileCheck %s
// RUN: %clang -O1 %s -lm -o %t1 && %t1 | FileCheck %s
// RUN: %clang -O2 %s -lm -o %t2 && %t2 | FileCheck %s
// RUN: %clang -O3 %s -lm -o %t3 && %t3 | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: ALL PASSED
/* Variable-coefficient 2-D diffusion: the stiffness matrix is assembled as
 * COO triplets into arrays grown with realloc, converted to CSR inside the
 * differentiated function (counting sort on int row counts, memcpy of the
 * row pointer array into a cursor array, int column array), then a fixed
 * number of conjugate-gradient iterations solve A u = b and the output is a
 * weighted average of u. Derivatives w.r.t. the conductivities (which enter
 * the COO values) and the load b: reverse mode and forward mode vs FD. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

extern int enzyme_dup, enzyme_const, enzyme_out, enzyme_dupnoneed;
void __enzyme_autodiff(void *, ...);
double __enzyme_fwddiff(void *, ...);

static int nfail = 0;
static void check(const char *name, double ad, double ref, double tol) {
  double err = fabs(ad - ref) / fmax(1.0, fabs(ref));
  int ok = err < tol;
  printf("%s %s ad=%.12g ref=%.12g relerr=%.2e\n", ok ? "PASS" : "FAIL", name, ad, ref, err);
  if (!ok) nfail++;
}

typedef struct { int n, nnz, cap; int *row, *col; double *val; } COO;

static void coo_push(COO *c, int i, int j, double v) {
  if (c->nnz == c->cap) {
    c->cap = c->cap ? 2 * c->cap : 16;
    c->row = realloc(c->row, c->cap * sizeof(int));
    c->col = realloc(c->col, c->cap * sizeof(int));
    c->val = realloc(c->val, c->cap * sizeof(double));
  }
  c->row[c->nnz] = i; c->col[c->nnz] = j; c->val[c->nnz] = v; c->nnz++;
}

static void spmv(int n, const int *rp, const int *ci, const double *v, const double *x, double *y) {
  for (int i = 0; i < n; i++) {
    double s = 0;
    for (int p = rp[i]; p < rp[i + 1]; p++) s += v[p] * x[ci[p]];
    y[i] = s;
  }
}

/* kappa: conductivity per cell (N x N cells), grid nodes (N-1)^2 interior */
double solve_output(const double *kappa, const double *b, int N, int iters) {
  int m = N - 1, n = m * m;
  COO c = {n, 0, 0, NULL, NULL, NULL};
  for (int j = 0; j < m; j++)
    for (int i = 0; i < m; i++) {
      int r = j * m + i;
      /* four edges around node (i+1,j+1); edge conductivity = mean of 2 cells */
      double ke = 0.5 * (kappa[j * N + i + 1] + kappa[(j + 1) * N + i + 1]);
      double kw = 0.5 * (kappa[j * N + i] + kappa[(j + 1) * N + i]);
      double kn = 0.5 * (kappa[(j + 1) * N + i] + kappa[(j + 1) * N + i + 1]);
      double ks = 0.5 * (kappa[j * N + i] + kappa[j * N + i + 1]);
      coo_push(&c, r, r, ke); coo_push(&c, r, r, kw);  /* duplicates: summed by SpMV */
      coo_push(&c, r, r, kn + ks);
      if (i + 1 < m) coo_push(&c, r, r + 1, -ke);
      if (i > 0) coo_push(&c, r, r - 1, -kw);
      if (j + 1 < m) coo_push(&c, r, r + m, -kn);
      if (j > 0) coo_push(&c, r, r - m, -ks);
    }
  /* COO -> CSR */
  int *rp = calloc(n + 1, sizeof(int));
  for (int k = 0; k < c.nnz; k++) rp[c.row[k] + 1]++;
  for (int i = 0; i < n; i++) rp[i + 1] += rp[i];
  int *cur = malloc(n * sizeof(int));
  memcpy(cur, rp, n * sizeof(int));
  int *ci = malloc(c.nnz * sizeof(int));
  double *v = malloc(c.nnz * sizeof(double));
  for (int k = 0; k < c.nnz; k++) {
    int p = cur[c.row[k]]++;
    ci[p] = c.col[k];
    v[p] = c.val[k];
  }
  /* CG */
  double *u = calloc(n, sizeof(double)), *r = malloc(n * sizeof(double));
  double *p = malloc(n * sizeof(double)), *Ap = malloc(n * sizeof(double));
  memcpy(r, b, n * sizeof(double));
  memcpy(p, b, n * sizeof(double));
  double rr = 0;
  for (int i = 0; i < n; i++) rr += r[i] * r[i];
  for (int it = 0; it < iters; it++) {
    spmv(n, rp, ci, v, p, Ap);
    double pAp = 0;
    for (int i = 0; i < n; i++) pAp += p[i] * Ap[i];
    double alpha = rr / pAp;
    double rr2 = 0;
    for (int i = 0; i < n; i++) { u[i] += alpha * p[i]; r[i] -= alpha * Ap[i]; rr2 += r[i] * r[i]; }
    double beta = rr2 / rr;
    rr = rr2;
    for (int i = 0; i < n; i++) p[i] = r[i] + beta * p[i];
  }
  double out = 0;
  for (int i = 0; i < n; i++) out += u[i] * (1.0 + 0.5 * sin(0.3 * i));
  free(u); free(r); free(p); free(Ap); free(rp); free(cur); free(ci); free(v);
  free(c.row); free(c.col); free(c.val);
  return out / n;
}

int main(void) {
  const int N = 7, n = (N - 1) * (N - 1), iters = 12;
  double kappa[49], dk[49] = {0}, b[36], db[36] = {0};
  for (int i = 0; i < N * N; i++) kappa[i] = 1.0 + 0.5 * sin(0.9 * i) * sin(0.9 * i);
  for (int i = 0; i < n; i++) b[i] = 1.0 + 0.2 * cos(1.1 * i);
  printf("out=%.12f\n", solve_output(kappa, b, N, iters));
  __enzyme_autodiff((void *)solve_output, enzyme_dup, kappa, dk, enzyme_dup, b, db,
                    enzyme_const, N, enzyme_const, iters);
  const double h = 1e-6;
  char name[64];
  for (int i = 0; i < N * N; i += 3) {
    double s = kappa[i];
    kappa[i] = s + h; double fp = solve_output(kappa, b, N, iters);
    kappa[i] = s - h; double fm = solve_output(kappa, b, N, iters);
    kappa[i] = s;
    snprintf(name, sizeof name, "rev d/dkappa[%d]", i);
    check(name, dk[i], (fp - fm) / (2 * h), 1e-6);
  }
  for (int i = 0; i < n; i += 5) {
    double s = b[i];
    b[i] = s + h; double fp = solve_output(kappa, b, N, iters);
    b[i] = s - h; double fm = solve_output(kappa, b, N, iters);
    b[i] = s;
    snprintf(name, sizeof name, "rev d/db[%d]", i);
    check(name, db[i], (fp - fm) / (2 * h), 1e-6);
  }
  double vk[49], vb[36], gv = 0;
  for (int i = 0; i < N * N; i++) { vk[i] = sin(0.5 * i + 0.2); gv += vk[i] * dk[i]; }
  for (int i = 0; i < n; i++) { vb[i] = cos(0.4 * i); gv += vb[i] * db[i]; }
  double t = __enzyme_fwddiff((void *)solve_output, enzyme_dup, kappa, vk, enzyme_dup, b, vb,
                              enzyme_const, N, enzyme_const, iters);
  check("fwd vs grad.v", t, gv, 1e-9);
  if (nfail) { printf("%d FAILED\n", nfail); return 1; }
  printf("ALL PASSED\n");
  return 0;
}
