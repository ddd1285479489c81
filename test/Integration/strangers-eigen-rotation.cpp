// Rigid-body pose with Eigen fixed-size types: rotate a lever arm by an
// axis-angle rotation and measure the torque r x F; gradient of |tau|^2
// with respect to the angle and the force.
// RUN: %clangxx -std=c++17 -O0 %eigen_flags %s -o %t0 && %t0 | FileCheck %s
// RUN: %clangxx -std=c++17 -O1 %eigen_flags %s -o %t1 && %t1 | FileCheck %s
// RUN: %clangxx -std=c++17 -O2 %eigen_flags %s -o %t2 && %t2 | FileCheck %s
// RUN: %clangxx -std=c++17 -O3 %eigen_flags %s -o %t3 && %t3 | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: ALL PASSED
#include "Inputs/check.h"
#include <Eigen/Dense>
#include <Eigen/Geometry>
#include <cmath>
extern "C" int enzyme_dup, enzyme_const, enzyme_out;
extern "C" void __enzyme_autodiff(void *, ...);
extern "C" double __enzyme_fwddiff(void *, ...);

double torque2(const double *q, const Eigen::Vector3d &F) {
  Eigen::Matrix3d R = Eigen::AngleAxisd(q[0], Eigen::Vector3d::UnitZ()).toRotationMatrix() *
                      Eigen::AngleAxisd(q[1], Eigen::Vector3d::UnitX()).toRotationMatrix();
  Eigen::Vector3d r = R * Eigen::Vector3d(1.0, 0.5, -0.2);
  Eigen::Vector3d tau = r.cross(F);
  return tau.squaredNorm() + 0.1 * (R.transpose() * F).dot(Eigen::Vector3d(0, 0, 1));
}

int main() {
  double q[2] = {0.4, -0.3}, dq[2] = {0, 0};
  Eigen::Vector3d F(0.2, -1.0, 0.7), dF = Eigen::Vector3d::Zero();
  __enzyme_autodiff((void *)torque2, enzyme_dup, q, dq, enzyme_dup, &F, &dF);
  for (int i = 0; i < 2; i++) {
    double p[2] = {q[0], q[1]};
    check_close("dq", dq[i], CENTRAL_DIFF((p[i] = t_, torque2(p, F)), q[i], 1e-6), 1e-7);
  }
  for (int i = 0; i < 3; i++) {
    Eigen::Vector3d G = F;
    check_close("dF", dF(i), CENTRAL_DIFF((G(i) = t_, torque2(q, G)), F(i), 1e-6), 1e-7);
  }
  double v[2] = {0, 1};
  Eigen::Vector3d zero = Eigen::Vector3d::Zero();
  double d = __enzyme_fwddiff((void *)torque2, enzyme_dup, q, v, enzyme_dup, &F, &zero);
  double p[2] = {q[0], q[1]};
  check_close("fwd dq1", d, CENTRAL_DIFF((p[1] = t_, torque2(p, F)), q[1], 1e-6), 1e-7);
  return check_report();
}
