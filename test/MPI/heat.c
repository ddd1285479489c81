// A halo-exchange 1-D heat solver (explicit steps of u + a u_xx + b u^2 on
// a grid split into blocks, one per rank, zero at both ends through
// MPI_PROC_NULL), its halos exchanged with MPI_Sendrecv or with
// MPI_Send/MPI_Recv (even ranks sending first; one receive from
// MPI_ANY_SOURCE, whose source the derivative takes from the status), then
// a weighted sum of squares reduced with MPI_Allreduce. Each rank's
// gradient block is checked against central finite differences of the
// whole parallel program and against the gradient of the same solver
// written sequentially over the whole grid, in reverse, forward, batch
// (two lanes, both modes) and split mode.
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
#include <stdlib.h>
#include <string.h>

extern int enzyme_dup, enzyme_const, enzyme_width;
void __enzyme_autodiff(void *, ...);
double __enzyme_fwddiff(void *, ...);
typedef struct {
  double d[2];
} D2;
D2 __enzyme_fwddiff_2(void *, ...);
typedef struct {
  void *tape;
  double primal;
} aug_d;
aug_d __enzyme_augmentfwd_d(void *, ...);
void __enzyme_reverse(void *, ...);

#define M 5     /* points per rank */
#define STEPS 4 /* time steps */
#define MAXN 64

/* One explicit step on u[1..m], ghosts u[0] and u[m+1]. */
static void step(const double *u, double *v, int m) {
  for (int i = 1; i <= m; i++)
    v[i] = u[i] + 0.2 * (u[i - 1] - 2 * u[i] + u[i + 1]) + 0.05 * u[i] * u[i];
}

static void halo_sendrecv(double *u, int m, int rank, int size) {
  int left = rank > 0 ? rank - 1 : MPI_PROC_NULL;
  int right = rank < size - 1 ? rank + 1 : MPI_PROC_NULL;
  MPI_Sendrecv(&u[1], 1, MPI_DOUBLE, left, 0, &u[m + 1], 1, MPI_DOUBLE, right,
               0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  MPI_Status st;
  MPI_Sendrecv(&u[m], 1, MPI_DOUBLE, right, 1, &u[0], 1, MPI_DOUBLE, left, 1,
               MPI_COMM_WORLD, &st);
}

/* Rightward messages have tag 7, leftward ones tag 8. */
static void halo_p2p(double *u, int m, int rank, int size) {
  MPI_Comm c = MPI_COMM_WORLD;
  MPI_Status st;
  if (rank % 2 == 0) {
    if (rank < size - 1) {
      MPI_Send(&u[m], 1, MPI_DOUBLE, rank + 1, 7, c);
      MPI_Recv(&u[m + 1], 1, MPI_DOUBLE, rank + 1, 8, c, &st);
    }
    if (rank > 0) {
      MPI_Send(&u[1], 1, MPI_DOUBLE, rank - 1, 8, c);
      MPI_Recv(&u[0], 1, MPI_DOUBLE, rank - 1, 7, c, MPI_STATUS_IGNORE);
    }
  } else {
    MPI_Recv(&u[0], 1, MPI_DOUBLE, MPI_ANY_SOURCE, 7, c, MPI_STATUS_IGNORE);
    MPI_Send(&u[1], 1, MPI_DOUBLE, rank - 1, 8, c);
    if (rank < size - 1) {
      MPI_Recv(&u[m + 1], 1, MPI_DOUBLE, rank + 1, 8, c, &st);
      MPI_Send(&u[m], 1, MPI_DOUBLE, rank + 1, 7, c);
    }
  }
}

/* Returns J (the weighted sum of squares over the whole grid) on rank 0
 * and 0 elsewhere. */
double heat(const double *u0, int m, int steps, int variant) {
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  double *u = calloc(m + 2, sizeof(double));
  double *v = calloc(m + 2, sizeof(double));
  for (int i = 0; i < m; i++)
    u[i + 1] = u0[i];
  for (int t = 0; t < steps; t++) {
    if (variant == 0)
      halo_sendrecv(u, m, rank, size);
    else
      halo_p2p(u, m, rank, size);
    step(u, v, m);
    double *w = u;
    u = v;
    v = w;
  }
  double local = 0;
  for (int i = 0; i < m; i++)
    local += 0.1 * (rank * m + i + 1) * u[i + 1] * u[i + 1];
  double J;
  MPI_Allreduce(&local, &J, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  free(u);
  free(v);
  return rank == 0 ? J : 0.0;
}

/* The same solver over the whole grid of n points, on one process. */
double heat_seq(const double *u0, int n, int steps) {
  double *u = calloc(n + 2, sizeof(double));
  double *v = calloc(n + 2, sizeof(double));
  for (int i = 0; i < n; i++)
    u[i + 1] = u0[i];
  for (int t = 0; t < steps; t++) {
    step(u, v, n);
    double *w = u;
    u = v;
    v = w;
  }
  double J = 0;
  for (int i = 0; i < n; i++)
    J += 0.1 * (i + 1) * u[i + 1] * u[i + 1];
  free(u);
  free(v);
  return J;
}

static double init(int j) { return 0.3 + 0.5 * sin(0.7 * j + 0.2); }

static void check_variant(int variant) {
  const char *name = variant ? "send/recv" : "sendrecv";
  int n = M * mpi_size, off = M * mpi_rank;
  double x[M], g[M], g2[M], full[MAXN], gseq[MAXN];
  for (int j = 0; j < n; j++)
    full[j] = init(j), gseq[j] = 0;
  for (int i = 0; i < M; i++)
    x[i] = full[off + i], g[i] = g2[i] = 0;

  /* the primal against the sequential program */
  double J = mpi_total(heat(x, M, STEPS, variant));
  mpi_check("primal vs sequential", 0, J, heat_seq(full, n, STEPS), 1e-13);

  /* reverse */
  __enzyme_autodiff((void *)heat, enzyme_dup, x, g, enzyme_const, M,
                    enzyme_const, STEPS, enzyme_const, variant);
  __enzyme_autodiff((void *)heat_seq, enzyme_dup, full, gseq, enzyme_const, n,
                    enzyme_const, STEPS);
  for (int i = 0; i < M; i++)
    mpi_check(variant ? "p2p reverse vs sequential"
                      : "sendrecv reverse vs sequential",
              off + i, g[i], gseq[off + i], 1e-12);

  /* finite differences of the parallel program */
  for (int j = 0; j < n; j++) {
    double xp[M], xm[M], h = 1e-6;
    memcpy(xp, x, sizeof x);
    memcpy(xm, x, sizeof x);
    if (j >= off && j < off + M)
      xp[j - off] += h, xm[j - off] -= h;
    double fd = (mpi_total(heat(xp, M, STEPS, variant)) -
                 mpi_total(heat(xm, M, STEPS, variant))) /
                (2 * h);
    if (j >= off && j < off + M)
      mpi_check(name, j, g[j - off], fd, 1e-6);
  }

  /* forward: the total tangent in direction v is <g, v> over all ranks */
  double v[M], w[M];
  for (int i = 0; i < M; i++)
    v[i] = cos(0.3 * (off + i)), w[i] = (off + i) % 3 - 1.0;
  double dot_v = 0, dot_w = 0;
  for (int i = 0; i < M; i++)
    dot_v += g[i] * v[i], dot_w += g[i] * w[i];
  double t = __enzyme_fwddiff((void *)heat, enzyme_dup, x, v, enzyme_const, M,
                              enzyme_const, STEPS, enzyme_const, variant);
  mpi_check("forward vs reverse", variant, mpi_total(t), mpi_total(dot_v),
            1e-11);

  /* batch forward, two directions */
  D2 t2 = __enzyme_fwddiff_2((void *)heat, enzyme_width, 2, enzyme_dup, x, v,
                             w, enzyme_const, M, enzyme_const, STEPS,
                             enzyme_const, variant);
  mpi_check("batch forward lane 0", variant, mpi_total(t2.d[0]),
            mpi_total(dot_v), 1e-11);
  mpi_check("batch forward lane 1", variant, mpi_total(t2.d[1]),
            mpi_total(dot_w), 1e-11);

  /* batch reverse, two lanes */
  double b0[M] = {0}, b1[M] = {0};
  __enzyme_autodiff((void *)heat, enzyme_width, 2, enzyme_dup, x, b0, b1,
                    enzyme_const, M, enzyme_const, STEPS, enzyme_const,
                    variant);
  for (int i = 0; i < M; i++) {
    mpi_check("batch reverse lane 0", off + i, b0[i], g[i], 1e-13);
    mpi_check("batch reverse lane 1", off + i, b1[i], g[i], 1e-13);
  }

  /* split mode */
  aug_d r = __enzyme_augmentfwd_d((void *)heat, enzyme_dup, x, g2,
                                  enzyme_const, M, enzyme_const, STEPS,
                                  enzyme_const, variant);
  mpi_check("split primal", variant, mpi_total(r.primal), J, 1e-13);
  __enzyme_reverse((void *)heat, enzyme_dup, x, g2, enzyme_const, M,
                   enzyme_const, STEPS, enzyme_const, variant, 1.0, r.tape);
  for (int i = 0; i < M; i++)
    mpi_check("split reverse", off + i, g2[i], g[i], 1e-13);
}

int main(int argc, char **argv) {
  mpi_start(&argc, &argv);
  check_variant(0);
  check_variant(1);
  return mpi_report();
}
