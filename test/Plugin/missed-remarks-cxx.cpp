#include <cmath>
#include <enzyme/enzyme>
#include <vector>
namespace phys {
double energy(const std::vector<double> &x) {
  double e = 0;
  for (size_t i = 0; i < x.size(); ++i)
    e += std::exp(x[i]) * x[i];
  return e;
}
} // namespace phys
void grad(const std::vector<double> &x, std::vector<double> &dx) {
  enzyme::autodiff<enzyme::Reverse>(
      phys::energy, enzyme::Duplicated<const std::vector<double> &>(x, dx));
}

// The checks are at the end of the file, so that the line numbers they name
// are easy to read off the program above them.
//
// Remarks about C++ code speak C++: demangled names, and the user's lines
// for code inlined from libstdc++ (std::vector's operator[] is on a line
// of stl_vector.h; the remarks name line 8, where the program indexes).
// RUN: %clangxx -O2 -g -Rpass=tapestry -Rpass-missed=tapestry -Rpass-analysis=tapestry -c %s -o /dev/null 2>&1 | FileCheck %s
// RUN: %clangxx -O0 -g -Rpass=tapestry -Rpass-missed=tapestry -Rpass-analysis=tapestry -c %s -o /dev/null 2>&1 | FileCheck %s
// RUN: %clangxx -O2 -g -Rpass=tapestry -Rpass-missed=tapestry -Rpass-analysis=tapestry -c %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=HEADER
// RUN: %clangxx -O0 -g -Rpass=tapestry -Rpass-missed=tapestry -Rpass-analysis=tapestry -c %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=HEADER
// CHECK-DAG: missed-remarks-cxx.cpp:8:19: remark: 'std::vector<double, std::allocator<double>>::operator[](unsigned long) const' is inlined into the derivative of 'phys::energy(std::vector<double, std::allocator<double>> const&)' (differentiated with it, no tape of its own) [-Rpass-analysis=tapestry]
// CHECK-DAG: missed-remarks-cxx.cpp:8:10: remark: reverse sweep of 'phys::energy(std::vector<double, std::allocator<double>> const&)' caches the result of 'exp' (line 8), 8 bytes per iteration of the loop at line 7, instead of recomputing it: results of calls other than sqrt, fma, fabs, copysign, fmin and fmax are not recomputed (a call may be costly or have effects) [-Rpass-missed=tapestry]
// CHECK-DAG: remark: reverse sweep of 'phys::energy(std::vector<double, std::allocator<double>> const&)' caches 3 value(s), 24 bytes per iteration of this loop: the result of 'exp' (line 8); a pointer read from memory (line 8); a pointer that changes from one iteration or branch to the next (line 8); [-Rpass=tapestry]
// HEADER-NOT: stl_vector.h
// (Each line of the output is checked: no header file, no line number of
// three digits, no mangled name.)
// HEADER-NOT: {{line [0-9][0-9][0-9]}}
// HEADER-NOT: _ZN
