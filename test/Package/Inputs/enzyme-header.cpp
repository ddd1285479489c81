// Enzyme's C++ header from the installed prefix alone.
#include <cmath>
#include <cstdio>
#include <enzyme/enzyme>

double f(double x, double y) { return x * std::sin(y); }

int main() {
  double x = 0.5, y = 1.25;
  auto r = enzyme::autodiff<enzyme::ReverseWithPrimal>(f, enzyme::Active(x),
                                                       enzyme::Active(y));
  auto [dx, dy] = enzyme::get<0>(r);
  bool ok = std::fabs(dx - std::sin(y)) < 1e-12 &&
            std::fabs(dy - x * std::cos(y)) < 1e-12 &&
            std::fabs(enzyme::get<1>(r) - f(x, y)) < 1e-12;
  std::printf("%s enzyme\n", ok ? "OK" : "WRONG");
  return !ok;
}
