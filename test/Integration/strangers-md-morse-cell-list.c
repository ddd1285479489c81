// A stranger's program (probe 37, integers on the heap beside the math):
// self-checking against central finite differences, as its author wrote it.
// RUN: %clang -O0 %s -lm -o %t0 && %t0 | FileCheck %s
// RUN: %clang -O1 %s -lm -o %t1 && %t1 | FileCheck %s
// RUN: %clang -O2 %s -lm -o %t2 && %t2 | FileCheck %s
// RUN: %clang -O3 %s -lm -o %t3 && %t3 | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: ALL PASSED
/* Molecular dynamics: Morse pair potential in a periodic box, with
 * (a) a linked-cell list (int head[]/next[] on the heap) built inside the
 *     energy routine from floor() of the positions, and
 * (b) a Verlet neighbour list (CSR: int start[], int *nbr grown by realloc)
 *     built once outside and consumed by the energy routine.
 * Forces = -gradient (reverse mode), and d E / d (well depth D) as an
 * active scalar (enzyme_out). Forward mode for one direction. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

extern int enzyme_dup, enzyme_const, enzyme_out;
double __enzyme_autodiff(void *, ...);
double __enzyme_fwddiff(void *, ...);

static int nfail = 0;
static void check(const char *name, double ad, double ref, double tol) {
  double err = fabs(ad - ref) / fmax(1.0, fabs(ref));
  int ok = err < tol;
  printf("%s %s ad=%.12g ref=%.12g relerr=%.2e\n", ok ? "PASS" : "FAIL", name, ad, ref, err);
  if (!ok) nfail++;
}

static inline double morse(double r, double D, double a, double r0) {
  double e = exp(-a * (r - r0));
  return D * (1 - e) * (1 - e) - D;
}

static inline double min_image(double d, double L) { return d - L * round(d / L); }

double energy_cells(const double *x, int n, double L, double rc, double D) {
  const double a = 1.6, r0 = 1.1;
  int nc = (int)floor(L / rc);
  double cs = L / nc;
  int *head = malloc(nc * nc * nc * sizeof(int));
  int *next = malloc(n * sizeof(int));
  for (int c = 0; c < nc * nc * nc; c++) head[c] = -1;
  for (int i = 0; i < n; i++) {
    int cx = (int)floor(x[3 * i] / cs), cy = (int)floor(x[3 * i + 1] / cs), cz = (int)floor(x[3 * i + 2] / cs);
    cx = (cx % nc + nc) % nc; cy = (cy % nc + nc) % nc; cz = (cz % nc + nc) % nc;
    int c = (cx * nc + cy) * nc + cz;
    next[i] = head[c];
    head[c] = i;
  }
  double E = 0;
  for (int cx = 0; cx < nc; cx++)
    for (int cy = 0; cy < nc; cy++)
      for (int cz = 0; cz < nc; cz++) {
        int c = (cx * nc + cy) * nc + cz;
        for (int dx = -1; dx <= 1; dx++)
          for (int dy = -1; dy <= 1; dy++)
            for (int dz = -1; dz <= 1; dz++) {
              int c2 = ((((cx + dx + nc) % nc) * nc + (cy + dy + nc) % nc) * nc + (cz + dz + nc) % nc);
              for (int i = head[c]; i >= 0; i = next[i])
                for (int j = head[c2]; j >= 0; j = next[j]) {
                  if (j <= i) continue;
                  double r2 = 0;
                  for (int k = 0; k < 3; k++) {
                    double d = min_image(x[3 * i + k] - x[3 * j + k], L);
                    r2 += d * d;
                  }
                  if (r2 < rc * rc) {
                    double r = sqrt(r2);
                    E += morse(r, D, a, r0) - morse(rc, D, a, r0);
                  }
                }
            }
      }
  free(next);
  free(head);
  return E;
}

typedef struct { int n; int *start; int *nbr; } NList;

static NList build_nlist(const double *x, int n, double L, double rskin) {
  NList nl; nl.n = n;
  nl.start = malloc((n + 1) * sizeof(int));
  int cap = 8, cnt = 0;
  nl.nbr = malloc(cap * sizeof(int));
  for (int i = 0; i < n; i++) {
    nl.start[i] = cnt;
    for (int j = i + 1; j < n; j++) {
      double r2 = 0;
      for (int k = 0; k < 3; k++) { double d = min_image(x[3 * i + k] - x[3 * j + k], L); r2 += d * d; }
      if (r2 < rskin * rskin) {
        if (cnt == cap) { cap = cap * 3 / 2 + 1; nl.nbr = realloc(nl.nbr, cap * sizeof(int)); }
        nl.nbr[cnt++] = j;
      }
    }
  }
  nl.start[n] = cnt;
  return nl;
}

double energy_nlist(const double *x, const NList *nl, double L, double rc, double D) {
  const double a = 1.6, r0 = 1.1;
  double E = 0;
  for (int i = 0; i < nl->n; i++)
    for (int p = nl->start[i]; p < nl->start[i + 1]; p++) {
      int j = nl->nbr[p];
      double r2 = 0;
      for (int k = 0; k < 3; k++) { double d = min_image(x[3 * i + k] - x[3 * j + k], L); r2 += d * d; }
      if (r2 < rc * rc) E += morse(sqrt(r2), D, a, r0) - morse(rc, D, a, r0);
    }
  return E;
}

int main(void) {
  const int M = 4, n = M * M * M;
  const double L = 4.8, rc = 1.55, D = 0.7;
  double *x = malloc(3 * n * sizeof(double));
  srand(12345);
  for (int i = 0; i < M; i++)
    for (int j = 0; j < M; j++)
      for (int k = 0; k < M; k++) {
        int p = (i * M + j) * M + k;
        x[3 * p] = (i + 0.5) * L / M + 0.15 * ((double)rand() / RAND_MAX - 0.5);
        x[3 * p + 1] = (j + 0.5) * L / M + 0.15 * ((double)rand() / RAND_MAX - 0.5);
        x[3 * p + 2] = (k + 0.5) * L / M + 0.15 * ((double)rand() / RAND_MAX - 0.5);
      }
  NList nl = build_nlist(x, n, L, rc + 0.3);
  double E1 = energy_cells(x, n, L, rc, D), E2 = energy_nlist(x, &nl, L, rc, D);
  printf("E cells=%.12f nlist=%.12f pairs=%d\n", E1, E2, nl.start[n]);
  check("cells vs nlist energy", E1, E2, 1e-12);

  double *g1 = calloc(3 * n, sizeof(double)), *g2 = calloc(3 * n, sizeof(double));
  double dD1 = __enzyme_autodiff((void *)energy_cells, enzyme_dup, x, g1, enzyme_const, n,
                                 enzyme_const, L, enzyme_const, rc, enzyme_out, D);
  double dD2 = __enzyme_autodiff((void *)energy_nlist, enzyme_dup, x, g2, enzyme_const, &nl,
                                 enzyme_const, L, enzyme_const, rc, enzyme_out, D);
  check("dE/dD cells (E/D analytic)", dD1, E1 / D, 1e-10);
  check("dE/dD nlist (E/D analytic)", dD2, E2 / D, 1e-10);
  const double h = 1e-6;
  char name[64];
  for (int i = 0; i < 3 * n; i += 11) {
    double s = x[i];
    x[i] = s + h; double fp = energy_cells(x, n, L, rc, D);
    x[i] = s - h; double fm = energy_cells(x, n, L, rc, D);
    x[i] = s;
    double fd = (fp - fm) / (2 * h);
    snprintf(name, sizeof name, "cells dE/dx[%d]", i); check(name, g1[i], fd, 1e-6);
    snprintf(name, sizeof name, "nlist dE/dx[%d]", i); check(name, g2[i], fd, 1e-6);
  }
  double fsum[3] = {0, 0, 0};
  for (int i = 0; i < n; i++) for (int k = 0; k < 3; k++) fsum[k] += g1[3 * i + k];
  check("net force x ~ 0", fsum[0], 0.0, 1e-9);
  /* forward mode along a random displacement */
  double *v = malloc(3 * n * sizeof(double)), gv = 0;
  for (int i = 0; i < 3 * n; i++) { v[i] = sin(2.1 * i + 1); gv += g2[i] * v[i]; }
  double t1 = __enzyme_fwddiff((void *)energy_cells, enzyme_dup, x, v, enzyme_const, n,
                               enzyme_const, L, enzyme_const, rc, enzyme_const, D);
  double t2 = __enzyme_fwddiff((void *)energy_nlist, enzyme_dup, x, v, enzyme_const, &nl,
                               enzyme_const, L, enzyme_const, rc, enzyme_const, D);
  check("fwd cells vs grad.v", t1, gv, 1e-9);
  check("fwd nlist vs grad.v", t2, gv, 1e-9);
  free(v); free(g1); free(g2); free(x); free(nl.start); free(nl.nbr);
  if (nfail) { printf("%d FAILED\n", nfail); return 1; }
  printf("ALL PASSED\n");
  return 0;
}
