// A static local std::vector workspace (reused across calls, common in
// legacy code) written with active values: the buffer the global points to
// has no shadow. The error names the variable as the source spells it and
// says to make it local or pass it in. (A static local array of doubles
// gets a shadow: Integration/global-shadows.c.) Reported once, at the
// user's code, not at std::vector's header nor once per shadow.
// RUN: not %clangxx -g -O2 -c %s -o /dev/null -DVECTOR 2>&1 | FileCheck %s --check-prefix=VECTOR
// RUN: not %clangxx -g -O1 -c %s -o /dev/null -DVECTOR 2>&1 | FileCheck %s --check-prefix=VECTOR
// RUN: not %clangxx -g -O0 -c %s -o /dev/null -DVECTOR 2>&1 | FileCheck %s --check-prefix=VECTOR-O0
// CHECK-NOT: PLEASE submit a bug report
#include <enzyme/enzyme>

#include <cmath>
#include <vector>

#ifdef VECTOR
// VECTOR: cxx-static-workspace.cpp:[[@LINE+5]]:{{[0-9]+}}: error: tapestry: cannot differentiate 'smooth_norm(double const*, int)': memory reached through the global 'smooth_norm(double const*, int)::work' is written with or mixed with differentiable data but has no shadow; make it a local variable, or pass it through an enzyme_dup argument
double smooth_norm(const double *x, int n) {
  static std::vector<double> work;
  if ((int)work.size() < n)
    work.resize(n);
  for (int i = 0; i < n; ++i)
    work[i] = x[i] * x[i] + 0.01;
  // VECTOR-O0: cxx-static-workspace.cpp:[[@LINE-1]]:13: error: tapestry: cannot differentiate 'smooth_norm(double const*, int)': an active value is stored to memory that has no shadow (the value of the non-constant global 'smooth_norm(double const*, int)::work'); pass that memory through an enzyme_dup argument
  double s = 0;
  for (int i = 0; i < n; ++i)
    s += std::sqrt(work[i]);
  return s;
}
void grad(const double *x, double *dx, int n) {
  enzyme::autodiff<enzyme::Reverse>(smooth_norm, enzyme::Duplicated<const double *>(x, dx),
                                    enzyme::Const(n));
}
#endif
// VECTOR: 1 error generated.
// VECTOR-O0: 1 error generated.
