// A robotics user's program in forward mode: the forward kinematics of a
// planar three-link arm (end-effector x, y and heading from joint angles
// and link lengths, written to an output array) and a Cartesian-to-
// spherical conversion (hypot, atan2, acos). Jacobian-vector products with
// __enzyme_fwddiff on the void functions (enzyme_dup on inputs and
// outputs), one column per call plus a general direction, and the link
// lengths active in one call and constant in another.
// Analytic: with phi_k = q_1 + ... + q_k,
//   dx/dq_j = -sum_{k>=j} l_k sin phi_k,  dy/dq_j = sum_{k>=j} l_k cos phi_k,
//   dtheta/dq_j = 1,  dx/dl_k = cos phi_k,  dy/dl_k = sin phi_k;
// spherical (r, theta = acos(z/r), phi = atan2(y, x)):
//   dr = (x, y, z)/r, dtheta = (xz, yz, -(x^2+y^2)) / (r^2 rho),
//   dphi = (-y, x, 0)/rho^2, rho = hypot(x, y).
// RUN: %clang -O0 %s -lm -o %t0 && %t0 | FileCheck %s
// RUN: %clang -O1 %s -lm -o %t1 && %t1 | FileCheck %s
// RUN: %clang -O2 %s -lm -o %t2 && %t2 | FileCheck %s
// RUN: %clang -O3 %s -lm -o %t3 && %t3 | FileCheck %s
// RUN: %clang -O3 -march=native -ffast-math %s -lm -o %tf && %tf | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: ALL PASSED
#include "Inputs/check.h"

extern int enzyme_dup, enzyme_const, enzyme_dupnoneed;
extern void __enzyme_fwddiff(void *, ...);

#define NL 3

void arm(const double *q, const double *len, double *pose) {
  double phi = 0, x = 0, y = 0;
  for (int k = 0; k < NL; ++k) {
    phi += q[k];
    x += len[k] * cos(phi);
    y += len[k] * sin(phi);
  }
  pose[0] = x;
  pose[1] = y;
  pose[2] = phi;
}

void to_spherical(const double *c, double *s) {
  double rho = hypot(c[0], c[1]);
  double r = sqrt(rho * rho + c[2] * c[2]);
  s[0] = r;
  s[1] = acos(c[2] / r);
  s[2] = atan2(c[1], c[0]);
}

int main(void) {
  double q[NL] = {0.4, -0.9, 1.3}, len[NL] = {1.0, 0.7, 0.45};
  double phi[NL], acc = 0;
  for (int k = 0; k < NL; ++k)
    phi[k] = acc += q[k];
  /* Columns for q with the lengths constant. */
  for (int j = 0; j < NL; ++j) {
    double dq[NL] = {0}, pose[3], dpose[3] = {0};
    dq[j] = 1.0;
    __enzyme_fwddiff((void *)arm, enzyme_dup, q, dq, enzyme_const, len,
                     enzyme_dup, pose, dpose);
    double wx = 0, wy = 0;
    for (int k = j; k < NL; ++k) {
      wx -= len[k] * sin(phi[k]);
      wy += len[k] * cos(phi[k]);
    }
    check_close("arm dx/dq", dpose[0], wx, 1e-13);
    check_close("arm dy/dq", dpose[1], wy, 1e-13);
    check_close("arm dtheta/dq", dpose[2], 1.0, 1e-13);
  }
  /* One direction in (q, len) together. */
  {
    double dq[NL] = {0.3, -1.0, 0.5}, dl[NL] = {0.2, 0.1, -0.4};
    double pose[3], dpose[3] = {0};
    __enzyme_fwddiff((void *)arm, enzyme_dup, q, dq, enzyme_dup, len, dl,
                     enzyme_dup, pose, dpose);
    double wx = 0, wy = 0, wt = 0;
    for (int j = 0; j < NL; ++j) {
      wt += dq[j];
      for (int k = j; k < NL; ++k) {
        wx -= len[k] * sin(phi[k]) * dq[j];
        wy += len[k] * cos(phi[k]) * dq[j];
      }
      wx += cos(phi[j]) * dl[j];
      wy += sin(phi[j]) * dl[j];
    }
    check_close("arm J.v x", dpose[0], wx, 1e-13);
    check_close("arm J.v y", dpose[1], wy, 1e-13);
    check_close("arm J.v theta", dpose[2], wt, 1e-13);
  }
  /* Spherical coordinates: full Jacobian column by column, at points in
     different octants (atan2's branches). */
  const double pts[3][3] = {
      {1.2, 0.5, -0.7}, {-0.3, 0.8, 1.1}, {-1.4, -0.6, 0.2}};
  for (int p = 0; p < 3; ++p) {
    double x = pts[p][0], y = pts[p][1], z = pts[p][2];
    double rho = hypot(x, y), r = sqrt(x * x + y * y + z * z);
    double J[3][3] = {
        {x / r, y / r, z / r},
        {x * z / (r * r * rho), y * z / (r * r * rho), -rho / (r * r)},
        {-y / (rho * rho), x / (rho * rho), 0}};
    for (int j = 0; j < 3; ++j) {
      double c[3] = {x, y, z}, dc[3] = {0}, s[3], ds[3] = {0};
      dc[j] = 1.0;
      __enzyme_fwddiff((void *)to_spherical, enzyme_dup, c, dc, enzyme_dup, s,
                       ds);
      for (int i = 0; i < 3; ++i)
        check_close("spherical J column", ds[i], J[i][j], 1e-13);
    }
  }
  return check_report();
}
