// tools/tapestry-explain on C++: Enzyme's C++ API, a member function called
// through a const reference and a std::vector. The request is described with
// the source's names and C++ types (references, classes in namespaces), not
// IR types or mangled names; options after the file reach clang (-O1).
// RUN: env TAPESTRY_PLUGIN=%plugin %src_root/tools/tapestry-explain -I%src_root/include %s -O1 2>&1 | FileCheck %s
// CHECK: tapestry-explain: __enzyme_autodiff at {{.*}}explain-cxx.cpp
// CHECK-NEXT: function: double run(const Model &m, const std::vector<double, std::allocator<double> > &x)
// CHECK-NEXT: mode: reverse
// CHECK-NEXT: arguments:
// CHECK-NEXT: m const Model & enzyme_dup its shadow accumulates the derivative (+=)
// CHECK-NEXT: x const std::vector<double, std::allocator<double> > & enzyme_dup
// CHECK-NEXT: result: double, active
// The remarks name the function demangled, not '_Z3runRK5Model...'.
// RUN: env TAPESTRY_PLUGIN=%plugin %src_root/tools/tapestry-explain -I%src_root/include %s -O1 2>&1 | FileCheck %s --check-prefix=REMARK
// REMARK: remark: reverse sweep of 'run(Model const&, std::vector<double, std::allocator<double>> const&)' caches
// REMARK-NOT: reverse sweep of '_Z
#include <enzyme/enzyme>
#include <vector>

struct Model {
  double w;
  double loss(const std::vector<double> &x) const {
    double s = 0;
    for (double v : x)
      s += w * v * v;
    return s;
  }
};

double run(const Model &m, const std::vector<double> &x) { return m.loss(x); }

int main() {
  Model m{2}, dm{0};
  std::vector<double> x = {1, 2}, dx = {0, 0};
  enzyme::autodiff<enzyme::Reverse>(
      run, enzyme::Duplicated<const Model &>(m, dm),
      enzyme::Duplicated<const std::vector<double> &>(x, dx));
  return (int)dm.w;
}
