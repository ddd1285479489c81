// Charged particle (GradBench "particle", after Siskind and Pearlmutter): a
// particle starts at (0, 8) with velocity (0.75, 0) in the field of the
// potential p(x; w) = 1/|x - (10, 10 - w)| + 1/|x - (10, 0)|; naive Euler
// steps of length dt, its acceleration the NEGATIVE GRADIENT OF p W.R.T. x
// (a derivative inside the function), until it crosses the x axis, where
// linear interpolation gives the crossing x_f. The derivative is
// d(x_f^2)/dw, a nested derivative: Tapestry computes it by forward over
// reverse (fr) and by reverse over reverse (rr), both in one call, the
// inner gradient taken through a std::vector of points as the C++
// reference writes it. The primal integrates with the hand-written force.
// Hand-written derivative: the tangent of every Euler step (the force's
// Jacobian w.r.t. x and w by hand). No peers: ADOL-C and Sacado have no
// nested derivatives through a taped inner gradient as users write them.
// Sizes: dt = 0.1 / 0.01 / 0.001 (about 130 / 1300 / 13000 steps), w = 0.
#include "common.h"

struct Point {
  double x, y;
};

static double dist(const Point &u, const Point &v) {
  return sqrt((u.x - v.x) * (u.x - v.x) + (u.y - v.y) * (u.y - v.y));
}

// The potential at x of the charges.
static double potential(const std::vector<Point> &charges, const Point &x) {
  double a = 0;
  for (const Point &c : charges)
    a += 1 / dist(c, x);
  return a;
}

// Hand-written force -grad_x p = sum (x - c) / |x - c|^3.
static Point force(const std::vector<Point> &charges, const Point &x) {
  Point f = {0, 0};
  for (const Point &c : charges) {
    double r = dist(c, x), r3 = r * r * r;
    f.x += (x.x - c.x) / r3;
    f.y += (x.y - c.y) / r3;
  }
  return f;
}

// x_f^2, the force given by `accel` (hand-written or by AD).
template <class Accel> static double euler(double w, double dt, Accel accel) {
  std::vector<Point> charges = {{10, 10 - w}, {10, 0}};
  Point x = {0, 8}, v = {0.75, 0};
  for (;;) {
    Point a = accel(charges, x);
    Point xn = {x.x + dt * v.x, x.y + dt * v.y};
    if (xn.y > 0) {
      x = xn;
      v = {v.x + dt * a.x, v.y + dt * a.y};
    } else {
      double dtf = -x.y / v.y;
      double xf = x.x + dtf * v.x;
      return xf * xf;
    }
  }
}

static double primal(double w, double dt) { return euler(w, dt, force); }

// Tangent of every step w.r.t. w.
static double handDerivative(double w, double dt) {
  std::vector<Point> charges = {{10, 10 - w}, {10, 0}};
  Point dcs[2] = {{0, -1}, {0, 0}}; // d charges / dw
  Point x = {0, 8}, v = {0.75, 0}, dx = {0, 0}, dv = {0, 0};
  for (;;) {
    Point a = {0, 0}, da = {0, 0};
    for (int k = 0; k < 2; k++) {
      Point d = {x.x - charges[k].x, x.y - charges[k].y};
      Point dd = {dx.x - dcs[k].x, dx.y - dcs[k].y};
      double r2 = d.x * d.x + d.y * d.y, r = sqrt(r2), r3 = r2 * r;
      double dot = d.x * dd.x + d.y * dd.y;
      a.x += d.x / r3;
      a.y += d.y / r3;
      // d(d / r^3) = dd / r^3 - 3 d (d . dd) / r^5
      da.x += dd.x / r3 - 3 * d.x * dot / (r3 * r2);
      da.y += dd.y / r3 - 3 * d.y * dot / (r3 * r2);
    }
    Point xn = {x.x + dt * v.x, x.y + dt * v.y};
    if (xn.y > 0) {
      dx = {dx.x + dt * dv.x, dx.y + dt * dv.y};
      x = xn;
      dv = {dv.x + dt * da.x, dv.y + dt * da.y};
      v = {v.x + dt * a.x, v.y + dt * a.y};
    } else {
      double dtf = -x.y / v.y;
      double ddtf = -dx.y / v.y + x.y * dv.y / (v.y * v.y);
      double xf = x.x + dtf * v.x;
      double dxf = dx.x + ddtf * v.x + dtf * dv.x;
      return 2 * xf * dxf;
    }
  }
}

#if defined(TOOL_TAPESTRY)
void potentialWrap(const std::vector<Point> *charges, const Point *x,
                   double *out) {
  *out = potential(*charges, *x);
}

// The force by reverse mode: the gradient of the potential w.r.t. x.
static Point adForce(const std::vector<Point> &charges, const Point &x) {
  Point g = {0, 0};
  double p, one = 1;
  __enzyme_autodiff((void *)potentialWrap, enzyme_const, &charges, enzyme_dup,
                    &x, &g, enzyme_dupnoneed, &p, &one);
  return {-g.x, -g.y};
}

double naiveEuler(double w, double dt) { return euler(w, dt, adForce); }
#endif

int main(int argc, char **argv) {
  bench::Args a(argc, argv);
  double dt = a.size == "small" ? 0.1 : a.size == "medium" ? 0.01 : 0.001;
  std::vector<double> w = {0.0}, got(2);
  auto prim = [&] { bench::sink = primal(w[0], dt); };
#if defined(TOOL_HAND)
  auto deriv = [&] { got[0] = got[1] = handDerivative(w[0], dt); };
#elif defined(TOOL_TAPESTRY)
  auto deriv = [&] {
    got[0] =
        __enzyme_fwddiff_ret((void *)naiveEuler, w[0], 1.0, enzyme_const, dt);
    got[1] = __enzyme_autodiff_ret((void *)naiveEuler, w[0], enzyme_const, dt);
  };
#else
#error "particle: no peer (nested derivatives)"
#endif
  bench::Runner r("particle", a);
  return r.run(
      prim, deriv, got,
      [&] {
        double d = handDerivative(w[0], dt);
        return std::vector<double>{d, d};
      },
      [&] {
        std::vector<double> g = {got[0]};
        return bench::fdCheck(
            w, [&] { return primal(w[0], dt); }, g);
      });
}
