// An economist's program run the way Enzyme's own integration tests run
// theirs: clang emits IR at each -O level, opt runs the pass under Enzyme's
// name (also with -enzyme-inline=1), and lli executes the result.
// F: R^3 -> R^3 has components homogeneous of known degree,
//   F0 = CES production A (a K^r + (1-a) L^r)^(1/r)             (degree 1)
//   F1 = K L / M * exp(L / K)                                   (degree 1)
//   F2 = hypot(K, L) * M                                        (degree 2)
// so Euler's theorem says J(x) x = (F0, F1, 2 F2): the whole Jacobian, built
// column by column with __enzyme_fwddiff, is checked at once against the
// primal. Each column is also checked against a central finite difference,
// and the gradient of F0 from __enzyme_autodiff against row 0 of J.
// RUN: %plain_cc -O0 %s -S -emit-llvm -o - | %opt -passes=enzyme -S | lli - | FileCheck %s
// RUN: %plain_cc -O1 %s -S -emit-llvm -o - | %opt -passes=enzyme -S | lli - | FileCheck %s
// RUN: %plain_cc -O2 %s -S -emit-llvm -o - | %opt -passes=enzyme -S | lli - | FileCheck %s
// RUN: %plain_cc -O3 %s -S -emit-llvm -o - | %opt -passes=enzyme -S | lli - | FileCheck %s
// RUN: %plain_cc -O0 %s -S -emit-llvm -o - | %opt -passes=enzyme -enzyme-inline=1 -S | lli - | FileCheck %s
// RUN: %plain_cc -O2 %s -S -emit-llvm -o - | %opt -passes=enzyme -enzyme-inline=1 -S | lli - | FileCheck %s
// RUN: %plain_cc -O0 -Xclang -disable-O0-optnone %s -S -emit-llvm -o - | %opt -passes="enzyme,function(mem2reg,instsimplify)" -S | lli - | FileCheck %s
// RUN: %clang -O2 %s -lm -o %t && %t | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: ALL PASSED
#include "Inputs/check.h"

extern int enzyme_dup, enzyme_const, enzyme_dupnoneed;
extern void __enzyme_fwddiff(void *, ...);
extern void __enzyme_autodiff(void *, ...);

typedef struct {
  double scale, share, rho;
} Technology;

static double ces(double K, double L, const Technology *t) {
  double inner = t->share * pow(K, t->rho) + (1 - t->share) * pow(L, t->rho);
  return t->scale * pow(inner, 1.0 / t->rho);
}

void economy(const double *x, const Technology *t, double *F) {
  double K = x[0], L = x[1], M = x[2];
  F[0] = ces(K, L, t);
  F[1] = K * L / M * exp(L / K);
  F[2] = hypot(K, L) * M;
}

double output_only(const double *x, const Technology *t) {
  double F[3];
  economy(x, t, F);
  return F[0];
}

int main(void) {
  Technology tech = {1.7, 0.35, -0.6};
  double x[3] = {2.5, 1.3, 0.8};
  double F[3], J[9];
  economy(x, &tech, F);
  for (int col = 0; col < 3; col++) {
    double dx[3] = {0, 0, 0}, out[3], dout[3];
    dx[col] = 1;
    __enzyme_fwddiff((void *)economy, enzyme_dup, x, dx, enzyme_const, &tech,
                     enzyme_dupnoneed, out, dout);
    for (int row = 0; row < 3; row++)
      J[row * 3 + col] = dout[row];
  }
  const double degree[3] = {1, 1, 2};
  for (int row = 0; row < 3; row++) {
    double Jx = 0;
    for (int col = 0; col < 3; col++)
      Jx += J[row * 3 + col] * x[col];
    char name[32];
    snprintf(name, sizeof name, "Euler identity row %d", row);
    check_close(name, Jx, degree[row] * F[row], 1e-12);
  }
  const double h = 1e-6;
  for (int col = 0; col < 3; col++) {
    double xp[3] = {x[0], x[1], x[2]}, xm[3] = {x[0], x[1], x[2]};
    double Fp[3], Fm[3];
    xp[col] += h;
    xm[col] -= h;
    economy(xp, &tech, Fp);
    economy(xm, &tech, Fm);
    for (int row = 0; row < 3; row++) {
      char name[32];
      snprintf(name, sizeof name, "J[%d][%d] vs FD", row, col);
      check_close(name, J[row * 3 + col], (Fp[row] - Fm[row]) / (2 * h), 1e-6);
    }
  }
  double g[3] = {0, 0, 0};
  __enzyme_autodiff((void *)output_only, enzyme_dup, x, g, enzyme_const,
                    &tech);
  for (int col = 0; col < 3; col++) {
    char name[32];
    snprintf(name, sizeof name, "grad F0 [%d] = J[0][%d]", col, col);
    check_close(name, g[col], J[col], 1e-12);
  }
  return check_report();
}
