// Messages about a member function split through tapestry::thunk name the
// member function and its object as the user wrote them, not the C++ API's
// invoker ('double tapestry::detail::invoke_member<&Model::loss(double
// const*, int) const, Model const, double, double const*, int>(Model
// const*, double const*, int)') and its parameter 'self' (split21 F9;
// the invoker's parameter is now 'object', shown where debug info names
// it). The error's location is still the invoker's line in the header.
// RUN: not %clangxx -std=c++17 -O0 -g -c %s -o /dev/null 2>&1 | FileCheck %s
// RUN: not %clangxx -std=c++17 -O2 -g -c %s -o /dev/null 2>&1 | FileCheck %s
// CHECK-NOT: invoke_member
// CHECK-NOT: 'self'
// CHECK: error: tapestry: cannot give 'Model::loss(double const*, int) const' a reusable tape (tapestry_reusable_tape): the tape keeps the pointers read from the shadow of parameter 1
#include <cmath>
#include <tapestry/tapestry.hpp>
#include <vector>

struct Model {
  std::vector<double> w;
  double bias;
  double loss(const double *data, int n) const {
    double L = 0;
    for (int i = 0; i < n; i++) {
      double p = bias;
      for (size_t k = 0; k < w.size(); k++)
        p += w[k] * std::pow(data[i], double(k + 1));
      L += std::log(std::cosh(p - 1.0));
    }
    return L;
  }
};

bool reusable() {
  auto t = tapestry::thunk<&Model::loss, tapestry::Reusable,
                           tapestry::Duplicated<const Model *>,
                           tapestry::Const<const double *>,
                           tapestry::Const<int>>();
  return t.reusable();
}
