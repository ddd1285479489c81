// A C user's program passing a struct that holds pointers to its arrays
// (a mesh: coordinates, connectivity, per-cell material), with a shadow
// struct whose pointer members point to the shadow arrays -- the usual
// Enzyme spelling for structs of pointers: enzyme_dup, &mesh, &dmesh. The
// shadow of the integer connectivity is the same array. Gradient of the
// total edge-length energy sum_c k_c |p_a - p_b|^2 with respect to the
// coordinates and the stiffnesses: analytic.
// RUN: %clang -O0 %s -lm -o %t0 && %t0 | FileCheck %s
// RUN: %clang -O1 %s -lm -o %t1 && %t1 | FileCheck %s
// RUN: %clang -O2 %s -lm -o %t2 && %t2 | FileCheck %s
// RUN: %clang -O3 %s -lm -o %t3 && %t3 | FileCheck %s
// RUN: %clang -O3 -march=native -ffast-math %s -lm -o %tf && %tf | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: ALL PASSED
#include "Inputs/check.h"

typedef struct {
  int ncells;
  double *xy;      // 2 per point
  const int *edge; // 2 per cell
  double *k;       // 1 per cell
} Mesh;

extern int enzyme_dup;
extern void __enzyme_autodiff(void *, ...);

double springs(const Mesh *m) {
  double e = 0;
  for (int c = 0; c < m->ncells; ++c) {
    const double *a = m->xy + 2 * m->edge[2 * c];
    const double *b = m->xy + 2 * m->edge[2 * c + 1];
    double dx = a[0] - b[0], dy = a[1] - b[1];
    e += m->k[c] * (dx * dx + dy * dy);
  }
  return e;
}

int main(void) {
  enum { P = 5, C = 6 };
  int edge[2 * C] = {0, 1, 1, 2, 2, 3, 3, 4, 4, 0, 0, 2};
  double xy[2 * P], dxy[2 * P] = {0}, k[C], dk[C] = {0};
  for (int p = 0; p < P; ++p) {
    xy[2 * p] = cos(1.2 * p);
    xy[2 * p + 1] = sin(1.2 * p) * 0.8;
  }
  for (int c = 0; c < C; ++c)
    k[c] = 1.0 + 0.3 * c;
  Mesh m = {C, xy, edge, k};
  Mesh dm = {C, dxy, edge, dk};
  __enzyme_autodiff((void *)springs, enzyme_dup, &m, &dm);
  double wxy[2 * P] = {0};
  for (int c = 0; c < C; ++c) {
    int a = edge[2 * c], b = edge[2 * c + 1];
    double dx = xy[2 * a] - xy[2 * b], dy = xy[2 * a + 1] - xy[2 * b + 1];
    check_close("dE/dk", dk[c], dx * dx + dy * dy, 1e-13);
    wxy[2 * a] += 2 * k[c] * dx;
    wxy[2 * b] -= 2 * k[c] * dx;
    wxy[2 * a + 1] += 2 * k[c] * dy;
    wxy[2 * b + 1] -= 2 * k[c] * dy;
  }
  for (int i = 0; i < 2 * P; ++i)
    check_close("dE/dxy", dxy[i], wxy[i], 1e-13);
  return check_report();
}
