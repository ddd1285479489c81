// Virtual calls whose dynamic type depends on the input, with the object
// passed in from outside the differentiated function, written as Enzyme's
// users write them: the shadow object gets its vtable from
// __enzyme_virtualreverse. Each call is dispatched on the vtable's entry
// over the implementations defined in this file; members of an object
// passed with a shadow get their derivatives (reverse, forward and split
// mode).
// RUN: %clangxx -O0 %s -o %t0 && %t0 | FileCheck %s
// RUN: %clangxx -O1 %s -o %t1 && %t1 | FileCheck %s
// RUN: %clangxx -O2 %s -o %t2 && %t2 | FileCheck %s
// RUN: %clangxx -O3 %s -o %t3 && %t3 | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: ALL PASSED
#include "Inputs/check.h"

#include <cmath>
#include <memory>
#include <vector>

int enzyme_dup, enzyme_const, enzyme_out;
template <typename... T> double __enzyme_autodiff(void *, T...);
template <typename... T> double __enzyme_fwddiff(void *, T...);
struct Aug {
  void *tape;
  double primal;
};
template <typename... T> Aug __enzyme_augmentfwd(void *, T...);
template <typename... T> void __enzyme_reverse(void *, T...);
template <typename T> T __enzyme_virtualreverse(T);

// Enzyme's own example: the shadow object's vtable is replaced by the one
// __enzyme_virtualreverse gives.
class Function {
public:
  virtual double operator()(double x) = 0;
  virtual ~Function() {}
};
class Square : public Function {
public:
  double operator()(double x) override { return x * x; }
};
class Sine : public Function {
public:
  double operator()(double x) override { return std::sin(x); }
};
double times(double x, Function *func) { return x * (*func)(x); }

// A model whose parameters are members: their derivatives go to the
// shadow object.
struct Model {
  virtual double eval(double x) const = 0;
  virtual ~Model() = default;
};
struct Line : Model {
  double a, b;
  Line(double a, double b) : a(a), b(b) {}
  double eval(double x) const override { return a * x + b; }
};
struct Wave : Model {
  double amp;
  explicit Wave(double amp) : amp(amp) {}
  double eval(double x) const override { return amp * std::sin(x); }
};
double loss(const Model *m, double x) {
  double r = m->eval(x) - 1.0;
  return r * r;
}

struct Shape {
  virtual double area(double s) const = 0;
  virtual ~Shape() = default;
};
struct Sq : Shape {
  double area(double s) const override { return s * s; }
};
struct Circle : Shape {
  double r;
  explicit Circle(double r) : r(r) {}
  double area(double s) const override { return M_PI * r * r * s; }
};
double total(const std::vector<std::unique_ptr<Shape>> *shapes, double s) {
  double t = 0;
  for (auto &p : *shapes)
    t += p->area(s);
  return t;
}

int main(int argc, char **) {
  bool sine = argc > 5; // false when run without arguments
  Function *func = sine ? (Function *)new Sine() : (Function *)new Square();
  Function *dfunc = sine ? (Function *)new Sine() : (Function *)new Square();
  *((void **)dfunc) = __enzyme_virtualreverse(*(void **)dfunc);
  for (double x = 1; x < 4; x++)
    check_close("x * f(x), f = square",
                __enzyme_autodiff((void *)times, x, enzyme_dup, func, dfunc),
                3 * x * x, 1e-12);
  Function *sfunc = sine ? (Function *)new Square() : (Function *)new Sine();
  check_close("x * f(x), f = sin",
              __enzyme_autodiff((void *)times, 0.7, enzyme_dup, sfunc, dfunc),
              std::sin(0.7) + 0.7 * std::cos(0.7), 1e-12);

  double x = 0.8;
  Line line(1.5, -0.25), dline(0, 0);
  *((void **)&dline) = __enzyme_virtualreverse(*(void **)&dline);
  const Model *m = &line, *dm = &dline;
  double r = 1.5 * x - 0.25 - 1.0;
  __enzyme_autodiff((void *)loss, enzyme_dup, m, dm, enzyme_const, x);
  check_close("d loss / d a (reverse)", dline.a, 2 * r * x, 1e-12);
  check_close("d loss / d b (reverse)", dline.b, 2 * r, 1e-12);
  Line tline(0, 1); // tangent: along b
  check_close("d loss / d b (forward)",
              __enzyme_fwddiff((void *)loss, enzyme_dup, m, &tline,
                               enzyme_const, x),
              2 * r, 1e-12);
  Line sline(0, 0);
  Aug aug = __enzyme_augmentfwd((void *)loss, enzyme_dup, m, &sline,
                                enzyme_const, x);
  check_close("loss (split primal)", aug.primal, r * r, 1e-12);
  __enzyme_reverse((void *)loss, enzyme_dup, m, &sline, enzyme_const, x, 1.0,
                   aug.tape);
  check_close("d loss / d a (split)", sline.a, 2 * r * x, 1e-12);
  Wave wave(2.0), dwave(0);
  m = argc > 5 ? (const Model *)&line : (const Model *)&wave;
  double rw = 2.0 * std::sin(x) - 1.0;
  __enzyme_autodiff((void *)loss, enzyme_dup, m, &dwave, enzyme_out, x);
  check_close("d loss / d amp (reverse)", dwave.amp, 2 * rw * std::sin(x),
              1e-12);

  std::vector<std::unique_ptr<Shape>> v;
  v.emplace_back(new Sq());
  if (argc < 3)
    v.emplace_back(new Circle(2.0));
  v.emplace_back(new Sq());
  double s = 1.5;
  check_close("total area",
              __enzyme_autodiff((void *)total, enzyme_const, &v, s),
              2 * 2 * s + M_PI * 4, 1e-12);
  return check_report();
}
