// A libstdc++ function with no body that active data flows through (the
// node linking of std::list, compiled into libstdc++.so) is named in the
// error, at the user's line whose inlined library code calls it (not at
// the line of stl_list.h that does), with registrations the user can
// paste (a valid identifier after __enzyme_register_gradient_). (std::map's
// tree walk, which this test used before, is now differentiated:
// Integration/cpp-stdlib-io-maps.cpp.)
// RUN: not %clangxx -g -O0 -c %s -o /dev/null 2>&1 | FileCheck %s
// RUN: not %clangxx -g -O2 -c %s -o /dev/null 2>&1 | FileCheck %s
// CHECK: cxx-stdlib-no-body.cpp:21:7: error: tapestry: cannot differentiate 'sum_of_sines(double)': no derivative is known for external function 'std::__detail::_List_node_base::_M_hook(std::__detail::_List_node_base*)': give its body, register one with 'void *__enzyme_register_gradient_std____detail___List_node_base___M_hook[3] = {(void*)std::__detail::_List_node_base::_M_hook, (void*)aug, (void*)rev};'
// CHECK: 1 error generated.
// CHECK-NOT: PLEASE submit a bug report
#include <enzyme/enzyme>

#include <cmath>
#include <list>

double sum_of_sines(double x) {
  std::list<double> l;
  for (int i = 0; i < 4; ++i)
    l.push_back(x * i);
  double s = 0;
  for (double v : l)
    s += std::sin(v);
  return s;
}

double gradient(double x) {
  return enzyme::get<0>(
      enzyme::get<0>(enzyme::autodiff<enzyme::Reverse>(sum_of_sines, enzyme::Active(x))));
}
