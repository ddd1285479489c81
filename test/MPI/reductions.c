// Collective reductions: an MPI_Allreduce-sum dot product and norm (and the
// same in place, MPI_IN_PLACE), MPI_Bcast of parameters from rank 0 then
// MPI_Reduce to the last rank, element-wise MPI_MAX and MPI_PROD
// (MPI_Allreduce) and MPI_MIN (MPI_Reduce) across ranks, with a zero among
// the product's factors, and an MPI_FLOAT sum. Reverse mode is checked
// against central finite differences of the parallel program and against
// the gradient of the sequential program over all ranks' data; forward
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
#include <stdlib.h>

extern int enzyme_dup, enzyme_const, enzyme_width;
void __enzyme_autodiff(void *, ...);
double __enzyme_fwddiff(void *, ...);
typedef struct {
  double d[2];
} D2;
D2 __enzyme_fwddiff_2(void *, ...);

#define M 4 /* elements per rank */
#define MAXN 64

static int rank_of(void) {
  int r;
  MPI_Comm_rank(MPI_COMM_WORLD, &r);
  return r;
}

/* <x, y> / |x| over all ranks; p = x (M) then y (M). On rank 0. */
double dotnorm(const double *p, int m, int inplace) {
  double s[2] = {0, 0}, t[2];
  for (int i = 0; i < m; i++) {
    s[0] += p[i] * p[m + i];
    s[1] += p[i] * p[i];
  }
  if (inplace) {
    MPI_Allreduce(MPI_IN_PLACE, s, 2, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    t[0] = s[0], t[1] = s[1];
  } else {
    MPI_Allreduce(s, t, 2, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  }
  return rank_of() == 0 ? t[0] / sqrt(t[1]) : 0.0;
}
double dotnorm_seq(const double *x, const double *y, int n) {
  double d = 0, q = 0;
  for (int i = 0; i < n; i++)
    d += x[i] * y[i], q += x[i] * x[i];
  return d / sqrt(q);
}

/* p = a (2, only rank 0's count: MPI_Bcast) then x (M): (sum over all
 * ranks of a0 x^2 + a1 x)^2, reduced to the last rank, returned there. */
double bcast_reduce(double *p, int m) {
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  MPI_Bcast(p, 2, MPI_DOUBLE, 0, MPI_COMM_WORLD);
  double local = 0, tot = 0;
  for (int i = 0; i < m; i++)
    local += p[0] * p[2 + i] * p[2 + i] + p[1] * p[2 + i];
  MPI_Reduce(&local, &tot, 1, MPI_DOUBLE, MPI_SUM, size - 1, MPI_COMM_WORLD);
  return rank == size - 1 ? tot * tot : 0.0;
}
double bcast_reduce_seq(const double *a, const double *x, int n) {
  double s = 0;
  for (int i = 0; i < n; i++)
    s += a[0] * x[i] * x[i] + a[1] * x[i];
  return s * s;
}

/* Element-wise across ranks: (rank + 1) sum_i w_i max_r x_r[i] on every
 * rank, and on rank 0 also sum_i v_i min_r x_r[i] (MPI_Reduce to 0) and
 * sum_i prod_r x_r[i]. */
double maxminprod(const double *x, int m) {
  int rank = rank_of();
  double mx[MAXN], mn[MAXN], pr[MAXN];
  MPI_Allreduce(x, mx, m, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
  MPI_Reduce(x, mn, m, MPI_DOUBLE, MPI_MIN, 0, MPI_COMM_WORLD);
  MPI_Allreduce(x, pr, m, MPI_DOUBLE, MPI_PROD, MPI_COMM_WORLD);
  double s = 0;
  for (int i = 0; i < m; i++)
    s += (rank + 1) * (1.0 + 0.5 * i) * mx[i];
  if (rank == 0)
    for (int i = 0; i < m; i++)
      s += (2.0 - 0.3 * i) * mn[i] + pr[i];
  return s;
}
/* The same from all ranks' x (rank r's at full[r m ...]). */
double maxminprod_seq(const double *full, int m, int size) {
  double s = 0;
  for (int i = 0; i < m; i++) {
    double mx = full[i], mn = full[i], pr = full[i];
    for (int r = 1; r < size; r++) {
      double v = full[r * m + i];
      mx = v > mx ? v : mx;
      mn = v < mn ? v : mn;
      pr *= v;
    }
    s += size * (size + 1) / 2 * (1.0 + 0.5 * i) * mx;
    s += (2.0 - 0.3 * i) * mn + pr;
  }
  return s;
}

/* MPI_FLOAT: sum_i (sum_r x_r[i])^2 on rank 0. */
float fsum(const float *x, int m) {
  float t[MAXN];
  MPI_Allreduce(x, t, m, MPI_FLOAT, MPI_SUM, MPI_COMM_WORLD);
  float s = 0;
  for (int i = 0; i < m; i++)
    s += t[i] * t[i];
  return rank_of() == 0 ? s : 0.0f;
}

static double init(int j) { return 0.3 + 0.5 * sin(0.7 * j + 0.2); }

static int g_inplace;
static double eval_dotnorm(const double *p) {
  return dotnorm(p, M, g_inplace);
}
static double eval_bcast(const double *p) {
  double q[2 + M];
  memcpy(q, p, sizeof q);
  return bcast_reduce(q, M);
}
static double eval_mmp(const double *p) { return maxminprod(p, M); }

int main(int argc, char **argv) {
  mpi_start(&argc, &argv);
  int n = M * mpi_size, off = M * mpi_rank;

  /* dot / norm, out of place and in place */
  for (g_inplace = 0; g_inplace < 2; g_inplace++) {
    double p[2 * M], g[2 * M] = {0}, xs[MAXN], ys[MAXN], gx[MAXN] = {0},
                     gy[MAXN] = {0};
    for (int j = 0; j < n; j++)
      xs[j] = init(j), ys[j] = init(j + 100);
    for (int i = 0; i < M; i++)
      p[i] = xs[off + i], p[M + i] = ys[off + i];
    __enzyme_autodiff((void *)dotnorm, enzyme_dup, p, g, enzyme_const, M,
                      enzyme_const, g_inplace);
    check_fd(g_inplace ? "dotnorm in place fd" : "dotnorm fd", 2 * M, p, g,
             eval_dotnorm, 1e-6, 1e-6);
    __enzyme_autodiff((void *)dotnorm_seq, enzyme_dup, xs, gx, enzyme_dup, ys,
                      gy, enzyme_const, n);
    for (int i = 0; i < M; i++) {
      mpi_check("dotnorm vs sequential, x", off + i, g[i], gx[off + i],
                1e-12);
      mpi_check("dotnorm vs sequential, y", off + i, g[M + i], gy[off + i],
                1e-12);
    }
    /* forward, one and two lanes, against reverse */
    double v[2 * M], w[2 * M], dv = 0, dw = 0;
    for (int i = 0; i < 2 * M; i++) {
      v[i] = cos(i + off), w[i] = 1.0 / (1 + i + off);
      dv += g[i] * v[i], dw += g[i] * w[i];
    }
    double t = __enzyme_fwddiff((void *)dotnorm, enzyme_dup, p, v,
                                enzyme_const, M, enzyme_const, g_inplace);
    mpi_check("dotnorm forward", g_inplace, mpi_total(t), mpi_total(dv),
              1e-11);
    D2 t2 = __enzyme_fwddiff_2((void *)dotnorm, enzyme_width, 2, enzyme_dup,
                               p, v, w, enzyme_const, M, enzyme_const,
                               g_inplace);
    mpi_check("dotnorm batch forward 0", g_inplace, mpi_total(t2.d[0]),
              mpi_total(dv), 1e-11);
    mpi_check("dotnorm batch forward 1", g_inplace, mpi_total(t2.d[1]),
              mpi_total(dw), 1e-11);
  }

  /* broadcast and reduce */
  {
    double p[2 + M], q[2 + M], g[2 + M] = {0}, a[2] = {0.7, -0.4},
                               ga[2] = {0}, xs[MAXN], gx[MAXN] = {0};
    for (int j = 0; j < n; j++)
      xs[j] = init(j);
    /* the non-root ranks' a is overwritten by the broadcast */
    p[0] = mpi_rank ? 5.0 : a[0];
    p[1] = mpi_rank ? 6.0 : a[1];
    for (int i = 0; i < M; i++)
      p[2 + i] = xs[off + i];
    memcpy(q, p, sizeof p);
    __enzyme_autodiff((void *)bcast_reduce, enzyme_dup, q, g, enzyme_const,
                      M);
    check_fd("bcast/reduce fd", 2 + M, p, g, eval_bcast, 1e-6, 1e-6);
    __enzyme_autodiff((void *)bcast_reduce_seq, enzyme_dup, a, ga, enzyme_dup,
                      xs, gx, enzyme_const, n);
    mpi_check("bcast/reduce vs sequential, a0", 0, g[0],
              mpi_rank ? 0.0 : ga[0], 1e-12);
    mpi_check("bcast/reduce vs sequential, a1", 1, g[1],
              mpi_rank ? 0.0 : ga[1], 1e-12);
    for (int i = 0; i < M; i++)
      mpi_check("bcast/reduce vs sequential, x", off + i, g[2 + i],
                gx[off + i], 1e-12);
    double v[2 + M], dv = 0;
    for (int i = 0; i < 2 + M; i++)
      v[i] = 0.5 + 0.1 * i + mpi_rank, dv += g[i] * v[i];
    memcpy(q, p, sizeof p);
    double t = __enzyme_fwddiff((void *)bcast_reduce, enzyme_dup, q, v,
                                enzyme_const, M);
    mpi_check("bcast/reduce forward", 0, mpi_total(t), mpi_total(dv), 1e-11);
  }

  /* max, min and product */
  {
    double x[M], g[M] = {0}, full[MAXN], gfull[MAXN] = {0};
    for (int j = 0; j < n; j++)
      full[j] = j == 2 ? 0.0 : init(j);
    for (int i = 0; i < M; i++)
      x[i] = full[off + i];
    __enzyme_autodiff((void *)maxminprod, enzyme_dup, x, g, enzyme_const, M);
    check_fd("max/min/prod fd", M, x, g, eval_mmp, 1e-7, 1e-6);
    __enzyme_autodiff((void *)maxminprod_seq, enzyme_dup, full, gfull,
                      enzyme_const, M, enzyme_const, mpi_size);
    for (int i = 0; i < M; i++)
      mpi_check("max/min/prod vs sequential", off + i, g[i], gfull[off + i],
                1e-12);
    double v[M], w[M], dv = 0, dw = 0;
    for (int i = 0; i < M; i++) {
      v[i] = 1 + i + off, w[i] = (i + off) % 2;
      dv += g[i] * v[i], dw += g[i] * w[i];
    }
    D2 t2 = __enzyme_fwddiff_2((void *)maxminprod, enzyme_width, 2,
                               enzyme_dup, x, v, w, enzyme_const, M);
    mpi_check("max/min/prod batch forward 0", 0, mpi_total(t2.d[0]),
              mpi_total(dv), 1e-11);
    mpi_check("max/min/prod batch forward 1", 1, mpi_total(t2.d[1]),
              mpi_total(dw), 1e-11);
  }

  /* MPI_FLOAT: d/dx_r[i] = 2 sum_r x_r[i] (analytic) */
  {
    float x[M], g[M] = {0};
    for (int i = 0; i < M; i++)
      x[i] = (float)init(off + i);
    __enzyme_autodiff((void *)fsum, enzyme_dup, x, g, enzyme_const, M);
    for (int i = 0; i < M; i++) {
      double s = 0;
      for (int r = 0; r < mpi_size; r++)
        s += (float)init(r * M + i);
      mpi_check("float sum", off + i, g[i], 2 * s, 1e-6);
    }
  }
  return mpi_report();
}
