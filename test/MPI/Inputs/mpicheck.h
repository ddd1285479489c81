/* Helpers for the MPI tests: every rank checks its own numbers, prints only
 * its failures, and rank 0 prints the total (sum over ranks of failures and
 * checks). A test's main() ends with `return mpi_report();`, which also
 * finalizes MPI. A test with no check at all fails.
 *
 * Convention for objectives: a differentiated function f returns a value on
 * every rank; reverse mode seeds each rank's result with 1, so the gradient
 * each rank gets is that of J = sum over ranks of f's results, which is
 * what mpi_total() computes for finite differences. */
#ifndef TAPESTRY_TEST_MPICHECK_H
#define TAPESTRY_TEST_MPICHECK_H

#include <math.h>
#include <mpi.h>
#include <stdio.h>

static int mpi_rank, mpi_size, mpi_failures, mpi_checks;

static void mpi_start(int *argc, char ***argv) {
  MPI_Init(argc, argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &mpi_rank);
  MPI_Comm_size(MPI_COMM_WORLD, &mpi_size);
}

/* |got - want| <= tol * (1 + |want|) */
static void mpi_check(const char *what, int i, double got, double want,
                      double tol) {
  mpi_checks++;
  if (fabs(got - want) <= tol * (1.0 + fabs(want)))
    return;
  mpi_failures++;
  printf("FAIL rank %d of %d: %s [%d]: got %.15g want %.15g\n", mpi_rank,
         mpi_size, what, i, got, want);
  fflush(stdout);
}

/* The sum over ranks of each rank's value. */
static double mpi_total(double v) {
  double t;
  MPI_Allreduce(&v, &t, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  return t;
}

static int mpi_report(void) {
  int f, c;
  MPI_Allreduce(&mpi_failures, &f, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  MPI_Allreduce(&mpi_checks, &c, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  if (mpi_rank == 0)
    printf("%s: %d failure(s) in %d checks on %d ranks\n",
           f || !c ? "FAILED" : "ALL PASSED", f, c, mpi_size);
  MPI_Finalize();
  return f || !c;
}

#endif
