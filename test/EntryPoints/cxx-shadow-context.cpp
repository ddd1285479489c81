// Shadow contexts through <enzyme/enzyme>: enzyme::context() makes one,
// enzyme::shadow(ctx, global) gives the shadow of a global (a static member,
// a member or element of one too), enzyme::autodiff<Mode>(ctx, f, args...)
// differentiates in it and enzyme::zero_shadows(ctx) sets its shadows back
// to zero. Checked against analytic derivatives of
//   f(x) = rate x^2 + model.w[1] sin x + Coef::k x.
// RUN: %clangxx -std=c++17 -O0 %s -lm -o %t0 && %t0 | FileCheck %s
// RUN: %clangxx -std=c++17 -O1 %s -lm -o %t1 && %t1 | FileCheck %s
// RUN: %clangxx -std=c++17 -O2 %s -lm -o %t2 && %t2 | FileCheck %s
// RUN: %clangxx -std=c++17 -O3 %s -lm -o %t3 && %t3 | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: ALL PASSED
#include "../Integration/Inputs/check.h"
#include <enzyme/enzyme>

double rate = 1.5;
struct Model {
  double w[2];
};
Model model = {{2.0, 3.0}};
struct Coef {
  static double k;
};
double Coef::k = 0.5;

double f(double x) { return rate * x * x + model.w[1] * sin(x) + Coef::k * x; }

static double dfdx(double x) {
  return 2 * rate * x + model.w[1] * cos(x) + Coef::k;
}

// A context made in a function of its own, for the derivative with respect
// to rate only.
static double drate_at(double x) {
  auto ctx = enzyme::context();
  double *d = enzyme::shadow(ctx, rate);
  *d = 0;
  enzyme::autodiff<enzyme::Reverse>(ctx, f, enzyme::Active(x));
  return *d;
}

int main() {
  const double x = 0.7;
  auto ctx = enzyme::context();
  double *drate = enzyme::shadow(ctx, rate);
  double *dw1 = enzyme::shadow(ctx, model.w[1]);
  Model *dmodel = enzyme::shadow(ctx, model);
  double *dk = enzyme::shadow(ctx, Coef::k);
  check_close("shadow of a member at its offset", (double)(dw1 - dmodel->w),
              1.0, 0);
  check_close("shadow starts at zero", *drate + *dw1 + *dk, 0.0, 0);

  // Reverse mode adds the adjoints of the globals to their shadows.
  auto r = enzyme::autodiff<enzyme::Reverse>(ctx, f, enzyme::Active(x));
  check_close("reverse df/dx", enzyme::get<0>(enzyme::get<0>(r)), dfdx(x),
              1e-12);
  check_close("reverse df/drate", *drate, x * x, 1e-12);
  check_close("reverse df/dw1", *dw1, sin(x), 1e-12);
  check_close("reverse df/dk", *dk, x, 1e-12);
  check_close("reverse df/dw0", dmodel->w[0], 0.0, 0);

  // ... and accumulates over calls, until zero_shadows.
  enzyme::autodiff<enzyme::Reverse>(ctx, f, enzyme::Active(x));
  check_close("accumulated df/drate", *drate, 2 * x * x, 1e-12);
  enzyme::zero_shadows(ctx);
  check_close("zeroed", *drate + *dw1 + *dk, 0.0, 0);

  // ReverseWithPrimal and an explicit return activity.
  auto rp = enzyme::autodiff<enzyme::ReverseWithPrimal, enzyme::Active<double>>(
      ctx, f, enzyme::Active(x));
  check_close("with primal: value", enzyme::get<1>(rp), f(x), 1e-12);
  check_close("with primal: df/dx", enzyme::get<0>(enzyme::get<0>(rp)),
              dfdx(x), 1e-12);
  check_close("with primal: df/dk", *dk, x, 1e-12);

  // Forward mode reads the tangents seeded in the shadows: dx = 0 and
  // drate = 1 give df/drate; dx = 1 and dw1 = 2 give df/dx + 2 df/dw1.
  enzyme::zero_shadows(ctx);
  *drate = 1;
  auto t = enzyme::autodiff<enzyme::Forward>(
      ctx, f, enzyme::Duplicated<double>(x, 0.0));
  check_close("forward df/drate", enzyme::get<0>(t), x * x, 1e-12);
  *drate = 0;
  *dw1 = 2;
  auto t2 = enzyme::autodiff<enzyme::Forward, enzyme::Duplicated<double>>(
      ctx, f, enzyme::Duplicated<double>(x, 1.0));
  check_close("forward primal", enzyme::get<0>(t2), f(x), 1e-12);
  check_close("forward df/dx + 2 df/dw1", enzyme::get<1>(t2),
              dfdx(x) + 2 * sin(x), 1e-12);

  // A lambda, differentiated in the context.
  enzyme::zero_shadows(ctx);
  auto g = [](double y) { return rate * y * y * y; };
  auto rg = enzyme::autodiff<enzyme::Reverse>(ctx, g, enzyme::Active(x));
  check_close("lambda dg/dy", enzyme::get<0>(enzyme::get<0>(rg)),
              3 * rate * x * x, 1e-12);
  check_close("lambda dg/drate", *drate, x * x * x, 1e-12);

  // Contexts are independent: another one, here and in a function of its
  // own, leaves this one's shadows alone.
  *drate = 5;
  auto other = enzyme::context();
  enzyme::autodiff<enzyme::Reverse>(other, f, enzyme::Active(x));
  check_close("other context df/drate", *enzyme::shadow(other, rate), x * x,
              1e-12);
  check_close("helper context df/drate", drate_at(2 * x), 4 * x * x, 1e-12);
  check_close("first context untouched", *drate, 5.0, 0);
  return check_report();
}
