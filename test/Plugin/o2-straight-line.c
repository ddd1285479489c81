// At -O2 the gradient of f(x, y) = sin(x y) + exp(x) / y is straight-line
// code: once the derivative is inlined into its caller, @grad has one basic
// block (no br, switch or phi), no stack memory, and calls nothing but math
// functions (here, with -fno-math-errno, only LLVM intrinsics; libm's sin,
// cos and exp are allowed too). The same program with clang's default
// -fmath-errno is o2-straight-line-errno.c.
//
// RUN: %clang -O2 -fno-math-errno -S -emit-llvm -o %t.ll %s
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

// One block: nothing between the signature and the return branches, joins
// or touches the stack.
// CHECK-LABEL: define {{.*}}{ double, double } @grad(
// CHECK-NOT:   {{^ *}}br{{ }}
// CHECK-NOT:   {{^ *}}switch{{ }}
// CHECK-NOT:   {{^ *}}indirectbr{{ }}
// CHECK-NOT:   = phi{{ }}
// CHECK-NOT:   = alloca{{ }}
// CHECK-NOT:   {{^[^ ;].*:}}
// CHECK:       ret { double, double }
// CHECK-NEXT:  {{^}}}

// The derivative's math: cos(x y) for sin's partial, exp(x) for exp's.
// MATH-LABEL: define {{.*}}{ double, double } @grad(
// MATH-DAG:   [[XY:%.*]] = fmul double %0, %1
// MATH-DAG:   call double @llvm.cos.f64(double [[XY]])
// MATH-DAG:   call double @llvm.exp.f64(double %0)
// MATH:       ret { double, double }

// With the math calls removed, no call is left.
// NOCALL:     define {{.*}} @grad(
// NOCALL-NOT: call
// NOCALL-NOT: invoke
// NOCALL:     ret { double, double }
