// A control engineer's program: the finite-horizon discrete LQR cost of a
// double integrator, from the backward Riccati recursion
//   K_t = (R + B^T P B)^-1 B^T P A,  P_{t-1} = Q + A^T P (A - B K_t),
// with the 2x2 matrices as small structs passed by pointer and a scalar
// input, then a forward closed-loop rollout x_{t+1} = (A - B K_t) x_t whose
// gains are kept in an array. The cost sum x^T Q x + u^2 R is
// differentiated with respect to the state weights Q (reverse, enzyme_dup
// on the struct), the input weight R and the time step (enzyme_out), and
// in forward mode along a direction in Q. Expected: central finite
// differences of the whole design-then-simulate pipeline, and the forward
// directional derivative equal to the reverse gradient's projection.
// RUN: %clang -O0 %s -lm -o %t0 && %t0 | FileCheck %s
// RUN: %clang -O1 %s -lm -o %t1 && %t1 | FileCheck %s
// RUN: %clang -O2 %s -lm -o %t2 && %t2 | FileCheck %s
// RUN: %clang -O3 %s -lm -o %t3 && %t3 | FileCheck %s
// RUN: %clang_enzyme -O2 %s -S -emit-llvm -o - | lli - | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: ALL PASSED
#include "Inputs/check.h"
#include <string.h>

extern int enzyme_dup, enzyme_const, enzyme_out;
typedef struct {
  double dR, ddt;
} Grad2;
Grad2 __enzyme_autodiff(void *, ...);
double __enzyme_fwddiff(void *, ...);

typedef struct {
  double a, b, c, d; /* [[a, b], [c, d]] */
} Mat2;

#define HORIZON 30

static Mat2 mul(const Mat2 *x, const Mat2 *y) {
  Mat2 r = {x->a * y->a + x->b * y->c, x->a * y->b + x->b * y->d,
            x->c * y->a + x->d * y->c, x->c * y->b + x->d * y->d};
  return r;
}

double lqr_cost(const Mat2 *Q, double R, double dt) {
  Mat2 A = {1, dt, 0, 1};
  double B0 = 0.5 * dt * dt, B1 = dt;
  Mat2 P = *Q;
  double K[HORIZON][2];
  for (int t = HORIZON - 1; t >= 0; t--) {
    /* B^T P B, B^T P A (a row), scalar inverse */
    double PB0 = P.a * B0 + P.b * B1, PB1 = P.c * B0 + P.d * B1;
    double s = R + B0 * PB0 + B1 * PB1;
    double BtPA0 = PB0 * A.a + PB1 * A.c, BtPA1 = PB0 * A.b + PB1 * A.d;
    K[t][0] = BtPA0 / s;
    K[t][1] = BtPA1 / s;
    Mat2 Acl = {A.a - B0 * K[t][0], A.b - B0 * K[t][1], A.c - B1 * K[t][0],
                A.d - B1 * K[t][1]};
    Mat2 PA = mul(&P, &Acl);
    Mat2 At = {A.a, A.c, A.b, A.d};
    Mat2 N = mul(&At, &PA);
    P.a = Q->a + N.a;
    P.b = Q->b + N.b;
    P.c = Q->c + N.c;
    P.d = Q->d + N.d;
  }
  double x0 = 1.0, x1 = -0.5, cost = 0;
  for (int t = 0; t < HORIZON; t++) {
    double u = -(K[t][0] * x0 + K[t][1] * x1);
    cost += x0 * (Q->a * x0 + Q->b * x1) + x1 * (Q->c * x0 + Q->d * x1) +
            R * u * u;
    double n0 = x0 + dt * x1 + B0 * u, n1 = x1 + B1 * u;
    x0 = n0;
    x1 = n1;
  }
  return cost;
}

int main(void) {
  Mat2 Q = {2.0, 0.3, 0.3, 0.5}, dQ = {0, 0, 0, 0};
  const double R = 0.8, dt = 0.1;
  Grad2 g = __enzyme_autodiff((void *)lqr_cost, enzyme_dup, &Q, &dQ,
                              enzyme_out, R, enzyme_out, dt);
  const double h = 1e-6;
  double *dq = &dQ.a;
  const char *names[4] = {"dJ/dQ11", "dJ/dQ12", "dJ/dQ21", "dJ/dQ22"};
  for (int k = 0; k < 4; k++) {
    Mat2 P = Q, M = Q;
    (&P.a)[k] += h;
    (&M.a)[k] -= h;
    double fd = (lqr_cost(&P, R, dt) - lqr_cost(&M, R, dt)) / (2 * h);
    check_close(names[k], dq[k], fd, 1e-6);
  }
  check_close("dJ/dR", g.dR,
              CENTRAL_DIFF(lqr_cost(&Q, t_, dt), R, h), 1e-6);
  check_close("dJ/ddt", g.ddt,
              CENTRAL_DIFF(lqr_cost(&Q, R, t_), dt, h), 1e-6);
  Mat2 dir = {1.0, -0.5, -0.5, 2.0};
  double t = __enzyme_fwddiff((void *)lqr_cost, enzyme_dup, &Q, &dir,
                              enzyme_const, R, enzyme_const, dt);
  check_close("forward along dQ", t,
              dQ.a * dir.a + dQ.b * dir.b + dQ.c * dir.c + dQ.d * dir.d,
              1e-10);
  return check_report();
}
