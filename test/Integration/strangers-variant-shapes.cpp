// Shapes in a std::vector<std::variant<Circle, Rect>> visited with
// std::visit and an overloaded lambda set; total area + perimeter
// differentiated with respect to a global scale and each shape's sizes.
// RUN: %clangxx -std=c++17 -O0 %s -o %t0 && %t0 | FileCheck %s
// RUN: %clangxx -std=c++17 -O1 %s -o %t1 && %t1 | FileCheck %s
// RUN: %clangxx -std=c++17 -O2 %s -o %t2 && %t2 | FileCheck %s
// RUN: %clangxx -std=c++17 -O3 %s -o %t3 && %t3 | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: ALL PASSED
#include "Inputs/check.h"
#include <cmath>
#include <variant>
#include <vector>
extern "C" int enzyme_dup, enzyme_const, enzyme_out;
extern "C" double __enzyme_autodiff(void *, ...);

struct Circle { double r; };
struct Rect { double w, h; };
using Shape = std::variant<Circle, Rect>;
template <class... Ts> struct overloaded : Ts... { using Ts::operator()...; };
template <class... Ts> overloaded(Ts...) -> overloaded<Ts...>;

double measure(const std::vector<Shape> &shapes, double scale) {
  double s = 0;
  for (const Shape &sh : shapes)
    s += std::visit(overloaded{
                        [&](const Circle &c) { return M_PI * c.r * c.r * scale * scale + 2 * M_PI * c.r * scale; },
                        [&](const Rect &r) { return r.w * r.h * scale * scale + 2 * (r.w + r.h) * scale; }},
                    sh);
  return s;
}

int main() {
  std::vector<Shape> shapes = {Circle{1.0}, Rect{2.0, 0.5}, Circle{0.3}};
  double scale = 1.2;
  double d = __enzyme_autodiff((void *)measure, enzyme_const, &shapes, enzyme_out, scale);
  check_close("dscale", d, CENTRAL_DIFF(measure(shapes, t_), scale, 1e-6), 1e-8);
  std::vector<Shape> ds = {Circle{0}, Rect{0, 0}, Circle{0}};
  __enzyme_autodiff((void *)measure, enzyme_dup, &shapes, &ds, enzyme_const, scale);
  double k = scale;
  check_close("dr0", std::get<Circle>(ds[0]).r, 2 * M_PI * 1.0 * k * k + 2 * M_PI * k, 1e-10);
  check_close("dw", std::get<Rect>(ds[1]).w, 0.5 * k * k + 2 * k, 1e-10);
  check_close("dh", std::get<Rect>(ds[1]).h, 2.0 * k * k + 2 * k, 1e-10);
  check_close("dr2", std::get<Circle>(ds[2]).r, 2 * M_PI * 0.3 * k * k + 2 * M_PI * k, 1e-10);
  return check_report();
}
