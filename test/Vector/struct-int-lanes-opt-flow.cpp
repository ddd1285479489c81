// An array of structs mixing float, double and int members, read by the
// vectoriser with one wide load per group of structs whose lanes are picked
// out by shuffles: the int member through a bitcast of the float vector to
// integers (<24 x float> to <24 x i32>). It was refused in the opt flow
// from -O3 -ffast-math AVX2 IR ("a vector of 24 float is reinterpreted as a
// vector of 24 int"; review25 8). Every member's derivative against the
// analytic one, and the int member's shadow bytes left as they were. The
// lanes count as integers only where the struct's type says so: a float
// member read through the same bitcast (the fast inverse square root's bit
// trick) is still refused (review26b W1: a silent 0 in a first version),
// and so is a union read as ints (review25 10: the union's IR type is its
// double array).
// RUN: %plain_cxx -DBIT_TRICK -O3 -ffast-math -march=x86-64-v3 -S -emit-llvm %s -o - | %any_x86_cpu > %t.trick.ll
// RUN: not %opt -passes=tapestry %t.trick.ll -o /dev/null 2>&1 | FileCheck %s --check-prefix=TRICK
// TRICK: tapestry: cannot differentiate 'members(S1*, int)': a vector of 24 float is reinterpreted as a vector of 24 int here
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

#ifdef BIT_TRICK
struct S1 {
  float f;
  double d;
  float k;
  float g;
};
static float trick(float x) {
  unsigned u;
  std::memcpy(&u, &x, 4);
  u = 0x5f3759dfu - (u >> 1);
  std::memcpy(&x, &u, 4);
  return x;
}
#else
struct S1 {
  float f;
  double d;
  int k;
  float g;
};
static int trick(int k) { return k; }
#endif

// s = sum f d + g k + sin d over a local copy of the array.
double members(S1 *a, int n) {
  S1 tmp[8];
  std::memcpy(tmp, a, sizeof(S1) * n);
  double s = 0;
  for (int i = 0; i < n; i++) {
    S1 b = tmp[i];
    s += b.f * b.d + b.g * trick(b.k) + std::sin(b.d);
  }
  return s;
}

int main() {
  char label[64];
  {
    const int n = 8;
    S1 a[n], da[n];
    std::memset(da, 0, sizeof da);
    for (int i = 0; i < n; i++)
      a[i] = S1{0.5f + i, 1.0 + 0.3 * i, decltype(S1::k)(i + 1), 0.25f * i};
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
  return check_report();
}
