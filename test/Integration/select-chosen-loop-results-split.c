// Split mode over a nearest-centroid cost, whose distance loops' reverse
// runs only for the centroid the select kept (Synthesis/ChosenLoopResults.h):
// the select's condition goes on the tape with the rest, in a buffer the
// caller allocates (`enzyme_allocated, size, enzyme_tape, buf`), and the
// reverse runs twice on that buffer (the first with enzyme_nofree), with the
// points overwritten after the forward. Expected: the analytic gradient 2 sum (c_j - p_i) over the points
// whose nearest centroid is j, scaled by the seed, from both reverses. With
// points the caller may overwrite, the distance loop tapes what it reads and
// its reverse always runs; reading a constant codebook, it is skipped.
// RUN: %clang -O0 %s -lm -o %t0 && %t0 | FileCheck %s
// RUN: %clang -O1 %s -lm -o %t1 && %t1 | FileCheck %s
// RUN: %clang -O2 %s -lm -o %t2 && %t2 | FileCheck %s
// RUN: %clang -O3 %s -lm -o %t3 && %t3 | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: ALL PASSED
// RUN: %clang -O2 %s -c -o /dev/null -Rpass=tapestry 2>&1 \
// RUN:   | FileCheck --check-prefix=REMARK %s
#include "Inputs/check.h"
#include <stdlib.h>
#include <string.h>

extern int enzyme_const, enzyme_dup, enzyme_allocated, enzyme_tape,
    enzyme_nofree;
void __enzyme_augmentfwd(void *, ...);
void __enzyme_reverse(void *, ...);
unsigned long __enzyme_augmentsize(void *, ...);

enum { N = 17, K = 4, D = 5 };

void nearest(const double *restrict p, const double *restrict c, int d,
             double *restrict out) {
  double cost = 0;
  for (int i = 0; i < N; i++) {
    double best = INFINITY;
    for (int j = 0; j < K; j++) {
      double s = 0;
      for (int l = 0; l < d; l++)
        s += (p[i * d + l] - c[j * d + l]) * (p[i * d + l] - c[j * d + l]);
      if (s < best)
        best = s;
    }
    cost += best;
  }
  *out = cost;
}

// A codebook search: the distortion of the line a + b l (l < D) against its
// nearest codeword. The loop reads only the constant codebook, which no
// caller can overwrite: it keeps no records, and its reverse runs only for
// the codeword the select kept, in split mode too.
static const double Book[K][D] = {{0.1, 0.5, 0.9, 1.3, 1.7},
                                  {0.2, 0.1, 0.0, -0.1, -0.2},
                                  {1.0, 1.1, 1.3, 1.6, 2.0},
                                  {-0.5, 0.0, 0.5, 1.0, 1.5}};

double distortion(double a, double b) {
  double best = INFINITY;
  for (int j = 0; j < K; j++) {
    double s = 0;
    for (int l = 0; l < D; l++)
      s += (Book[j][l] - (a + b * l)) * (Book[j][l] - (a + b * l));
    // REMARK: remark: reverse sweep of 'distortion' runs the reverse of this loop only when the select at line [[#@LINE+1]] keeps its result
    if (s < best)
      best = s;
  }
  return best;
}

typedef struct {
  void *tape;
  double primal;
} aug_d;
typedef struct {
  double da, db;
} grad2;
aug_d __enzyme_augmentfwd_d(void *, ...);
grad2 __enzyme_reverse_g(void *, ...);

static void checkCodebook(double a, double b) {
  int best = 0;
  double bd = INFINITY;
  for (int j = 0; j < K; j++) {
    double dj = 0;
    for (int l = 0; l < D; l++)
      dj += (Book[j][l] - a - b * l) * (Book[j][l] - a - b * l);
    if (dj < bd)
      bd = dj, best = j;
  }
  double wantA = 0, wantB = 0;
  for (int l = 0; l < D; l++) {
    wantA += -2 * (Book[best][l] - a - b * l);
    wantB += -2 * l * (Book[best][l] - a - b * l);
  }
  aug_d r = __enzyme_augmentfwd_d((void *)distortion, a, b);
  check_close("codebook primal", r.primal, bd, 1e-12);
  grad2 g = __enzyme_reverse_g((void *)distortion, a, b, 0.5, r.tape);
  check_close("codebook d/da", g.da, 0.5 * wantA, 1e-12);
  check_close("codebook d/db", g.db, 0.5 * wantB, 1e-12);
}

int main(void) {
  double P[N * D], C[K * D];
  unsigned s = 777;
  for (int q = 0; q < N * D; q++)
    P[q] = (s = s * 1103515245u + 12345u, (s >> 8) % 10007 / 10007.0);
  for (int q = 0; q < K * D; q++)
    C[q] = (s = s * 1103515245u + 12345u, (s >> 8) % 10007 / 10007.0);

  double want[K * D] = {0};
  for (int i = 0; i < N; i++) {
    int best = 0;
    double bd = INFINITY;
    for (int j = 0; j < K; j++) {
      double dj = 0;
      for (int l = 0; l < D; l++)
        dj += (P[i * D + l] - C[j * D + l]) * (P[i * D + l] - C[j * D + l]);
      if (dj < bd)
        bd = dj, best = j;
    }
    for (int l = 0; l < D; l++)
      want[best * D + l] += 2 * (C[best * D + l] - P[i * D + l]);
  }

  unsigned long size = __enzyme_augmentsize((void *)nearest, enzyme_const,
                                            enzyme_dup, enzyme_const,
                                            enzyme_dup);
  char *buf = malloc(size);
  double dc[K * D] = {0}, out = 0, dout = 0;
  __enzyme_augmentfwd((void *)nearest, enzyme_allocated, size, enzyme_tape,
                      buf, enzyme_const, P, enzyme_dup, C, dc, enzyme_const,
                      (int)D, enzyme_dup, &out, &dout);
  // The points change after the forward; the reverse reads its tape.
  for (int q = 0; q < N * D; q++)
    P[q] = -1;
  char what[64];
  const double seeds[2] = {1.0, -2.5};
  for (int r = 0; r < 2; r++) {
    memset(dc, 0, sizeof dc);
    dout = seeds[r];
    if (r == 0) // Keeps the tape's records for the second reverse.
      __enzyme_reverse((void *)nearest, enzyme_allocated, size, enzyme_tape,
                       buf, enzyme_nofree, enzyme_const, P, enzyme_dup, C, dc,
                       enzyme_const, (int)D, enzyme_dup, &out, &dout);
    else
      __enzyme_reverse((void *)nearest, enzyme_allocated, size, enzyme_tape,
                       buf, enzyme_const, P, enzyme_dup, C, dc, enzyme_const,
                       (int)D, enzyme_dup, &out, &dout);
    for (int q = 0; q < K * D; q++) {
      snprintf(what, sizeof what, "reverse %d: d/dc[%d]", r + 1, q);
      check_close(what, dc[q], seeds[r] * want[q], 1e-12);
    }
  }
  free(buf);
  checkCodebook(0.05, 0.4);  // nearest: codeword 0
  checkCodebook(0.15, -0.1); // codeword 1
  checkCodebook(0.9, 0.25);  // codeword 2
  return check_report();
}
