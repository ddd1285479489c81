// Records packed by hand into a byte buffer (an int tag, then a double at
// offset 4), at offsets computed by a function in another file: the type
// analysis sees ints at the copied bytes and a double somewhere it cannot
// place, so the bytes may be the double. Taken for ints, the gradient was
// silently 0 (probe 37); now a clear error at the copy. The function's
// address escapes, so no caller tells the types either.
// RUN: not %clang -O0 -g -c %s -o /dev/null 2>&1 | FileCheck %s
// RUN: not %clang -O2 -g -c %s -o /dev/null 2>&1 | FileCheck %s
// CHECK-NOT: PLEASE submit a bug report
// CHECK-NOT: Stack dump
#include <stdlib.h>
#include <string.h>
extern int enzyme_dup, enzyme_const;
void __enzyme_autodiff(void *, ...);
size_t record_words(int i); // 3 * i, in another file

double f(const double *x, int n) {
  unsigned char *bytes = malloc(n * 12);
  for (int i = 0; i < n; i++) {
    size_t off = record_words(i) * 4;
    int tag = 7;
    memcpy(bytes + off, &tag, 4);
    // CHECK: byte-records-offsets-unseen.c:[[@LINE+1]]:5: error: tapestry: cannot differentiate 'f': cannot tell what the memory this instruction copies holds: integers are stored at these bytes, and floating-point values elsewhere in the same memory at offsets Tapestry cannot place (records whose size it cannot see, such as fields packed by hand into a byte buffer at offsets computed by a call); compute the offsets in the function as index * record size, or keep the records in a struct array
    memcpy(bytes + off + 4, &x[i], 8);
  }
  double s = 0;
  for (int i = 0; i < n; i++) {
    double v;
    memcpy(&v, bytes + record_words(i) * 4 + 4, 8);
    s += v * v;
  }
  free(bytes);
  return s;
}
void *keep(void) { return (void *)f; }
void gradient(const double *x, double *dx, int n) {
  __enzyme_autodiff((void *)f, enzyme_dup, x, dx, enzyme_const, n);
}
// CHECK: 1 error generated.
