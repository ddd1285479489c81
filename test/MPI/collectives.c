// MPI_Scatter of rank 0's array, a per-rank computation, MPI_Gather of the
// results to the last rank and MPI_Allgather of other results to every
// rank. Reverse mode is checked against central finite differences of the
// parallel program (the non-root ranks' copies of the scattered array get
// no gradient) and against the gradient of the sequential program; forward
// mode (one lane and two) against reverse.
// RUN: %clang -O0 %mpi_cflags %s %mpi_libs -lm -o %t0
// RUN: %mpirun -np 2 %t0 | FileCheck %s
// RUN: %mpirun -np 4 %t0 | FileCheck %s
// RUN: %clang -O1 %mpi_cflags %s %mpi_libs -lm -o %t1
// RUN: %mpirun -np 2 %t1 | FileCheck %s
// RUN: %clang -O2 %mpi_cflags %s %mpi_libs -lm -o %t2
// RUN: %mpirun -np 2 %t2 | FileCheck %s
// RUN: %mpirun -np 4 %t2 | FileCheck %s
// RUN: %clang -O3 %mpi_cflags %s %mpi_libs -lm -o %t3
// RUN: %mpirun -np 4 %t3 | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: ALL PASSED
#include "Inputs/mpicheck.h"
#include "Inputs/fdcheck.h"

extern int enzyme_dup, enzyme_const, enzyme_width;
void __enzyme_autodiff(void *, ...);
double __enzyme_fwddiff(void *, ...);
typedef struct {
  double d[2];
} D2;
D2 __enzyme_fwddiff_2(void *, ...);

#define M 3 /* elements per rank */
#define MAXN 64

/* all: size * m elements, significant on rank 0 only. */
double scatter_gather(const double *all, int m) {
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  int root = size - 1, n = size * m;
  double x[MAXN], y[MAXN], ys[MAXN], z[MAXN], zs[MAXN];
  MPI_Scatter(all, m, MPI_DOUBLE, x, m, MPI_DOUBLE, 0, MPI_COMM_WORLD);
  for (int i = 0; i < m; i++) {
    y[i] = sin(x[i]) * (i + 1 + rank);
    z[i] = x[i] * x[i];
  }
  MPI_Gather(y, m, MPI_DOUBLE, ys, m, MPI_DOUBLE, root, MPI_COMM_WORLD);
  MPI_Allgather(z, m, MPI_DOUBLE, zs, m, MPI_DOUBLE, MPI_COMM_WORLD);
  double s = 0;
  for (int j = 0; j < n; j++)
    s += (rank + 1) * (0.5 + 0.1 * j) * zs[j];
  if (rank == root)
    for (int j = 0; j < n; j++)
      s += (1 + 0.2 * j) * ys[j] * ys[j];
  return s;
}

double scatter_gather_seq(const double *all, int m, int size) {
  int n = size * m;
  double s = 0;
  for (int j = 0; j < n; j++) {
    double y = sin(all[j]) * (j % m + 1 + j / m);
    s += size * (size + 1) / 2 * (0.5 + 0.1 * j) * all[j] * all[j];
    s += (1 + 0.2 * j) * y * y;
  }
  return s;
}

static double eval(const double *p) { return scatter_gather(p, M); }

int main(int argc, char **argv) {
  mpi_start(&argc, &argv);
  int n = M * mpi_size;
  double p[MAXN], g[MAXN] = {0}, gs[MAXN] = {0};
  for (int j = 0; j < n; j++)
    p[j] = mpi_rank ? 9.0 : 0.2 + 0.4 * cos(1.3 * j);
  __enzyme_autodiff((void *)scatter_gather, enzyme_dup, p, g, enzyme_const, M);
  check_fd("scatter/gather/allgather fd", n, p, g, eval, 1e-6, 1e-6);
  double all[MAXN];
  for (int j = 0; j < n; j++)
    all[j] = 0.2 + 0.4 * cos(1.3 * j);
  __enzyme_autodiff((void *)scatter_gather_seq, enzyme_dup, all, gs,
                    enzyme_const, M, enzyme_const, mpi_size);
  for (int j = 0; j < n; j++)
    mpi_check("scatter/gather/allgather vs sequential", j, g[j],
              mpi_rank ? 0.0 : gs[j], 1e-12);
  double v[MAXN], w[MAXN], dv = 0, dw = 0;
  for (int j = 0; j < n; j++) {
    v[j] = 1.0 + j + mpi_rank, w[j] = j % 2 ? 1.0 : -0.5;
    dv += g[j] * v[j], dw += g[j] * w[j];
  }
  double t = __enzyme_fwddiff((void *)scatter_gather, enzyme_dup, p, v,
                              enzyme_const, M);
  mpi_check("forward", 0, mpi_total(t), mpi_total(dv), 1e-11);
  D2 t2 = __enzyme_fwddiff_2((void *)scatter_gather, enzyme_width, 2,
                             enzyme_dup, p, v, w, enzyme_const, M);
  mpi_check("batch forward 0", 0, mpi_total(t2.d[0]), mpi_total(dv), 1e-11);
  mpi_check("batch forward 1", 1, mpi_total(t2.d[1]), mpi_total(dw), 1e-11);
  return mpi_report();
}
