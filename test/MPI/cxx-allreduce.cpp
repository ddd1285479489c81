// C++: a template computing a global energy with std::vector and
// MPI_Allreduce (Open MPI's C API from C++, whose handles are
// static_casts of its globals' addresses), and a std::vector of partial
// products MPI_Bcast from the last rank. Reverse and forward mode against
// the analytic gradient: E = sum_i (sum_r c_r x_r[i])^2 / 2 with
// c_r = r + 1 times b, b broadcast from the last rank (dE/db there).
// RUN: %clangxx -O0 -DOMPI_SKIP_MPICXX %mpi_cflags %s %mpi_libs -lm -o %t0
// RUN: %mpirun -np 2 %t0 | FileCheck %s
// RUN: %mpirun -np 4 %t0 | FileCheck %s
// RUN: %clangxx -O2 -DOMPI_SKIP_MPICXX %mpi_cflags %s %mpi_libs -lm -o %t2
// RUN: %mpirun -np 2 %t2 | FileCheck %s
// RUN: %mpirun -np 4 %t2 | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: ALL PASSED
#include "Inputs/mpicheck.h"
#include <vector>

extern int enzyme_dup, enzyme_const;
extern "C" {
void __enzyme_autodiff(void *, ...);
double __enzyme_fwddiff(void *, ...);
}

constexpr int M = 3;

template <class T> T energy(const T *x, T *b, int m) {
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  MPI_Bcast(b, 1, MPI_DOUBLE, size - 1, MPI_COMM_WORLD);
  std::vector<T> mine(m), all(m);
  for (int i = 0; i < m; i++)
    mine[i] = (rank + 1) * b[0] * x[i];
  MPI_Allreduce(mine.data(), all.data(), m, MPI_DOUBLE, MPI_SUM,
                MPI_COMM_WORLD);
  T e = 0;
  for (int i = 0; i < m; i++)
    e += all[i] * all[i] / 2;
  return rank == 0 ? e : T(0);
}

static double xval(int r, int i) { return 0.5 + 0.25 * r - 0.1 * i; }

int main(int argc, char **argv) {
  mpi_start(&argc, &argv);
  double x[M], dx[M] = {0}, b = mpi_rank == mpi_size - 1 ? 1.5 : -7.0,
               db = 0;
  for (int i = 0; i < M; i++)
    x[i] = xval(mpi_rank, i);
  __enzyme_autodiff((void *)energy<double>, enzyme_dup, x, dx, enzyme_dup, &b,
                    &db, enzyme_const, M);
  // S_i = sum_r (r + 1) b x_r[i]; dE/dx_r[i] = S_i (r + 1) b;
  // dE/db = sum_i S_i S_i / b on the last rank, 0 elsewhere.
  double bb = 1.5, dEdb = 0;
  for (int i = 0; i < M; i++) {
    double S = 0;
    for (int r = 0; r < mpi_size; r++)
      S += (r + 1) * bb * xval(r, i);
    mpi_check("dE/dx", i, dx[i], S * (mpi_rank + 1) * bb, 1e-12);
    dEdb += S * S / bb;
  }
  mpi_check("dE/db", 0, db, mpi_rank == mpi_size - 1 ? dEdb : 0.0, 1e-12);
  double v[M], dv = 0, tb = 0.3 * (mpi_rank + 1);
  for (int i = 0; i < M; i++)
    v[i] = 1.0 - 0.5 * i, dv += dx[i] * v[i];
  dv += db * tb;
  b = mpi_rank == mpi_size - 1 ? 1.5 : -7.0;
  double t = __enzyme_fwddiff((void *)energy<double>, enzyme_dup, x, v,
                              enzyme_dup, &b, &tb, enzyme_const, M);
  mpi_check("forward vs reverse", 0, mpi_total(t), mpi_total(dv), 1e-11);
  return mpi_report();
}
