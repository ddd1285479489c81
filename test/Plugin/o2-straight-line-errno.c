// Under clang's default -fmath-errno, the derivative drops the primal
// sin(x y), whose result (and errno) it does not need, with the dead code
// that fed it; so at -O2 LibCallsShrinkWrap has no call to guard and the
// gradient stays straight-line code calling only math functions.
//
// RUN: %clang -O2 -S -emit-llvm -o %t.ll %s
// RUN: FileCheck %s --input-file=%t.ll
// RUN: FileCheck %s --input-file=%t.ll --check-prefix=MATH
// RUN: sed -n '/^define.*@grad(/,/^}/p' %t.ll \
// RUN:   | sed -E '/ call [^@]*@(sin|cos|exp|llvm\.[a-z0-9.]+)\(/d' \
// RUN:   | FileCheck %s --check-prefix=NOCALL

#include <math.h>

extern int enzyme_out;
typedef struct {
  double dx, dy;
} Gradient;
Gradient __enzyme_autodiff(void *, ...);

double f(double x, double y) { return sin(x * y) + exp(x) / y; }

Gradient grad(double x, double y) {
  return __enzyme_autodiff((void *)f, enzyme_out, x, enzyme_out, y);
}

// CHECK-LABEL: define {{.*}}{ double, double } @grad(
// CHECK-NOT:   {{^ *}}br{{ }}
// CHECK-NOT:   {{^ *}}switch{{ }}
// CHECK-NOT:   {{^ *}}indirectbr{{ }}
// CHECK-NOT:   = phi{{ }}
// CHECK-NOT:   = alloca{{ }}
// CHECK-NOT:   {{^[^ ;].*:}}
// CHECK:       ret { double, double }
// CHECK-NEXT:  {{^}}}

// MATH-LABEL: define {{.*}}{ double, double } @grad(
// MATH-DAG:   [[XY:%.*]] = fmul double %0, %1
// MATH-DAG:   call double @llvm.cos.f64(double [[XY]])
// MATH-DAG:   call double {{@exp|@llvm.exp.f64}}(double {{(noundef )?}}%0)
// MATH:       ret { double, double }

// NOCALL:     define {{.*}} @grad(
// NOCALL-NOT: call
// NOCALL-NOT: invoke
// NOCALL:     ret { double, double }
