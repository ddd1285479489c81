// The C++ split-mode layer rejects at compile time what it can know is
// wrong: calling a one-shot pullback (a thunk not made with
// tapestry::Reusable) as an lvalue, i.e. possibly more than once, storing it
// in a std::function (which copies and calls repeatedly), a wrong
// annotation, a wrong number of annotations; the plugin rejects a
// tapestry::Reusable demand it cannot meet, with the reason.
// RUN: not %clangxx -std=c++17 -fsyntax-only %s -DCALL_TWICE 2>&1 | FileCheck %s --check-prefix=TWICE
// RUN: not %clangxx -std=c++17 -fsyntax-only %s -DSTD_FUNCTION 2>&1 | FileCheck %s --check-prefix=FUNC
// RUN: not %clangxx -std=c++17 -fsyntax-only %s -DBAD_ANNOTATION 2>&1 | FileCheck %s --check-prefix=ANNOT
// RUN: not %clangxx -std=c++17 -fsyntax-only %s -DARITY 2>&1 | FileCheck %s --check-prefix=ARITY
// RUN: not %clangxx -std=c++17 -fsyntax-only %s -DSTRUCT_ACTIVE 2>&1 | FileCheck %s --check-prefix=STRUCT
// RUN: not %clangxx -std=c++17 -O0 -g -c %s -o /dev/null -DREUSABLE 2>&1 | FileCheck %s --check-prefix=REUSE
// RUN: not %clangxx -std=c++17 -O2 -g -c %s -o /dev/null -DREUSABLE 2>&1 | FileCheck %s --check-prefix=REUSE
// CHECK-NOT: PLEASE submit a bug report
#include <tapestry/tapestry.hpp>

#include <cstdlib>
#include <functional>

double sq(const double *x, double a) { return a * x[0] * x[0]; }
struct P3 {
  double a, b, c;
};
double f3(P3 p, double t) { return p.a * (p.b * t + p.c); }
// REUSE: cxx-pullback-one-shot.cpp:[[@LINE+1]]:6: error: tapestry: cannot give 'scratch(double const*, double*, int)' a reusable tape (tapestry_reusable_tape): its reverse sweep frees the shadow of {{the variable 't' \(line [0-9]+\)|the result of 'realloc' \(line [0-9]+\)}}, which realloc grows inside a loop
void scratch(const double *x, double *y, int n) {
  double *t = nullptr; // grown by realloc in the loop: not the tape's
  for (int i = 0; i < n; i++) {
    t = static_cast<double *>(std::realloc(t, (i + 1) * sizeof(double)));
    t[i] = x[i] * x[i];
    y[i] = t[i] * x[i];
  }
  std::free(t);
}

double use(double x, double dx) {
  auto t = tapestry::thunk<sq, tapestry::Duplicated<const double *>, tapestry::Active<double>>();
  (void)t;
#if defined(CALL_TWICE)
  auto [y, pb] = t.pullback(&x, &dx, 2.0);
  // TWICE: error: static assertion failed due to requirement {{.*}}: tapestry: this pullback is one-shot (its tape is not known at compile time to be reusable): call it once, as std::move(pb)(seed); to call it repeatedly, request the thunk with tapestry::Reusable, or convert it with std::move(pb).share() (checked at run time)
  // TWICE: cxx-pullback-one-shot.cpp:[[@LINE+1]]:{{[0-9]+}}: note: in instantiation of member function {{.*}}PullbackImpl{{.*}}::operator()' requested here
  auto [a1] = pb(1.0);
  auto [a2] = pb(2.0);
  return y + a1 + a2;
#elif defined(STD_FUNCTION)
  auto [y, pb] = t.pullback(&x, &dx, 2.0);
  // FUNC: error: static assertion failed due to requirement {{.*}}: tapestry: this pullback is one-shot
  std::function<std::tuple<double>(double)> f = std::move(pb);
  return y + std::get<0>(f(1.0)) + std::get<0>(f(2.0));
#elif defined(BAD_ANNOTATION)
  // ANNOT: error: static assertion failed due to requirement {{.*}}: Active(x) needs a floating-point parameter taken by value; for a reference or pointer parameter pass Duplicated(x, dx)
  // ANNOT: cxx-pullback-one-shot.cpp:[[@LINE+1]]:{{[0-9]+}}: note: in instantiation of function template specialization 'tapestry::thunk<
  auto u = tapestry::thunk<sq, tapestry::Active<const double *>, tapestry::Active<double>>();
  return 0;
#elif defined(ARITY)
  // ARITY: error: static assertion failed due to requirement {{.*}}: tapestry::thunk needs one annotation per parameter of the function
  auto u = tapestry::thunk<sq, tapestry::Active<double>>();
  return 0;
#elif defined(STRUCT_ACTIVE)
  // STRUCT: error: static assertion failed due to requirement {{.*}}: tapestry::thunk: Active<S> for a struct S taken by value is not supported in split mode (the thunk's reverse cannot return the struct's adjoint); take the parameter as const S & and annotate it Duplicated<const S &>
  auto th = tapestry::thunk<f3, tapestry::Active<P3>, tapestry::Active<double>>();
  (void)th;
  return 0;
#elif defined(REUSABLE)
  double y[1], dy[1] = {1};
  auto u = tapestry::thunk<scratch, tapestry::Reusable, tapestry::Duplicated<const double *>,
                           tapestry::Duplicated<double *>, tapestry::Const<int>>();
  auto [pb] = u.pullback(&x, &dx, y, dy, 1);
  pb();
  pb();
  return dx;
#endif
}
