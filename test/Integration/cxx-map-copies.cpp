// std::map copies in differentiated C++: a copy constructor (a struct
// holding a map passed by value), a copy assignment, and a map inside a
// class copied with it. libstdc++ copies a tree with a recursive function
// that returns the new root (_Rb_tree::_M_copy), which stays a call: its
// derivative returns the root's shadow. Reverse, forward and split mode.
// Each mode is checked against the analytic derivative of
//   f(c) = s * sum_{i<n} (a_i c_i + b_i c_i^2),  a_i = 1 + i,  b_i = c_i / 2
// (b is filled from c), s = 1.5 from a copied settings class:
//   df/dc_i = s (1 + i + 1.5 c_i^2).
// libstdc++ copies a node's pair<const int, double> with a 16-byte memcpy
// (the pair's trivial copy constructor) inside the recursive _M_copy,
// which never reads the value, and clang gives that memcpy no type
// (!tbaa.struct is never emitted for a trivial copy constructor). Tapestry's
// front-end part describes each such copy from the AST
// (plugin/Frontend/CopyTypes.cpp), so -fplugin and Enzyme's spelling
// (-fpass-plugin with -Xclang -load) differentiate it at every -O level.
// With -fpass-plugin alone the front end does not run: the copy is an error
// that says to load it. (Before December 2026 every spelling refused it,
// and before that the double's adjoint was dropped without an error.)
// RUN: %clangxx_fplugin -std=c++17 -O0 %s -o %t0 && %t0 | FileCheck %s
// RUN: %clangxx_fplugin -std=c++17 -O1 %s -o %t1 && %t1 | FileCheck %s
// RUN: %clangxx_fplugin -std=c++17 -O2 %s -o %t2 && %t2 | FileCheck %s
// RUN: %clangxx_fplugin -std=c++17 -O3 %s -o %t3 && %t3 | FileCheck %s
// RUN: %clangxx_enzyme -std=c++17 -O2 %s -o %te && %te | FileCheck %s
// RUN: not %clangxx -std=c++17 -O2 %s -o %tn 2>&1 | FileCheck %s --check-prefix=BARE
// BARE: stl_tree.h:{{[0-9]+}}:{{[0-9]+}}: error:
// BARE-SAME: cannot tell what the memory this instruction copies holds
// BARE-SAME: compile with clang -fplugin=TapestryPlugin-19.so, whose front-end part tells Tapestry what each struct copy moves
// CHECK-NOT: FAIL
// CHECK: ALL PASSED
#include "Inputs/check.h"
#include <map>

extern "C" int enzyme_dup, enzyme_const;
extern "C" void __enzyme_autodiff(void *, ...);
extern "C" double __enzyme_fwddiff(void *, ...);
struct aug_t {
  void *tape;
  double value;
};
extern "C" aug_t __enzyme_augmentfwd(void *, ...);
extern "C" void __enzyme_reverse(void *, ...);

struct Coefficients {
  std::map<int, double> linear, cubic;
};

class Settings {
public:
  explicit Settings(double scale) { values[0] = scale; }
  double scale() const { return values.at(0); }

private:
  std::map<int, double> values;
};

static double evaluate(Coefficients k, const double *c, int n,
                       Settings settings) {
  double f = 0;
  for (int i = 0; i < n; ++i)
    f += k.linear[i] * c[i] + k.cubic[i] * c[i] * c[i];
  return f * settings.scale();
}

double objective(const double *c, int n) {
  Coefficients k;
  std::map<int, double> halves;
  for (int i = 0; i < n; ++i) {
    k.linear[i] = 1.0 + i;
    halves[i] = 0.5 * c[i];
  }
  k.cubic = halves; // copy assignment
  Settings s(1.5);
  return evaluate(k, c, n, s); // copies of both
}

int main() {
  enum { N = 6 };
  double c[N], dc[N] = {0}, sc[N] = {0}, v[N];
  for (int i = 0; i < N; ++i) {
    c[i] = 0.4 + 0.3 * i;
    v[i] = 0.5 - 0.1 * i;
  }
  __enzyme_autodiff((void *)objective, enzyme_dup, c, dc, enzyme_const, N);
  double tangent = __enzyme_fwddiff((void *)objective, enzyme_dup, c, v,
                                    enzyme_const, N);
  aug_t a = __enzyme_augmentfwd((void *)objective, enzyme_dup, c, sc,
                                enzyme_const, N);
  __enzyme_reverse((void *)objective, enzyme_dup, c, sc, enzyme_const, N, 1.0,
                   a.tape);
  double f = 0, dot = 0;
  for (int i = 0; i < N; ++i) {
    f += ((1.0 + i) * c[i] + 0.5 * c[i] * c[i] * c[i]) * 1.5;
    double want = (1.0 + i + 1.5 * c[i] * c[i]) * 1.5;
    check_close("reverse", dc[i], want, 1e-12);
    check_close("split", sc[i], want, 1e-12);
    dot += want * v[i];
  }
  check_close("forward", tangent, dot, 1e-12);
  check_close("split primal", a.value, f, 1e-12);
  return check_report();
}
