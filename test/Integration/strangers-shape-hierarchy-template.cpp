// A C++ user's program: a geometry library with an abstract base class
// Shape<D> templated on the dimension, derived classes holding their
// parameters in std::array<double, D> members (a Box with half-widths, an
// Ellipsoid with semi-axes, a Polygon with a fixed-size std::array of
// vertices), a second level of inheritance (Cube : Box<3> overriding one
// virtual and calling the base), and a Scene that owns the shapes through
// std::unique_ptr in a std::array. The objective is the sum of weighted
// volumes and surface measures, differentiated with respect to a flat
// parameter vector that the Scene unpacks into its shapes.
// Analytic: box volume prod(2a_i), ellipse area pi a b, ellipsoid volume
// 4/3 pi a b c, polygon area by the shoelace formula (its gradient
// d/dx_k = (y_{k+1} - y_{k-1})/2, d/dy_k = (x_{k-1} - x_{k+1})/2), cube
// "surface" 6 (2s)^2.
// RUN: %clangxx -std=c++17 -O0 %s -o %t0 && %t0 | FileCheck %s
// RUN: %clangxx -std=c++17 -O1 %s -o %t1 && %t1 | FileCheck %s
// RUN: %clangxx -std=c++17 -O2 %s -o %t2 && %t2 | FileCheck %s
// RUN: %clangxx -std=c++17 -O3 %s -o %t3 && %t3 | FileCheck %s
// RUN: %clangxx -std=c++17 -O3 -march=native -ffast-math %s -o %tf && %tf | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: ALL PASSED
#include "Inputs/check.h"
#include <array>
#include <cmath>
#include <memory>
extern "C" int enzyme_dup, enzyme_const;
extern "C" void __enzyme_autodiff(void *, ...);

namespace geo {

template <int D> class Shape {
public:
  virtual ~Shape() = default;
  virtual double measure() const = 0;   // area in 2-D, volume in 3-D
  virtual int nparams() const = 0;
  virtual void load(const double *p) = 0; // read parameters
  virtual double score() const { return measure(); }
};

template <int D> class Box : public Shape<D> {
protected:
  std::array<double, D> half_{};

public:
  double measure() const override {
    double v = 1.0;
    for (double h : half_)
      v *= 2.0 * h;
    return v;
  }
  int nparams() const override { return D; }
  void load(const double *p) override {
    for (int i = 0; i < D; ++i)
      half_[i] = p[i];
  }
};

// A cube: one parameter; its score adds the surface area to the volume.
class Cube : public Box<3> {
public:
  int nparams() const override { return 1; }
  void load(const double *p) override { half_.fill(p[0]); }
  double score() const override {
    double s = 2.0 * half_[0];
    return Box<3>::score() + 6.0 * s * s;
  }
};

template <int D> class Ellipsoid : public Shape<D> {
  std::array<double, D> axes_{};

public:
  double measure() const override {
    double prod = 1.0;
    for (int i = 0; i < D; ++i)
      prod *= axes_[i];
    return D == 2 ? M_PI * prod : 4.0 / 3.0 * M_PI * prod;
  }
  int nparams() const override { return D; }
  void load(const double *p) override {
    for (int i = 0; i < D; ++i)
      axes_[i] = p[i];
  }
};

template <int NV> class Polygon : public Shape<2> {
  std::array<std::array<double, 2>, NV> v_{};

public:
  double measure() const override {
    double a = 0.0;
    for (int k = 0; k < NV; ++k) {
      const auto &p = v_[k];
      const auto &q = v_[(k + 1) % NV];
      a += p[0] * q[1] - q[0] * p[1];
    }
    return 0.5 * a;
  }
  int nparams() const override { return 2 * NV; }
  void load(const double *p) override {
    for (int k = 0; k < NV; ++k)
      v_[k] = {p[2 * k], p[2 * k + 1]};
  }
};

} // namespace geo

struct Scene {
  std::array<std::unique_ptr<geo::Shape<2>>, 3> flat;
  std::array<std::unique_ptr<geo::Shape<3>>, 2> solid;
  std::array<double, 5> weight{1.0, -0.5, 2.0, 0.75, 0.1};

  Scene() {
    flat[0] = std::make_unique<geo::Box<2>>();
    flat[1] = std::make_unique<geo::Ellipsoid<2>>();
    flat[2] = std::make_unique<geo::Polygon<5>>();
    solid[0] = std::make_unique<geo::Ellipsoid<3>>();
    solid[1] = std::make_unique<geo::Cube>();
  }
  double objective(const double *p) {
    double s = 0.0;
    int w = 0;
    for (auto &sh : flat) {
      sh->load(p);
      p += sh->nparams();
      s += weight[w++] * sh->score();
    }
    for (auto &sh : solid) {
      sh->load(p);
      p += sh->nparams();
      s += weight[w++] * sh->score();
    }
    return s;
  }
};

static double objective(const double *p) {
  Scene scene;
  return scene.objective(p);
}

// 2 (box) + 2 (ellipse) + 10 (pentagon) + 3 (ellipsoid) + 1 (cube)
constexpr int NP = 18;

int main() {
  double p[NP] = {0.7, 1.2,                  // box half-widths
                  0.9, 0.4,                  // ellipse semi-axes
                  1.0, 0.1, 0.4, 0.9, -0.5, 0.7, -0.8, -0.3, 0.3, -0.9,
                  1.1, 0.6, 0.8,             // ellipsoid semi-axes
                  0.45};                     // cube half-side
  double dp[NP] = {0};
  __enzyme_autodiff((void *)objective, enzyme_dup, p, dp);

  const double w[5] = {1.0, -0.5, 2.0, 0.75, 0.1};
  double want[NP];
  want[0] = w[0] * 4 * p[1];
  want[1] = w[0] * 4 * p[0];
  want[2] = w[1] * M_PI * p[3];
  want[3] = w[1] * M_PI * p[2];
  const double *v = p + 4;
  for (int k = 0; k < 5; ++k) {
    int nx = (k + 1) % 5, pv = (k + 4) % 5;
    want[4 + 2 * k] = w[2] * 0.5 * (v[2 * nx + 1] - v[2 * pv + 1]);
    want[5 + 2 * k] = w[2] * 0.5 * (v[2 * pv] - v[2 * nx]);
  }
  want[14] = w[3] * 4.0 / 3.0 * M_PI * p[15] * p[16];
  want[15] = w[3] * 4.0 / 3.0 * M_PI * p[14] * p[16];
  want[16] = w[3] * 4.0 / 3.0 * M_PI * p[14] * p[15];
  double s = p[17];
  want[17] = w[4] * (24.0 * s * s + 48.0 * s); // d/ds [(2s)^3 + 24 s^2]
  for (int i = 0; i < NP; ++i)
    check_close("dobjective/dp", dp[i], want[i], 1e-12);
  return check_report();
}
