// A finite-element user's program: a 1-D bar of linear elements whose
// stiffness is assembled through a connectivity (index) array into a dense
// matrix, and the energy 1/2 u^T K u - f^T u differentiated with respect to
// the nodal displacements and the element conductivities. Analytic
// gradients: dE/du = K u - f, dE/dc_e = 1/2 (u_a - u_b)^2 / h_e.
// RUN: %clang -O0 %s -lm -o %t0 && %t0 | FileCheck %s
// RUN: %clang -O1 %s -lm -o %t1 && %t1 | FileCheck %s
// RUN: %clang -O2 %s -lm -o %t2 && %t2 | FileCheck %s
// RUN: %clang -O3 %s -lm -o %t3 && %t3 | FileCheck %s
// RUN: %clang -O3 -march=native -ffast-math %s -lm -o %tf && %tf | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: ALL PASSED
#include "Inputs/check.h"
#include <stdlib.h>
#include <string.h>

extern int enzyme_dup, enzyme_const;
extern void __enzyme_autodiff(void *, ...);

#define NE 6
#define NN (NE + 1)

double energy(const double *u, const double *cond, const int *conn,
              const double *xs, const double *f, int ne, int nn) {
  double *K = (double *)calloc(nn * nn, sizeof(double));
  for (int e = 0; e < ne; ++e) {
    int a = conn[2 * e], b = conn[2 * e + 1];
    double h = xs[b] - xs[a];
    double ke = cond[e] / h;
    int idx[2] = {a, b};
    double loc[2][2] = {{ke, -ke}, {-ke, ke}};
    for (int i = 0; i < 2; ++i)
      for (int j = 0; j < 2; ++j)
        K[idx[i] * nn + idx[j]] += loc[i][j];
  }
  double E = 0;
  for (int i = 0; i < nn; ++i) {
    double Ku = 0;
    for (int j = 0; j < nn; ++j)
      Ku += K[i * nn + j] * u[j];
    E += 0.5 * u[i] * Ku - f[i] * u[i];
  }
  free(K);
  return E;
}

int main(void) {
  int conn[2 * NE];
  double xs[NN], u[NN], f[NN], cond[NE], du[NN] = {0}, dcond[NE] = {0};
  // Elements numbered out of order, as a mesh generator may.
  for (int e = 0; e < NE; ++e) {
    int el = (e * 5) % NE;
    conn[2 * el] = e;
    conn[2 * el + 1] = e + 1;
  }
  for (int i = 0; i < NN; ++i) {
    xs[i] = i * 0.5 + 0.05 * i * i;
    u[i] = sin(0.7 * i) + 0.1 * i;
    f[i] = 0.3 - 0.05 * i;
  }
  for (int e = 0; e < NE; ++e)
    cond[e] = 1.0 + 0.2 * e;
  __enzyme_autodiff((void *)energy, enzyme_dup, u, du, enzyme_dup, cond, dcond,
                    enzyme_const, conn, enzyme_const, xs, enzyme_const, f, NE,
                    NN);
  double Ku[NN] = {0}, want_c[NE];
  for (int e = 0; e < NE; ++e) {
    int a = conn[2 * e], b = conn[2 * e + 1];
    double ke = cond[e] / (xs[b] - xs[a]);
    Ku[a] += ke * (u[a] - u[b]);
    Ku[b] += ke * (u[b] - u[a]);
    want_c[e] = 0.5 * (u[a] - u[b]) * (u[a] - u[b]) / (xs[b] - xs[a]);
  }
  for (int i = 0; i < NN; ++i)
    check_close("dE/du", du[i], Ku[i] - f[i], 1e-12);
  for (int e = 0; e < NE; ++e)
    check_close("dE/dcond", dcond[e], want_c[e], 1e-12);
  return check_report();
}
