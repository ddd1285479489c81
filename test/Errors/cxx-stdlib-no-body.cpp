// A libstdc++ function with no body that active data flows through (the
// red-black tree walk of std::map, compiled into libstdc++.so) is named in
// the error, at the header line that calls it, with registrations the user
// can paste (a valid identifier after __enzyme_register_gradient_).
// RUN: not %clangxx -g -O0 -c %s -o /dev/null 2>&1 | FileCheck %s
// RUN: not %clangxx -g -O2 -c %s -o /dev/null 2>&1 | FileCheck %s
// CHECK: stl_tree.h:{{[0-9]+}}:{{[0-9]+}}: error: tapestry: cannot differentiate 'sum_of_sines(double)': no derivative is known for external function 'std::_Rb_tree_increment(std::_Rb_tree_node_base*)': give its body, register one with 'void *__enzyme_register_gradient_std___Rb_tree_increment[3] = {(void*)std::_Rb_tree_increment, (void*)aug, (void*)rev};'
// CHECK-NOT: PLEASE submit a bug report
#include <enzyme/enzyme>

#include <cmath>
#include <map>

double sum_of_sines(double x) {
  std::map<int, double> m;
  for (int i = 0; i < 4; ++i)
    m[i] = x * i;
  double s = 0;
  for (auto &kv : m)
    s += std::sin(kv.second);
  return s;
}

double gradient(double x) {
  return enzyme::get<0>(
      enzyme::get<0>(enzyme::autodiff<enzyme::Reverse>(sum_of_sines, enzyme::Active(x))));
}
