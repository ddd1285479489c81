// Non-blocking halo exchange on a ring: each time step posts MPI_Irecv and
// MPI_Isend to both neighbours and completes them with MPI_Waitall, then
// updates the block; a last exchange completes its requests one by one
// with MPI_Wait. The reverse of each wait starts the adjoint messages, the
// reverse of each MPI_Isend/MPI_Irecv finishes them, per time step (the
// requests' records are taped in the loop). Checked against central finite
// differences of the parallel program and the gradient of the sequential
// ring, in reverse, forward, batch and split mode.
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
typedef struct {
  void *tape;
  double primal;
} aug_d;
aug_d __enzyme_augmentfwd_d(void *, ...);
void __enzyme_reverse(void *, ...);

#define M 4
#define STEPS 3
#define MAXN 64

/* The ring of all ranks' blocks: u_i += 0.1 (u_{i-1} - 2 u_i + u_{i+1})
 * + 0.02 u_i^2, then sum_i (global i + 1) u_i^2 + u_0 u_{m-1} of the
 * neighbours' last values, on rank 0. */
double ring(const double *x, int m, int steps) {
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  int left = (rank + size - 1) % size, right = (rank + 1) % size;
  double u[MAXN + 2], v[MAXN + 2];
  for (int i = 0; i < m; i++)
    u[i + 1] = x[i];
  for (int t = 0; t < steps; t++) {
    MPI_Request req[4];
    MPI_Irecv(&u[0], 1, MPI_DOUBLE, left, 0, MPI_COMM_WORLD, &req[0]);
    MPI_Irecv(&u[m + 1], 1, MPI_DOUBLE, right, 1, MPI_COMM_WORLD, &req[1]);
    MPI_Isend(&u[1], 1, MPI_DOUBLE, left, 1, MPI_COMM_WORLD, &req[2]);
    MPI_Isend(&u[m], 1, MPI_DOUBLE, right, 0, MPI_COMM_WORLD, &req[3]);
    MPI_Waitall(4, req, MPI_STATUSES_IGNORE);
    for (int i = 1; i <= m; i++)
      v[i] = u[i] + 0.1 * (u[i - 1] - 2 * u[i] + u[i + 1]) + 0.02 * u[i] * u[i];
    for (int i = 1; i <= m; i++)
      u[i] = v[i];
  }
  /* one more exchange, waited for request by request */
  double fromLeft, fromRight;
  MPI_Request rl, rr, sl, sr;
  MPI_Irecv(&fromLeft, 1, MPI_DOUBLE, left, 2, MPI_COMM_WORLD, &rl);
  MPI_Isend(&u[m], 1, MPI_DOUBLE, right, 2, MPI_COMM_WORLD, &sr);
  MPI_Irecv(&fromRight, 1, MPI_DOUBLE, right, 3, MPI_COMM_WORLD, &rr);
  MPI_Isend(&u[1], 1, MPI_DOUBLE, left, 3, MPI_COMM_WORLD, &sl);
  MPI_Wait(&rl, MPI_STATUS_IGNORE);
  MPI_Wait(&sr, MPI_STATUS_IGNORE);
  MPI_Wait(&rr, MPI_STATUS_IGNORE);
  MPI_Wait(&sl, MPI_STATUS_IGNORE);
  double s = fromLeft * fromRight * (rank + 1);
  for (int i = 0; i < m; i++)
    s += (rank * m + i + 1) * u[i + 1] * u[i + 1];
  double tot;
  MPI_Allreduce(&s, &tot, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  return rank == 0 ? tot : 0.0;
}

double ring_seq(const double *x, int n, int m, int steps) {
  double u[MAXN], v[MAXN];
  for (int j = 0; j < n; j++)
    u[j] = x[j];
  for (int t = 0; t < steps; t++) {
    for (int j = 0; j < n; j++) {
      double l = u[(j + n - 1) % n], r = u[(j + 1) % n];
      v[j] = u[j] + 0.1 * (l - 2 * u[j] + r) + 0.02 * u[j] * u[j];
    }
    for (int j = 0; j < n; j++)
      u[j] = v[j];
  }
  double s = 0;
  int size = n / m;
  for (int r = 0; r < size; r++) {
    /* rank r got its left neighbour's last and its right one's first */
    double fl = u[(r * m + n - 1) % n], fr = u[(r * m + m) % n];
    s += fl * fr * (r + 1);
  }
  for (int j = 0; j < n; j++)
    s += (j + 1) * u[j] * u[j];
  return s;
}

/* Requests posted in one function and completed in another (kept out of
 * line in the program, differentiated as one): J = sum_r x_r x_partner
 * over pairs of ranks (rank ^ 1; an even number of ranks). */
__attribute__((noinline)) void post(double *x, double *y, MPI_Request *r,
                                    int peer) {
  MPI_Irecv(y, 1, MPI_DOUBLE, peer, 5, MPI_COMM_WORLD, &r[0]);
  MPI_Isend(x, 1, MPI_DOUBLE, peer, 5, MPI_COMM_WORLD, &r[1]);
}
__attribute__((noinline)) void finish(MPI_Request *r) {
  MPI_Waitall(2, r, MPI_STATUSES_IGNORE);
}
double pair(double *x, int peer) {
  double y;
  MPI_Request r[2];
  post(x, &y, r, peer);
  finish(r);
  return y * x[0];
}

/* A receive buffer that is a global: it gets a shadow as a global the
 * function stores into does. Same J as pair(). */
double received[2];
double pair_global(double *x, int peer) {
  MPI_Sendrecv(x, 1, MPI_DOUBLE, peer, 6, received, 1, MPI_DOUBLE, peer, 6,
               MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  return received[0] * x[0];
}

static double eval(const double *p) { return ring(p, M, STEPS); }

int main(int argc, char **argv) {
  mpi_start(&argc, &argv);
  int n = M * mpi_size, off = M * mpi_rank;
  double full[MAXN], gs[MAXN] = {0}, x[M], g[M] = {0};
  for (int j = 0; j < n; j++)
    full[j] = 0.4 + 0.3 * sin(0.9 * j);
  for (int i = 0; i < M; i++)
    x[i] = full[off + i];
  mpi_check("primal vs sequential", 0, mpi_total(ring(x, M, STEPS)),
            ring_seq(full, n, M, STEPS), 1e-13);
  __enzyme_autodiff((void *)ring, enzyme_dup, x, g, enzyme_const, M,
                    enzyme_const, STEPS);
  check_fd("ring fd", M, x, g, eval, 1e-6, 1e-6);
  __enzyme_autodiff((void *)ring_seq, enzyme_dup, full, gs, enzyme_const, n,
                    enzyme_const, M, enzyme_const, STEPS);
  for (int i = 0; i < M; i++)
    mpi_check("ring vs sequential", off + i, g[i], gs[off + i], 1e-12);

  double v[M], w[M], dv = 0, dw = 0;
  for (int i = 0; i < M; i++) {
    v[i] = sin(2.0 + off + i), w[i] = 1.0 / (2 + off + i);
    dv += g[i] * v[i], dw += g[i] * w[i];
  }
  double t = __enzyme_fwddiff((void *)ring, enzyme_dup, x, v, enzyme_const, M,
                              enzyme_const, STEPS);
  mpi_check("forward", 0, mpi_total(t), mpi_total(dv), 1e-11);
  D2 t2 = __enzyme_fwddiff_2((void *)ring, enzyme_width, 2, enzyme_dup, x, v,
                             w, enzyme_const, M, enzyme_const, STEPS);
  mpi_check("batch forward 0", 0, mpi_total(t2.d[0]), mpi_total(dv), 1e-11);
  mpi_check("batch forward 1", 1, mpi_total(t2.d[1]), mpi_total(dw), 1e-11);

  double b0[M] = {0}, b1[M] = {0};
  __enzyme_autodiff((void *)ring, enzyme_width, 2, enzyme_dup, x, b0, b1,
                    enzyme_const, M, enzyme_const, STEPS);
  for (int i = 0; i < M; i++) {
    mpi_check("batch reverse 0", off + i, b0[i], g[i], 1e-13);
    mpi_check("batch reverse 1", off + i, b1[i], g[i], 1e-13);
  }

  double g2[M] = {0};
  aug_d r = __enzyme_augmentfwd_d((void *)ring, enzyme_dup, x, g2,
                                  enzyme_const, M, enzyme_const, STEPS);
  __enzyme_reverse((void *)ring, enzyme_dup, x, g2, enzyme_const, M,
                   enzyme_const, STEPS, 1.0, r.tape);
  for (int i = 0; i < M; i++)
    mpi_check("split reverse", off + i, g2[i], g[i], 1e-13);

  /* d/dx_r of sum_r x_r x_partner(r) = 2 x_partner */
  double px = 1.0 + mpi_rank, dpx = 0;
  int peer = mpi_rank ^ 1;
  __enzyme_autodiff((void *)pair, enzyme_dup, &px, &dpx, enzyme_const, peer);
  mpi_check("requests across functions", mpi_rank, dpx, 2.0 * (1 + peer),
            1e-15);
  dpx = 0;
  __enzyme_autodiff((void *)pair_global, enzyme_dup, &px, &dpx, enzyme_const,
                    peer);
  mpi_check("global receive buffer", mpi_rank, dpx, 2.0 * (1 + peer), 1e-15);
  return mpi_report();
}
