/* An MPI halo-exchange heat solver: `steps` explicit steps of a nonlinear
 * diffusion on n points split into one block per rank, the halos exchanged
 * with MPI_Sendrecv each step, then a loss reduced with MPI_Allreduce.
 * Prints, on rank 0, the primal and gradient times (best of 5, between
 * barriers) at the current number of ranks (tools/bench/run-mpi.sh runs
 * it at 1, 2 and 4), and checks a few gradient entries against central
 * finite differences of the parallel program.
 *   mpirun -np R mpi-heat [n] [steps] */
#include <math.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

extern int enzyme_dup, enzyme_const;
void __enzyme_autodiff(void *, ...);

double heat(const double *u0, int m, int steps) {
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  int left = rank > 0 ? rank - 1 : MPI_PROC_NULL;
  int right = rank < size - 1 ? rank + 1 : MPI_PROC_NULL;
  double *u = calloc(m + 2, sizeof(double)), *v = calloc(m + 2, sizeof(double));
  memcpy(u + 1, u0, m * sizeof(double));
  for (int t = 0; t < steps; t++) {
    MPI_Sendrecv(&u[1], 1, MPI_DOUBLE, left, 0, &u[m + 1], 1, MPI_DOUBLE,
                 right, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Sendrecv(&u[m], 1, MPI_DOUBLE, right, 1, &u[0], 1, MPI_DOUBLE, left,
                 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    for (int i = 1; i <= m; i++)
      v[i] = u[i] + 0.2 * (u[i - 1] - 2 * u[i] + u[i + 1]) -
             0.01 * u[i] * u[i] + 0.001 * sin(u[i]);
    double *w = u;
    u = v;
    v = w;
  }
  double local = 0, loss;
  for (int i = 1; i <= m; i++)
    local += u[i] * u[i];
  MPI_Allreduce(&local, &loss, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  free(u);
  free(v);
  return rank == 0 ? loss : 0.0;
}

static double best_ms(int reps, void (*run)(void)) {
  double best = 1e300;
  for (int r = 0; r < reps; r++) {
    MPI_Barrier(MPI_COMM_WORLD);
    double t0 = MPI_Wtime();
    run();
    MPI_Barrier(MPI_COMM_WORLD);
    double t = (MPI_Wtime() - t0) * 1e3;
    best = t < best ? t : best;
  }
  return best;
}

static int M, STEPS;
static double *U0, *DU;
static volatile double sink;
static void primal(void) { sink = heat(U0, M, STEPS); }
static void gradient(void) {
  memset(DU, 0, M * sizeof(double));
  __enzyme_autodiff((void *)heat, enzyme_dup, U0, DU, enzyme_const, M,
                    enzyme_const, STEPS);
}

static double total(double v) {
  double t;
  MPI_Allreduce(&v, &t, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  return t;
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  int n = argc > 1 ? atoi(argv[1]) : 200000;
  STEPS = argc > 2 ? atoi(argv[2]) : 100;
  M = n / size;
  U0 = malloc(M * sizeof(double));
  DU = malloc(M * sizeof(double));
  for (int i = 0; i < M; i++)
    U0[i] = sin(0.01 * (rank * M + i)) + 0.5;
  double p = best_ms(5, primal), g = best_ms(5, gradient);
  if (rank == 0)
    printf("BENCH mpi_heat_n%d_steps%d_ranks%d primal_ms=%.3f "
           "gradient_ms=%.3f ratio=%.2f\n",
           M * size, STEPS, size, p, g, g / p);
  /* a few entries against finite differences of the parallel program */
  int bad = 0;
  for (int k = 1; k < M * size - 1; k += M * size / 3) {
    int owner = k / M, i = k % M;
    /* the loss sums n squares: a step large enough for its rounding */
    double h = 1e-4, save = U0[i];
    if (rank == owner)
      U0[i] = save + h;
    double fp = total(heat(U0, M, STEPS));
    if (rank == owner)
      U0[i] = save - h;
    double fm = total(heat(U0, M, STEPS));
    if (rank == owner) {
      U0[i] = save;
      double fd = (fp - fm) / (2 * h);
      if (fabs(fd - DU[i]) > 1e-4 * (1 + fabs(fd))) {
        printf("mpi-heat: gradient check FAILED at %d: %g vs %g\n", k, DU[i],
               fd);
        bad = 1;
      }
    }
  }
  MPI_Allreduce(MPI_IN_PLACE, &bad, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
  MPI_Finalize();
  return bad;
}
