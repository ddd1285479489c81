// A copy of the caller's memory that nothing in the function reads or
// writes with a type: the reverse sweep cannot tell whether the bytes hold
// doubles (whose adjoints must move), pointers or integers (which must
// never be added), so it is a clear error at the copy, not a guess.
// RUN: not %clang -O0 -g -c %s -o /dev/null 2>&1 | FileCheck %s
// RUN: not %clang -O2 -g -c %s -o /dev/null 2>&1 | FileCheck %s
// CHECK-NOT: PLEASE submit a bug report
// CHECK-NOT: Stack dump
#include <string.h>
extern int enzyme_dup;
void __enzyme_autodiff(void *, ...);
void move_bytes(void *dst, const void *src, int n) {
  // CHECK: untyped-copy-unknown.c:[[@LINE+1]]:3: error: tapestry: cannot differentiate 'move_bytes': cannot tell what the memory this instruction copies holds (float, double, integers or pointers): nothing in the function or its callees reads or writes it with a type; access it with its type in the function, or copy it field by field
  memcpy(dst, src, n);
}
void g(void *d, void *dd, void *s, void *ds, int n) {
  __enzyme_autodiff((void *)move_bytes, enzyme_dup, d, dd, enzyme_dup, s, ds,
                    n);
}
// CHECK: 1 error generated.
// CHECK-NOT: PLEASE submit a bug report
// CHECK-NOT: Stack dump
