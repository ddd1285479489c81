// libstdc++ I/O is inactive, as in Enzyme: a differentiated function that
// prints (std::cout, std::wcout, std::cerr) or reads (std::cin, std::ifstream,
// std::getline, std::istringstream) compiles and has the derivative of its
// arithmetic. A number read INTO differentiated memory (std::cin >> y with y
// active) is a new value with derivative zero: what was in y before no longer
// matters. Lookups in std::map / std::unordered_map with inactive keys return
// active values (references into the nodes, whose shadows mirror the
// primal tree). Analytic derivatives, reverse and forward, at -O0..-O3
// (the maps at -O0 are in cpp-stdlib-maps-O0.cpp, XFAIL).
// RUN: printf 'abcd\n3\n' > %t.txt
// RUN: %clangxx -O0 -DNO_MAPS %s -o %t0 && echo 4.5 | %t0 %t.txt | FileCheck %s
// RUN: %clangxx -O1 %s -o %t1 && echo 4.5 | %t1 %t.txt | FileCheck %s
// RUN: %clangxx -O2 %s -o %t2 && echo 4.5 | %t2 %t.txt | FileCheck %s
// RUN: %clangxx -O3 %s -o %t3 && echo 4.5 | %t3 %t.txt | FileCheck %s
// CHECK: x = 1.3
// CHECK-NOT: FAIL
// CHECK: ALL PASSED
#include "Inputs/check.h"
#include <cmath>
#include <fstream>
#include <iostream>
#include <map>
#include <sstream>
#include <string>
#include <unordered_map>

extern int enzyme_dup, enzyme_const, enzyme_out;
extern "C" double __enzyme_autodiff(void *, ...);
extern "C" double __enzyme_fwddiff(void *, ...);

static const char *path;

__attribute__((noinline)) double prints(double x) {
  static bool once = false;
  if (!once)
    std::cout << "x = " << x << std::endl;
  once = true;
  std::wcout << L"";
  std::cerr << "err " << x * 2 << '\n';
  return x * x;
}

/* scale = length of the file's first line (4), k = the next number (3) */
__attribute__((noinline)) double reads(double x) {
  std::ifstream in(path);
  std::string line;
  double scale = 1.0;
  if (std::getline(in, line))
    scale = line.size();
  int k = 0;
  in >> k;
  return x * x * scale + k * x;
}

/* y = x^2, then overwritten by 2.5: derivative of y * x is 2.5 */
__attribute__((noinline)) double read_string(double x) {
  double y = x * x;
  std::istringstream is("2.5");
  is >> y;
  return y * x;
}

/* y read from std::cin (4.5, from the RUN line): d(y x + x)/dx = 4.5 + 1 */
__attribute__((noinline)) double read_cin(double x) {
  double y = x * x;
  static double first = 0;
  if (first == 0)
    std::cin >> first;
  std::istringstream is(std::to_string(first));
  is >> y;
  return y * x + x;
}

#ifndef NO_MAPS
/* m[1] = x, m[2] = x^2 + 3x: x^3 + 3x^2 */
__attribute__((noinline)) double map_at(double x) {
  std::map<int, double> m;
  m[1] = x;
  m[2] = x * x;
  m.at(2) += 3 * x;
  for (int k = 3; k < 10; k++)
    m[k] = k; // rebalancing, inactive values
  return m.at(1) * m[2] + m.find(5)->second;
}

/* iteration in key order: sum_i sin(i x) */
__attribute__((noinline)) double sum_of_sines(double x) {
  std::map<int, double> m;
  for (int i = 3; i >= 0; --i)
    m[i] = x * i;
  double s = 0;
  for (auto &kv : m)
    s += std::sin(kv.second);
  for (auto it = m.rbegin(); it != m.rend(); ++it) // decrement
    s += it->second * it->first;
  return s;
}

/* x sin(x) */
__attribute__((noinline)) double umap(double x) {
  std::unordered_map<std::string, double> m;
  m["a"] = x;
  m["b"] = std::sin(x);
  return m.at("a") * m["b"];
}

/* a map from outside: the values' derivatives are its shadow's values */
__attribute__((noinline)) double map_arg(std::map<int, double> *m) {
  return m->at(2) * (*m)[7];
}
#endif

int main(int argc, char **argv) {
  path = argc > 1 ? argv[1] : "/dev/null";
  double x = 1.3;
#define CASE(f, want)                                                          \
  check_close(#f ": reverse", __enzyme_autodiff((void *)f, x), want, 1e-12);   \
  check_close(#f ": forward", __enzyme_fwddiff((void *)f, x, 1.0), want, 1e-12)
  CASE(prints, 2 * x);
  CASE(reads, 2 * x * 4 + 3);
  CASE(read_string, 2.5);
  CASE(read_cin, 4.5 + 1);
#ifndef NO_MAPS
  CASE(map_at, 3 * x * x + 6 * x);
  CASE(umap, std::sin(x) + x * std::cos(x));
  CASE(sum_of_sines,
       std::cos(x) + 2 * std::cos(2 * x) + 3 * std::cos(3 * x) + 1 + 4 + 9);
  std::map<int, double> m, dm;
  for (int k = 0; k < 10; k++) {
    m[k] = 0.5 * k;
    dm[k] = 0;
  }
  __enzyme_autodiff((void *)map_arg, enzyme_dup, &m, &dm);
  check_close("map_arg: d/dm[2]", dm[2], m[7], 0);
  check_close("map_arg: d/dm[7]", dm[7], m[2], 0);
  check_close("map_arg: d/dm[3]", dm[3], 0, 0);
#endif
  return check_report();
}
