// Arrays of structs mixing float, double and int members, read by the
// vectoriser with one wide load per group of structs whose lanes are picked
// out by shuffles: the int member through a bitcast of the float vector to
// integers (<24 x float> to <24 x i32>), a double member through lane-wise
// arithmetic before the shuffle. Both were refused in the opt flow from
// -O3 -ffast-math AVX2 IR ("a vector of 24 float is reinterpreted as a
// vector of 24 int", "cannot tell what the memory this instruction copies
// holds"; review25 8 and 10). Every member's derivative against the
// analytic one, and the int members' shadow bytes left as they were.
// RUN: %plain_cxx -O3 -ffast-math -march=x86-64-v3 -S -emit-llvm %s -o - | %any_x86_cpu > %t.ll
// RUN: %opt -passes=tapestry %t.ll -o %t.bc
// RUN: %plain_cxx -O2 %t.bc -lm -o %t && %t | FileCheck %s
// RUN: %opt -passes='tapestry,default<O3>' %t.ll -o %t3.bc
// RUN: %plain_cxx -O2 %t3.bc -lm -o %t3 && %t3 | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: ALL PASSED
#include "../Integration/Inputs/check.h"
#include <cmath>
#include <cstdio>
#include <cstring>

extern int enzyme_dup, enzyme_const;
extern "C" void __enzyme_autodiff(void *, ...);

struct S1 {
  float f;
  double d;
  int k;
  float g;
};

// s = sum f d + g k + sin d over a local copy of the array.
double members(S1 *a, int n) {
  S1 tmp[8];
  std::memcpy(tmp, a, sizeof(S1) * n);
  double s = 0;
  for (int i = 0; i < n; i++) {
    S1 b = tmp[i];
    s += b.f * b.d + b.g * b.k + std::sin(b.d);
  }
  return s;
}

union U {
  double d[2];
  struct {
    int i;
    float f;
    double g;
  } s;
};

// s = sum f g i over a local copy of the unions.
double unions(U *u, int n) {
  U tmp[4];
  std::memcpy(tmp, u, sizeof(U) * n);
  double s = 0;
  for (int k = 0; k < n; k++)
    s += tmp[k].s.f * tmp[k].s.g * tmp[k].s.i;
  return s;
}

int main() {
  char label[64];
  {
    const int n = 8;
    S1 a[n], da[n];
    std::memset(da, 0, sizeof da);
    for (int i = 0; i < n; i++)
      a[i] = S1{0.5f + i, 1.0 + 0.3 * i, i + 1, 0.25f * i};
    __enzyme_autodiff((void *)members, enzyme_dup, a, da, enzyme_const, n);
    for (int i = 0; i < n; i++) {
      std::snprintf(label, sizeof label, "members [%d] d/df", i);
      check_close(label, da[i].f, a[i].d, 1e-6);
      std::snprintf(label, sizeof label, "members [%d] d/dd", i);
      check_close(label, da[i].d, a[i].f + std::cos(a[i].d), 1e-6);
      std::snprintf(label, sizeof label, "members [%d] d/dg", i);
      check_close(label, da[i].g, a[i].k, 1e-6);
      std::snprintf(label, sizeof label, "members [%d] int shadow", i);
      check_close(label, da[i].k, 0, 0);
    }
  }
  {
    const int n = 4;
    U a[n], da[n];
    std::memset(a, 0, sizeof a);
    std::memset(da, 0, sizeof da);
    for (int k = 0; k < n; k++) {
      a[k].s.i = k + 1;
      a[k].s.f = 0.5f * (k + 1);
      a[k].s.g = 1.0 + k;
    }
    __enzyme_autodiff((void *)unions, enzyme_dup, a, da, enzyme_const, n);
    for (int k = 0; k < n; k++) {
      std::snprintf(label, sizeof label, "unions [%d] d/df", k);
      check_close(label, da[k].s.f, a[k].s.i * a[k].s.g, 1e-6);
      std::snprintf(label, sizeof label, "unions [%d] d/dg", k);
      check_close(label, da[k].s.g, a[k].s.i * (double)a[k].s.f, 1e-12);
      std::snprintf(label, sizeof label, "unions [%d] int shadow", k);
      check_close(label, da[k].s.i, 0, 0);
    }
  }
  return check_report();
}
