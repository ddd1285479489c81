// A libstdc++ function with no body that active data flows through
// (std::thread's start, compiled into libstdc++.so, given a lambda that
// captures active values) is named in the error, at the user's line whose
// inlined library code calls it (not at the line of std_thread.h that
// does), with registrations the user can paste (a valid identifier after
// __enzyme_register_gradient_). (std::map's tree walk and std::list's node
// linking, which this test used before, are now differentiated:
// Integration/cpp-stdlib-io-maps.cpp, Integration/cxx-list-argument.cpp.)
// RUN: not %clangxx -g -O0 -c %s -o /dev/null 2>&1 | FileCheck %s
// RUN: not %clangxx -g -O2 -c %s -o /dev/null 2>&1 | FileCheck %s
// CHECK: cxx-stdlib-no-body.cpp:21:15: error: tapestry: cannot differentiate 'two_parts(double)': no derivative is known for external function 'std::thread::_M_start_thread(std::unique_ptr<std::thread::_State, std::default_delete<std::thread::_State>>, void (*)())': give its body, register one with 'void *__enzyme_register_gradient_std__thread___M_start_thread[3] = {(void*)std::thread::_M_start_thread, (void*)aug, (void*)rev};'
// CHECK-NOT: PLEASE submit a bug report
#include <enzyme/enzyme>

#include <cmath>
#include <thread>

double two_parts(double x) {
  double part[2] = {0, 0};
  // The thread's state holds the lambda, whose captures reach x and part.
  std::thread t([&] { part[0] = std::sin(x); });
  part[1] = std::cos(x);
  t.join();
  return part[0] + part[1];
}

double gradient(double x) {
  return enzyme::get<0>(
      enzyme::get<0>(enzyme::autodiff<enzyme::Reverse>(two_parts, enzyme::Active(x))));
}
