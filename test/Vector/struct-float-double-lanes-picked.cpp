// A std::vector of {float weight; double x, y; bool valid} filtered by
// push_back, then weighted sums, vectorised for AVX2 with -ffast-math (the
// opt flow): the loop loads 64 bytes (two structs) as one <16 x float> to
// pick the two weights (lanes 0 and 8), and reads the doubles out of it
// through integers. That was refused as "a vector of 16 float is
// reinterpreted as a 512-bit integer" and, with AVX2, as "the memory this
// instruction copies is accessed both as float and as double" (probe24a
// R3): the doubles are loaded again from their own bytes, and a vector
// load whose lanes are only picked says what the picked lanes hold, not
// the others. Without -march (SSE2), the reloaded <2 x double> of a
// struct's x is shuffled to lane 1 with a poison lane 0, which Tapestry's
// preparation filled with lane 0 (the float weight's bytes, read as a
// double): now with a lane of the zero vector. Expected: f = sum w x y / sum w over the kept samples;
// df/dx_i = w_i y_i / W, df/dy_i = w_i x_i / W, df/dw_i = (x_i y_i - f) / W.
// RUN: %plain_cxx -O3 -ffast-math -march=x86-64-v3 -S -emit-llvm %s -o - | %any_x86_cpu > %t.ll
// RUN: %opt -passes=tapestry %t.ll -o %t.bc
// RUN: %plain_cxx -O2 %t.bc -o %t && %t | FileCheck %s
// RUN: %clangxx -O3 -ffast-math %s -o %t2 && %t2 | FileCheck %s
// RUN: %plain_cxx -O2 -ffast-math -S -emit-llvm %s -o %t3.ll
// RUN: %opt -passes=tapestry %t3.ll -o %t3.bc
// RUN: %plain_cxx -O2 %t3.bc -o %t3 && %t3 | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: ALL PASSED
#include "../Integration/Inputs/check.h"
#include <vector>

extern "C" {
extern int enzyme_dup;
void __enzyme_autodiff(void *, ...);
}

struct Sample {
  float weight;
  double x, y;
  bool valid;
};

double wsum(const std::vector<Sample> &in) {
  std::vector<Sample> kept;
  for (const auto &s : in)
    if (s.valid)
      kept.push_back(s);
  double sw = 0, sxy = 0;
  for (const Sample &s : kept) {
    double w = s.weight;
    sw += w;
    sxy += w * s.x * s.y;
  }
  return sxy / sw;
}

int main() {
  std::vector<Sample> v;
  for (int i = 0; i < 12; i++)
    v.push_back({float(1 + 0.1 * i), 0.3 * i, 1.5 * i - 2, i % 4 != 2});
  std::vector<Sample> dv(v.size());
  for (size_t i = 0; i < v.size(); i++)
    dv[i] = {0.0f, 0.0, 0.0, v[i].valid};
  __enzyme_autodiff((void *)wsum, enzyme_dup, &v, &dv);
  double W = 0, S = 0;
  for (auto &s : v)
    if (s.valid) {
      W += s.weight;
      S += s.weight * s.x * s.y;
    }
  double f = S / W;
  char what[40];
  for (size_t i = 0; i < v.size(); i++) {
    double w = v[i].valid ? v[i].weight : 0;
    snprintf(what, sizeof what, "d/dx[%zu]", i);
    check_close(what, dv[i].x, w * v[i].y / W, 1e-12);
    snprintf(what, sizeof what, "d/dy[%zu]", i);
    check_close(what, dv[i].y, w * v[i].x / W, 1e-12);
    snprintf(what, sizeof what, "d/dweight[%zu]", i);
    check_close(what, dv[i].weight,
                v[i].valid ? (v[i].x * v[i].y - f) / W : 0, 1e-5);
  }
  return check_report();
}
