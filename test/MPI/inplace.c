// MPI_IN_PLACE at the root of MPI_Scatter and MPI_Gather (its block stays
// in the send or receive buffer, and so does its block's derivative), and
// MPI_Allreduce in place with MPI_PROD. Reverse and forward mode against
// the analytic derivatives: J = sum_j (j / m + 1) all_j^2 on rank 0 for
// the scatter/gather, and P = prod_r x_r (per element) for the product.
// RUN: %clang -O0 %mpi_cflags %s %mpi_libs -lm -o %t0
// RUN: %mpirun -np 2 %t0 | FileCheck %s
// RUN: %mpirun -np 3 %t0 | FileCheck %s
// RUN: %clang -O2 %mpi_cflags %s %mpi_libs -lm -o %t2
// RUN: %mpirun -np 4 %t2 | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: ALL PASSED
#include "Inputs/mpicheck.h"

extern int enzyme_dup, enzyme_const;
void __enzyme_autodiff(void *, ...);
double __enzyme_fwddiff(void *, ...);

#define M 2
#define MAXN 16

double scatter_gather(double *all, int m) {
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  double x[MAXN];
  if (rank == 0)
    MPI_Scatter(all, m, MPI_DOUBLE, MPI_IN_PLACE, m, MPI_DOUBLE, 0,
                MPI_COMM_WORLD);
  else
    MPI_Scatter(NULL, m, MPI_DOUBLE, x, m, MPI_DOUBLE, 0, MPI_COMM_WORLD);
  double *mine = rank == 0 ? all : x;
  for (int i = 0; i < m; i++)
    mine[i] = mine[i] * mine[i] * (rank + 1);
  if (rank == 0)
    MPI_Gather(MPI_IN_PLACE, m, MPI_DOUBLE, all, m, MPI_DOUBLE, 0,
               MPI_COMM_WORLD);
  else
    MPI_Gather(x, m, MPI_DOUBLE, NULL, m, MPI_DOUBLE, 0, MPI_COMM_WORLD);
  double s = 0;
  if (rank == 0)
    for (int j = 0; j < size * m; j++)
      s += all[j];
  return s;
}

/* sum_i prod_r x_r[i] on rank 0, the product in place */
double product(double *x, int m) {
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Allreduce(MPI_IN_PLACE, x, m, MPI_DOUBLE, MPI_PROD, MPI_COMM_WORLD);
  double s = 0;
  for (int i = 0; i < m; i++)
    s += x[i];
  return rank == 0 ? s : 0.0;
}

static double xval(int r, int i) { return 0.5 + 0.3 * r + 0.2 * i; }

int main(int argc, char **argv) {
  mpi_start(&argc, &argv);
  int n = M * mpi_size;
  double all[MAXN], d[MAXN] = {0};
  for (int j = 0; j < n; j++)
    all[j] = 0.5 + j;
  __enzyme_autodiff((void *)scatter_gather, enzyme_dup, all, d, enzyme_const,
                    M);
  double tan_want = 0;
  for (int j = 0; j < n; j++) {
    double dj = 2 * (0.5 + j) * (j / M + 1);
    mpi_check("in-place scatter/gather reverse", j, d[j], mpi_rank ? 0 : dj,
              1e-13);
    tan_want += dj * (1.0 + 0.1 * j);
  }
  for (int j = 0; j < n; j++)
    all[j] = 0.5 + j, d[j] = mpi_rank ? 7.0 : 1.0 + 0.1 * j;
  double t = __enzyme_fwddiff((void *)scatter_gather, enzyme_dup, all, d,
                              enzyme_const, M);
  mpi_check("in-place scatter/gather forward", 0, t, mpi_rank ? 0 : tan_want,
            1e-12);

  double x[M], dx[M] = {0};
  for (int i = 0; i < M; i++)
    x[i] = xval(mpi_rank, i);
  __enzyme_autodiff((void *)product, enzyme_dup, x, dx, enzyme_const, M);
  for (int i = 0; i < M; i++) {
    double others = 1;
    for (int r = 0; r < mpi_size; r++)
      if (r != mpi_rank)
        others *= xval(r, i);
    mpi_check("in-place product reverse", i, dx[i], others, 1e-13);
  }
  return mpi_report();
}
