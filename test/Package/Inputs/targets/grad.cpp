#include <cmath>
#include <cstdio>
#include <enzyme/enzyme>
#include <tapestry/tapestry.hpp>

double f(double x, double y) { return x * std::sin(y); }

int main() {
  double x = 0.5, y = 1.25;
  auto [dx, dy] = enzyme::get<0>(enzyme::autodiff<enzyme::Reverse>(
      f, enzyme::Active(x), enzyme::Active(y)));
  std::array<double, 2> g = tapestry::gradient<f>(x, y);
  bool ok = std::fabs(dx - std::sin(y)) < 1e-12 &&
            std::fabs(dy - x * std::cos(y)) < 1e-12 && g[0] == dx &&
            g[1] == dy;
  std::printf("%s C++\n", ok ? "OK" : "WRONG");
  return !ok;
}
