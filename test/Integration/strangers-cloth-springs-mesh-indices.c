// A stranger's program (probe 37, integers on the heap beside the math):
// self-checking against central finite differences, as its author wrote it.
// RUN: %clang -O0 %s -lm -o %t0 && %t0 | FileCheck %s
// RUN: %clang -O1 %s -lm -o %t1 && %t1 | FileCheck %s
// RUN: %clang -O2 %s -lm -o %t2 && %t2 | FileCheck %s
// RUN: %clang -O3 %s -lm -o %t3 && %t3 | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: ALL PASSED
/* Cloth simulation energy: mass-spring network built from a triangle mesh.
 * Triangles are stored as an int index array on the heap; the edge list is
 * extracted at run time (grown with realloc, deduplicated), and the energy
 * function allocates a per-vertex valence count (int, calloc) to normalise
 * bending-like Laplacian terms.  Gradient (reverse) and directional
 * derivative (forward) of the energy w.r.t. the vertex positions. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

extern int enzyme_dup, enzyme_const, enzyme_out, enzyme_dupnoneed;
void __enzyme_autodiff(void *, ...);
double __enzyme_fwddiff(void *, ...);

typedef struct {
  int nv, nt, ne;
  int *tri;      /* 3*nt */
  int *edge;     /* 2*ne */
  double *rest;  /* ne rest lengths */
  double *area0; /* nt rest areas */
} Mesh;

static int nfail = 0;
static void check(const char *name, double ad, double ref, double tol) {
  double err = fabs(ad - ref) / fmax(1.0, fabs(ref));
  int ok = err < tol;
  printf("%s %s ad=%.12g ref=%.12g relerr=%.2e\n", ok ? "PASS" : "FAIL", name, ad, ref, err);
  if (!ok) nfail++;
}

static int cmp_edge(const void *a, const void *b) {
  const int *ea = a, *eb = b;
  if (ea[0] != eb[0]) return ea[0] - eb[0];
  return ea[1] - eb[1];
}

static void build_edges(Mesh *m) {
  int cap = 4, n = 0;
  int *e = malloc(2 * cap * sizeof(int));
  for (int t = 0; t < m->nt; t++)
    for (int k = 0; k < 3; k++) {
      int a = m->tri[3 * t + k], b = m->tri[3 * t + (k + 1) % 3];
      if (a > b) { int tmp = a; a = b; b = tmp; }
      if (n == cap) { cap *= 2; e = realloc(e, 2 * cap * sizeof(int)); }
      e[2 * n] = a; e[2 * n + 1] = b; n++;
    }
  qsort(e, n, 2 * sizeof(int), cmp_edge);
  int u = 0;
  for (int i = 0; i < n; i++)
    if (u == 0 || e[2 * i] != e[2 * (u - 1)] || e[2 * i + 1] != e[2 * (u - 1) + 1]) {
      e[2 * u] = e[2 * i]; e[2 * u + 1] = e[2 * i + 1]; u++;
    }
  m->edge = realloc(e, 2 * u * sizeof(int));
  m->ne = u;
}

static double tri_area(const double *x, const int *t) {
  const double *a = x + 3 * t[0], *b = x + 3 * t[1], *c = x + 3 * t[2];
  double u[3], v[3], w[3];
  for (int i = 0; i < 3; i++) { u[i] = b[i] - a[i]; v[i] = c[i] - a[i]; }
  w[0] = u[1] * v[2] - u[2] * v[1];
  w[1] = u[2] * v[0] - u[0] * v[2];
  w[2] = u[0] * v[1] - u[1] * v[0];
  return 0.5 * sqrt(w[0] * w[0] + w[1] * w[1] + w[2] * w[2]);
}

double cloth_energy(const double *x, const Mesh *m, double kstretch, double karea, double klap) {
  double E = 0.0;
  for (int e = 0; e < m->ne; e++) {
    int i = m->edge[2 * e], j = m->edge[2 * e + 1];
    double d2 = 0;
    for (int k = 0; k < 3; k++) { double d = x[3 * i + k] - x[3 * j + k]; d2 += d * d; }
    double L = sqrt(d2) - m->rest[e];
    E += 0.5 * kstretch * L * L;
  }
  for (int t = 0; t < m->nt; t++) {
    double dA = tri_area(x, m->tri + 3 * t) - m->area0[t];
    E += 0.5 * karea * dA * dA;
  }
  /* umbrella Laplacian smoothness, normalised by valence */
  int *val = calloc(m->nv, sizeof(int));
  double *lap = calloc(3 * m->nv, sizeof(double));
  for (int e = 0; e < m->ne; e++) { val[m->edge[2 * e]]++; val[m->edge[2 * e + 1]]++; }
  for (int e = 0; e < m->ne; e++) {
    int i = m->edge[2 * e], j = m->edge[2 * e + 1];
    for (int k = 0; k < 3; k++) {
      lap[3 * i + k] += (x[3 * j + k] - x[3 * i + k]) / val[i];
      lap[3 * j + k] += (x[3 * i + k] - x[3 * j + k]) / val[j];
    }
  }
  for (int i = 0; i < 3 * m->nv; i++) E += 0.5 * klap * lap[i] * lap[i];
  /* gravity */
  for (int i = 0; i < m->nv; i++) E += 9.81 * 0.01 * x[3 * i + 2];
  free(lap);
  free(val);
  return E;
}

int main(void) {
  const int NX = 5, NY = 4;
  Mesh m;
  m.nv = NX * NY;
  m.nt = 2 * (NX - 1) * (NY - 1);
  m.tri = malloc(3 * m.nt * sizeof(int));
  int t = 0;
  for (int j = 0; j < NY - 1; j++)
    for (int i = 0; i < NX - 1; i++) {
      int v00 = j * NX + i, v10 = v00 + 1, v01 = v00 + NX, v11 = v01 + 1;
      m.tri[3 * t] = v00; m.tri[3 * t + 1] = v10; m.tri[3 * t + 2] = v11; t++;
      m.tri[3 * t] = v00; m.tri[3 * t + 1] = v11; m.tri[3 * t + 2] = v01; t++;
    }
  build_edges(&m);
  double *X0 = malloc(3 * m.nv * sizeof(double));
  for (int j = 0; j < NY; j++)
    for (int i = 0; i < NX; i++) {
      double *p = X0 + 3 * (j * NX + i);
      p[0] = 0.1 * i; p[1] = 0.1 * j; p[2] = 0.0;
    }
  m.rest = malloc(m.ne * sizeof(double));
  for (int e = 0; e < m.ne; e++) {
    double d2 = 0;
    for (int k = 0; k < 3; k++) { double d = X0[3 * m.edge[2 * e] + k] - X0[3 * m.edge[2 * e + 1] + k]; d2 += d * d; }
    m.rest[e] = sqrt(d2);
  }
  m.area0 = malloc(m.nt * sizeof(double));
  for (int q = 0; q < m.nt; q++) m.area0[q] = tri_area(X0, m.tri + 3 * q);

  int n = 3 * m.nv;
  double *x = malloc(n * sizeof(double)), *dx = calloc(n, sizeof(double));
  for (int i = 0; i < n; i++) x[i] = X0[i] + 0.02 * sin(1.3 * i + 0.4) ;
  printf("nv=%d nt=%d ne=%d E=%.10f\n", m.nv, m.nt, m.ne, cloth_energy(x, &m, 100.0, 50.0, 3.0));

  __enzyme_autodiff((void *)cloth_energy, enzyme_dup, x, dx, enzyme_const, &m,
                    enzyme_const, 100.0, enzyme_const, 50.0, enzyme_const, 3.0);
  const double h = 1e-6;
  char name[64];
  for (int i = 0; i < n; i += 7) {
    double s = x[i];
    x[i] = s + h; double fp = cloth_energy(x, &m, 100.0, 50.0, 3.0);
    x[i] = s - h; double fm = cloth_energy(x, &m, 100.0, 50.0, 3.0);
    x[i] = s;
    snprintf(name, sizeof name, "rev dE/dx[%d]", i);
    check(name, dx[i], (fp - fm) / (2 * h), 1e-6);
  }
  /* forward: directional derivative, compared against gradient . v */
  double *v = malloc(n * sizeof(double));
  double gv = 0;
  for (int i = 0; i < n; i++) { v[i] = cos(0.7 * i); gv += dx[i] * v[i]; }
  double dE = __enzyme_fwddiff((void *)cloth_energy, enzyme_dup, x, v, enzyme_const, &m,
                               enzyme_const, 100.0, enzyme_const, 50.0, enzyme_const, 3.0);
  check("fwd dE.v vs grad.v", dE, gv, 1e-10);
  for (int i = 0; i < n; i++) x[i] += h * v[i];
  double fp = cloth_energy(x, &m, 100.0, 50.0, 3.0);
  for (int i = 0; i < n; i++) x[i] -= 2 * h * v[i];
  double fm = cloth_energy(x, &m, 100.0, 50.0, 3.0);
  check("fwd dE.v vs FD", dE, (fp - fm) / (2 * h), 1e-6);

  free(v); free(x); free(dx); free(X0); free(m.tri); free(m.edge); free(m.rest); free(m.area0);
  if (nfail) { printf("%d FAILED\n", nfail); return 1; }
  printf("ALL PASSED\n");
  return 0;
}
