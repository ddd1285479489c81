// A geometry user's program in forward mode where the functions take and
// return small structs of doubles by value. A Vec3 (24 bytes) is returned
// in memory by the C ABI: the result object and its tangent are passed
// first, enzyme_dupnoneed, &out, &dout (Enzyme's spelling for an sret
// result; the spelling that has __enzyme_fwddiff return the Vec3 tangent is
// strangers-fwd-sret-result-spelling.c, XFAIL). The Jacobian of the
// spherical-to-Cartesian map is built column by column and its determinant
// checked against r^2 sin(theta); functions taking Vec3 by value (cross and
// triple products) are differentiated with each struct argument followed
// by its tangent struct; a 16-byte Vec2 result (in registers) comes back as
// the entry point's result. In reverse mode the same result object and its
// seed come first, and the three adjoints come back in a struct (returned in
// memory too). Expected: analytic partial derivatives.
// RUN: %clang -O0 %s -lm -o %t0 && %t0 | FileCheck %s
// RUN: %clang -O1 %s -lm -o %t1 && %t1 | FileCheck %s
// RUN: %clang -O2 %s -lm -o %t2 && %t2 | FileCheck %s
// RUN: %clang -O3 %s -lm -o %t3 && %t3 | FileCheck %s
// RUN: %clang_enzyme -O0 %s -S -emit-llvm -o - | lli - | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: ALL PASSED
#include "Inputs/check.h"

typedef struct {
  double x, y, z;
} Vec3;
typedef struct {
  double x, y;
} Vec2;

extern int enzyme_width, enzyme_const, enzyme_dup;
extern int enzyme_dupnoneed;
void __enzyme_fwddiff(void *, ...);
double __enzyme_fwddiff_d(void *, ...);
Vec2 __enzyme_fwddiff_v2(void *, ...);
typedef struct {
  double dr, dth, dph;
} Adj3;
Adj3 __enzyme_autodiff(void *, ...);

Vec3 spherical(double r, double th, double ph) {
  Vec3 p = {r * sin(th) * cos(ph), r * sin(th) * sin(ph), r * cos(th)};
  return p;
}

Vec3 cross(Vec3 a, Vec3 b) {
  Vec3 c = {a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z,
            a.x * b.y - a.y * b.x};
  return c;
}

Vec2 polar(double r, double th) {
  Vec2 p = {r * cos(th), r * sin(th)};
  return p;
}

double triple(Vec3 a, Vec3 b, Vec3 c) {
  Vec3 ab = cross(a, b);
  return ab.x * c.x + ab.y * c.y + ab.z * c.z;
}

static void want_column(int k, double r, double th, double ph, double *w) {
  double st = sin(th), ct = cos(th), sp = sin(ph), cp = cos(ph);
  if (k == 0) {
    w[0] = st * cp, w[1] = st * sp, w[2] = ct;
  } else if (k == 1) {
    w[0] = r * ct * cp, w[1] = r * ct * sp, w[2] = -r * st;
  } else {
    w[0] = -r * st * sp, w[1] = r * st * cp, w[2] = 0;
  }
}

int main(void) {
  const double r = 1.7, th = 0.9, ph = -2.2;
  Vec3 J[3], out;
  __enzyme_fwddiff((void *)spherical, enzyme_dupnoneed, &out, &J[0], r, 1.0,
                   th, 0.0, ph, 0.0);
  __enzyme_fwddiff((void *)spherical, enzyme_dupnoneed, &out, &J[1], r, 0.0,
                   th, 1.0, ph, 0.0);
  __enzyme_fwddiff((void *)spherical, enzyme_dup, &out, &J[2], r, 0.0, th,
                   0.0, ph, 1.0);
  Vec3 p = spherical(r, th, ph);
  check_close("primal through enzyme_dup", out.x + out.y + out.z,
              p.x + p.y + p.z, 1e-15);
  for (int k = 0; k < 3; k++) {
    double w[3];
    want_column(k, r, th, ph, w);
    char name[32];
    snprintf(name, sizeof name, "dp/dq%d x", k);
    check_close(name, J[k].x, w[0], 1e-14);
    snprintf(name, sizeof name, "dp/dq%d y", k);
    check_close(name, J[k].y, w[1], 1e-14);
    snprintf(name, sizeof name, "dp/dq%d z", k);
    check_close(name, J[k].z, w[2], 1e-14);
  }
  /* det J = (J0 x J1) . J2 */
  check_close("det J = r^2 sin(theta)", triple(J[0], J[1], J[2]),
              r * r * sin(th), 1e-13);

  /* d/dt of a(t) x b(t) with a' and b' given: a' x b + a x b'. */
  Vec3 a = {0.3, -1.2, 2.0}, da = {1.0, 0.5, -0.25};
  Vec3 b = {1.4, 0.7, -0.6}, db = {-0.2, 0.9, 0.4};
  Vec3 c0, dc;
  __enzyme_fwddiff((void *)cross, enzyme_dupnoneed, &c0, &dc, a, da, b, db);
  Vec3 u = cross(da, b), v = cross(a, db);
  check_close("d(a x b) x", dc.x, u.x + v.x, 1e-14);
  check_close("d(a x b) y", dc.y, u.y + v.y, 1e-14);
  check_close("d(a x b) z", dc.z, u.z + v.z, 1e-14);

  /* Triple product tangent with the third argument constant. */
  Vec3 c = {0.5, 0.5, 1.5};
  double dt = __enzyme_fwddiff_d((void *)triple, a, da, b, db, enzyme_const,
                                 c);
  check_close("d triple", dt,
              (u.x + v.x) * c.x + (u.y + v.y) * c.y + (u.z + v.z) * c.z,
              1e-14);

  /* A 16-byte result comes back in registers. */
  Vec2 dp = __enzyme_fwddiff_v2((void *)polar, r, 0.5, th, 2.0);
  check_close("d polar x", dp.x, 0.5 * cos(th) - 2.0 * r * sin(th), 1e-14);
  check_close("d polar y", dp.y, 0.5 * sin(th) + 2.0 * r * cos(th), 1e-14);
  /* Reverse: row 2 of J (seed e_z), the adjoints in an sret struct. */
  Vec3 seed = {0, 0, 1};
  Adj3 adj = __enzyme_autodiff((void *)spherical, enzyme_dupnoneed, &out,
                               &seed, r, th, ph);
  double wz[3][3];
  for (int k = 0; k < 3; k++)
    want_column(k, r, th, ph, wz[k]);
  check_close("reverse dz/dr", adj.dr, wz[0][2], 1e-14);
  check_close("reverse dz/dtheta", adj.dth, wz[1][2], 1e-14);
  check_close("reverse dz/dphi", adj.dph, wz[2][2], 1e-14);
  check_close("reverse seed consumed", seed.z, 0, 0);
  return check_report();
}
